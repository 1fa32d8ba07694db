// 2:4 structured sparse @ dense (numr/ops/traits/sparse24.py): o (m, n, contiguous) = A @ b with
// A compressed as a (values, rows rsa apart, the pair of each group adjacent) and c (uint8
// metadata, rows rsc apart: bits 0-1 the first kept column within the group, bits 2-3 the
// second). One invocation per output element; groups [q0, q1) per dispatch so the loop stays
// within the adapter's budget, a later dispatch adding to the partial sum (P.first == 0).
//# main
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
  let t = i32(gid.x + gid.y * nw.x * 64u);
  if (t >= P.m * P.n) { return; }
  let i = t / P.n;
  let j = t % P.n;
  var acc = ACC(0);
  if (P.first == 0) { acc = ACC(ld_o(P.ooff + t)); }
  let va = P.aoff + i * P.rsa;
  let mc = P.coff + i * P.rsc;
  let bb = P.boff + j * P.csb;
  for (var q = P.q0; q < P.q1; q = q + 1) {
    let c = ld_c(mc + q);
    acc = acc + ACC(ld_a(va + 2 * q)) * ACC(ld_b(bb + (4 * q + i32(c & 3u)) * P.rsb));
    acc = acc + ACC(ld_a(va + 2 * q + 1)) * ACC(ld_b(bb + (4 * q + i32((c >> 2u) & 3u)) * P.rsb));
  }
  st_o(P.ooff + t, TO(acc));
}
