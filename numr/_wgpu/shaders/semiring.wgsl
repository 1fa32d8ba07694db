// semiring_matmul on matmul.wgsl's tiled skeleton: `mac` is the semiring's fold of its combine,
// `fold` the epilogue that joins the halves of a k split (numr/_wgpu/ops/matmul.py), `ident`
// the fold's identity (ZERO). Only the valid depth of each k step is folded (KMAX), so padding
// never enters a sum that could wrap. min/max propagate NaN (as binary.wgsl's minimum/maximum).
//# helpers:F
fn sr_min(x: ACC, y: ACC) -> ACC { if (!(x == x) || !(y == y)) { return x + y; } return min(x, y); }
fn sr_max(x: ACC, y: ACC) -> ACC { if (!(x == x) || !(y == y)) { return x + y; } return max(x, y); }
//# helpers
fn sr_min(x: ACC, y: ACC) -> ACC { return min(x, y); }
fn sr_max(x: ACC, y: ACC) -> ACC { return max(x, y); }
//# min_plus
fn mac(acc: ACC, a: ACC, b: ACC) -> ACC { return sr_min(acc, a + b); }
//# max_plus
fn mac(acc: ACC, a: ACC, b: ACC) -> ACC { return sr_max(acc, a + b); }
//# max_min
fn mac(acc: ACC, a: ACC, b: ACC) -> ACC { return sr_max(acc, sr_min(a, b)); }
//# min_max
fn mac(acc: ACC, a: ACC, b: ACC) -> ACC { return sr_min(acc, sr_max(a, b)); }
//# plus_max
fn mac(acc: ACC, a: ACC, b: ACC) -> ACC { return acc + sr_max(a, b); }
//# fold_min
v = sr_min(v, ACC(ld_c(P.qoff + walk(z, P.bdim, P.bshape, P.qbs) + r * P.rsq + c * P.csq)));
//# fold_max
v = sr_max(v, ACC(ld_c(P.qoff + walk(z, P.bdim, P.bshape, P.qbs) + r * P.rsq + c * P.csq)));
//# fold_sum
v = v + ACC(ld_c(P.qoff + walk(z, P.bdim, P.bshape, P.qbs) + r * P.rsq + c * P.csq));
//# hi:f
bitcast<f32>(0x7f800000u)
//# lo:f
bitcast<f32>(0xff800000u)
//# hi:i
2147483647
//# lo:i
bitcast<i32>(0x80000000u)
//# hi:u
4294967295u
//# lo:u
0u
