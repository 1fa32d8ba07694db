// Unary ops: `fn op(x: T) -> TO`, one section per op and compute class
// (F any float, f f32, d f64, S/U signed/unsigned ints, I any int, b bool).
// Note: lavapipe compiles float `!=` as an ordered compare, so NaN tests use !(x == x).
// Odd functions return a zero input as is, keeping its sign (the formulas give +0 for -0).
//# neg:U
fn op(x: T) -> TO { return T(0) - x; }
//# neg
fn op(x: T) -> TO { return -x; }
//# abs:U
fn op(x: T) -> TO { return x; }
//# abs:b
fn op(x: T) -> TO { return x; }
//# abs
fn op(x: T) -> TO { return abs(x); }
//# sign:U
fn op(x: T) -> TO { return select(T(0), T(1), x > T(0)); }
//# sign:b
fn op(x: T) -> TO { return x; }
//# sign
fn op(x: T) -> TO {
  if (!(x == x)) { return x; }
  return select(select(T(0), T(1), x > T(0)), T(-1), x < T(0));
}
//# sqrt:F
fn op(x: T) -> TO { return sqrt(x); }
//# rsqrt:F
fn op(x: T) -> TO { return T(1) / sqrt(x); }
//# square:b
fn op(x: T) -> TO { return x; }
//# square
fn op(x: T) -> TO { return x * x; }
//# cbrt:f
fn op(x: T) -> TO {
  let a = abs(x);
  if (a == 0.0 || !(a <= fmax_())) { return x; }
  var r = exp2(log2(a) / 3.0);
  r = r - (r * r * r - a) / (3.0 * r * r);
  return select(r, -r, x < 0.0);
}
//# cbrt:d
fn op(x: T) -> TO {
  let a = abs(x);
  if (a == 0.0 || !(a <= fmax_())) { return x; }
  var m = a;
  var s = 1.0lf;
  for (var i = 0; i < 12 && m > 1e30; i = i + 1) { m = m * 8.077935669463161e-28; s = s * 1073741824.0; }
  for (var i = 0; i < 12 && m < 1e-30; i = i + 1) { m = m * 1237940039285380274899124224.0; s = s * 9.313225746154785e-10; }
  var r = f64(exp2(log2(f32(m)) / 3.0));
  for (var j = 0; j < 3; j = j + 1) { r = r - (r * r * r - m) / (3.0 * r * r); }
  r = r * s;
  return select(r, -r, x < 0.0);
}
//# reciprocal:F
fn op(x: T) -> TO { return T(1) / x; }
//# exp:f
fn op(x: T) -> TO { return exp(x); }
//# exp2:f
fn op(x: T) -> TO { return exp2(x); }
//# expm1:f
fn op(x: T) -> TO { if (x == 0.0) { return x; } return em1(x); }
//# log:f
fn op(x: T) -> TO { return log(x); }
//# log2:f
fn op(x: T) -> TO { return log2(x); }
//# log10:f
fn op(x: T) -> TO { return log(x) * 0.43429448190325182; }
//# log1p:f
fn op(x: T) -> TO { if (x == 0.0) { return x; } return l1p(x); }
//# sin:f
fn op(x: T) -> TO { if (x == 0.0) { return x; } return sin(x); }
//# cos:f
fn op(x: T) -> TO { return cos(x); }
//# tan:f
fn op(x: T) -> TO { if (x == 0.0) { return x; } return tan(x); }
//# asin:f
fn op(x: T) -> TO { if (x == 0.0) { return x; } return asin_f(x); }
//# acos:f
fn op(x: T) -> TO {
  if (x < -0.5) { return 3.141592653589793 - 2.0 * asin_f(sqrt(0.5 * (1.0 + x))); }
  if (x > 0.5) { return 2.0 * asin_f(sqrt(0.5 * (1.0 - x))); }
  return 1.5707963267948966 - asin_f(x);
}
//# atan:f
fn op(x: T) -> TO { if (x == 0.0) { return x; } return atan_f(x); }
//# sinh:f
fn op(x: T) -> TO { if (x == 0.0) { return x; }
  let a = abs(x);
  var r: f32;
  if (a < 1.0) { let e = em1(a); r = 0.5 * (e + e / (e + 1.0)); }
  else if (a < 20.0) { r = 0.5 * (exp(a) - exp(-a)); }
  else { r = exp(a - 0.69314718055994531); }
  return select(r, -r, x < 0.0);
}
//# cosh:f
fn op(x: T) -> TO {
  let a = abs(x);
  if (a < 20.0) { return 0.5 * (exp(a) + exp(-a)); }
  return exp(a - 0.69314718055994531);
}
//# tanh:f
fn op(x: T) -> TO { if (x == 0.0) { return x; }
  let a = abs(x);
  var t: f32;
  if (a > 20.0) { t = 1.0; } else { let e = em1(-2.0 * a); t = -e / (e + 2.0); }
  if (!(x == x)) { return x; }
  return select(t, -t, x < 0.0);
}
//# asinh:f
fn op(x: T) -> TO { if (x == 0.0) { return x; }
  let a = abs(x);
  var r: f32;
  if (a > 1e18) { r = log(a) + 0.69314718055994531; }
  else { r = l1p(a + a * a / (1.0 + sqrt(1.0 + a * a))); }
  return select(r, -r, x < 0.0);
}
//# acosh:f
fn op(x: T) -> TO {
  if (x < 1.0) { return nan_(); }
  if (x > 1e18) { return log(x) + 0.69314718055994531; }
  let t = x - 1.0;
  return l1p(t + sqrt(2.0 * t + t * t));
}
//# atanh:f
fn op(x: T) -> TO { if (x == 0.0) { return x; } return 0.5 * l1p(2.0 * x / (1.0 - x)); }
//# exp:d
fn op(x: T) -> TO { return exp_d(x); }
//# exp2:d
fn op(x: T) -> TO {
  if (!(x == x)) { return x; }
  if (x > 1100.0) { return inf_(); }
  if (x < -1100.0) { return 0.0; }
  let k = round(x);
  return ldexp(exp_d((x - k) * 0.69314718055994531), i32(clamp(k, -2000.0, 2000.0)));
}
//# expm1:d
fn op(x: T) -> TO { if (x == 0.0) { return x; } return expm1_d(x); }
//# log:d
fn op(x: T) -> TO { return log_d(x); }
//# log2:d
fn op(x: T) -> TO { return log_d(x) * 1.4426950408889634; }
//# log10:d
fn op(x: T) -> TO { return log_d(x) * 0.43429448190325182; }
//# log1p:d
fn op(x: T) -> TO { if (x == 0.0) { return x; } return log1p_d(x); }
//# sin:d
fn op(x: T) -> TO { if (x == 0.0) { return x; } return sin_d(x); }
//# cos:d
fn op(x: T) -> TO { return cos_d(x); }
//# tan:d
fn op(x: T) -> TO { if (x == 0.0) { return x; } return sin_d(x) / cos_d(x); }
//# atan:d
fn op(x: T) -> TO { if (x == 0.0) { return x; } return atan_d(x); }
//# asin:d
fn op(x: T) -> TO { if (x == 0.0) { return x; } if (abs(x) > 1.0) { return nan_(); } return atan2_d(x, sqrt((1.0 - x) * (1.0 + x))); }
//# acos:d
fn op(x: T) -> TO { if (abs(x) > 1.0) { return nan_(); } return 2.0 * atan_d(sqrt((1.0 - x) / (1.0 + x))); }
//# sinh:d
fn op(x: T) -> TO { if (x == 0.0) { return x; }
  let a = abs(x);
  var r: f64;
  if (a < 1.0) { let e = expm1_d(a); r = 0.5 * (e + e / (e + 1.0)); }
  else if (a < 700.0) { let e = exp_d(a); r = 0.5 * (e - 1.0 / e); }
  else { let e = exp_d(0.5 * a); r = 0.5 * e * e; }
  return select(r, -r, x < 0.0);
}
//# cosh:d
fn op(x: T) -> TO {
  let a = abs(x);
  if (a < 700.0) { let e = exp_d(a); return 0.5 * (e + 1.0 / e); }
  let e = exp_d(0.5 * a);
  return 0.5 * e * e;
}
//# tanh:d
fn op(x: T) -> TO { if (x == 0.0) { return x; }
  if (!(x == x)) { return x; }
  let a = abs(x);
  var t: f64;
  if (a > 40.0) { t = 1.0; } else { let e = expm1_d(-2.0 * a); t = -e / (e + 2.0); }
  return select(t, -t, x < 0.0);
}
//# asinh:d
fn op(x: T) -> TO { if (x == 0.0) { return x; }
  let a = abs(x);
  var r: f64;
  if (a > 1e150) { r = log_d(a) + 0.69314718055994531; }
  else { r = log1p_d(a + a * a / (1.0 + sqrt(1.0 + a * a))); }
  return select(r, -r, x < 0.0);
}
//# acosh:d
fn op(x: T) -> TO {
  if (x < 1.0) { return nan_(); }
  if (x > 1e150) { return log_d(x) + 0.69314718055994531; }
  let t = x - 1.0;
  return log1p_d(t + sqrt(2.0 * t + t * t));
}
//# atanh:d
fn op(x: T) -> TO { if (x == 0.0) { return x; } return 0.5 * log1p_d(2.0 * x / (1.0 - x)); }
//# floor:F
fn op(x: T) -> TO { return floor(x); }
//# floor
fn op(x: T) -> TO { return x; }
//# ceil:F
fn op(x: T) -> TO { return ceil(x); }
//# ceil
fn op(x: T) -> TO { return x; }
//# round:F
fn op(x: T) -> TO { return round(x); }
//# round
fn op(x: T) -> TO { return x; }
//# trunc:F
fn op(x: T) -> TO { return trunc(x); }
//# trunc
fn op(x: T) -> TO { return x; }
//# isnan:F
fn op(x: T) -> TO { return select(0u, 1u, !(x == x)); }
//# isnan
fn op(x: T) -> TO { return 0u; }
//# isinf:F
fn op(x: T) -> TO { return select(0u, 1u, abs(x) > fmax_()); }
//# isinf
fn op(x: T) -> TO { return 0u; }
//# isfinite:F
fn op(x: T) -> TO { return select(0u, 1u, abs(x) <= fmax_()); }
//# isfinite
fn op(x: T) -> TO { return 1u; }
//# bitwise_not:I
fn op(x: T) -> TO { return ~x; }
//# bitwise_not:b
fn op(x: T) -> TO { return x ^ 1u; }
//# logical_not:b
fn op(x: T) -> TO { return x ^ 1u; }
//# logical_not
fn op(x: T) -> TO { return select(0u, 1u, x == T(0)); }
//# signbit:f
fn op(x: T) -> TO { return bitcast<u32>(x) >> 31u; }
//# signbit:d
fn op(x: T) -> TO { return select(0u, 1u, x < T(0) || (x == T(0) && T(1) / x < T(0))); }
//# signbit:S
fn op(x: T) -> TO { return select(0u, 1u, x < T(0)); }
//# signbit
fn op(x: T) -> TO { return 0u; }
//# frexp_m:f
fn op(x: T) -> TO { if (x == 0.0 || !(abs(x) <= fmax_())) { return x; } return frexp(x).fract; }
//# frexp_m:d
fn op(x: T) -> TO { if (x == T(0) || !(abs(x) <= fmax_())) { return x; } let m = frexp_d(abs(x)).x; return select(m, -m, x < T(0)); }
//# frexp_e:f
fn op(x: T) -> TO { if (x == 0.0 || !(abs(x) <= fmax_())) { return 0; } return frexp(x).exp; }
//# frexp_e:d
fn op(x: T) -> TO { if (x == T(0) || !(abs(x) <= fmax_())) { return 0; } return frexp_e(x); }
//# nan_to_num:F
fn op(x: T) -> TO {
  if (!(x == x)) { return P.vn; }
  if (x > fmax_()) { return P.vp; }
  if (x < -fmax_()) { return P.vm; }
  return x;
}
