// Batched matmul C[z] = A[z] @ B[z] (+ bias): 64x64 output tiles per workgroup of
// 16x16 threads, each thread a 4x4 block (rows ly+16i, cols lx+16j: coalesced
// loads and stores), K in steps of 16 through workgroup memory. Any strides:
// transposed and broadcast (stride 0) operands are read in place. ZERO (the fold's identity)
// and KMAX (16, or the valid depth of the step) are filled per kernel: semiring.wgsl's
// semiring_matmul runs this skeleton with its own mac and fold sections.
//# main
var<workgroup> As: array<array<ACC, 16>, 64>;
var<workgroup> Bs: array<array<ACC, 64>, 16>;

//@include walk.wgsl

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) w: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let z = i32(w.z);
  let row0 = i32(w.y) * 64;
  let col0 = i32(w.x) * 64;
  let lx = i32(lid % 16u);
  let ly = i32(lid / 16u);
  let ab = P.aoff + walk(z, P.bdim, P.bshape, P.abs);
  let bb = P.boff + walk(z, P.bdim, P.bshape, P.bbs);
  let cb = P.coff + walk(z, P.bdim, P.bshape, P.cbs);
  var acc: array<array<ACC, 4>, 4>;
  for (var i = 0; i < 4; i = i + 1) { for (var j = 0; j < 4; j = j + 1) { acc[i][j] = {{ZERO}}; } }
  for (var k0 = 0; k0 < P.k; k0 = k0 + 16) {
    for (var t = 0; t < 4; t = t + 1) {
      let idx = i32(lid) + t * 256;
      let r = idx / 16;
      let c = idx % 16;
      var va = {{ZERO}};
      if (row0 + r < P.m && k0 + c < P.k) { va = ACC(ld_a(ab + (row0 + r) * P.rsa + (k0 + c) * P.csa)); }
      As[r][c] = va;
      let r2 = idx / 64;
      let c2 = idx % 64;
      var vb = {{ZERO}};
      if (k0 + r2 < P.k && col0 + c2 < P.n) { vb = ACC(ld_b(bb + (k0 + r2) * P.rsb + (col0 + c2) * P.csb)); }
      Bs[r2][c2] = vb;
    }
    workgroupBarrier();
    for (var kk = 0; kk < {{KMAX}}; kk = kk + 1) {
      var av: array<ACC, 4>;
      var bv: array<ACC, 4>;
      for (var i = 0; i < 4; i = i + 1) { av[i] = As[ly + 16 * i][kk]; bv[i] = Bs[kk][lx + 16 * i]; }
      for (var i = 0; i < 4; i = i + 1) {
        for (var j = 0; j < 4; j = j + 1) { acc[i][j] = mac(acc[i][j], av[i], bv[j]); }
      }
    }
    workgroupBarrier();
  }
  for (var i = 0; i < 4; i = i + 1) {
    for (var j = 0; j < 4; j = j + 1) {
      let r = row0 + ly + 16 * i;
      let c = col0 + lx + 16 * j;
      if (r < P.m && c < P.n) {
        var v = acc[i][j];
        {{EPILOGUE}}
        st_o(cb + r * P.rsc + c * P.csc, TO(v));
      }
    }
  }
}
//# mac:b
fn mac(acc: ACC, a: ACC, b: ACC) -> ACC { return acc | (a & b); }
//# mac
fn mac(acc: ACC, a: ACC, b: ACC) -> ACC { return acc + a * b; }
//# bias:b
v = v | ACC(ld_c(P.qoff + walk(z, P.bdim, P.bshape, P.qbs) + r * P.rsq + c * P.csq));
//# bias
v = v + ACC(ld_c(P.qoff + walk(z, P.bdim, P.bshape, P.qbs) + r * P.rsq + c * P.csq));
