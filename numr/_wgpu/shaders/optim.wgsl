// Fused in-place optimizer steps (numr.optim; the composites: numr/ops/generic/optim.py) on
// contiguous float32 param, grad and state: one invocation per element, the composite's
// arithmetic in its order. numr/_wgpu/ops/optim.py puts section "adam" or "sgd" in place of
// {{UPDATE}}, and in those {{AMS}} / {{MOM}}: the amsgrad / momentum-buffer lines, present only
// when that operand is bound.
//# main
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
  let i = i32(gid.x + gid.y * nw.x * 64u);
  if (i >= P.n) { return; }
  var pi = ld_pp(P.ppoff + i);
  var gi = ld_gg(P.ggoff + i) * P.sign;
  if (P.l2 != 0) { gi = gi + pi * P.wd; }
  {{UPDATE}}
}
//# adam
  pi = pi * P.ps;
  let m0 = ld_mm(P.mmoff + i);
  let mi = m0 + (gi - m0) * P.omb1;
  var vi = fma(gi, gi * P.omb2, ld_vv(P.vvoff + i) * P.b2);
  st_mm(P.mmoff + i, mi);
  st_vv(P.vvoff + i, vi);
  {{AMS}}
  st_pp(P.ppoff + i, pi - mi / (sqrt(vi) + P.epsc) * P.ss);
//# sgd
  {{MOM}}
  st_pp(P.ppoff + i, pi - gi * P.lr);
