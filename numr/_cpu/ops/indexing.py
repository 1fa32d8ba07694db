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
