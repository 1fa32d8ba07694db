// cumsum/cumprod. "rows": one thread per row, sequential (short rows);
// "tiled": one workgroup per row, 256-element tiles scanned in workgroup
// memory (Hillis-Steele) with the running carry between tiles (long rows).
//# common
//@include walk.wgsl
//# rows
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
  let row = i32(g.x + g.y * nw.x * 256u);
  if (row >= P.nrows) { return; }
  let xb = P.xoff + walk(row, P.kdim, P.kshape, P.kxs);
  let yb = P.yoff + walk(row, P.kdim, P.kshape, P.kys);
  // the first element starts the chain as it is (IDENT + -0.0 would be +0.0)
  var acc = IDENT;
  for (var j = 0; j < P.len; j = j + 1) {
    let v = ACC(ld_a(xb + walk(j, P.sdim, P.sshape, P.sxs)));
    if (j == 0) { acc = v; } else { acc = comb(acc, v); }
    st_o(yb + j * P.ys, TO(acc));
  }
}
//# tiled
var<workgroup> sh: array<ACC, 256>;
@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) w: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let row = i32(w.x + w.y * nw.x);
  if (row >= P.nrows) { return; }
  let xb = P.xoff + walk(row, P.kdim, P.kshape, P.kxs);
  let yb = P.yoff + walk(row, P.kdim, P.kshape, P.kys);
  var carry = IDENT;
  for (var t = 0; t < P.len; t = t + 256) {
    let j = t + i32(lid);
    var v = IDENT;
    if (j < P.len) { v = ACC(ld_a(xb + walk(j, P.sdim, P.sshape, P.sxs))); }
    sh[lid] = v;
    workgroupBarrier();
    for (var s = 1u; s < 256u; s = s << 1u) {
      var add = IDENT;
      if (lid >= s) { add = sh[lid - s]; }
      workgroupBarrier();
      if (lid >= s) { sh[lid] = comb(add, sh[lid]); }
      workgroupBarrier();
    }
    var r = sh[lid];
    if (t > 0) { r = comb(carry, r); }
    if (j < P.len) { st_o(yb + j * P.ys, TO(r)); }
    if (t > 0) { carry = comb(carry, sh[255]); } else { carry = sh[255]; }
    workgroupBarrier();
  }
}
//# cumsum
fn comb(a: ACC, b: ACC) -> ACC { return a + b; }
//# cumprod
fn comb(a: ACC, b: ACC) -> ACC { return a * b; }
