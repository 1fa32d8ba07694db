"""Composites of the sorting family, written once on a backend's ``sort`` and numr's public
functions, so every backend with a sort kernel has them: argsort (sort's indices), topk (the
first k of a sort), unique (group starts of the sorted values: an adjacent-differs mask with
NaN == NaN, nonzero for the starts, cumsum for the inverse; along a dim, slices ordered by a
lexicographic sort made of one stable sort per element of a slice, last element first)."""

from __future__ import annotations

import math
import operator
from typing import Any

from ...errors import IndexOutOfRange, ShapeError, UnsupportedOperation
from ..prepare import as_tensor
from ..prepare_sorting import sort_dim


def _sort(self: Any, op: str, x: Any) -> Any:
    """The backend's sort kernel (UnsupportedOperation naming ``op`` where it has none)."""
    fn = getattr(self, "sort", None)
    if fn is None:
        raise UnsupportedOperation(self.device.runtime_name, op, getattr(x, "dtype", None),
                                   reason="the backend has no sort kernel")
    return fn


def argsort(self: Any, x: Any, dim: int = -1, descending: bool = False, stable: bool = False) -> Any:
    x = as_tensor("argsort", self, x)
    sort_dim("argsort", self, x, dim)
    return _sort(self, "argsort", x)(x, dim, descending)[1]


def topk_args(self: Any, x: Any, k: Any, dim: Any) -> tuple[int, int]:
    """topk's checks (shared with backends that select): (dim normalised, k as an int)."""
    d = sort_dim("topk", self, x, dim)
    return d, rank_arg("topk", k, 0, x, d)


def rank_arg(op: str, k: Any, lo: int, x: Any, d: int) -> int:
    """k as an int in [lo, size of dim d] (topk counts from 0, kthvalue from 1), else ShapeError
    for a non-integer or IndexOutOfRange."""
    n = x.shape[d] if x.ndim else 1
    try:
        k = operator.index(k)
    except TypeError:
        raise ShapeError(f"{op}: k must be an int, got {k!r}") from None
    if not lo <= k <= n:
        raise IndexOutOfRange(f"{op}: k={k} out of range [{lo}, {n}] for dim {d} (shape {tuple(x.shape)})")
    return k


def topk(self: Any, x: Any, k: int, dim: int = -1, largest: bool = True, sorted: bool = True) -> Any:
    x = as_tensor("topk", self, x)
    d, k = topk_args(self, x, k, dim)
    n = x.shape[d] if x.ndim else 1
    values, indices = _sort(self, "topk", x)(x, d, largest)
    if x.ndim == 0 or k == n:
        return values, indices
    return values.narrow(d, 0, k).contiguous(), indices.narrow(d, 0, k).contiguous()


def _differs(a: Any, b: Any) -> Any:
    """a != b elementwise in the total order: NaN equals NaN (and -0.0 equals 0.0)."""
    import numr as nr
    ne = nr.ne(a, b)
    if a.dtype.is_floating_point:
        ne = nr.logical_and(ne, nr.logical_not(nr.logical_and(nr.isnan(a), nr.isnan(b))))
    return ne


def _groups(first: Any, n: int, perm: Any, return_inverse: bool, return_counts: bool) -> tuple[Any, Any, Any]:
    """From the mask of sorted positions that start a group: (starts, inverse, counts)."""
    import numr as nr
    dev = perm.device
    starts = nr.nonzero(first).reshape(-1)
    inverse = counts = None
    if return_inverse:
        gid = nr.cumsum(nr.cast(first, nr.int64), 0) - 1
        inverse = nr.index_add(nr.zeros(n, dtype=nr.int64, device=dev), 0, perm, gid)
    if return_counts:
        ends = nr.cat([starts[1:], nr.full((1,), n, dtype=nr.int64, device=dev)])
        counts = ends - starts
    return starts, inverse, counts


def _first_mask(differs: Any) -> Any:
    import numr as nr
    return nr.cat([nr.full((1,), True, dtype=nr.bool_, device=differs.device), differs])


def unique(self: Any, x: Any, return_inverse: bool = False, return_counts: bool = False,
           dim: int | None = None) -> Any:
    import numr as nr
    x = as_tensor("unique", self, x)
    if dim is None:
        sort_dim("unique", self, x, -1)
        flat = x.reshape(-1)
        n = flat.size
        if n == 0:
            values = flat
            inverse = nr.zeros(x.shape, dtype=nr.int64, device=x.device)
            counts = nr.zeros(0, dtype=nr.int64, device=x.device)
        else:
            sv, perm = _sort(self, "unique", x)(flat, 0)
            first = _first_mask(_differs(sv[1:], sv[:-1]))
            starts, inverse, counts = _groups(first, n, perm, return_inverse, return_counts)
            values = nr.index_select(sv, 0, starts)
            if inverse is not None:
                inverse = inverse.reshape(x.shape)
    else:
        values, inverse, counts = _unique_dim(self, x, dim, return_inverse, return_counts)
    out = (values,) + ((inverse,) if return_inverse else ()) + ((counts,) if return_counts else ())
    return out if len(out) > 1 else values


def _unique_dim(self: Any, x: Any, dim: int, return_inverse: bool, return_counts: bool) -> tuple[Any, Any, Any]:
    """Distinct slices of x along dim, in lexicographic order of their elements (C order)."""
    import numr as nr
    if x.ndim == 0:
        raise IndexOutOfRange(f"unique: dim {dim} out of range for a 0-d tensor")
    d = sort_dim("unique", self, x, dim)
    order = (d,) + tuple(i for i in range(x.ndim) if i != d)
    moved = nr.permute(x, order)
    n = x.shape[d]
    m = math.prod(moved.shape[1:])
    rows = moved.reshape((n, m))
    dev, sort = x.device, _sort(self, "unique", x)
    perm = nr.arange(n, dtype=nr.int64, device=dev)
    for c in range(m - 1, -1, -1):  # least significant element first: stable passes keep the rest
        col = nr.index_select(rows[:, c], 0, perm)
        perm = nr.index_select(perm, 0, sort(col, 0)[1])
    srt = nr.index_select(rows, 0, perm)
    if n == 0:
        first = nr.zeros(0, dtype=nr.bool_, device=dev)
    elif m == 0:
        first = nr.cat([nr.full((1,), True, dtype=nr.bool_, device=dev),
                        nr.zeros(n - 1, dtype=nr.bool_, device=dev)])
    else:
        first = _first_mask(nr.any(_differs(srt[1:], srt[:-1]), 1))
    starts, inverse, counts = _groups(first, n, perm, return_inverse, return_counts)
    picked = nr.index_select(srt, 0, starts).reshape((starts.shape[0],) + moved.shape[1:])
    back = tuple(order.index(i) for i in range(x.ndim))
    return nr.permute(picked, back).contiguous(), inverse, counts


GENERIC = ("argsort", "topk", "unique")
