"""CPU implementation of the indexing op family (see numr/ops/traits/indexing.py).

Indices are checked (and negatives wrapped) by the kernel before anything is written, so an
out-of-range index raises IndexOutOfRange and leaves the tensors untouched.
"""

from __future__ import annotations

from typing import Any

from ... import dtypes as dt
from ...errors import UnsupportedDType
from ...layout import Layout, coalesce
from ...ops import prepare
from ...ops import prepare_indexing as pi
from ...ops.generic import indexing as gi
from ...ops.generic import indexing_scatter as gs
from ...tensor import Tensor
from .. import storage
from ..kernels import binary as _binary
from ..kernels import copy as _copy
from ..kernels import index as _k


def _normalized(op: str, idx: Tensor, size: int, dim: int, shape: tuple[int, ...]) -> Any:
    """int64 storage holding idx wrapped into [0, size); raises before any write."""
    k = idx.size
    norm = storage.allocate(k, dt.int64)
    if k:
        stride = idx.strides[0] if idx.ndim else 0
        bad = _k.normalize(idx._storage, idx._layout.offset, stride, k, size, norm)
        if bad >= 0:
            raise pi.out_of_range(op, int(idx.reshape(-1)[bad].item()), dim, size, shape)
    return norm


def _rest(lay: Layout, dim: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return lay.shape[:dim] + lay.shape[dim + 1:], lay.strides[:dim] + lay.strides[dim + 1:]


def _scatter_geometry(x: Tensor, dim: int, v: Tensor, target: tuple[int, ...]) -> tuple | None:
    """(v's layout broadcast to the indexed shape, the coalesced remaining dims and their x and
    v strides) of a scatter along dim; None when there is nothing to write."""
    vl = v._layout.expand(target) if v.shape != target else v._layout
    rshape, xr = _rest(x._layout, dim)
    _, vr = _rest(vl, dim)
    if 0 in rshape:
        return None
    cshape, (xrs, vrs) = coalesce(rshape, xr, vr)
    return vl, cshape, xrs, vrs


#: scatter_reduce's reductions and the dtypes with a native loop (others: the composite)
_REDUCE = {"sum": 0, "prod": 1, "mean": 2, "amax": 3, "amin": 4}
_REDUCE_DTYPES = frozenset(d.code for d in (dt.float64, dt.float32, dt.int64, dt.int32, dt.int16, dt.int8,
                                           dt.uint64, dt.uint32, dt.uint16, dt.uint8))
_LEGACY = {"add": "sum", "multiply": "prod"}


def _along(kind: int, code: int, op: int, incl: bool, d: int, index: Tensor, out: Tensor, x: Tensor,
           src: Tensor | None = None, cnt: Tensor | None = None) -> int:
    """Runs index_scatter.h's gather (kind 0), scatter (1) or scatter_reduce (2) over the
    index's positions; returns 0, 1 (an index out of range) or -1 (no loop for the dtype)."""
    rshape = index.shape[:d] + index.shape[d + 1:]
    rst, dst, opnds = [], [], []
    for t in (out, x, index, src, cnt):
        if t is None:
            rst.append((0,) * len(rshape))
            dst.append(0)
            opnds.append(None)
        else:
            st = t._layout.strides
            rst.append(st[:d] + st[d + 1:])
            dst.append(st[d])
            opnds.append((t._storage, t._layout.offset, t.dtype.itemsize))
    cshape, cst = coalesce(rshape, *rst)
    return _k.along_dim(kind, code, op, int(incl), tuple(opnds), cshape, tuple(cst), tuple(dst),
                        index.shape[d], x.shape[d])


def _int64(client: Any, index: Tensor) -> Tensor:
    """The index as the kernels read it (int64)."""
    return index if index.dtype is dt.int64 else client.cast(index, dt.int64)


def _scatter_operands(client: Any, op: str, x: Tensor, dim: int, index: Tensor,
                      src: Tensor) -> tuple[int, Tensor, Tensor | None, Tensor | None]:
    """scatter's and scatter_reduce's kernel operands: the checked dim, a copy of x to write into,
    the int64 index and src in x's dtype (index and src None for an empty index: the copy is the
    result)."""
    d = gi.check_index(op, tuple(x.shape), dim, index, limit=tuple(src.shape))
    out = client._fresh(x)
    if index.size == 0:
        return d, out, None, None
    return d, out, _int64(client, index), src if src.dtype is x.dtype else client.cast(src, x.dtype)


class IndexingCpu:
    """Mixin of CpuClient: gathers/scatters along a dim and nonzero."""

    def index_select(self, x: Tensor, dim: int, index: Any) -> Tensor:
        dim = pi.target_dim("index_select", self, x, dim)
        idx = pi.index_vector("index_select", self, index)
        norm = _normalized("index_select", idx, x.shape[dim], dim, x.shape)
        k = idx.size
        out = storage.empty(self.device, x.shape[:dim] + (k,) + x.shape[dim + 1:], x.dtype)
        if out.size == 0:
            return out
        xl, ol = x._layout, out._layout
        rshape, xr = _rest(xl, dim)
        _, orr = _rest(ol, dim)
        cshape, (xrs, ors) = coalesce(rshape, xr, orr)
        _k.select(x.dtype.itemsize, x._storage, xl.offset, xl.strides[dim], out._storage, ol.offset,
                  ol.strides[dim], norm, k, cshape, xrs, ors)
        return out

    def index_put_(self, x: Tensor, dim: int, index: Any, values: Any) -> Tensor:
        """x[..., index[i], ...] = values[..., i, ...] along dim (values broadcast and cast to
        x's dtype; a repeated index keeps the last value); returns x."""
        dim = pi.target_dim("index_put_", self, x, dim)
        idx = pi.index_vector("index_put_", self, index)
        k = idx.size
        target, v = pi.put_values(self, x, dim, k, values)
        xl = x._layout
        norm = _normalized("index_put_", idx, x.shape[dim], dim, x.shape)
        if k == 0:
            return x
        if v.dtype is not x.dtype or _copy.overlaps(x._storage, x.dtype.code, *xl.extent(), v._storage,
                                                    v.dtype.code, *v._layout.extent()):
            v = self.cast(v, x.dtype)
        geo = _scatter_geometry(x, dim, v, target)
        if geo is None:
            return x
        vl, cshape, xrs, vrs = geo
        _k.put(x.dtype.itemsize, x._storage, xl.offset, xl.strides[dim], v._storage, vl.offset, vl.strides[dim],
               norm, k, cshape, xrs, vrs)
        return x

    def index_add_(self, x: Tensor, dim: int, index: Any, source: Any, alpha: Any = 1) -> Tensor:
        """x[..., index[i], ...] += alpha * source[..., i, ...] along dim, indices in order (a
        repeated index accumulates, the same sums on every run); returns x."""
        dim = pi.target_dim("index_add_", self, x, dim)
        idx = pi.index_vector("index_add_", self, index)
        k = idx.size
        target, v = pi.add_source(self, x, dim, k, source, alpha)
        xl = x._layout
        norm = _normalized("index_add_", idx, x.shape[dim], dim, x.shape)
        if k == 0:
            return x
        if _copy.overlaps(x._storage, x.dtype.code, *xl.extent(), v._storage, v.dtype.code, *v._layout.extent()):
            v = v.clone()
        geo = _scatter_geometry(x, dim, v, target)
        if geo is None:
            return x
        vl, cshape, xrs, vrs = geo
        if _binary.index_add(x.dtype.code, x._storage, xl.offset, xl.strides[dim], v._storage, vl.offset,
                             vl.strides[dim], norm, k, cshape, xrs, vrs) < 0:
            raise UnsupportedDType("cpu", "index_add_", x.dtype)
        return x

    def nonzero(self, x: Tensor) -> Tensor:
        """int64 (count, ndim) coordinates of the non-zero elements, row-major order."""
        prepare.check_device("nonzero", self, x)
        b = x if x.dtype is dt.bool_ and x.is_contiguous() else self.cast(x, dt.bool_)
        n = b.size
        count = _k.count_nonzero(b._storage, b._layout.offset, n) if n else 0
        out = storage.empty(self.device, (count, x.ndim), dt.int64)
        if count and x.ndim:
            _k.nonzero_coords(b._storage, b._layout.offset, n, x.shape, out._storage)
        return out

    def gather(self, x: Tensor, dim: int, index: Any) -> Tensor:
        """One pass over the index (the range check inside it; on a bad index the output is
        dropped and the composite names the first one)."""
        index = gi.prepare_index(x, index)
        if not isinstance(x, Tensor) or not isinstance(index, Tensor) or x.ndim == 0:
            return gi.gather_any(x, dim, index)
        prepare.check_device("gather", self, x, index)
        d = gi.check_index("gather", x.shape, dim, index)
        idx = _int64(self, index)
        out = storage.empty(self.device, index.shape, x.dtype)
        if out.size and _along(0, x.dtype.itemsize, 0, False, d, idx, out, x) != 0:
            return gi.gather_any(x, dim, index)
        return out

    def scatter_reduce(self, x: Tensor, dim: int, index: Any, src: Any, reduce: str,
                       include_self: bool = True) -> Tensor:
        """A copy of x, then one ordered pass of the index per phase (index_scatter.h), for the
        float32/64 and integer dtypes; the composite for the rest and for bad input."""
        index = gi.prepare_index(x, index)
        if not (isinstance(x, Tensor) and isinstance(src, Tensor) and isinstance(index, Tensor)) \
                or reduce not in _REDUCE or x.ndim == 0 or src.ndim != x.ndim \
                or x.dtype.code not in _REDUCE_DTYPES:
            return gs.scatter_reduce_any(x, dim, index, src, reduce, include_self)
        prepare.check_device("scatter_reduce", self, x, index, src)
        d, out, idx, s = _scatter_operands(self, "scatter_reduce", x, dim, index, src)
        if idx is None:
            return out
        op = _REDUCE[reduce]
        cnt = storage.empty(self.device, out.shape, dt.int64) if op == 2 else None
        if _along(2, x.dtype.code, op, include_self, d, idx, out, x, s, cnt) != 0:
            return gs.scatter_reduce_any(x, dim, index, src, reduce, include_self)
        return out

    def scatter(self, x: Tensor, dim: int, index: Any, src: Any = None, value: Any = None,
                reduce: str | None = None) -> Tensor:
        """A copy of x, then the values put in index order (the last writer wins); reduce
        'add'/'multiply' through scatter_reduce."""
        index = gi.prepare_index(x, index)
        if isinstance(src, prepare.SCALAR_TYPES) or (isinstance(src, Tensor) and value is None and src.ndim == 0):
            src, value = None, src  # the value overload, as the composite
        if not isinstance(x, Tensor) or not isinstance(index, Tensor) or x.ndim == 0 \
                or (src is None) == (value is None) or (src is not None and (not isinstance(src, Tensor)
                                                                             or src.ndim != x.ndim)) \
                or (value is not None and not isinstance(value, (*prepare.SCALAR_TYPES, Tensor))) \
                or (reduce is not None and reduce not in _LEGACY):
            return gs.scatter_any(x, dim, index, src, value, reduce)
        prepare.check_device("scatter", self, x, index, *([src] if src is not None else []))
        if src is None:
            v = gs.scalar_like("scatter", value, x)
            src = v.broadcast_to(index.shape)
        if reduce is not None:
            return self.scatter_reduce(x, dim, index, src, _LEGACY[reduce])
        d, out, idx, s = _scatter_operands(self, "scatter", x, dim, index, src)
        if idx is None:
            return out
        if _along(1, x.dtype.itemsize, 0, False, d, idx, out, x, s) != 0:
            return gs.scatter_any(x, dim, index, src, None, reduce)
        return out

    def scatter_(self, x: Tensor, dim: int, index: Any, src: Any = None, value: Any = None,
                 reduce: str | None = None) -> Tensor:
        """scatter written into x (a tensor; not differentiable)."""
        self.copy_(x, self.scatter(x, dim, index, src, value, reduce))
        return x

    def _fresh(self, x: Tensor) -> Tensor:
        out = storage.empty(self.device, x.shape, x.dtype)
        if out.size:
            self.copy_(out, x)
        return out
