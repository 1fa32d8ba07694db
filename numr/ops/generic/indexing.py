"""Composites of the indexing family, written once with numr's public functions so that they
run on every backend and, given autograd Vars or DualTensors, are differentiated through the
ops they are made of: index_add (a copy of x, then index_add_), gather and scatter_add (flat
positions of the index, then index_select / index_add_ on the flattened tensor)."""

from __future__ import annotations

from typing import Any

from ...errors import DTypeError, ShapeError, UnsupportedOperation
from ...layout import contiguous_strides
from ...shapes import normalize_dim
from .. import prepare
from ..prepare_indexing import out_of_range


def index_add(self: Any, x: Any, dim: int, index: Any, source: Any, alpha: Any = 1) -> Any:
    if getattr(self, "index_add_", None) is None:  # a backend without the kernel
        raise UnsupportedOperation(self.device.runtime_name, "index_add_", getattr(x, "dtype", None))
    out = self.empty(x.shape, x.dtype)
    self.copy_(out, x)
    return self.index_add_(out, dim, index, source, alpha)


def flat_positions(op: str, shape: tuple[int, ...], dim: int, index: Any, limit: tuple[int, ...] | None = None) -> Any:
    """For an index tensor of x's rank (its sizes at most x's outside dim, at most ``limit``'s
    everywhere when given): the int64 positions in row-major x of x[i, ..., index[i, ...], ..., k]
    (negative indices count from the end; out of range raises IndexOutOfRange). Read-only: it may
    be the index tensor itself."""
    import numr as nr
    d = check_index(op, shape, dim, index, limit)
    size = shape[d]
    idx = nr.cast(index, nr.int64)
    lo = 0
    if idx.size:  # two read-only reductions; the element-wise search only to name the first bad index
        lo, hi = int(nr.amin(idx).item()), int(nr.amax(idx).item())
        if lo < -size or hi >= size:
            bad = (idx < -size) | (idx >= size)
            first = int(nr.argmax(nr.cast(bad.reshape(-1), nr.int8)).item())
            raise out_of_range(op, int(idx.reshape(-1)[first].item()), d, size, shape)
    strides = contiguous_strides(shape)
    pos = nr.where(idx < 0, idx + size, idx) if lo < 0 else idx
    if strides[d] != 1:
        pos = pos * strides[d]
    for i, n in enumerate(index.shape):
        if i != d and n > 1:
            along = nr.arange(n, dtype=nr.int64, device=index.device) * strides[i]
            pos = pos + along.reshape(tuple(n if j == i else 1 for j in range(len(shape))))
    return pos


def check_index(op: str, shape: tuple[int, ...], dim: int, index: Any, limit: tuple[int, ...] | None = None) -> int:
    """flat_positions' checks of the index tensor (dtype, rank, sizes; not its values) for a
    tensor of ``shape``; returns dim normalized. Native kernels call it too."""
    if not hasattr(index, "dtype") or not index.dtype.is_integer:
        raise DTypeError(f"{op}: index must be an integer tensor, got {getattr(index, 'dtype', type(index).__name__)}")
    if len(shape) == 0:
        raise ShapeError(f"{op}: needs a tensor with at least 1 dim, got a 0-d tensor")
    if index.ndim != len(shape):
        raise ShapeError(f"{op}: index must have the tensor's {len(shape)} dims, got shape {index.shape}")
    d = normalize_dim(dim, len(shape), op)
    for i, (n, m) in enumerate(zip(index.shape, shape, strict=True)):
        if (i != d and n > m) or (limit is not None and n > limit[i]):
            raise ShapeError(f"{op}: index of shape {index.shape} is larger than the tensor's shape {shape}"
                             + (f" or the source's {limit}" if limit is not None else "") + f" outside dim {d}")
    return d


def gather_any(x: Any, dim: int, index: Any) -> Any:
    """out[i, ..., j, ..., k] = x[i, ..., index[i, ..., j, ..., k], ..., k] (torch.gather,
    np.take_along_axis); the index's shape may be smaller than x's outside dim."""
    import numr as nr
    pos = flat_positions("gather", x.shape, dim, prepare_index(x, index))
    return nr.index_select(x.reshape(-1), 0, pos.reshape(-1)).reshape(pos.shape)


def scatter_add_any(x: Any, dim: int, index: Any, source: Any) -> Any:
    """A copy of x with out[i, ..., index[i, ..., j, ..., k], ..., k] += source[i, ..., j, ..., k]
    (repeats accumulate; torch.scatter_add): source's leading index.shape block is used."""
    import numr as nr
    index = prepare_index(x, index)
    if source.ndim != x.ndim:
        raise ShapeError(f"scatter_add: source must have the tensor's {x.ndim} dims, got shape {source.shape}")
    pos = flat_positions("scatter_add", x.shape, dim, index, limit=source.shape)
    block = source[tuple(slice(0, n) for n in index.shape)] if source.shape != index.shape else source
    flat = nr.index_add(x.reshape(-1), 0, pos.reshape(-1), block.reshape(-1))
    return flat.reshape(x.shape)


def prepare_index(x: Any, index: Any) -> Any:
    """The index as a tensor on x's device (lists and NumPy arrays accepted)."""
    import numr as nr

    from ...tensor import Tensor
    idx = index.tensor if hasattr(index, "tensor") and not isinstance(index, Tensor) else index
    if not isinstance(idx, Tensor):
        if isinstance(idx, prepare.SCALAR_TYPES):
            raise DTypeError(f"index must be an integer tensor, got {type(index).__name__}")
        idx = nr.tensor(idx, device=x.device)
    return idx


def gather(self: Any, x: Any, dim: int, index: Any) -> Any:
    return gather_any(x, dim, index)


def scatter_add(self: Any, x: Any, dim: int, index: Any, source: Any) -> Any:
    return scatter_add_any(x, dim, index, source)
