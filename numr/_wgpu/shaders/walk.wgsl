// Element offset of linear index i in a view: shape and strides packed 4 per vec4 (up to 8 dims).
fn walk(i: i32, nd: i32, shape: array<vec4<i32>, 2>, st: array<vec4<i32>, 2>) -> i32 {
  var r = i;
  var off = 0;
  for (var d = nd - 1; d >= 0; d = d - 1) {
    let s = shape[d >> 2u][d & 3];
    off = off + (r % s) * st[d >> 2u][d & 3];
    r = r / s;
  }
  return off;
}
