"""N-d gathers and scatters of the indexing family, written once with numr's public functions (so
they run on every backend and autograd differentiates them through their parts): gather_nd and
scatter_nd (TensorFlow's / the Rust crate's: the last dim of ``indices`` indexes x's leading dims),
index_put with a tuple of index tensors (torch.index_put), and torch's slice_scatter,
select_scatter and diagonal_scatter. Each turns its indices into flat row-major positions of x
and ends in one index_select (gathers) or one ``put`` (scatters: a repeated position keeps the
last value in index order, or accumulates)."""

from __future__ import annotations

import math
from typing import Any

from ...errors import DTypeError, ShapeError
from ...shapes import normalize_dim
from ..prepare_indexing import out_of_range
from .indexing import prepare_index


def _wrapped(op: str, idx: Any, d: int, shape: tuple[int, ...]) -> Any:
    """An int64 index for dim d of ``shape``, negatives wrapped; out of range raises
    IndexOutOfRange naming ``op`` (two scalar reads: the index's min and max)."""
    import numr as nr
    idx = nr.cast(idx, nr.int64)
    size = shape[d]
    if not idx.size:
        return idx
    lo, hi = int(nr.amin(idx).item()), int(nr.amax(idx).item())
    if lo < -size or hi >= size:
        raise out_of_range(op, lo if lo < -size else hi, d, size, shape)
    return nr.where(idx < 0, idx + size, idx) if lo < 0 else idx


def _row_positions(op: str, shape: tuple[int, ...], cols: list[Any]) -> Any:
    """Row-major positions among the first len(cols) dims of ``shape`` of the (broadcast) integer
    index tensors ``cols``, one per dim."""
    pos = None
    for d, c in enumerate(cols):
        c = _wrapped(op, c, d, shape)
        pos = c if pos is None else pos * shape[d] + c
    return pos


def _nd_columns(op: str, x: Any, indices: Any) -> tuple[list[Any], tuple[int, ...]]:
    """The columns of an (..., k) integer ``indices`` for x's leading k dims."""
    indices = prepare_index(x, indices)
    if not indices.dtype.is_integer:
        raise DTypeError(f"{op}: indices must be an integer tensor, got {indices.dtype}")
    if indices.ndim == 0 or indices.shape[-1] > x.ndim:
        raise ShapeError(f"{op}: indices must be (..., k) with k <= x.ndim = {x.ndim}, got shape "
                         f"{tuple(indices.shape)} (tensor shape {tuple(x.shape)})")
    return [indices[..., j] for j in range(indices.shape[-1])] or [None], tuple(indices.shape[:-1])


def gather_nd_any(x: Any, indices: Any) -> Any:
    """out[b...] = x[indices[b..., 0], ..., indices[b..., k-1]] (x's trailing dims kept): shape
    indices.shape[:-1] + x.shape[k:] (tf.gather_nd with batch_dims=0)."""
    import numr as nr
    cols, batch = _nd_columns("gather_nd", x, indices)
    k = 0 if cols == [None] else len(cols)
    rest = tuple(x.shape[k:])
    rows = math.prod(x.shape[:k])
    pos = nr.zeros(batch, dtype=nr.int64, device=x.device) if k == 0 else _row_positions("gather_nd", x.shape, cols)
    flat = nr.index_select(x.reshape((rows,) + rest), 0, pos.reshape(-1))
    return flat.reshape(batch + rest)


def _scatter_rows(op: str, x: Any, k: int, pos: Any, values: Any, accumulate: bool) -> Any:
    """A copy of x with ``values`` (broadcast to pos.shape + x.shape[k:]) put at the rows ``pos``
    of x seen as (prod(x.shape[:k]), *x.shape[k:]): a repeated row keeps the last value in index
    order, or accumulates."""
    import numr as nr
    rest = tuple(x.shape[k:])
    r = math.prod(rest)
    target = tuple(pos.shape) + rest
    if not hasattr(values, "shape"):
        values = nr.full((), values, dtype=x.dtype, device=x.device)
    try:
        values = nr.broadcast_to(values, target)
    except (ShapeError, ValueError):
        raise ShapeError(f"{op}: values of shape {tuple(values.shape)} do not broadcast to the indexed shape "
                         f"{target} (tensor shape {tuple(x.shape)})") from None
    elem = pos.reshape(tuple(pos.shape) + (1,)) * r + nr.arange(r, dtype=nr.int64, device=x.device)
    return nr.put(x, elem.reshape(-1), values.reshape(-1), accumulate)


def index_put_any(x: Any, indices: Any, values: Any, accumulate: bool = False) -> Any:
    """A copy of x with x[indices] = values (torch.index_put): ``indices`` a tuple of integer (or
    bool) tensors for x's leading dims, broadcast together; values broadcast to the indexed shape;
    a repeated position keeps the last value in index order (deterministic), or accumulate adds."""
    import numr as nr
    if not isinstance(indices, (tuple, list)):
        raise ShapeError(f"index_put: indices must be a tuple of tensors, got {type(indices).__name__}")
    cols: list[Any] = []
    for i in indices:
        i = prepare_index(x, i)
        if i.dtype is nr.bool_:
            cols.extend(nr.nonzero(i).unbind(1) if i.ndim else [nr.nonzero(i.reshape(1)).reshape(-1)])
        elif i.dtype.is_integer:
            cols.append(i)
        else:
            raise DTypeError(f"index_put: indices must be integer or bool tensors, got {i.dtype}")
    if len(cols) > x.ndim:
        raise ShapeError(f"index_put: {len(cols)} indices for a tensor of shape {tuple(x.shape)}")
    if not cols:
        raise ShapeError(f"index_put: needs at least one index tensor (tensor shape {tuple(x.shape)})")
    try:
        b = tuple(nr.broadcast_shapes(*[tuple(c.shape) for c in cols]))
    except (ShapeError, ValueError):
        raise ShapeError(f"index_put: index shapes {[tuple(c.shape) for c in cols]} do not broadcast") from None
    pos = _row_positions("index_put", tuple(x.shape), [nr.broadcast_to(c, b) for c in cols])
    return _scatter_rows("index_put", x, len(cols), pos, values, accumulate)


def scatter_nd_any(x: Any, indices: Any, updates: Any, accumulate: bool = False) -> Any:
    """A copy of x with x[indices[b..., 0], ..., indices[b..., k-1]] = updates[b...] (tf's
    tensor_scatter_nd_update; tensor_scatter_nd_add with accumulate): gather_nd's adjoint."""
    import numr as nr
    cols, batch = _nd_columns("scatter_nd", x, indices)
    if cols == [None]:
        return _scatter_rows("scatter_nd", x.reshape((1,) + tuple(x.shape)), 1,
                             nr.zeros(batch, dtype=nr.int64, device=x.device), updates, accumulate).reshape(x.shape)
    return _scatter_rows("scatter_nd", x, len(cols), _row_positions("scatter_nd", tuple(x.shape), cols),
                         updates, accumulate)


def _embed(op: str, x: Any, src: Any, view: Any) -> Any:
    """A copy of x with src written where ``view`` (a function of a tensor of x's shape returning
    a view of it) looks: the view of x's flat positions names them."""
    import numr as nr
    where = view(nr.arange(x.size, dtype=nr.int64, device=x.device).reshape(x.shape))
    if not hasattr(src, "shape") or tuple(src.shape) != tuple(where.shape):
        raise ShapeError(f"{op}: src must have the embedded shape {tuple(where.shape)}, got "
                         f"{getattr(src, 'shape', type(src).__name__)} (tensor shape {tuple(x.shape)})")
    src = src if src.dtype is x.dtype else nr.cast(src, x.dtype)
    return nr.put(x, where.reshape(-1), src.reshape(-1))


def slice_scatter_any(x: Any, src: Any, dim: int = 0, start: int | None = None, end: int | None = None,
                      step: int = 1) -> Any:
    """A copy of x with x[..., start:end:step, ...] (along dim) = src (torch.slice_scatter)."""
    d = normalize_dim(dim, x.ndim, "slice_scatter")
    if step is None or step <= 0:
        raise ShapeError(f"slice_scatter: step must be positive, got {step}")
    sl = (slice(None),) * d + (slice(start, end, step),)
    return _embed("slice_scatter", x, src, lambda t: t[sl])


def select_scatter_any(x: Any, src: Any, dim: int, index: int) -> Any:
    """A copy of x with x.select(dim, index) = src (torch.select_scatter)."""
    d = normalize_dim(dim, x.ndim, "select_scatter")
    n = x.shape[d]
    if not -n <= index < n:
        raise out_of_range("select_scatter", index, d, n, tuple(x.shape))
    sl = (slice(None),) * d + (index,)
    return _embed("select_scatter", x, src, lambda t: t[sl])


def diagonal_scatter_any(x: Any, src: Any, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Any:
    """A copy of x with its (offset) diagonal over dim1, dim2 = src (torch.diagonal_scatter;
    src has diagonal()'s shape: the other dims, then the diagonal)."""
    import numr as nr
    return _embed("diagonal_scatter", x, src, lambda t: nr.diagonal(t, offset, dim1, dim2))


#: op name -> composite (client methods through client_methods; autograd registers the same)
COMPOSITES = {"gather_nd": gather_nd_any, "scatter_nd": scatter_nd_any, "index_put": index_put_any,
              "slice_scatter": slice_scatter_any, "select_scatter": select_scatter_any,
              "diagonal_scatter": diagonal_scatter_any}
