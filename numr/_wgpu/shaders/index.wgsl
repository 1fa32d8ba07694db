// Indexing: index normalisation (wrap negatives, flag the first out-of-range
// position), gather, last-writer-wins scatter, index_add_'s accumulation and nonzero's
// coordinates. Gather/scatter/accumulate/coords are bodies of the element-wise skeleton.
//# normalize
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
  let i = i32(g.x + g.y * nw.x * 256u);
  if (i >= P.k) { return; }
  var v = ld_a(P.ioff + i * P.istride);
  if (v < TA(0)) { v = v + TA(P.size); }
  if (v < TA(0) || v >= TA(P.size) || !fits_a(P.ioff + i * P.istride)) {
    atomicMin(&bad[0], i);
    st_o(i, 0);
  } else {
    st_o(i, i32(v));
  }
}
//# winner
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
  let i = i32(g.x + g.y * nw.x * 256u);
  if (i >= P.k) { return; }
  let t = ld_a(i) - P.lo;
  if (t >= 0 && t < P.len) { atomicMax(&win[t], u32(i + 1)); }
}
//# gather
let t = ld_b(k.z) - P.lo;
if (t >= 0 && t < P.len) { st_o(k.x, ld_a(k.y + t * P.xsd)); }
//# scatter
let t0 = ld_b(k.z);
let t = t0 - P.lo;
if (t >= 0 && t < P.len && ld_c(t) == u32(k.z + 1)) { st_o(k.x + t * P.xsd, ld_a(k.y)); }
//# accumulate
// one thread per position of the non-indexed dims: it adds indices k0..k1-1 into its own
// column of x in index order (no atomics, no races, the same sums on every run)
for (var j = P.k0; j < P.k1; j = j + 1) {
  let t = ld_b(k.z + j) - P.lo;
  if (t >= 0 && t < P.len) {
    let at = k.x + t * P.xsd;
    st_o(at, ld_o(at) + ld_a(k.y + (j - P.k0) * P.vsd));
  }
}
//# coords
let row = i32(ld_b(k.z)) - 1;
if (ld_a(k.y) != 0u && row >= P.r0 && row < P.r0 + P.rn) {
  var r = gi;
  for (var d = P.xnd - 1; d >= 0; d = d - 1) {
    let s = P.xshape[d >> 2u][d & 3];
    st_o(k.x + row * P.xnd + d, TO(r % s));
    r = r / s;
  }
}
