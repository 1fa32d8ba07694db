// Utility ops: clamp (NaN in x or a bound gives NaN, as NumPy's clip).
//# clamp:F
fn op(x: T, lo: T, hi: T) -> T {
  if (!(x == x)) { return x; }
  if (!(lo == lo)) { return lo; }
  if (!(hi == hi)) { return hi; }
  var r = x;
  if (r < lo) { r = lo; }
  if (r > hi) { r = hi; }
  return r;
}
//# clamp
fn op(x: T, lo: T, hi: T) -> T { return min(max(x, lo), hi); }
//# clamp_lo:F
fn op(x: T, lo: T) -> T {
  if (!(x == x)) { return x; }
  if (!(lo == lo)) { return lo; }
  return select(x, lo, x < lo);
}
//# clamp_lo
fn op(x: T, lo: T) -> T { return max(x, lo); }
//# clamp_hi:F
fn op(x: T, hi: T) -> T {
  if (!(x == x)) { return x; }
  if (!(hi == hi)) { return hi; }
  return select(x, hi, x > hi);
}
//# clamp_hi
fn op(x: T, hi: T) -> T { return min(x, hi); }
