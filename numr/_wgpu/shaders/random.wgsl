// Philox4x32-10 streams (docs/architecture.md "Random numbers"): one thread per
// block of 4 words; the same numbers as the CPU backend for the same seed/stream.
//# main
//@include mulhilo.wgsl

fn philox(block: u32, block_hi: u32) -> vec4<u32> {
  var c = vec4<u32>(block, block_hi, P.stream_lo, P.stream_hi);
  var k = vec2<u32>(P.seed_lo, P.seed_hi);
  for (var r = 0; r < 10; r = r + 1) {
    if (r > 0) { k = k + vec2<u32>(0x9E3779B9u, 0xBB67AE85u); }
    let p0 = mulhilo(0xD2511F53u, c.x);
    let p1 = mulhilo(0xCD9E8D57u, c.z);
    c = vec4<u32>(p1.x ^ c.y ^ k.x, p1.y, p0.x ^ c.w ^ k.y, p0.y);
  }
  return c;
}

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
  let b = g.x + g.y * nw.x * 256u;
  if (i32(b) >= P.nblocks) { return; }
  let w = philox(b + P.b0, 0u);
  let i0 = i32(b) * P.per;
  for (var j = 0; j < P.per; j = j + 1) {
    let i = i0 + j;
    if (i >= P.n) { break; }
    {{BODY}}
  }
}
//# rand
st_o(i, TO(f32(w[j] >> 8u) * 5.9604644775390625e-08));
//# rand_f64
st_o(i, f64(w[2 * j]) * 2.3283064365386963e-10 + f64(w[2 * j + 1] >> 11u) * 1.1102230246251565e-16);
//# randn
let w1 = w[2 * j];
var u1 = 4294967296.0;
if (w1 != 0xffffffffu) { u1 = f32(w1 + 1u); }
u1 = u1 * 2.3283064365386963e-10;
let u2 = f32(w[2 * j + 1]) * 2.3283064365386963e-10;
st_o(i, TO(sqrt(-2.0 * log(u1)) * cos(6.2831855 * u2)));
//# randn_f64
let w1 = w[2 * j];
let u1 = (f64(w1) + 1.0) * 2.3283064365386963e-10;
let u2 = f64(w[2 * j + 1]) * 2.3283064365386963e-10;
st_o(i, sqrt(-2.0 * log_d(u1)) * cos_d(6.283185307179586 * u2));
//# randint
var r = w[j];
if (P.span_lo != 0u) { r = r % P.span_lo; }
st_o(i, TO(P.low_lo + r));
//# randint64
let u = (u64(w[2 * j]) << 32u) | u64(w[2 * j + 1]);
let span = (u64(P.span_hi) << 32u) | u64(P.span_lo);
var r = u;
if (span != 0lu) { r = u % span; }
st_o(i, TO(((u64(P.low_hi) << 32u) | u64(P.low_lo)) + r));
//# randint64_small
var r = u64(w[j]);
let span = (u64(P.span_hi) << 32u) | u64(P.span_lo);
if (span != 0lu && span <= 4294967296lu) { r = r % span; }
st_o(i, TO(((u64(P.low_hi) << 32u) | u64(P.low_lo)) + r));
//# randn_wide
let w1 = w[2 * j];
var u1 = 4294967296.0;
if (w1 != 0xffffffffu) { u1 = f32(w1 + 1u); }
u1 = u1 * 2.3283064365386963e-10;
let u2 = f32(w[2 * j + 1]) * 2.3283064365386963e-10;
let lg = f32(log_d(f64(u1)));
let cs = f32(cos_d(f64(6.2831855 * u2)));
st_o(i, TO(f32(sqrt(f64(-2.0 * lg))) * cs));
