// Reductions: one workgroup per (output element, part of the reduced range);
// each thread folds a strided slice, then a tree in workgroup memory.
// Pass 1 reads x through its kept (k*) and reduced (r*) dims; later passes
// combine the partial results (and, for argmax/argmin, their indices).
//# main
var<workgroup> sv: array<ACC, 256>;
var<workgroup> si: array<i32, 256>;

//@include walk.wgsl

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) w: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let wid = i32(w.x + w.y * nw.x);
  let o = wid / P.parts;
  let p = wid % P.parts;
  let chunk = (P.nin + P.parts - 1) / P.parts;
  let start = p * chunk;
  let stop = min(start + chunk, P.nin);
  var acc = IDENT;
  var idx = 2147483647;
  if (o < P.nout) {
    let base = P.off + walk(o, P.kdim, P.kshape, P.kst);
    for (var j = start + i32(lid); j < stop; j = j + 256) {
      {{LOAD}}
      {{FOLD}}
    }
  }
  sv[lid] = acc;
  si[lid] = idx;
  workgroupBarrier();
  for (var s = 128u; s > 0u; s = s >> 1u) {
    if (lid < s) {
      let va = sv[lid];
      let ia = si[lid];
      let vb = sv[lid + s];
      let ib = si[lid + s];
      {{TREE}}
    }
    workgroupBarrier();
  }
  if (lid == 0u && o < P.nout) {
    let r = sv[0];
    let ri = si[0];
    {{STORE}}
  }
}
//# sum
fn comb(a: ACC, b: ACC) -> ACC { return a + b; }
//# prod
fn comb(a: ACC, b: ACC) -> ACC { return a * b; }
//# max:F
fn comb(a: ACC, b: ACC) -> ACC { if (!(a == a)) { return a; } if (!(b == b)) { return b; } return max(a, b); }
//# max
fn comb(a: ACC, b: ACC) -> ACC { return max(a, b); }
//# min:F
fn comb(a: ACC, b: ACC) -> ACC { if (!(a == a)) { return a; } if (!(b == b)) { return b; } return min(a, b); }
//# min
fn comb(a: ACC, b: ACC) -> ACC { return min(a, b); }
//# any
fn comb(a: ACC, b: ACC) -> ACC { return a | b; }
//# all
fn comb(a: ACC, b: ACC) -> ACC { return a & b; }
//# argmax:F
fn better(va: ACC, ia: i32, vb: ACC, ib: i32) -> bool {
  let an = !(va == va);
  let bn = !(vb == vb);
  if (an || bn) { if (an && bn) { return ib < ia; } return bn; }
  return vb > va || (vb == va && ib < ia);
}
//# argmax
fn better(va: ACC, ia: i32, vb: ACC, ib: i32) -> bool { return vb > va || (vb == va && ib < ia); }
//# argmin:F
fn better(va: ACC, ia: i32, vb: ACC, ib: i32) -> bool {
  let an = !(va == va);
  let bn = !(vb == vb);
  if (an || bn) { if (an && bn) { return ib < ia; } return bn; }
  return vb < va || (vb == va && ib < ia);
}
//# argmin
fn better(va: ACC, ia: i32, vb: ACC, ib: i32) -> bool { return vb < va || (vb == va && ib < ia); }
//# lowest:F
fn lowest() -> ACC { return -inf_(); }
fn highest() -> ACC { return inf_(); }
//# lowest:i
fn lowest() -> ACC { return -2147483647i - 1i; }
fn highest() -> ACC { return 2147483647i; }
//# lowest:l
fn lowest() -> ACC { return -9223372036854775807li - 1li; }
fn highest() -> ACC { return 9223372036854775807li; }
//# lowest:u
fn lowest() -> ACC { return 0u; }
fn highest() -> ACC { return 4294967295u; }
//# lowest:m
fn lowest() -> ACC { return 0lu; }
fn highest() -> ACC { return 18446744073709551615lu; }
//# lowest:b
fn lowest() -> ACC { return 0u; }
fn highest() -> ACC { return 1u; }
