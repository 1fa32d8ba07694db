// Constants shared by the float kernels (runtime values: WGSL forbids inf/NaN constants).
//# consts:f
fn fmax_() -> f32 { return 3.4028234663852886e38; }
fn fminn_() -> f32 { return 1.1754943508222875e-38; }
fn frexp_e(x: f32) -> i32 { return frexp(x).exp; }
fn inf_() -> f32 { return bitcast<f32>(0x7f800000u); }
fn nan_() -> f32 { return bitcast<f32>(0x7fc00000u); }
fn negzero_() -> f32 { return bitcast<f32>(0x80000000u); }
// exact product a*b = p + e (Dekker/Veltkamp; the driver's fma is not fused)
fn twoprod(a: f32, b: f32) -> vec2<f32> {
  let p = a * b;
  if (!(abs(a) <= 1e34) || !(abs(b) <= 1e34) || !(abs(p) <= 1e37)) { return vec2<f32>(p, 0.0); }
  let ta = 4097.0 * a;
  let ah = ta - (ta - a);
  let al = a - ah;
  let tb = 4097.0 * b;
  let bh = tb - (tb - b);
  let bl = b - bh;
  return vec2<f32>(p, ((ah * bh - p) + ah * bl + al * bh) + al * bl);
}
fn fma_(a: f32, b: f32, c: f32) -> f32 {
  let pe = twoprod(a, b);
  if (!(abs(pe.x) <= 1e37) || !(abs(a) <= 1e18) || !(abs(b) <= 1e18)) { return a * b + c; }
  let s = pe.x + c;
  let bv = s - pe.x;
  let lo = (pe.x - (s - bv)) + (c - bv);
  return s + (lo + pe.y);
}
fn em1(x: f32) -> f32 {
  let u = exp(x);
  if (u == 1.0) { return x; }
  let um = u - 1.0;
  if (um == -1.0) { return -1.0; }
  if (abs(x) > 0.5) { return um; }
  return um * x / log(u);
}
fn l1p(x: f32) -> f32 {
  let u = 1.0 + x;
  if (u == 1.0) { return x; }
  if (abs(x) > 0.5) { return log(u); }
  return log(u) * x / (u - 1.0);
}
// Cephes atanf/asinf (about 1 ulp; the driver's builtins are much less accurate)
fn atan_f(v: f32) -> f32 {
  var x = abs(v);
  var y = 0.0;
  if (x > 2.414213562373095) { y = 1.5707963267948966; x = -1.0 / x; }
  else if (x > 0.4142135623730950) { y = 0.7853981633974483; x = (x - 1.0) / (x + 1.0); }
  let z = x * x;
  y = y + ((((8.05374449538e-2 * z - 1.38776856032e-1) * z + 1.99777106478e-1) * z - 3.33329491539e-1) * z * x + x);
  if (!(v == v)) { return v; }
  return select(y, -y, v < 0.0);
}
fn asin_f(v: f32) -> f32 {
  let a = abs(v);
  if (a > 1.0) { return nan_(); }
  var x = a;
  var z = a * a;
  let big = a > 0.5;
  if (big) { z = 0.5 * (1.0 - a); x = sqrt(z); }
  var r = ((((4.2163199048e-2 * z + 2.4181311049e-2) * z + 4.5470025998e-2) * z + 7.4953002686e-2) * z
           + 1.6666752422e-1) * z * x + x;
  if (big) { r = 1.5707963267948966 - (r + r); }
  if (!(v == v)) { return v; }
  return select(r, -r, v < 0.0);
}
//# consts:d
fn fmax_() -> f64 { return 1.7976931348623157e308; }
fn fminn_() -> f64 { return 2.2250738585072014e-308; }
fn inf_() -> f64 { return f64(bitcast<f32>(0x7f800000u)); }
fn nan_() -> f64 { return f64(bitcast<f32>(0x7fc00000u)); }
fn negzero_() -> f64 { return f64(bitcast<f32>(0x80000000u)); }
//@include math64.wgsl
//# consts
