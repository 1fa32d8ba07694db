"""CPU implementation of the indexing op family (see numr/ops/traits/indexing.py).

Indices are checked (and negatives wrapped) by the kernel before anything is written, so an
out-of-range index raises IndexOutOfRange and leaves the tensors untouched.
"""

from __future__ import annotations

from typing import Any

from ... import dtypes as dt
from ...errors import DTypeError, IndexOutOfRange, ShapeError
from ...layout import Layout, coalesce, normalize_dim
from ...ops import prepare
from ...tensor import Tensor
from .. import storage
from ..kernels import copy as _copy
from ..kernels import index as _k


def _index_vector(client: Any, op: str, index: Any) -> Tensor:
    idx = prepare.to_operand(op, client, index)
    if isinstance(idx, prepare.SCALAR_TYPES) or not isinstance(idx, Tensor):
        raise DTypeError(f"{op}: index must be an integer tensor, got {type(index).__name__}")
    if not idx.dtype.is_integer:
        raise DTypeError(f"{op}: index must have an integer dtype, got {idx.dtype}")
    if idx.ndim > 1:
        raise ShapeError(f"{op}: index must be 0-d or 1-d, got shape {idx.shape}")
    if idx.dtype is not dt.int64:
        idx = client.cast(idx, dt.int64)
    return idx


def _normalized(op: str, idx: Tensor, size: int, dim: int, shape: tuple[int, ...]) -> Any:
    """int64 storage holding idx wrapped into [0, size); raises before any write."""
    k = idx.size
    norm = storage.allocate(k, dt.int64)
    if k:
        stride = idx.strides[0] if idx.ndim else 0
        bad = _k.normalize(idx._storage, idx._layout.offset, stride, k, size, norm)
        if bad >= 0:
            value = int(idx.reshape(-1)[bad].item())
            raise IndexOutOfRange(f"{op}: index {value} is out of range for dim {dim} of size {size} "
                                  f"(tensor shape {shape})")
    return norm


def _rest(lay: Layout, dim: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return lay.shape[:dim] + lay.shape[dim + 1:], lay.strides[:dim] + lay.strides[dim + 1:]


class IndexingCpu:
    """Mixin of CpuClient: gathers/scatters along a dim and nonzero."""

    def index_select(self, x: Tensor, dim: int, index: Any) -> Tensor:
        prepare.check_device("index_select", self, x)
        if x.ndim == 0:
            raise ShapeError("index_select: needs a tensor with at least 1 dim, got a 0-d tensor")
        dim = normalize_dim(dim, x.ndim, "index_select")
        idx = _index_vector(self, "index_select", index)
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
        prepare.check_device("index_put_", self, x)
        if x.ndim == 0:
            raise ShapeError("index_put_: needs a tensor with at least 1 dim, got a 0-d tensor")
        dim = normalize_dim(dim, x.ndim, "index_put_")
        idx = _index_vector(self, "index_put_", index)
        k = idx.size
        target = x.shape[:dim] + (k,) + x.shape[dim + 1:]
        v = prepare.to_operand("index_put_", self, values)
        if isinstance(v, prepare.SCALAR_TYPES):
            v = self.full((), v, x.dtype)
        try:
            v.broadcast_to(target)
        except ShapeError:
            raise ShapeError(f"index_put_: values of shape {v.shape} cannot be broadcast to the indexed shape "
                             f"{target} (tensor shape {x.shape}, dim {dim}, {k} indices)") from None
        xl = x._layout
        if any(st == 0 and n > 1 for n, st in zip(xl.shape, xl.strides, strict=True)):
            raise ShapeError(f"index_put_: tensor of shape {x.shape} with strides {x.strides} has broadcast "
                             "(stride 0) dims and cannot be written")
        norm = _normalized("index_put_", idx, x.shape[dim], dim, x.shape)
        if k == 0:
            return x
        if v.dtype is not x.dtype or _copy.overlaps(x._storage, x.dtype.code, *xl.extent(), v._storage,
                                                    v.dtype.code, *v._layout.extent()):
            v = self.cast(v, x.dtype)
        vl = v._layout.expand(target) if v.shape != target else v._layout
        rshape, xr = _rest(xl, dim)
        _, vr = _rest(vl, dim)
        if 0 in rshape:
            return x
        cshape, (xrs, vrs) = coalesce(rshape, xr, vr)
        _k.put(x.dtype.itemsize, x._storage, xl.offset, xl.strides[dim], v._storage, vl.offset, vl.strides[dim],
               norm, k, cshape, xrs, vrs)
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
