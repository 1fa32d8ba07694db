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
//# rows
// softmax / log_softmax / softmax_bwd: a workgroup per row (the dim read with its stride),
// max and sum as workgroup trees in float64; MODE writes the row.
var<workgroup> red: array<f64, 256>;
//@include walk.wgsl
fn tree_(lid: u32, v: f64, is_max: bool) -> f64 {
  red[lid] = v;
  workgroupBarrier();
  for (var s = 128u; s > 0u; s = s >> 1u) {
    if (lid < s) {
      let a = red[lid];
      let b = red[lid + s];
      if (is_max) { red[lid] = select(max(a, b), a + b, !(a == a) || !(b == b)); } else { red[lid] = a + b; }
    }
    workgroupBarrier();
  }
  let r = red[0];
  workgroupBarrier();
  return r;
}
// softmax's shift and scale of the row at xb: (max, 0 when not finite; sum of exp(x - max), 1 when 0)
fn shift_scale_(xb: i32, lid: u32) -> vec2<f64> {
  var m = -inf_();
  for (var j = i32(lid); j < P.n; j = j + 256) {
    let v = f64(ld_a(xb + j * P.xsd));
    m = select(max(m, v), m + v, !(m == m) || !(v == v));
  }
  m = tree_(lid, m, true);
  if (abs(m) > fmax_()) { m = 0.0; }
  var s: f64 = 0.0;
  for (var j = i32(lid); j < P.n; j = j + 256) { s = s + exp_d(f64(ld_a(xb + j * P.xsd)) - m); }
  s = tree_(lid, s, false);
  if (s == 0.0) { s = 1.0; }
  return vec2<f64>(m, s);
}
@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) w: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let row = i32(w.x + w.y * nw.x);
  if (row >= P.nrows) { return; }
  let xb = P.xoff + walk(row, P.kdim, P.kshape, P.kxs);
  let gb = P.goff + walk(row, P.kdim, P.kshape, P.kgs);
  let yb = P.yoff + walk(row, P.kdim, P.kshape, P.kys);
  {{MODE}}
}
//# softmax
let ms = shift_scale_(xb, lid);
for (var j = i32(lid); j < P.n; j = j + 256) { st_o(yb + j * P.ysd, TO(exp_d(f64(ld_a(xb + j * P.xsd)) - ms.x) / ms.y)); }
//# log_softmax
let ms = shift_scale_(xb, lid);
let ls = log_d(ms.y);
for (var j = i32(lid); j < P.n; j = j + 256) { st_o(yb + j * P.ysd, TO((f64(ld_a(xb + j * P.xsd)) - ms.x) - ls)); }
//# softmax_bwd
var s: f64 = 0.0;
for (var j = i32(lid); j < P.n; j = j + 256) { s = s + f64(ld_a(xb + j * P.xsd)) * f64(ld_b(gb + j * P.gsd)); }
s = tree_(lid, s, false);
for (var j = i32(lid); j < P.n; j = j + 256) {
  st_o(yb + j * P.ysd, TO(f64(ld_a(xb + j * P.xsd)) * (f64(ld_b(gb + j * P.gsd)) - s)));
}
