// Binary ops: `fn op(a: T, b: T) -> TO` (compare/logical: TO is u32 0/1),
// and fma `fn op(a: T, b: T, c: T) -> TO`. Classes as in unary.wgsl.
//# add:b
fn op(a: T, b: T) -> TO { return a | b; }
//# add
fn op(a: T, b: T) -> TO { return a + b; }
//# sub
fn op(a: T, b: T) -> TO { return a - b; }
//# mul:b
fn op(a: T, b: T) -> TO { return a & b; }
//# mul
fn op(a: T, b: T) -> TO { return a * b; }
//# div:F
fn op(a: T, b: T) -> TO { return a / b; }
//# floor_divide:F
//@include fmod.wgsl
fn op(a: T, b: T) -> TO {
  if (b == T(0) || (abs(a) <= fmax_() && abs(b) <= fmax_() && !(abs(a / b) <= fmax_()))) { return a / b; }
  if (abs(b) < fminn_() && abs(a) <= fmax_()) { return floor(a / b); }  // subnormal divisor (flushed in fmod)
  let m = fmod_(a, b);
  var d = (a - m) / b;
  if (!(m == T(0)) && ((b < T(0)) != (m < T(0)))) { d = d - T(1); }
  if (d == T(0)) { return select(T(0), negzero_(), (a < T(0)) != (b < T(0))); }
  var f = floor(d);
  if (d - f > T(0.5)) { f = f + T(1); }
  return f;
}
//# floor_divide:S
fn op(a: T, b: T) -> TO {
  if (b == T(0)) { return T(0); }
  let q = a / b;
  if (a % b != T(0) && ((a < T(0)) != (b < T(0)))) { return q - T(1); }
  return q;
}
//# floor_divide:U
fn op(a: T, b: T) -> TO { if (b == T(0)) { return T(0); } return a / b; }
//# remainder:F
//@include fmod.wgsl
fn op(a: T, b: T) -> TO {
  if (b == T(0) || !(abs(a) <= fmax_())) { return nan_(); }
  // subnormal divisor: the result lies below |b|, which a flush-to-zero driver cannot represent
  if (abs(b) < fminn_()) {
    if (abs(a) <= fmax_() && abs(b) <= fmax_()) { return select(T(0), negzero_(), b < T(0)); }
  }
  if (!(abs(b) <= fmax_())) {
    if (!(b == b)) { return b; }
    if (a == T(0) || ((a < T(0)) == (b < T(0)))) { return a; }
    return b;
  }
  var m = fmod_(a, b);
  if (!(m == T(0))) {
    if ((b < T(0)) != (m < T(0))) { m = m + b; }
  } else {
    m = select(T(0), negzero_(), b < T(0));
  }
  return m;
}
//# remainder:S
fn op(a: T, b: T) -> TO {
  if (b == T(0)) { return T(0); }
  let r = a % b;
  if (r != T(0) && ((r < T(0)) != (b < T(0)))) { return r + b; }
  return r;
}
//# remainder:U
fn op(a: T, b: T) -> TO { if (b == T(0)) { return T(0); } return a % b; }
//# pow:f
fn powi(x: T, n: i32) -> T {
  var r = T(1);
  var p = x;
  var e = n;
  loop { if (e == 0) { break; } if ((e & 1) != 0) { r = r * p; } p = p * p; e = e >> 1u; }
  return r;
}
fn op(a: T, b: T) -> TO {
  if (b == T(0) || a == T(1)) { return T(1); }
  if (!(a == a) || !(b == b)) { return a + b; }
  let ab = abs(a);
  if (!(abs(b) <= fmax_())) {
    if (ab == T(1)) { return T(1); }
    if ((ab > T(1)) == (b > T(0))) { return inf_(); }
    return T(0);
  }
  let bi = floor(b) == b;
  if (!(ab <= fmax_())) {
    let oddi = bi && abs(b) < T(16777216) && (b - T(2) * floor(b / T(2))) == T(1);
    let r0 = select(T(0), inf_(), b > T(0));
    return select(r0, -r0, oddi && a < T(0));
  }
  if (a < T(0) && !bi) { return nan_(); }
  let odd = bi && abs(b) < T(16777216) && (b - T(2) * floor(b / T(2))) == T(1);
  var r: T;
  if (ab == T(0)) { r = select(T(0), inf_(), b < T(0)); }
  else if (!(ab <= fmax_())) { r = select(T(0), inf_(), b > T(0)); }
  else if (bi && abs(b) <= T(64)) {
    r = powi(ab, i32(abs(b)));
    if (b < T(0)) { r = T(1) / r; }
  }
  else { r = exp2(b * log2(ab)); }
  if (odd && (a < T(0) || (a == T(0) && T(1) / a < T(0)))) { r = -r; }
  return r;
}
//# pow:d
fn op(a: T, b: T) -> TO { return pow_d(a, b); }
//# pow_wide:f
fn op(a: T, b: T) -> TO { return f32(pow_d(f64(a), f64(b))); }
//# pow:S
fn op(a: T, b: T) -> TO {
  if (b < T(0)) {
    if (a == T(1)) { return T(1); }
    if (a == T(-1)) { return select(T(1), T(-1), (b & T(1)) != T(0)); }
    return T(0);
  }
  var r = T(1);
  var p = a;
  var e = b;
  loop { if (e == T(0)) { break; } if ((e & T(1)) != T(0)) { r = r * p; } p = p * p; e = e >> 1u; }
  return r;
}
//# pow:U
fn op(a: T, b: T) -> TO {
  var r = T(1);
  var p = a;
  var e = b;
  loop { if (e == T(0)) { break; } if ((e & T(1)) != T(0)) { r = r * p; } p = p * p; e = e >> 1u; }
  return r;
}
//# maximum:F
fn op(a: T, b: T) -> TO { if (!(a == a) || !(b == b)) { return a + b; } return max(a, b); }
//# maximum
fn op(a: T, b: T) -> TO { return max(a, b); }
//# minimum:F
fn op(a: T, b: T) -> TO { if (!(a == a) || !(b == b)) { return a + b; } return min(a, b); }
//# minimum
fn op(a: T, b: T) -> TO { return min(a, b); }
//# atan2:f
fn op(a: T, b: T) -> TO {
  if (!(a == a) || !(b == b)) { return a + b; }
  let pi = 3.141592653589793;
  let bneg = (bitcast<u32>(b) >> 31u) != 0u;
  if (a == 0.0) { return select(a, select(pi, -pi, (bitcast<u32>(a) >> 31u) != 0u), bneg); }
  if (b == 0.0) { return select(pi / 2.0, -pi / 2.0, a < 0.0); }
  let ainf = abs(a) > fmax_();
  let binf = abs(b) > fmax_();
  var r: f32;
  if (ainf && binf) { r = select(pi / 4.0, 3.0 * pi / 4.0, b < 0.0); return select(r, -r, a < 0.0); }
  if (binf) { return select(select(0.0, -0.0, a < 0.0), select(pi, -pi, a < 0.0), b < 0.0); }
  r = atan_f(a / b);
  if (b < 0.0) { r = r + select(-pi, pi, a >= 0.0); }
  return r;
}
//# atan2:d
fn op(a: T, b: T) -> TO { return atan2_d(a, b); }
//# hypot:F
fn op(a: T, b: T) -> TO {
  let x = abs(a);
  let y = abs(b);
  if (x > fmax_() || y > fmax_()) { return inf_(); }
  if (!(x == x) || !(y == y)) { return x + y; }
  let m = max(x, y);
  let n = min(x, y);
  if (m == T(0)) { return m; }
  let r = n / m;
  return m * sqrt(T(1) + r * r);
}
//# bitwise_and:I
fn op(a: T, b: T) -> TO { return a & b; }
//# bitwise_and:b
fn op(a: T, b: T) -> TO { return a & b; }
//# bitwise_or:I
fn op(a: T, b: T) -> TO { return a | b; }
//# bitwise_or:b
fn op(a: T, b: T) -> TO { return a | b; }
//# bitwise_xor:I
fn op(a: T, b: T) -> TO { return a ^ b; }
//# bitwise_xor:b
fn op(a: T, b: T) -> TO { return a ^ b; }
//# fma:F
fn op(a: T, b: T, c: T) -> TO { return fma_(a, b, c); }
//# fma:b
fn op(a: T, b: T, c: T) -> TO { return (a & b) | c; }
//# fma
fn op(a: T, b: T, c: T) -> TO { return a * b + c; }
//# eq
fn op(a: T, b: T) -> TO { return select(0u, 1u, a == b); }
//# ne
fn op(a: T, b: T) -> TO { return select(0u, 1u, !(a == b)); }
//# lt
fn op(a: T, b: T) -> TO { return select(0u, 1u, a < b); }
//# le
fn op(a: T, b: T) -> TO { return select(0u, 1u, a <= b); }
//# gt
fn op(a: T, b: T) -> TO { return select(0u, 1u, a > b); }
//# ge
fn op(a: T, b: T) -> TO { return select(0u, 1u, a >= b); }
//# logical_and
fn op(a: T, b: T) -> TO { return a & b; }
//# logical_or
fn op(a: T, b: T) -> TO { return a | b; }
//# logical_xor
fn op(a: T, b: T) -> TO { return a ^ b; }
//# where
st_o(k.x, select(ld_c(k.w), ld_b(k.z), ld_a(k.y) != 0u));
//# fmod:F
//@include fmod.wgsl
fn op(a: T, b: T) -> TO {
  if (b == T(0) || !(a == a) || !(b == b) || !(abs(a) <= fmax_())) { return nan_(); }
  if (a == T(0)) { return a; }  // keeps -0.0
  return fmod_(a, b);
}
//# fmod:I
fn op(a: T, b: T) -> TO { if (b == T(0)) { return T(0); } return a % b; }
//# copysign:f
fn op(a: T, b: T) -> TO { return bitcast<f32>((bitcast<u32>(a) & 0x7fffffffu) | (bitcast<u32>(b) & 0x80000000u)); }
//# copysign:d
fn op(a: T, b: T) -> TO {
  if (!(a == a)) { return a; }
  return select(abs(a), -abs(a), b < T(0) || (b == T(0) && T(1) / b < T(0)));
}
//# nextafter:f
fn op(a: T, b: T) -> TO {
  if (!(a == a) || !(b == b)) { return a + b; }
  if (a == b) { return b; }
  if (a == 0.0) { return bitcast<f32>(select(1u, 0x80000001u, b < 0.0)); }
  let u = bitcast<u32>(a);
  return bitcast<f32>(select(u - 1u, u + 1u, (a < b) == (a > 0.0)));
}
//# nextafter:d
fn op(a: T, b: T) -> TO {
  if (!(a == a) || !(b == b)) { return a + b; }
  if (a == b) { return b; }
  if (!(abs(a) <= fmax_())) { return select(-fmax_(), fmax_(), a > T(0)); }
  if (a == T(0)) { return select(ldexp(T(1), -1074), -ldexp(T(1), -1074), b < T(0)); }
  let f = frexp_d(abs(a));
  let e = i32(f.y);
  var ex = max(e - 53, -1074);
  if ((a < b) != (a > T(0)) && f.x == T(0.5) && e - 54 >= -1074) { ex = e - 54; }  // below a power of 2
  let s = ldexp(T(1), ex);
  return select(a - s, a + s, a < b);
}
//# ldexp:F
fn op(a: T, b: T) -> TO {
  var k = i32(clamp(b, T(-2200), T(2200)));  // beyond, every finite nonzero a over/underflows alike
  var r = a;
  loop { if (k <= 100) { break; } r = ldexp(r, 100); k = k - 100; }
  loop { if (k >= -100) { break; } r = ldexp(r, -100); k = k + 100; }
  return ldexp(r, k);
}
//# gcd:i
//@include gcd.wgsl
fn op(a: T, b: T) -> TO { return T(gcd_(u32(abs(a)), u32(abs(b)))); }
//# gcd:u
//@include gcd.wgsl
fn op(a: T, b: T) -> TO { return gcd_(a, b); }
//# lcm:i
//@include gcd.wgsl
fn op(a: T, b: T) -> TO {
  let g = gcd_(u32(abs(a)), u32(abs(b)));
  if (g == 0u) { return T(0); }
  return T((u32(abs(a)) / g) * u32(abs(b)));  // NumPy: |a| / gcd * |b|, wrapping (narrow types on store)
}
//# lcm:u
//@include gcd.wgsl
fn op(a: T, b: T) -> TO {
  let g = gcd_(a, b);
  if (g == 0u) { return 0u; }
  return (a / g) * b;
}
