// float64 elementary functions and exact-product helpers (included by common.wgsl's
// consts:d section). SPIR-V's GLSL.std.450 exp/log/sin/... are 32-bit only.
// frexp for float64 without int64: WGSL's frexp(f64) has an i64 exponent (shader-int64)
// and flushes subnormals on some drivers. x > 0 finite -> (fraction in [0.5, 1), exponent).
fn frexp_d(v: f64) -> vec2<f64> {
  var x = v;
  var e = 0;
  if (x < 2.2250738585072014e-308) { x = x * 18014398509481984.0; e = -54; }
  if (!(x <= 1.7976931348623157e308) || x == 0.0) { return vec2<f64>(x, 0.0); }
  for (var i = 0; i < 12 && x >= 1.2676506002282294e30; i = i + 1) { x = x * 7.888609052210118e-31; e = e + 100; }
  for (var i = 0; i < 12 && x < 7.888609052210118e-31; i = i + 1) { x = x * 1.2676506002282294e30; e = e - 100; }
  let b = bitcast<u32>(f32(x));
  let k = i32((b >> 23u) & 0xffu) - 126;
  var m = ldexp(x, -k);
  var kk = k;
  if (m >= 1.0) { m = m * 0.5; kk = kk + 1; }
  if (m < 0.5) { m = m * 2.0; kk = kk - 1; }
  return vec2<f64>(m, f64(e + kk));
}
fn frexp_e(x: f64) -> i32 { return i32(frexp_d(abs(x)).y); }
fn twoprod(a: f64, b: f64) -> vec2<f64> {
  let p = a * b;
  if (!(abs(a) <= 1e290) || !(abs(b) <= 1e290) || !(abs(p) <= 1e300)) { return vec2<f64>(p, 0.0); }
  let ta = 134217729.0 * a;
  let ah = ta - (ta - a);
  let al = a - ah;
  let tb = 134217729.0 * b;
  let bh = tb - (tb - b);
  let bl = b - bh;
  return vec2<f64>(p, ((ah * bh - p) + ah * bl + al * bh) + al * bl);
}
fn fma_(a: f64, b: f64, c: f64) -> f64 {
  let pe = twoprod(a, b);
  if (!(abs(pe.x) <= 1e300) || !(abs(a) <= 1e150) || !(abs(b) <= 1e150)) { return a * b + c; }
  let s = pe.x + c;
  let bv = s - pe.x;
  let lo = (pe.x - (s - bv)) + (c - bv);
  return s + (lo + pe.y);
}
// float64 elementary functions (fdlibm's algorithms): SPIR-V's GLSL.std.450
// exp/log/sin/... are 32-bit only, so float64 kernels use these.
fn exp_d(x: f64) -> f64 {
  if (!(x == x)) { return x; }
  if (x > 709.782712893384) { return inf_(); }
  if (x < -745.1332191019412) { return 0.0; }
  let k = round(x * 1.4426950408889634);
  let hi = x - k * 6.93147180369123816490e-01;
  let lo = k * 1.90821492927058770002e-10;
  let r = hi - lo;
  let t = r * r;
  let c = r - t * (1.66666666666666019037e-01 + t * (-2.77777777770155933842e-03 + t * (6.61375632143793436117e-05
          + t * (-1.65339022054652515390e-06 + t * 4.13813679705723846039e-08))));
  let y = 1.0 - ((lo - (r * c) / (2.0 - c)) - hi);
  let ki = i32(k);
  if (ki < -1000) { return ldexp(y, ki + 200) * 6.223015277861142e-61; }  // 2**-200 by a multiply (subnormals)
  if (ki > 1000) { return ldexp(ldexp(y, ki - 200), 200); }
  return ldexp(y, ki);
}
fn log_d(x: f64) -> f64 {
  if (!(x == x) || x < 0.0) { return nan_(); }
  if (x == 0.0) { return -inf_(); }
  if (x > fmax_()) { return x; }
  let fr = frexp_d(x);
  var m = fr.x;
  var e = fr.y;
  if (m < 0.7071067811865476) { m = m * 2.0; e = e - 1.0; }
  let f = m - 1.0;
  let s = f / (2.0 + f);
  let z = s * s;
  let w = z * z;
  let t1 = w * (3.999999999940941908e-01 + w * (2.222219843214978396e-01 + w * 1.531383769920937332e-01));
  let t2 = z * (6.666666666666735130e-01 + w * (2.857142874366239149e-01 + w * (1.818357216161805012e-01
           + w * 1.479819860511658591e-01)));
  let R = t2 + t1;
  let hfsq = 0.5 * f * f;
  return e * 6.93147180369123816490e-01 - ((hfsq - (s * (hfsq + R) + e * 1.90821492927058770002e-10)) - f);
}
// (the driver's compiler folds (1 + x) - 1 to x, so Kahan's tricks do not work here:
// expm1 uses its Taylor series below 0.5, log1p the log kernel on x itself below sqrt(2) - 1)
fn expm1_d(x: f64) -> f64 {
  if (!(abs(x) < 0.5)) { return exp_d(x) - 1.0; }
  var t: f64 = 1.0 / 87178291200.0;
  for (var n = 13; n >= 1; n = n - 1) {
    var fact: f64 = 1.0;
    for (var j = 2; j <= n; j = j + 1) { fact = fact * f64(j); }
    t = t * x + 1.0 / fact;
  }
  return t * x;
}
fn log1p_d(x: f64) -> f64 {
  if (!(x == x)) { return x; }
  if (!(abs(x) < 0.41421356237309503)) { return log_d(1.0 + x); }
  let f = x;
  let s = f / (2.0 + f);
  let z = s * s;
  let w = z * z;
  let t1 = w * (3.999999999940941908e-01 + w * (2.222219843214978396e-01 + w * 1.531383769920937332e-01));
  let t2 = z * (6.666666666666735130e-01 + w * (2.857142874366239149e-01 + w * (1.818357216161805012e-01
           + w * 1.479819860511658591e-01)));
  let hfsq = 0.5 * f * f;
  return f - (hfsq - s * (hfsq + t2 + t1));
}
fn ksin_d(x: f64) -> f64 {
  let z = x * x;
  return x + x * z * (-1.66666666666666324348e-01 + z * (8.33333333332248946124e-03 + z * (-1.98412698298579493134e-04
         + z * (2.75573137070700676789e-06 + z * (-2.50507602534068634195e-08 + z * 1.58969099521155010221e-10)))));
}
fn kcos_d(x: f64) -> f64 {
  let z = x * x;
  let r = z * (4.16666666666666019037e-02 + z * (-1.38888888888741095749e-03 + z * (2.48015872894767294178e-05
          + z * (-2.75573143513906633035e-07 + z * (2.08757232129817482790e-09 + z * -1.13596475577881948265e-11)))));
  let hz = 0.5 * z;
  let w = 1.0 - hz;
  return w + (((1.0 - w) - hz) + z * r);
}
// x = n * pi/2 + r, |r| <= pi/4 (Cody-Waite, accurate for |x| up to about 1e6)
const TWO_OVER_PI = array<u32, 40>(
  0xa2f9836eu, 0x4e441529u, 0xfc2757d1u, 0xf534ddc0u, 0xdb629599u,
  0x3c439041u, 0xfe5163abu, 0xdebbc561u, 0xb7246e3au, 0x424dd2e0u,
  0x06492eeau, 0x09d1921cu, 0xfe1deb1cu, 0xb129a73eu, 0xe88235f5u,
  0x2ebb4484u, 0xe99c7026u, 0xb45f7e41u, 0x3991d639u, 0x835339f4u,
  0x9c845f8bu, 0xbdf9283bu, 0x1ff897ffu, 0xde05980fu, 0xef2f118bu,
  0x5a0a6d1fu, 0x6d367ecfu, 0x27cb09b7u, 0x4f463f66u, 0x9e5fea2du,
  0x7527bac7u, 0xebe5f17bu, 0x3d0739f7u, 0x8a5292eau, 0x6bfb5fb1u,
  0x1f8d5d08u, 0x56033046u, 0xfc7b6babu, 0xf0cfbc20u, 0x9af4361du,
);
//@include mulhilo.wgsl
fn bits32_(p: array<u32, 8>, pos: i32) -> u32 {
  if (pos <= -32 || pos >= 256) { return 0u; }
  if (pos < 0) { return p[0] << u32(-pos); }
  let l = pos / 32;
  let sh = u32(pos % 32);
  var lo = p[l] >> sh;
  if (sh != 0u && l + 1 < 8) { lo = lo | (p[l + 1] << (32u - sh)); }
  return lo;
}
// Payne-Hanek: |x| * 2/pi mod 4 from 128 bits of 2/pi around x's exponent; returns (r, n)
fn rem_pio2_big(x: f64) -> vec2<f64> {
  let fr = frexp_d(abs(x));
  let m = fr.x * 9007199254740992.0;
  let e = i32(fr.y) - 53;
  let m1 = u32(floor(m / 4294967296.0));
  let m0 = u32(m - f64(m1) * 4294967296.0);
  var j0 = 0;
  if (e >= 2) { j0 = (e - 2) / 32; }
  let s = e - 32 * j0 - 32;
  var p: array<u32, 8>;
  for (var i = 0; i < 8; i = i + 1) { p[i] = 0u; }
  // P = m * (W[j0] .. W[j0+3]) with limb 0 the least significant
  for (var jj = 0; jj < 4; jj = jj + 1) {
    let w = TWO_OVER_PI[j0 + 3 - jj];
    for (var ii = 0; ii < 2; ii = ii + 1) {
      let mi = select(m0, m1, ii == 1);
      let hl = mulhilo(mi, w);
      var at = ii + jj;
      var add = hl.y;
      var carry = 0u;
      let s0 = p[at] + add;
      carry = select(0u, 1u, s0 < add);
      p[at] = s0;
      at = at + 1;
      add = hl.x;
      loop {
        if (at >= 8) { break; }
        let s1 = p[at] + add;
        var c2 = select(0u, 1u, s1 < add);
        let s2 = s1 + carry;
        c2 = c2 + select(0u, 1u, s2 < carry);
        p[at] = s2;
        carry = c2;
        add = 0u;
        at = at + 1;
        if (carry == 0u) { break; }
      }
    }
  }
  let pt = 96 - s;
  var q = bits32_(p, pt) & 3u;
  var f = f64(bits32_(p, pt - 32)) * 2.3283064365386963e-10 + f64(bits32_(p, pt - 64)) * 5.421010862427522e-20;
  if (f >= 0.5) { f = f - 1.0; q = (q + 1u) & 3u; }
  var r = f * 1.5707963267948966 + f * 6.123233995736766e-17;
  var n = f64(q);
  if (x < 0.0) { r = -r; n = -n; }
  return vec2<f64>(r, n);
}
// (Cody-Waite below 1e5, 21-bit pieces of pi/2 below 2**30, Payne-Hanek above)
fn rem_pio2_d(x: f64) -> vec2<f64> {
  if (abs(x) >= 1073741824.0) { return rem_pio2_big(x); }
  let n = round(x * 6.36619772367581382433e-01);
  if (abs(x) < 1e5) {
    let r = ((x - n * 1.57079632673412561417e+00) - n * 6.07710050650619224932e-11) - n * 2.02226624871116645580e-21;
    return vec2<f64>(r, n);
  }
  var r = x - n * 1.570796012878418;
  r = r - n * 3.139164164167596e-07;
  r = r - n * 6.223369259164557e-14;
  r = r - n * 2.9127304114676625e-20;
  r = r - n * 1.644624610775752e-26;
  return vec2<f64>(r, n);
}
fn sin_d(x: f64) -> f64 {
  if (!(abs(x) <= fmax_())) { return nan_(); }
  let q = rem_pio2_d(x);
  let n = i32(q.y - 4.0 * floor(q.y / 4.0));
  if (n == 0) { return ksin_d(q.x); }
  if (n == 1) { return kcos_d(q.x); }
  if (n == 2) { return -ksin_d(q.x); }
  return -kcos_d(q.x);
}
fn cos_d(x: f64) -> f64 {
  if (!(abs(x) <= fmax_())) { return nan_(); }
  let q = rem_pio2_d(x);
  let n = i32(q.y - 4.0 * floor(q.y / 4.0));
  if (n == 0) { return kcos_d(q.x); }
  if (n == 1) { return -ksin_d(q.x); }
  if (n == 2) { return -kcos_d(q.x); }
  return ksin_d(q.x);
}
fn atan_d(v: f64) -> f64 {
  if (!(v == v)) { return v; }
  var x = abs(v);
  var id = -1;
  if (x > 7.378697629483821e19) { return select(f64(1.5707963267948966), f64(-1.5707963267948966), v < 0.0); }
  if (x >= 0.4375) {
    if (x < 1.1875) {
      if (x < 0.6875) { id = 0; x = (2.0 * x - 1.0) / (2.0 + x); } else { id = 1; x = (x - 1.0) / (x + 1.0); }
    } else {
      if (x < 2.4375) { id = 2; x = (x - 1.5) / (1.0 + 1.5 * x); } else { id = 3; x = -1.0 / x; }
    }
  }
  let z = x * x;
  let w = z * z;
  let s1 = z * (3.33333333333329318027e-01 + w * (1.42857142725034663711e-01 + w * (9.09088713343650656196e-02
           + w * (6.66107313738753120669e-02 + w * (4.97687799461593236017e-02 + w * 1.62858201153657823623e-02)))));
  let s2 = w * (-1.99999999998764832476e-01 + w * (-1.11111104054623557880e-01 + w * (-7.69187620504482999495e-02
           + w * (-5.83357013379057348645e-02 + w * -3.65315727442169155270e-02))));
  var r: f64;
  if (id < 0) { r = x - x * (s1 + s2); }
  else {
    var hi: f64 = 4.63647609000806093515e-01;
    var lo: f64 = 2.26987774529616870924e-17;
    if (id == 1) { hi = 7.85398163397448278999e-01; lo = 3.06161699786838301793e-17; }
    if (id == 2) { hi = 9.82793723247329054082e-01; lo = 1.39033110312309984516e-17; }
    if (id == 3) { hi = 1.57079632679489655800e+00; lo = 6.12323399573676603587e-17; }
    r = hi - ((x * (s1 + s2) - lo) - x);
  }
  return select(r, -r, v < 0.0);
}
fn atan2_d(a: f64, b: f64) -> f64 {
  if (!(a == a) || !(b == b)) { return a + b; }
  let pi: f64 = 3.141592653589793;
  let bneg = b < 0.0 || (b == 0.0 && 1.0 / b < 0.0);
  let aneg = a < 0.0 || (a == 0.0 && 1.0 / a < 0.0);
  if (a == 0.0) { return select(a, select(pi, -pi, aneg), bneg); }
  if (b == 0.0) { return select(pi / 2.0, -pi / 2.0, a < 0.0); }
  let ainf = abs(a) > fmax_();
  let binf = abs(b) > fmax_();
  var r: f64;
  if (ainf && binf) { r = select(pi / 4.0, 3.0 * pi / 4.0, b < 0.0); return select(r, -r, a < 0.0); }
  if (binf) { return select(select(0.0, negzero_(), a < 0.0), select(pi, -pi, a < 0.0), b < 0.0); }
  if (ainf) { return select(pi / 2.0, -pi / 2.0, a < 0.0); }
  r = atan_d(a / b);
  if (b < 0.0) { r = r + select(-pi, pi, a >= 0.0); }
  return r;
}
fn powi_d(x: f64, n: i32) -> f64 {
  var r = f64(1);
  var p = x;
  var e = n;
  loop { if (e == 0) { break; } if ((e & 1) != 0) { r = r * p; } p = p * p; e = e >> 1u; }
  return r;
}
fn pow_d(a: f64, b: f64) -> f64 {
  if (b == f64(0) || a == f64(1)) { return f64(1); }
  if (!(a == a) || !(b == b)) { return a + b; }
  let ab = abs(a);
  if (!(abs(b) <= fmax_())) {
    if (ab == f64(1)) { return f64(1); }
    if ((ab > f64(1)) == (b > f64(0))) { return inf_(); }
    return f64(0);
  }
  let bi = floor(b) == b;
  if (!(ab <= fmax_())) {
    let oddi = bi && abs(b) < f64(16777216) && (b - f64(2) * floor(b / f64(2))) == f64(1);
    let r0 = select(f64(0), inf_(), b > f64(0));
    return select(r0, -r0, oddi && a < f64(0));
  }
  if (a < f64(0) && !bi) { return nan_(); }
  let odd = bi && abs(b) < f64(9007199254740992) && (b - f64(2) * floor(b / f64(2))) == f64(1);
  var r: f64;
  if (ab == f64(0)) { r = select(f64(0), inf_(), b < f64(0)); }
  else if (!(ab <= fmax_())) { r = select(f64(0), inf_(), b > f64(0)); }
  else if (bi && abs(b) <= f64(64)) {
    r = powi_d(ab, i32(abs(b)));
    if (b < f64(0)) { r = f64(1) / r; }
  }
  else { r = exp_d(b * log_d(ab)); }
  if (odd && (a < f64(0) || (a == f64(0) && f64(1) / a < f64(0)))) { r = -r; }
  return r;
}
