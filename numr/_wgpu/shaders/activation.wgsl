// Activations, the gated forms act(g) * u and their backward kernels, computed
// in float64 (float32/float16/bfloat16 round once on store). Bodies use the
// element-wise skeleton: prm is the op's parameter (slope, alpha).
//# helpers
fn sig_d(x: f64) -> f64 { return 1.0 / (1.0 + exp_d(-x)); }
// erf(z) for 0 <= z < 3: exp(-z^2) * sum 2^n z^(2n+1) / (2n+1)!! (positive terms, no cancellation)
fn erf_small(z: f64) -> f64 {
  let z2 = z * z;
  var term = z;
  var s = z;
  for (var n = 0; n < 120; n = n + 1) {
    term = term * 2.0 * z2 / f64(2 * n + 3);
    s = s + term;
    if (term < 1e-17 * s) { break; }
  }
  return 1.1283791670955126 * exp_d(-z2) * s;
}
// erfc(z) for z >= 3: continued fraction evaluated backwards
fn erfc_large(z: f64) -> f64 {
  var f = z;
  for (var n = 80; n >= 1; n = n - 1) { f = z + (f64(n) * 0.5) / f; }
  return exp_d(-z * z) * 0.5641895835477563 / f;
}
fn phi_d(x: f64) -> f64 {
  if (!(x == x)) { return x; }
  let z = abs(x) * 0.7071067811865476;
  var ec: f64;
  if (z < 3.0) { ec = 1.0 - erf_small(z); } else if (z > 27.0) { ec = 0.0; } else { ec = erfc_large(z); }
  return select(1.0 - 0.5 * ec, 0.5 * ec, x < 0.0);
}
fn relu_(x: f64) -> f64 { return select(x, 0.0, x < 0.0); }
fn silu_(x: f64) -> f64 { if (x < -fmax_()) { return 0.0; } return x * sig_d(x); }
fn gelu_(x: f64) -> f64 { if (x < -fmax_()) { return 0.0; } return x * phi_d(x); }
fn gelut_(x: f64) -> f64 {
  if (x < -fmax_()) { return 0.0; }
  return x * sig_d(1.5957691216057308 * (x + 0.044715 * x * x * x));
}
fn sigmoid_(x: f64) -> f64 { return sig_d(x); }
fn dsilu_(x: f64) -> f64 {
  if (abs(x) > 60.0) { return select(f64(0.0), f64(1.0), x > 0.0); }
  let s = sig_d(x);
  return s * (1.0 + x * (1.0 - s));
}
fn dgelu_(x: f64) -> f64 {
  if (abs(x) > 60.0) { return select(f64(0.0), f64(1.0), x > 0.0); }
  return phi_d(x) + x * 0.3989422804014327 * exp_d(-0.5 * x * x);
}
fn dgelut_(x: f64) -> f64 {
  if (abs(x) > 60.0) { return select(f64(0.0), f64(1.0), x > 0.0); }
  let s = sig_d(1.5957691216057308 * (x + 0.044715 * x * x * x));
  let du2 = 1.5957691216057308 * (1.0 + 0.134145 * x * x);
  return s + x * s * (1.0 - s) * du2;
}
fn drelu_(x: f64) -> f64 { return select(f64(0.0), f64(1.0), x > 0.0); }
fn dsigmoid_(x: f64) -> f64 { let s = sig_d(x); return s * (1.0 - s); }
//# relu
st_o(k.x, TO(relu_(f64(ld_a(k.y)))));
//# leaky_relu
let x = f64(ld_a(k.y));
st_o(k.x, TO(select(x * P.prm, x, x > 0.0)));
//# elu
let x = f64(ld_a(k.y));
st_o(k.x, TO(select(P.prm * expm1_d(x), x, x > 0.0)));
//# sigmoid
st_o(k.x, TO(sig_d(f64(ld_a(k.y)))));
//# silu
st_o(k.x, TO(silu_(f64(ld_a(k.y)))));
//# gelu
st_o(k.x, TO(gelu_(f64(ld_a(k.y)))));
//# gelut
st_o(k.x, TO(gelut_(f64(ld_a(k.y)))));
//# softplus
let x = f64(ld_a(k.y));
st_o(k.x, TO(max(x, 0.0) + log1p_d(exp_d(-abs(x)))));
//# gated
st_o(k.x, TO(ACT(f64(ld_a(k.y))) * f64(ld_b(k.z))));
//# bwd_gate
st_o(k.x, TO(f64(ld_a(k.y)) * f64(ld_c(k.w)) * DACT(f64(ld_b(k.z)))));
//# bwd_up
st_o(k.x, TO(f64(ld_a(k.y)) * ACT(f64(ld_b(k.z)))));
