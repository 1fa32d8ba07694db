// Euclid's gcd on 32-bit magnitudes (signed inputs pass |x| as u32: |MIN| is 2**31)
fn gcd_(a: u32, b: u32) -> u32 {
  var x = a;
  var y = b;
  loop { if (y == 0u) { break; } let t = x % y; x = y; y = t; }
  return x;
}
