"""Masked and index-list composites of the indexing family (torch semantics), written once with
numr's public functions so that they run on every backend and autograd (reverse and forward)
differentiates them through their parts: masked_fill/index_fill (a where), masked_select (nonzero,
then index_select), masked_scatter (a running count of the mask picks source's elements), take /
take_along_dim (flat positions, then index_select / gather), index_copy and put (repeated indices
keep the last, as scatter) and embedding (index_select of rows). In-place forms write the functional
result into x (tensors only; not differentiable)."""

from __future__ import annotations

from typing import Any

from ...errors import DTypeError, IndexOutOfRange, ShapeError
from ...shapes import normalize_dim
from ...tensor import Tensor
from ..prepare import plain
from ..prepare_indexing import out_of_range
from .indexing import flat_positions, prepare_index
from .indexing_scatter import counts, fresh, last_writers, scalar_like, traced


def _mask(op: str, x: Any, mask: Any) -> Any:
    """mask as a bool tensor broadcast to x's shape (DTypeError if not bool, ShapeError if it does
    not broadcast to x)."""
    import numr as nr
    mask = prepare_index(x, mask)
    if mask.dtype is not nr.bool_:
        raise DTypeError(f"{op}: mask must be a bool tensor, got dtype {mask.dtype} (shape {tuple(mask.shape)}; "
                         f"tensor shape {tuple(x.shape)}, dtype {x.dtype})")
    try:
        ok = nr.broadcast_shapes(tuple(mask.shape), tuple(x.shape)) == tuple(x.shape)
    except (ShapeError, ValueError):
        ok = False
    if not ok:
        raise ShapeError(f"{op}: mask of shape {tuple(mask.shape)} does not broadcast to the tensor's shape "
                         f"{tuple(x.shape)}")
    return mask


def _wrapped(op: str, x: Any, d: int, index: Any) -> Any:
    """A 1-d (or 0-d) integer index along dim d as int64 in [0, size): negative ones count from the
    end; out of range raises IndexOutOfRange naming op, dim, size and shape."""
    import numr as nr
    index = prepare_index(x, index)
    if not index.dtype.is_integer:
        raise DTypeError(f"{op}: index must be an integer tensor, got dtype {index.dtype} (tensor shape "
                         f"{tuple(x.shape)})")
    if index.ndim > 1:
        raise ShapeError(f"{op}: index must be 1-d, got shape {tuple(index.shape)} (tensor shape {tuple(x.shape)})")
    size = x.shape[d] if x.ndim else 1
    idx = nr.cast(index.reshape(-1), nr.int64)
    if idx.shape[0]:
        bad = (idx < -size) | (idx >= size)
        if bool(nr.any(bad).item()):
            first = int(nr.argmax(nr.cast(bad, nr.int8)).item())
            raise out_of_range(op, int(idx[first].item()), d, size, tuple(x.shape))
    return nr.where(idx < 0, idx + size, idx)


def _along(t: Any, nd: int, d: int) -> Any:
    """A 1-d tensor reshaped to broadcast along dim d of an nd-dim tensor."""
    return t.reshape(tuple(-1 if i == d else 1 for i in range(nd))) if nd else t.reshape(())


def masked_fill_any(x: Any, mask: Any, value: Any) -> Any:
    """x with value (a scalar or 0-d tensor, cast to x's dtype) where mask (bool, broadcast to x) is true."""
    import numr as nr
    m = _mask("masked_fill", x, mask)
    return nr.where(m, scalar_like("masked_fill", value, x), x)


def masked_select_any(x: Any, mask: Any) -> Any:
    """1-d: the elements of x where mask is true, in row-major order (x and mask broadcast together)."""
    import numr as nr
    mask = prepare_index(x, mask)
    if mask.dtype is not nr.bool_:
        raise DTypeError(f"masked_select: mask must be a bool tensor, got dtype {mask.dtype} "
                         f"(tensor shape {tuple(x.shape)}, dtype {x.dtype})")
    shape = nr.broadcast_shapes(tuple(x.shape), tuple(mask.shape))
    pos = nr.nonzero(nr.broadcast_to(mask, shape).reshape(-1)).reshape(-1)
    return nr.index_select(nr.broadcast_to(x, shape).reshape(-1), 0, pos)


def masked_scatter_any(x: Any, mask: Any, source: Any) -> Any:
    """x with its masked positions (row-major) filled by source's first elements in order."""
    import numr as nr
    m = nr.broadcast_to(_mask("masked_scatter", x, mask), tuple(x.shape)).reshape(-1)
    if not hasattr(source, "shape"):
        raise ShapeError(f"masked_scatter: source must be a tensor, got {type(source).__name__}")
    rank = nr.cumsum(nr.cast(m, nr.int64), 0) - 1
    need = int(rank[-1].item()) + 1 if rank.shape[0] else 0
    if need > source.size:
        raise ShapeError(f"masked_scatter: the mask selects {need} elements but source (shape "
                         f"{tuple(source.shape)}) has only {source.size} (tensor shape {tuple(x.shape)})")
    if need == 0:
        return fresh(x)
    src = source.reshape(-1)
    if src.dtype is not x.dtype:
        src = nr.cast(src, x.dtype)
    picked = nr.index_select(src, 0, nr.maximum(rank, 0))
    return nr.where(m, picked, x.reshape(-1)).reshape(x.shape)


def index_fill_any(x: Any, dim: int, index: Any, value: Any) -> Any:
    """x with value (scalar or 0-d tensor) in the slices index names along dim."""
    import numr as nr
    d = normalize_dim(dim, max(x.ndim, 1), "index_fill")
    idx = _wrapped("index_fill", x, d, index)
    v = scalar_like("index_fill", value, x)
    hit = counts(idx, x.shape[d] if x.ndim else 1) > 0
    return nr.where(_along(hit, x.ndim, d), v, x)


def index_copy_any(x: Any, dim: int, index: Any, source: Any) -> Any:
    """x with out[..., index[i], ...] = source[..., i, ...] along dim; a repeated index keeps the
    last source slice (deterministic, like scatter)."""
    import numr as nr
    d = normalize_dim(dim, max(x.ndim, 1), "index_copy")
    idx = _wrapped("index_copy", x, d, index)
    k = idx.shape[0]
    want = tuple(x.shape[:d]) + (k,) + tuple(x.shape[d + 1:]) if x.ndim else ((k,) if source.ndim else ())
    if tuple(source.shape) != want and not (x.ndim == 0 and source.size == k):
        raise ShapeError(f"index_copy: source must have shape {want} (tensor shape {tuple(x.shape)}, "
                         f"{k} indices along dim {d}), got {tuple(source.shape)}")
    if k == 0:
        return fresh(x)
    src = source if source.dtype is x.dtype else nr.cast(source, x.dtype)
    if x.ndim == 0:
        return index_copy_any(x.reshape(1), 0, idx, src.reshape(-1)).reshape(())
    if not traced(x, src):  # tensors: one copy and one ordered put (a repeated index keeps the last)
        return nr.index_put_(fresh(x), d, idx, src)
    win = last_writers(idx, x.shape[d])
    picked = nr.index_select(src, d, nr.maximum(win, 0))
    return nr.where(_along(win >= 0, x.ndim, d), picked, x)


def take_any(x: Any, index: Any) -> Any:
    """x flattened (row-major), at index (any shape; negative counts from the end); the result has
    index's shape."""
    import numr as nr
    index = prepare_index(x, index)
    flat = x.reshape(-1)
    idx = _wrapped("take", flat, 0, index.reshape(-1))
    return nr.index_select(flat, 0, idx).reshape(tuple(index.shape))


def put_any(x: Any, index: Any, source: Any, accumulate: bool = False) -> Any:
    """x (as flattened, row-major) with source's elements written at index (torch.put): a repeated
    index keeps the last, or with accumulate adds them all."""
    import numr as nr
    flat = x.reshape(-1)
    idx = _wrapped("put", flat, 0, prepare_index(x, index).reshape(-1))
    if not hasattr(source, "shape") or source.size != idx.shape[0]:
        raise ShapeError(f"put: source must have as many elements as index ({idx.shape[0]}), got "
                         f"{getattr(source, 'shape', type(source).__name__)} (tensor shape {tuple(x.shape)})")
    src = source.reshape(-1) if source.dtype is x.dtype else nr.cast(source.reshape(-1), x.dtype)
    if accumulate:
        return nr.index_add(flat, 0, idx, src).reshape(x.shape)
    return index_copy_any(flat, 0, idx, src).reshape(x.shape)


def take_along_dim_any(x: Any, indices: Any, dim: int | None = None) -> Any:
    """gather along dim with x and indices broadcast together outside dim (torch.take_along_dim,
    np.take_along_axis); dim None takes from x flattened at indices flattened."""
    import numr as nr
    indices = prepare_index(x, indices)
    if dim is None:
        return take_any(x.reshape(-1), indices.reshape(-1))
    if indices.ndim != x.ndim:
        raise ShapeError(f"take_along_dim: indices must have the tensor's {x.ndim} dims, got shape "
                         f"{tuple(indices.shape)} (tensor shape {tuple(x.shape)})")
    d = normalize_dim(dim, x.ndim, "take_along_dim")
    try:
        b = list(nr.broadcast_shapes(tuple(x.shape), tuple(indices.shape)))
    except (ShapeError, ValueError):
        b = None
    if b is None and x.ndim:
        xs, js = list(x.shape), list(indices.shape)
        xs[d] = js[d] = 1
        try:
            b = list(nr.broadcast_shapes(tuple(xs), tuple(js)))
        except (ShapeError, ValueError):
            raise ShapeError(f"take_along_dim: shapes {tuple(x.shape)} and {tuple(indices.shape)} do not broadcast "
                             f"outside dim {d}") from None
    xb = [*b]
    xb[d] = x.shape[d]
    ib = [*b]
    ib[d] = indices.shape[d]
    xb_, ib_ = nr.broadcast_to(x, tuple(xb)), nr.broadcast_to(indices, tuple(ib))
    try:  # gather: a native kernel where the backend has one
        return nr.gather(xb_, d, ib_)
    except IndexOutOfRange:
        flat_positions("take_along_dim", tuple(xb), d, ib_)  # the error named after this op
        raise


def embedding_any(input: Any, weight: Any, padding_idx: int | None = None) -> Any:  # noqa: A002
    """weight's rows at the integer ``input`` (any shape): shape input.shape + (D,) for a (N, D)
    weight. The row padding_idx gets no gradient (torch.nn.functional.embedding)."""
    import numr as nr
    if not hasattr(weight, "shape") or weight.ndim != 2:
        raise ShapeError(f"embedding: weight must be 2-d (num_embeddings, dim), got shape "
                         f"{getattr(weight, 'shape', type(weight).__name__)}")
    input = prepare_index(weight, input)  # noqa: A001
    idx = _wrapped("embedding", weight, 0, input.reshape(-1))
    n = weight.shape[0]
    if padding_idx is not None and not -n <= padding_idx < n:
        raise ShapeError(f"embedding: padding_idx {padding_idx} is out of range for {n} embeddings")
    rows = nr.index_select(weight, 0, idx)
    if padding_idx is not None and traced(weight):
        pad = (idx == padding_idx % n).reshape(-1, 1)
        rows = nr.where(pad, nr.index_select(plain(weight), 0, idx), rows)
    return rows.reshape(tuple(input.shape) + (weight.shape[1],))


def _inplace(fn: Any) -> Any:
    def m(self: Any, x: Any, *args: Any, **kwargs: Any) -> Any:
        if not isinstance(x, Tensor):
            raise DTypeError(f"{fn.__name__.removesuffix('_any')}_: in-place ops take a tensor, got {type(x).__name__}")
        self.copy_(x, fn(x, *args, **kwargs))
        return x
    m.__name__ = fn.__name__.removesuffix("_any") + "_"
    m.__doc__ = fn.__doc__
    return m


#: op name -> composite (client methods through client_methods; autograd registers the same)
COMPOSITES = {
    "masked_fill": masked_fill_any, "masked_select": masked_select_any, "masked_scatter": masked_scatter_any,
    "index_fill": index_fill_any, "index_copy": index_copy_any, "take": take_any,
    "take_along_dim": take_along_dim_any, "embedding": embedding_any, "put": put_any,
}
#: in-place methods (tensors only)
METHODS = {n + "_": _inplace(COMPOSITES[n])
           for n in ("masked_fill", "masked_scatter", "index_fill", "index_copy", "put")}
