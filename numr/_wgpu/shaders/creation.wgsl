// Creation kernels: bodies for the element-wise skeleton (see elementwise.wgsl).
// `gi` is the element's row-major index; CV converts the computed value to TO.
//# fill
st_o(k.x, P.v);
//# copy
st_o(k.x, ld_a(k.y));
//# convert
st_o(k.x, cvt(ld_a(k.y)));
//# arange_int
st_o(k.x, cvt(P.start + TW(gi) * P.step));
//# arange_float
st_o(k.x, cvt(P.start + TW(gi) * P.step));
//# linspace
var y: TW;
if (P.stepzero != 0) {
  y = TW(gi) / P.div * P.delta;
} else {
  y = TW(gi) * P.step;
}
y = y + P.start;
if (P.endpoint != 0 && gi == P.total - 1) { y = P.stop; }
if (P.isint != 0) { y = floor(y); }
st_o(k.x, cvt(y));
//# eye
let r = gi / P.m;
let c = gi % P.m;
st_o(k.x, select(TO(0), TO(1), c - r == P.diag));
