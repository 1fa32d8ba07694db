"""scatter and scatter_reduce (torch semantics), written once with numr's public functions so that
they run on every backend and autograd (reverse and forward) differentiates them through their parts.

Determinism: where several index elements name one position, plain scatter keeps the LAST of them
in the index's row-major order (torch leaves it unspecified): index_put_ keeps a repeated index's
last value on every backend, so tensors take one copy and one put, and traced inputs pick each
position's last writer with a where. amax/amin put the values in sorted order (the last writer is
the extreme); prod sorts the positions stably (numr's sort is stable) and multiplies each run of
equal positions by a log-depth segmented scan. The gradient of scatter's src reaches only the
winner (the derivative of this deterministic function); amax/amin split it evenly among the tied
elements, self included when include_self (as torch; torch also counts an equal self when
include_self=False, numr does not: self takes no part there)."""

from __future__ import annotations

import math
from typing import Any

from ...errors import DomainError, DTypeError, ShapeError
from ...shapes import normalize_dim
from ...tensor import Tensor
from .. import prepare
from ..prepare import plain
from .indexing import flat_positions, prepare_index

REDUCES = ("sum", "prod", "mean", "amax", "amin")
_LEGACY = {"add": "sum", "multiply": "prod"}  # scatter(..., reduce=) names


def traced(*ts: Any) -> bool:
    """Whether any argument is an autograd Var or DualTensor (so the gradient path is needed)."""
    return any(t is not None and hasattr(t, "shape") and not isinstance(t, Tensor) for t in ts)


def fresh(x: Any) -> Any:
    """A copy of x (never x itself or a view of it): functional results own their memory."""
    if isinstance(x, Tensor):
        out = x.device.client.empty(x.shape, x.dtype)
        x.device.client.copy_(out, x)
        return out
    return x.clone()


def scalar_like(op: str, value: Any, x: Any) -> Any:
    """A fill value as a 0-d tensor of x's dtype: a Python scalar or a 0-d tensor (Var too)."""
    import numr as nr
    if isinstance(value, prepare.SCALAR_TYPES):
        if isinstance(value, float) and not math.isfinite(value) and not x.dtype.is_floating_point \
                and not x.dtype.is_complex:
            raise DTypeError(f"{op}: value {value} cannot be stored in dtype {x.dtype} (tensor shape "
                             f"{tuple(x.shape)})")
        return nr.full((), value, dtype=x.dtype, device=x.device)
    if not hasattr(value, "shape") or value.ndim != 0:
        raise ShapeError(f"{op}: value must be a Python scalar or a 0-d tensor, got "
                         f"{getattr(value, 'shape', type(value).__name__)} (tensor shape {tuple(x.shape)})")
    return value if value.dtype is x.dtype else nr.cast(value, x.dtype)


def counts(pos: Any, n: int) -> Any:
    """int32 (n,) number of elements of the 1-d positions ``pos`` at each of n slots."""
    import numr as nr
    ones = nr.ones(pos.shape, dtype=nr.int32, device=pos.device)
    return nr.index_add(nr.zeros((n,), dtype=nr.int32, device=pos.device), 0, pos, ones)


def last_writers(pos: Any, n: int) -> Any:
    """(n,) int64: for each of n slots, the position in ``pos`` (1-d, index order) of the last
    element naming it, -1 where none does (index_put_ keeps a repeated index's last value on every
    backend, so this is deterministic)."""
    import numr as nr
    k = pos.shape[0]
    ar = nr.arange(k, dtype=nr.int64, device=pos.device)
    return nr.index_put_(nr.full((n,), -1, dtype=nr.int64, device=pos.device), 0, pos, ar)


class Runs:
    """The 1-d int64 positions ``pos`` (k of them, in index order) into n slots, sorted stably:
    ``order`` (k,) sorts them, ``s`` = pos[order]; ``end`` (n,) is, for each touched slot, the
    index in sorted order of its run's last element (0 for untouched ones); ``touched`` (n,) bool;
    ``longest`` the longest run (how many steps a segmented scan needs)."""

    def __init__(self, pos: Any, n: int):
        import numr as nr
        self.order = nr.argsort(pos, stable=True)
        self.s = nr.index_select(pos, 0, self.order)
        end = last_writers(self.s, n)
        self.touched = end >= 0
        self.end = nr.maximum(end, 0)
        self.longest = int(nr.amax(counts(pos, n)).item()) if n else 0

    def scan(self, v: Any, op: Any) -> Any:
        """Inclusive segmented scan of v (in sorted order) with ``op`` inside each run
        (Hillis-Steele: log2(longest run) steps, each a where over shifted slices)."""
        import numr as nr
        step, s = 1, self.s
        while step < self.longest:
            same = s[step:] == s[:-step]
            v = nr.cat([v[:step], nr.where(same, op(v[step:], v[:-step]), v[step:])])
            step *= 2
        return v

    def reduce(self, v: Any, op: Any) -> Any:
        """(n,) the reduction with ``op`` of the values v (in index order) at each slot (junk at
        untouched slots)."""
        import numr as nr
        scanned = self.scan(nr.index_select(v, 0, self.order), op)
        return nr.index_select(scanned, 0, self.end)


def _operands(op: str, x: Any, dim: int, index: Any, src: Any) -> tuple[Any, Any, Any]:
    """(x flattened, the int64 flat positions (1-d), src's leading index block flattened and cast
    to x's dtype)."""
    import numr as nr
    index = prepare_index(x, index)
    if not hasattr(src, "shape"):
        raise ShapeError(f"{op}: src must be a tensor, got {type(src).__name__}; pass a scalar as value=")
    if src.ndim != x.ndim:
        raise ShapeError(f"{op}: src must have the tensor's {x.ndim} dims, got src shape {tuple(src.shape)} "
                         f"(tensor shape {tuple(x.shape)}, index shape {tuple(index.shape)})")
    pos = flat_positions(op, tuple(x.shape), dim, index, limit=tuple(src.shape))
    block = src[tuple(slice(0, n) for n in index.shape)] if tuple(src.shape) != tuple(index.shape) else src
    if block.dtype is not x.dtype:
        block = nr.cast(block, x.dtype)
    return x.reshape(-1), pos.reshape(-1), block.reshape(-1)


def _as_1d(x: Any, dim: int, index: Any, src: Any) -> tuple[Any, Any, Any]:
    """A 0-d x (and its 0-d index and src) as 1-d, as torch scatters into 0-d tensors along dim 0."""
    normalize_dim(dim, 1, "scatter")
    index = prepare_index(x, index)
    one = (lambda t: t.reshape(1) if hasattr(t, "ndim") and t.ndim == 0 else t)
    return x.reshape(1), one(index), one(src)


def scatter_any(x: Any, dim: int, index: Any, src: Any = None, value: Any = None, reduce: str | None = None) -> Any:
    """A copy of x with out[..., index[..., j, ...], ...] = src[..., j, ...] (or ``value``) along dim
    (torch.scatter); repeated positions keep the last in index order. reduce 'add'/'multiply'
    accumulate instead."""
    import numr as nr
    if x.ndim == 0:
        x1, i1, s1 = _as_1d(x, dim, index, src)
        return scatter_any(x1, 0, i1, s1, value, reduce).reshape(())
    if isinstance(src, prepare.SCALAR_TYPES) or (src is not None and hasattr(src, "shape") and value is None
                                                 and src.ndim == 0 and x.ndim != 0):
        src, value = None, src  # torch.scatter(x, dim, index, 1.5): the value overload
    if (src is None) == (value is None):
        raise ShapeError(f"scatter: give exactly one of src and value (tensor shape {tuple(x.shape)})")
    if reduce is not None:
        if reduce not in _LEGACY:
            raise DomainError(f"scatter: reduce must be None, 'add' or 'multiply', got {reduce!r}")
        if src is None:
            index = prepare_index(x, index)
            src = nr.broadcast_to(scalar_like("scatter", value, x), tuple(index.shape))
        return scatter_reduce_any(x, dim, index, src, _LEGACY[reduce])
    if src is None:
        index = prepare_index(x, index)
        pos = flat_positions("scatter", tuple(x.shape), dim, index).reshape(-1)
        v = scalar_like("scatter", value, x)
        if pos.shape[0] == 0:
            return fresh(x)
        if not traced(x, v):  # tensors: one copy and one put of the value
            return nr.index_put_(fresh(x.reshape(-1)), 0, pos, v).reshape(x.shape)
        hit = counts(pos, x.size) > 0
        return nr.where(hit, v, x.reshape(-1)).reshape(x.shape)
    xf, pos, block = _operands("scatter", x, dim, index, src)
    if pos.shape[0] == 0:
        return fresh(x)
    if not traced(x, block):  # tensors: one copy and one ordered put
        out = fresh(xf)
        return nr.index_put_(out, 0, pos, block).reshape(x.shape)
    win = last_writers(pos, x.size)
    picked = nr.index_select(block, 0, nr.maximum(win, 0))
    return nr.where(win >= 0, picked, xf).reshape(x.shape)


def _tie_split(x: Any, xf: Any, pos: Any, block: Any, r: Any, touched: Any, include_self: bool) -> Any:
    """r (the plain amax/amin per slot) made differentiable: each slot's gradient is split evenly
    among the elements equal to r there (self included). The added term is exactly zero in value:
    a - a for the finite elements (an infinite or NaN one gets no gradient)."""
    import numr as nr
    pb, px = plain(block), plain(xf)
    eq = pb == nr.index_select(r, 0, pos)
    n = r.shape[0]
    num = nr.index_add(nr.zeros((n,), dtype=r.dtype, device=r.device), 0, pos, nr.cast(eq, r.dtype))
    db = nr.where(nr.logical_and(eq, nr.isfinite(pb)), block - pb, 0.0)
    delta = nr.index_add(nr.zeros((n,), dtype=r.dtype, device=r.device), 0, pos, db)
    if include_self:
        eq_self = nr.logical_and(touched, px == r)
        num = num + nr.cast(eq_self, r.dtype)
        delta = delta + nr.where(nr.logical_and(eq_self, nr.isfinite(px)), xf - px, 0.0)
    return r + delta / nr.maximum(num, 1.0)


def scatter_reduce_any(x: Any, dim: int, index: Any, src: Any, reduce: str,
                       include_self: bool = True) -> Any:
    """A copy of x with each position named by index reduced with the src values scattered there
    ('sum', 'prod', 'mean', 'amax', 'amin'; x's own value too when include_self); positions no
    index names keep x's value (torch.scatter_reduce). Integer 'mean' rounds down, as torch."""
    import numr as nr
    if reduce not in REDUCES:
        raise DomainError(f"scatter_reduce: reduce must be one of {REDUCES}, got {reduce!r}")
    if x.ndim == 0:
        x1, i1, s1 = _as_1d(x, dim, index, src)
        return scatter_reduce_any(x1, 0, i1, s1, reduce, include_self).reshape(())
    xf, pos, block = _operands("scatter_reduce", x, dim, index, src)
    if pos.shape[0] == 0:
        return fresh(x)
    n = x.size
    if reduce == "sum" and include_self:
        return nr.index_add(xf, 0, pos, block).reshape(x.shape)
    if reduce in ("sum", "mean"):
        cnt = counts(pos, n)
        hit = cnt > 0
        base = xf if include_self else nr.where(hit, nr.zeros((), dtype=x.dtype, device=x.device), xf)
        total = nr.index_add(base, 0, pos, block)
        if reduce == "sum":
            return total.reshape(x.shape)
        c = cnt + 1 if include_self else nr.maximum(cnt, 1)
        if x.dtype.is_floating_point or x.dtype.is_complex:
            mean = total / nr.cast(c, x.dtype)
        else:
            mean = nr.cast(nr.floor_divide(total, nr.cast(c, x.dtype)), x.dtype)
        return nr.where(hit, mean, xf).reshape(x.shape)
    if reduce == "prod":
        runs = Runs(pos, n)
        r = runs.reduce(block, nr.mul)
        out = r * xf if include_self else r
        return nr.where(runs.touched, out, xf).reshape(x.shape)
    return _extreme(x, xf, pos, block, reduce, include_self).reshape(x.shape)


def _extreme(x: Any, xf: Any, pos: Any, block: Any, reduce: str, include_self: bool) -> Any:
    """amax/amin: the values sorted (ascending for amax, descending for amin) and put in that
    order, so the last writer at each position is its extreme; NaN propagates (as torch)."""
    import numr as nr
    vals, px = plain(block), plain(xf)
    order = nr.argsort(vals, stable=True)  # NaN sorts last: it wins amax's put
    if reduce == "amin":
        order = nr.flip(order, 0)
    r = nr.index_put_(fresh(px), 0, nr.index_select(pos, 0, order), nr.index_select(vals, 0, order))
    if (vals.dtype.is_floating_point or vals.dtype.is_complex) and reduce == "amin" \
            and bool(nr.any(nr.isnan(vals)).item()):
        nan_at = nr.index_add(nr.zeros((x.size,), dtype=nr.int32, device=x.device), 0, pos,
                              nr.cast(nr.isnan(vals), nr.int32)) > 0
        r = nr.where(nan_at, float("nan"), r)
    pick = nr.maximum if reduce == "amax" else nr.minimum
    if include_self:
        r = pick(r, px)  # untouched positions hold x: pick(x, x) = x
    if not (traced(x, block) and x.dtype.is_floating_point):
        return r
    touched = counts(pos, x.size) > 0
    return nr.where(touched, _tie_split(x, xf, pos, block, r, touched, include_self), xf)


def scatter_inplace(self: Any, x: Any, dim: int, index: Any, src: Any = None, value: Any = None,
                    reduce: str | None = None) -> Any:
    """scatter written into x (a tensor; not differentiable)."""
    out = scatter_any(x, dim, index, src, value, reduce)
    self.copy_(x, out)
    return x


#: op name -> composite (client methods through client_methods; autograd registers the same)
COMPOSITES = {"scatter": scatter_any, "scatter_reduce": scatter_reduce_any}
#: in-place methods (tensors only)
METHODS = {"scatter_": scatter_inplace}
