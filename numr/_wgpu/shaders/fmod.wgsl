// exact fmod (a, b finite, b != 0): subtract b scaled to r's exponent, each step exact (Sterbenz)
fn fmod_(a: T, b: T) -> T {
  if (!(abs(b) <= fmax_())) { return a; }
  if (!(abs(a) <= fmax_())) { return nan_(); }
  let y = abs(b);
  var r = abs(a);
  let ey = frexp_e(y);
  for (var it = 0; it < 2200; it = it + 1) {
    if (!(r >= y)) { break; }
    var s = ldexp(y, frexp_e(r) - ey);
    if (s > r) { s = s * T(0.5); }
    r = r - s;
  }
  return select(r, -r, a < T(0));
}
