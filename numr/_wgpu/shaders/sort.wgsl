// sort and searchsorted. Each element maps to an order-preserving unsigned key KT (u32, or
// vec2<u32> (lo, hi) for 64-bit dtypes) computed from its raw bits: -0.0 -> +0.0, every NaN ->
// the largest key, sign-flip trick; signed ints flip the sign bit; descending complements the
// key. Pairs (key, row index) compare on the PAIR, so the bitonic network is stable. A row is
// padded to a power of two P with sentinel pairs (KMAX, i >= n), which sort after every element.
// "main" sorts chunks of slots in workgroup memory, its LOAD/STORE slots filled per use: whole
// rows (P <= LCAP, several short rows per workgroup) from x to the outputs; for longer rows,
// chunks of LCAP from x into the global pairs K/I, then per stage "step" (up to three global
// compare-exchange strides >= LCAP per dispatch) and "main" from K/I to K/I for the stage's
// short strides (to the outputs for the last stage).
//# common
fn rkey(b: RAW) -> KT {
  let k = key(b);
  if (P.desc != 0) { return ~k; }
  return k;
}
fn pless(ka: KT, ia: u32, kb: KT, ib: u32) -> bool { return kless(ka, kb) || (keq(ka, kb) && ia < ib); }
//# k32
alias KT = u32;
const KMAX: u32 = 0xffffffffu;
fn kless(a: u32, b: u32) -> bool { return a < b; }
fn keq(a: u32, b: u32) -> bool { return a == b; }
//# k64
alias KT = vec2<u32>;
const KMAX: vec2<u32> = vec2<u32>(0xffffffffu, 0xffffffffu);
fn kless(a: vec2<u32>, b: vec2<u32>) -> bool { return a.y < b.y || (a.y == b.y && a.x < b.x); }
fn keq(a: vec2<u32>, b: vec2<u32>) -> bool { return all(a == b); }
//# key_f32
fn key(b: u32) -> u32 {
  if ((b & 0x7fffffffu) > 0x7f800000u) { return 0xffffffffu; }
  let c = select(b, 0u, b == 0x80000000u);
  return select(c | 0x80000000u, ~c, (c & 0x80000000u) != 0u);
}
//# key_f16
fn key(b: u32) -> u32 {
  if ((b & 0x7fffu) > 0x7c00u) { return 0xffffffffu; }
  let c = select(b, 0u, b == 0x8000u);
  return select(c | 0x8000u, (~c) & 0xffffu, (c & 0x8000u) != 0u);
}
//# key_bf16
fn key(b: u32) -> u32 {
  if ((b & 0x7fffu) > 0x7f80u) { return 0xffffffffu; }
  let c = select(b, 0u, b == 0x8000u);
  return select(c | 0x8000u, (~c) & 0xffffu, (c & 0x8000u) != 0u);
}
//# key_s8
fn key(b: u32) -> u32 { return b ^ 0x80u; }
//# key_s16
fn key(b: u32) -> u32 { return b ^ 0x8000u; }
//# key_s32
fn key(b: u32) -> u32 { return b ^ 0x80000000u; }
//# key_u
fn key(b: u32) -> u32 { return b; }
//# key_f64
fn key(b: vec2<u32>) -> vec2<u32> {
  let a = b.y & 0x7fffffffu;
  if (a > 0x7ff00000u || (a == 0x7ff00000u && b.x != 0u)) { return KMAX; }
  if (b.y == 0x80000000u && b.x == 0u) { return vec2<u32>(0u, 0x80000000u); }
  if ((b.y & 0x80000000u) != 0u) { return ~b; }
  return vec2<u32>(b.x, b.y | 0x80000000u);
}
//# key_s64
fn key(b: vec2<u32>) -> vec2<u32> { return vec2<u32>(b.x, b.y ^ 0x80000000u); }
//# key_u64
fn key(b: vec2<u32>) -> vec2<u32> { return b; }
//# shared
var<workgroup> sk: array<KT, LCAP>;
var<workgroup> si: array<u32, LCAP>;
// compare-exchange of shared pairs p < p^j; ascending where the row position of slot p (flat
// position f0 + p modulo plen) has bit k clear
fn cx(p: u32, j: u32, k: u32, f0: u32) {
  let q = p | j;
  let a = sk[p];
  let b = sk[q];
  let ia = si[p];
  let ib = si[q];
  if (pless(b, ib, a, ia) == (((f0 + p) & (u32(P.plen) - 1u) & k) == 0u)) {
    sk[p] = b; sk[q] = a; si[p] = ib; si[q] = ia;
  }
}
// slot p's pair: x's element at the flat position f0 + p (row f / plen, position f % plen), or
// the sentinel past the row's end or the last row
fn load_x(f0: u32, p: u32) {
  let f = f0 + p;
  let row = f / u32(P.plen);
  let i = f & (u32(P.plen) - 1u);
  if (row < u32(P.nrows) && i < u32(P.len)) {
    sk[p] = rkey(ld_a(P.xoff + i32(row) * P.len + i32(i)));
  } else {
    sk[p] = KMAX;
  }
  si[p] = i;
}
//# main
// A workgroup per chunk of C slots of the flat (row, padded position) range: part of one row
// (C < plen) or C / plen whole rows.
@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) w: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let C = u32(P.chunk);
  let f0 = (w.x + w.y * nw.x + u32(P.t0)) * C;  // t0: the dispatch's first chunk
  if (f0 >= u32(P.nrows) * u32(P.plen)) { return; }
  for (var p = lid; p < C; p = p + 256u) {
    {{LOAD}}
  }
  workgroupBarrier();
  for (var k = u32(P.k0); k <= u32(P.k1); k = k << 1u) {
    for (var j = min(k, C) >> 1u; j > 0u; j = j >> 1u) {
      for (var t = lid; t < C / 2u; t = t + 256u) { cx(2u * t - (t & (j - 1u)), j, k, f0); }
      workgroupBarrier();
    }
  }
  for (var p = lid; p < C; p = p + 256u) {
    {{STORE}}
  }
}
//# step
// P.s consecutive global strides (P.j << (P.s - 1)) down to P.j of stage P.k1 at once: a thread
// holds the 2**s pairs at base + m * P.j (m < 2**s) in registers.
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gi: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
  let t = gi.x + gi.y * nw.x * 256u;
  let ns = u32(P.s);
  let m = 1u << ns;
  let per = u32(P.plen) >> ns;        // threads per row
  if (t >= u32(P.nrows) * per) { return; }
  let row = t / per;
  let tt = t % per;
  let j = u32(P.j);
  let p0 = (tt / j) * (j << ns) + (tt % j);  // s zero bits inserted at stride j
  let base = i32(row) * P.plen + i32(p0);
  let asc = (p0 & u32(P.k1)) == 0u;   // the stage bit lies above every stride of the run
  var kr: array<KT, 8>;
  var ir: array<u32, 8>;
  for (var e = 0u; e < m; e = e + 1u) {
    kr[e] = ld_k(base + i32(e * j));
    ir[e] = ld_i(base + i32(e * j));
  }
  for (var h = m >> 1u; h > 0u; h = h >> 1u) {
    for (var e = 0u; e < m; e = e + 1u) {
      if ((e & h) == 0u) {
        let f = e | h;
        let a = kr[e];
        let b = kr[f];
        let ia = ir[e];
        let ib = ir[f];
        if (pless(b, ib, a, ia) == asc) { kr[e] = b; kr[f] = a; ir[e] = ib; ir[f] = ia; }
      }
    }
  }
  for (var e = 0u; e < m; e = e + 1u) {
    st_k(base + i32(e * j), kr[e]);
    st_i(base + i32(e * j), ir[e]);
  }
}
//# search
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gi: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
  let t = i32(gi.x + gi.y * nw.x * 256u);
  if (t >= P.nrows) { return; }
  let e = P.t0 + t;                    // the value's element index
  let sb = P.xoff + select(0, e / P.k0, P.k1 != 0) * P.len;  // its sorted row (N-d sequences)
  let v = key(ld_b(P.voff + e));
  var lo = 0;
  var hi = P.len;
  while (lo < hi) {
    let mid = (lo + hi) >> 1;
    let km = key(ld_a(sb + mid));
    var go = kless(km, v);
    if (P.desc != 0) { go = !kless(v, km); }
    if (go) { lo = mid + 1; } else { hi = mid; }
  }
  st_o(P.ooff + t, TI(lo));
}
