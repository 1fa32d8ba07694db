// Element-wise skeleton: one thread per output element, up to four strided
// operands (o, a, b, c) walked through one shared shape (MAXD dims, coalesced
// on the host). P.offs holds each operand's element offset inside its binding.
// BODY is the op: it reads ld_a(k.y) ... and writes st_o(k.x, ...); `gi` is the
// element's row-major index in the whole output (creation kernels use it).
//# main
fn coords(i: i32) -> vec4<i32> {
  var r = i;
  var k = P.offs;
  for (var d = P.ndim - 1; d >= 0; d = d - 1) {
    let s = P.shape[d >> 2u][d & 3];
    let c = r % s;
    r = r / s;
    k = k + c * vec4<i32>(P.st0[d >> 2u][d & 3], P.st1[d >> 2u][d & 3], P.st2[d >> 2u][d & 3], P.st3[d >> 2u][d & 3]);
  }
  return k;
}

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
  let i = i32(g.x + g.y * nw.x * 256u);
  if (i >= P.n) { return; }
  let k = coords(i);
  let gi = P.i0 + i;
  {{BODY}}
}
