"""wgpu index_select, index_put_ and nonzero.

Indices are normalised on the device (negatives wrapped, the first out-of-range
position flagged); the flag is read back to raise IndexOutOfRange before anything
is written. index_add_ runs a thread per position of the non-indexed dims, each adding the
indices in order into its own column: deterministic, no atomics, any dtype with an addition
(a 1-d x is one thread). nonzero reads back only its count (its shape depends on the data).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ... import dtypes as dt
from ...errors import UnsupportedOperation
from ...layout import Layout
from ...ops import prepare
from ...ops import prepare_indexing as pi
from ...tensor import Tensor
from .. import launch
from .. import template as tpl
from ..device import WG, Binding, ParamSpec, dispatch_shape, window

FILE = "index.wgsl"
#: indices one index_add_ dispatch loops over (bounds one thread's running time); also capped
#: by the loop budget: a thread's accumulate loop runs k1 - k0 iterations, the skeleton's coords
#: loop <= 8 more (ACC_RESERVE). Under lavapipe's 65535 KSTEP decides; a simulated budget splits finer.
KSTEP = 8192
ACC_RESERVE = 32


def _kstep(client: Any) -> int:
    room = client.gpu.loop_room(ACC_RESERVE)
    return KSTEP if room is None else max(1, min(KSTEP, room))


def _index_vector(client: Any, op: str, index: Any) -> Tensor:
    """int32 and int64 indices stay; others become int64 where the GPU has it, else int32."""
    to = dt.int64 if "shader-int64" in client.gpu.features else dt.int32
    return pi.index_vector(op, client, index, keep=(dt.int32, dt.int64), to=to)


def _normalized(client: Any, op: str, idx: Tensor, size: int, dim: int, shape: tuple) -> Tensor:
    """int32 indices wrapped into [0, size); raises IndexOutOfRange (nothing written yet)."""
    gpu = client.gpu
    k = idx.size
    norm = client.empty((k,), dt.int32)
    if k == 0:
        return norm
    ik = launch.kind(client, idx.dtype, "index_select")  # exact on widened int64, whatever the op
    fields = [("k", "i32"), ("size", "i32"), ("ioff", "i32"), ("istride", "i32")]

    def build():
        spec = ParamSpec(fields)
        decl = "@group(0) @binding(3) var<storage, read_write> bad: array<atomic<i32>>;\n"
        if ik.conv != "w64":
            decl += "fn fits_a(at_: i32) -> bool { return true; }\n"
        src = tpl.build((FILE, "normalize"), [decl], [("o", tpl.KINDS["int32"], True), ("a", ik, False)],
                        {"TA": ik.ct}, spec.wgsl)
        return src, spec

    lo, hi = idx._layout.extent()
    room = gpu.max_binding - gpu.offset_align
    if max(k * 4, (hi - lo) * idx.dtype.itemsize) > room:
        raise UnsupportedOperation("wgpu", op, idx.dtype,
                                   f"an index vector of {k} entries does not fit one storage binding")
    pipe, spec = gpu.pipeline(("normalize", ik.name), build)
    flag = gpu.upload(np.array([k], np.int32))
    ib, base = window(idx._storage, lo, hi, idx.dtype.itemsize, gpu.offset_align)
    p = {"k": k, "size": size, "ioff": idx._layout.offset - base, "istride": idx.strides[0] if idx.ndim else 0}
    gpu.run([(pipe, spec, p, [launch.whole(norm._storage), ib, launch.whole(flag)], dispatch_shape(-(-k // WG)))])
    bad = int(gpu.read(flag, 0, 4).view(np.int32)[0])
    if bad < k:
        raise pi.out_of_range(op, int(idx.reshape(-1)[bad].item()), dim, size, shape)
    return norm


def _along(t: Tensor, dim: int, norm_len: int) -> Tensor:
    """t's view with stride 0 along dim and that dim resized (the shared iteration shape)."""
    lay = t._layout
    shape = lay.shape[:dim] + (norm_len,) + lay.shape[dim + 1:]
    strides = lay.strides[:dim] + (0,) + lay.strides[dim + 1:]
    return Tensor(t._storage, Layout(shape, strides, lay.offset), t.dtype, t.device)


def _norm_view(norm: Tensor, shape: tuple, dim: int) -> Tensor:
    strides = tuple(1 if i == dim else 0 for i in range(len(shape)))
    return Tensor(norm._storage, Layout(shape, strides, 0), norm.dtype, norm.device)


def _zero_view(t: Tensor, shape: tuple) -> Tensor:
    return Tensor(t._storage, Layout(shape, (0,) * len(shape), 0), t.dtype, t.device)


def _narrow(t: Tensor, d: int, a: int, b: int) -> Tensor:
    """t[..., a:b, ...] along dim d (a view)."""
    lay = t._layout
    shape = lay.shape[:d] + (b - a,) + lay.shape[d + 1:]
    return Tensor(t._storage, Layout(shape, lay.strides, lay.offset + a * lay.strides[d]), t.dtype, t.device)


def _pieces(client: Any, x: Tensor, dim: int, lo: int = 0, maxlen: int | None = None):
    """Split x until each piece fits one storage binding: halves along the other dim of the
    largest stride first when it beats ``dim``'s (yields (piece, cuts, lo)), else along ``dim``; a
    piece along ``dim`` serves only the indices falling in its range (the kernel skips others);
    ``maxlen`` also caps a piece's length along ``dim``."""
    gpu = client.gpu
    e0, e1 = x._layout.extent()
    short = maxlen is None or x.shape[dim] <= maxlen
    if short and ((e1 - e0) * x.dtype.itemsize <= gpu.max_binding - gpu.offset_align - 8 or x.size <= 1):
        yield x, [], lo
        return
    others = [d for d in range(x.ndim) if d != dim and x.shape[d] > 1]
    d = max(others, key=lambda j: abs(x.strides[j])) if others else dim
    if others and short and (x.shape[dim] == 1 or abs(x.strides[d]) > abs(x.strides[dim])):
        h = x.shape[d] // 2
        for a, b in ((0, h), (h, x.shape[d])):
            for piece, cuts, plo in _pieces(client, _narrow(x, d, a, b), dim, lo, maxlen):
                yield piece, [(d, a, b)] + cuts, plo
        return
    h = x.shape[dim] // 2
    for a, b in ((0, h), (h, x.shape[dim])):
        yield from _pieces(client, _narrow(x, dim, a, b), dim, lo + a, maxlen)


def _cut(t: Tensor, cuts: list) -> Tensor:
    for d, a, b in cuts:
        t = _narrow(t, d, a, b)
    return t


def _index_chunks(client: Any, idx: Tensor) -> tuple[Tensor, list[tuple[int, int]]] | None:
    """Ranges of an index vector too long for one binding (its int64 input and int32
    normalised copy must each fit one), or None when it fits."""
    gpu = client.gpu
    step = (gpu.max_binding - gpu.offset_align) // 8
    if idx.size <= step:
        return None
    return idx.contiguous(), [(s, min(idx.size, s + step)) for s in range(0, idx.size, step)]


def _scatter_by_ranges(client: Any, scatter: Any, op: str, x: Tensor, dim: int, idx: Tensor, v: Tensor) -> bool:
    """A scatter (index_put_, index_add_) with an index vector too long for one binding: every
    range is checked first (nothing written on an error), then scattered in order. False when
    the vector fits one binding (the caller scatters it whole)."""
    chunks = _index_chunks(client, idx)
    if chunks is None:
        return False
    idx, ranges = chunks
    for s, e in ranges:
        _normalized(client, op, idx[s:e], x.shape[dim], dim, x.shape)
    for s, e in ranges:
        scatter(x, dim, idx[s:e], v.narrow(dim, s, e - s))
    return True


class IndexingWgpu:
    """Mixin of WgpuClient: gathers/scatters along a dim and nonzero."""

    def index_select(self, x: Tensor, dim: int, index: Any) -> Tensor:
        dim = pi.target_dim("index_select", self, x, dim)
        idx = _index_vector(self, "index_select", index)
        k = idx.size
        chunks = _index_chunks(self, idx)
        if chunks is not None:  # a long index vector: gather range by range into one result
            idx, ranges = chunks
            out = self.empty(x.shape[:dim] + (k,) + x.shape[dim + 1:], x.dtype)
            for s, e in ranges:
                self.copy_(out.narrow(dim, s, e - s), self.index_select(x, dim, idx[s:e]))
            return out
        norm = _normalized(self, "index_select", idx, x.shape[dim], dim, x.shape)
        out = self.empty(x.shape[:dim] + (k,) + x.shape[dim + 1:], x.dtype)
        if out.size == 0:
            return out
        kb = tpl.bits_kind(x.dtype)
        launch.kind(self, x.dtype, "index_select")
        nv = _norm_view(norm, out.shape, dim)
        body = tpl.sections(FILE)["gather"]
        fields = [("xsd", "i32"), ("lo", "i32"), ("len", "i32")]
        for xp, cuts, lo in _pieces(self, x, dim):
            launch.elementwise(self, ("index_select",), _cut(out, cuts), [_along(xp, dim, k), _cut(nv, cuts)],
                               lambda: {"body": body, "fields": fields},
                               values={"xsd": x.strides[dim], "lo": lo, "len": xp.shape[dim]},
                               kinds=[kb, kb, tpl.KINDS["int32"]], fixed={1: xp, 2: norm})
        return out

    def index_put_(self, x: Tensor, dim: int, index: Any, values: Any) -> Tensor:
        """x[..., index[i], ...] = values[..., i, ...] (a repeated index keeps the last value)."""
        dim = pi.target_dim("index_put_", self, x, dim)
        idx = _index_vector(self, "index_put_", index)
        k = idx.size
        target, v = pi.put_values(self, x, dim, k, values)
        v = v.broadcast_to(target)
        if _scatter_by_ranges(self, self.index_put_, "index_put_", x, dim, idx, v):
            return x
        norm = _normalized(self, "index_put_", idx, x.shape[dim], dim, x.shape)
        if k == 0 or v.size == 0:
            return x
        if v.dtype is not x.dtype or v._storage is x._storage:
            v = self.cast(v, x.dtype)
        gpu = self.gpu

        def build_w():
            spec = ParamSpec([("k", "i32"), ("lo", "i32"), ("len", "i32")])
            decl = "@group(0) @binding(2) var<storage, read_write> win: array<atomic<u32>>;\n"
            src = tpl.build((FILE, "winner"), [decl], [("a", tpl.KINDS["int32"], False)], {}, spec.wgsl)
            return src, spec

        pipe, spec = gpu.pipeline(("winner",), build_w)
        kb = tpl.bits_kind(x.dtype)
        launch.kind(self, x.dtype, "index_put_")
        body = tpl.sections(FILE)["scatter"]
        fields = [("xsd", "i32"), ("lo", "i32"), ("len", "i32")]
        wins: dict = {}  # (lo, len) -> the last writer of each position in that range of dim
        for xp, cuts, lo in _pieces(self, x, dim, maxlen=(gpu.max_binding - gpu.offset_align) // 4):
            n = xp.shape[dim]
            win = wins.get((lo, n))
            if win is None:
                win = wins[(lo, n)] = self.full((n,), 0, dt.uint32)
                gpu.run([(pipe, spec, {"k": k, "lo": lo, "len": n},
                          [launch.whole(norm._storage), launch.whole(win._storage)], dispatch_shape(-(-k // WG)))])
            ins = [v, _norm_view(norm, target, dim), _zero_view(win, target)]
            launch.elementwise(self, ("index_put_",), _along(xp, dim, k), [_cut(t, cuts) for t in ins],
                               lambda: {"body": body, "fields": fields},
                               values={"xsd": x.strides[dim], "lo": lo, "len": n},
                               kinds=[kb, kb, tpl.KINDS["int32"], tpl.KINDS["uint32"]],
                               fixed={0: xp, 2: norm, 3: win})
        return x

    def index_add_(self, x: Tensor, dim: int, index: Any, source: Any, alpha: Any = 1) -> Tensor:
        """x[..., index[i], ...] += alpha * source[..., i, ...] along dim, indices in order (a
        repeated index accumulates, the same sums on every run); returns x."""
        dim = pi.target_dim("index_add_", self, x, dim)
        kx = launch.kind(self, x.dtype, "index_add_")  # UnsupportedDType before any work
        idx = _index_vector(self, "index_add_", index)
        k = idx.size
        target, v = pi.add_source(self, x, dim, k, source, alpha)
        v = v.broadcast_to(target)
        if v._storage is x._storage:  # x's own values: add them as they were before the call
            v = v.clone()
        if _scatter_by_ranges(self, self.index_add_, "index_add_", x, dim, idx, v):
            return x
        norm = _normalized(self, "index_add_", idx, x.shape[dim], dim, x.shape)
        if k == 0 or v.size == 0:
            return x
        limit = self.gpu.max_binding - self.gpu.offset_align - 8
        body = tpl.sections(FILE)["accumulate"]
        fields = [("xsd", "i32"), ("vsd", "i32"), ("lo", "i32"), ("len", "i32"), ("k0", "i32"), ("k1", "i32")]
        for xp, cuts, lo in _pieces(self, x, dim):
            cols = _along(xp, dim, 1)  # the threads: one per position of the other dims
            vc = _cut(v, cuts)
            step = max(1, min(_kstep(self), limit // max(1, cols.size * x.dtype.itemsize)))
            for s in range(0, k, step):
                vp = _narrow(vc, dim, s, min(k, s + step))
                e0, e1 = vp._layout.extent()
                if (e1 - e0) * vp.dtype.itemsize > limit:  # a sparse view: its elements fit
                    vp = vp.contiguous()
                launch.elementwise(self, ("index_add_",), cols, [_along(vp, dim, 1), _zero_view(norm, cols.shape)],
                                   lambda: {"body": body, "fields": fields},
                                   values={"xsd": x.strides[dim], "vsd": vp.strides[dim], "lo": lo,
                                           "len": xp.shape[dim], "k0": s, "k1": min(k, s + step)},
                                   kinds=[kx, kx, tpl.KINDS["int32"]], fixed={0: xp, 1: vp, 2: norm})
        return x

    def nonzero(self, x: Tensor) -> Tensor:
        """int64 (count, ndim) coordinates of the non-zero elements, row-major order."""
        prepare.check_device("nonzero", self, x)
        b = x if x.dtype is dt.bool_ else self.cast(x, dt.bool_)
        n = b.size
        from .cumulative import _scan
        from .reduce import _reduce
        int32 = (lambda d: dt.int32)  # noqa: E731  (counts below 2**31 need no int64)
        count = int(_reduce(self, "sum", b, None, False, int32).item()) if n else 0
        out = self.empty((count, x.ndim), dt.int64)
        if count == 0 or x.ndim == 0:
            if x.ndim == 0 and count:
                return self.empty((count, 0), dt.int64)
            return out
        pos = _scan(self, "cumsum", b, None, dt.int32)
        flat = b.reshape(-1) if b.is_contiguous() else b.contiguous().reshape(-1)
        dummy = Tensor(out._storage, Layout((n,), (0,), 0), out.dtype, out.device)
        ko = launch.kind(self, dt.int64, "nonzero")
        body = tpl.sections(FILE)["coords"]
        fields = [("xnd", "i32"), ("xshape", "ivec"), ("r0", "i32"), ("rn", "i32")]
        # an output past one binding: ranges of rows, each pass writing only the rows in its range
        rows = max(1, (self.gpu.max_binding - self.gpu.offset_align - 8) // (8 * x.ndim))
        for r0 in range(0, count, rows):
            piece = out.narrow(0, r0, min(rows, count - r0))
            launch.elementwise(self, ("nonzero",), dummy, [flat, pos], lambda: {"body": body, "fields": fields},
                               values={"xnd": x.ndim, "xshape": list(x.shape), "r0": r0, "rn": piece.shape[0]},
                               kinds=[ko, tpl.KINDS["bool"], launch.kind(self, pos.dtype, "nonzero")],
                               fixed={0: piece})
        return out


__all__ = ["IndexingWgpu", "Binding"]
