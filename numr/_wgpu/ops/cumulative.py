"""wgpu cumsum/cumprod: a thread per short row, a workgroup scan per long row."""

from __future__ import annotations

import operator
from typing import Any

from ...errors import UnsupportedOperation
from ...layout import Layout, coalesce
from ...ops import dtype_rules, prepare
from ...shapes import numel
from ...tensor import Tensor
from .. import launch
from .. import template as tpl
from ..device import MAXD, WG, ParamSpec, dispatch_shape, window
from .binary import parts_for
from .indexing import _narrow

FILE = "scan.wgsl"
FIELDS = [("nrows", "i32"), ("len", "i32"), ("kdim", "i32"), ("sdim", "i32"), ("xoff", "i32"), ("yoff", "i32"),
          ("ys", "i32"), ("kshape", "ivec"), ("kxs", "ivec"), ("kys", "ivec"), ("sshape", "ivec"), ("sxs", "ivec")]
ACC_KIND = {"f32": "float32", "f64": "float64", "i64": "int64", "u64": "uint64", "i32": "int32", "u32": "uint32"}
TILED_MIN = 64  # rows at least this long get a workgroup each
CARRY = "st_o(k.x, op(ld_o(k.x), ld_a(k.y)));"
MAX_ROW = 1 << 20  # longer scanned rows go in segments (bounds one workgroup's running time)
#: loop iterations a "tiled" invocation spends per 256-element tile, beyond the walk of the
#: scanned dims (sdim): its tile loop plus the 8 of the Hillis-Steele steps, +2 measured. On
#: main a contiguous 1-d cumsum of ones first went wrong at element 1398018 (5461 tiles * 12)
#: and a flattened view walking 8 dims at 882946 (3449 tiles * 19).
TILE_COST = 11
#: the two row walks (<= 8 dims each) and slack
ROW_RESERVE = 64
#: a scanned dim of 4 * SEG or more with fewer than SEG_ROWS rows runs as segments of SEG in
#: parallel (one workgroup each) instead of one workgroup walking the whole row
SEG = 1 << 14
SEG_ROWS = 64


def max_row(client: Any, sdim: int) -> int:
    """The longest scanned row one dispatch takes: MAX_ROW, or less where the adapter's loop
    budget ends first ((budget - ROW_RESERVE) // (TILE_COST + sdim) tiles of 256). Short rows
    ("rows" variant, under TILED_MIN) cost at most TILED_MIN * (1 + sdim) + 16 iterations."""
    room = client.gpu.loop_room(ROW_RESERVE)
    if room is None:
        return MAX_ROW
    return max(TILED_MIN, min(MAX_ROW, room // (TILE_COST + sdim) * 256))


def _sdim(x: Tensor, d: int | None) -> int:
    """How many dims the kernel walks per scanned element (the coalesced scanned dims)."""
    if d is not None:
        return 1
    return max(1, len(coalesce(x.shape, x.strides)[0]))


def _scan(client: Any, op: str, x: Any, dim: Any, out_dtype: Any = None) -> Tensor:
    x = prepare.as_tensor(op, client, x)
    out_dtype = out_dtype or dtype_rules.sum_dtype(x.dtype)
    if dim is None:
        y, d = client.empty((x.size,), out_dtype), None
    else:
        if not isinstance(dim, int) and hasattr(dim, "__index__"):
            dim = operator.index(dim)  # NumPy integers
        d = prepare.single_dim(op, x, dim)
        if x.ndim == 0:
            return _scan(client, op, x, None, out_dtype).reshape(())
        y = client.empty(x.shape, out_dtype)
    if y.size == 0:
        return y
    kinds = (launch.kind(client, x.dtype, op), launch.kind(client, out_dtype, op))
    _split(client, op, x, y, d, kinds)
    return y


def _fits(gpu: Any, t: Tensor) -> bool:
    lo, hi = t._layout.extent()
    return (hi - lo) * t.dtype.itemsize <= gpu.max_binding - gpu.offset_align - 8


def _split(client: Any, op: str, x: Tensor, y: Tensor, d: int | None, kinds: tuple) -> None:
    """Scan x into y, in pieces that fit one storage binding with rows of at most max_row (the
    loop budget): halves along other dims first; a long scanned dim then runs as segments of
    SEG scanned side by side in one dispatch (_segmented), the rest (or, where segments cannot
    be laid out, each half) after it, combined with the last value before it."""
    fits = _fits(client.gpu, x) and _fits(client.gpu, y)
    n = x.size if d is None else x.shape[d]
    rows = x.size // max(1, n)
    mr = max_row(client, _sdim(x, d))
    segment = n >= 4 * SEG and rows < SEG_ROWS and x.ndim < MAXD
    if fits and n <= mr and not segment:
        _launch(client, op, x, y, d, kinds)
        return
    if d is None:  # a flattened scan in pieces: the 1-d scan of x's elements in order
        xf = x.reshape(-1) if x.is_contiguous() else x.contiguous().reshape(-1)
        _split(client, op, xf, y, 0, kinds)
        return
    others = [j for j in range(x.ndim) if j != d and x.shape[j] > 1]
    if others and not fits:
        j = max(others, key=lambda i: abs(y.strides[i]))
        h = x.shape[j] // 2
        for a, b in ((0, h), (h, x.shape[j])):
            _split(client, op, _narrow(x, j, a, b), _narrow(y, j, a, b), d, kinds)
        return
    seg = min(SEG, max_row(client, 1))
    if fits and x.ndim < MAXD and n >= 2 * seg:
        h = n // seg * seg
        _segmented(client, op, _narrow(x, d, 0, h), _narrow(y, d, 0, h), d, kinds, seg)
        if h == n:
            return
    else:
        h = n // 2
        _split(client, op, _narrow(x, d, 0, h), _narrow(y, d, 0, h), d, kinds)
    _split(client, op, _narrow(x, d, h, n), _narrow(y, d, h, n), d, kinds)
    _carry(client, op, _narrow(y, d, h, n), _narrow(y, d, h - 1, h).clone(), kinds)


def _carry(client: Any, op: str, seg: Tensor, carry: Tensor, kinds: tuple) -> None:
    """seg = op(seg, carry) in place, carry (size 1 along the scanned dim) broadcast over it."""
    carry = Tensor(carry._storage, Layout(seg.shape, tuple(0 if c == 1 else st for c, st in
                                                           zip(carry.shape, carry.strides, strict=True)),
                                          carry._layout.offset), carry.dtype, carry.device)
    cop = "add" if op == "cumsum" else "mul"
    parts = parts_for(client, "binary.wgsl", cop, kinds[1], seg.dtype)
    launch.elementwise(client, ("scan_carry", cop), seg, [carry], lambda: {"body": CARRY, "parts": parts},
                       kinds=[kinds[1], kinds[1]])


def _segmented(client: Any, op: str, x: Tensor, y: Tensor, d: int, kinds: tuple, seg: int) -> None:
    """A scanned dim of s * seg as s rows of seg in one dispatch (every segment in parallel),
    then the segments' last values scanned, and segment i > 0 combined with value i - 1."""
    s = x.shape[d] // seg

    def split_dim(t: Tensor) -> Tensor:
        lay = t._layout
        shape = lay.shape[:d] + (s, seg) + lay.shape[d + 1:]
        strides = lay.strides[:d] + (seg * lay.strides[d], lay.strides[d]) + lay.strides[d + 1:]
        return Tensor(t._storage, Layout(shape, strides, lay.offset), t.dtype, t.device)

    xv, yv = split_dim(x), split_dim(y)
    _launch(client, op, xv, yv, d + 1, kinds)
    lasts = _narrow(yv, d + 1, seg - 1, seg).clone()
    scanned = client.empty(lasts.shape, y.dtype)
    _split(client, op, lasts, scanned, d, (kinds[1], kinds[1]))
    _carry(client, op, _narrow(yv, d, 1, s), _narrow(scanned, d, 0, s - 1), kinds)


def _launch(client: Any, op: str, x: Tensor, y: Tensor, d: int | None, kinds: tuple) -> None:
    """One scan dispatch: x and y each within one binding."""
    shape, xs = x.shape, x.strides
    if d is None:
        kshape, kxs, kys = (), (), ()
        sshape, (sxs,) = coalesce(shape, xs)
        ys = y.strides[0]
    else:
        keep = [i for i in range(x.ndim) if i != d and shape[i] != 1]
        kshape, (kxs, kys) = coalesce([shape[i] for i in keep], [xs[i] for i in keep], [y.strides[i] for i in keep])
        sshape, sxs, ys = (shape[d],), (xs[d],), y.strides[d]
    if not sshape:
        sshape, sxs = (1,), (0,)
    if len(kshape) > MAXD or len(sshape) > MAXD:
        raise UnsupportedOperation("wgpu", op, reason=f"more than {MAXD} non-mergeable dims in {shape}")
    gpu = client.gpu
    xk, yk = kinds
    acc = tpl.KINDS[ACC_KIND[yk.ct]]
    n = numel(sshape)
    rows = y.size // n
    variant = "tiled" if n >= TILED_MIN else "rows"

    def build():
        spec = ParamSpec(FIELDS)
        parts = [tpl.sections(FILE)["common"], tpl.sections(FILE)[op]]
        src = tpl.build((FILE, variant), parts, [("o", yk, True), ("a", xk, False)],
                        {"ACC": acc.ct, "TO": yk.ct}, spec.wgsl)
        return src.replace("IDENT", "ACC(0)" if op == "cumsum" else "ACC(1)"), spec

    pipe, spec = gpu.pipeline(("scan", op, variant, xk.name, yk.name), build)
    lo, hi = x._layout.extent()
    xb, xbase = window(x._storage, lo, hi, x.dtype.itemsize, gpu.offset_align)
    lo, hi = y._layout.extent()
    yb, ybase = window(y._storage, lo, hi, y.dtype.itemsize, gpu.offset_align)
    p = {"nrows": rows, "len": n, "kdim": len(kshape), "sdim": len(sshape), "xoff": x._layout.offset - xbase,
         "yoff": y._layout.offset - ybase, "ys": ys, "kshape": list(kshape), "kxs": list(kxs), "kys": list(kys),
         "sshape": list(sshape), "sxs": list(sxs)}
    groups = rows if variant == "tiled" else -(-rows // WG)
    gpu.run([(pipe, spec, p, [yb, xb], dispatch_shape(groups))])


class CumulativeWgpu:
    """Mixin of WgpuClient: the cumulative ops."""

    def cumsum(self, x: Tensor, dim: int | None = None) -> Tensor:
        return _scan(self, "cumsum", x, dim)

    def cumprod(self, x: Tensor, dim: int | None = None) -> Tensor:
        return _scan(self, "cumprod", x, dim)
