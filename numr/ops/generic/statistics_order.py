"""Order statistics of the statistics family, written once on the backend's stable sort and numr's
public functions: median/nanmedian/kthvalue/quantile pick sorted positions (computed on the plain
tensor) and gather the values from the (possibly traced) input, so their derivatives are
gather's; mode takes the longest run of equal sorted values; cummax/cummin are a log-depth
(Hillis-Steele) scan of (value, index) pairs, the later index winning ties and NaN winning all."""

from __future__ import annotations

import math
from typing import Any

from ... import dtypes as dt
from ...errors import DTypeError, IndexOutOfRange, ShapeError
from ...shapes import normalize_dim
from ..prepare import plain
from .sorting import _differs, rank_arg
from .statistics import as_tensor, cast_to

INTERPOLATIONS = ("linear", "lower", "higher", "nearest", "midpoint")


def _orderable(op: str, x: Any) -> Any:
    x = as_tensor(x)
    if x.dtype.is_complex:
        raise DTypeError(f"{op}: complex input (dtype {x.dtype}, shape {tuple(x.shape)}) has no order")
    return x


def _keep_shape(x: Any, d: int) -> tuple[int, ...]:
    return tuple(1 if i == d else s for i, s in enumerate(x.shape))


def _pick(x: Any, d: int, si: Any, pos: Any, keepdim: bool) -> tuple[Any, Any]:
    """(values, indices) at sorted positions ``pos`` (int64, size 1 along d) of x along d."""
    import numr as nr
    idx = nr.gather(si, d, pos)
    values = nr.gather(x, d, idx)
    return (values, idx) if keepdim else (values.squeeze(d), idx.squeeze(d))


def _zero_d(x: Any) -> tuple[Any, Any]:
    import numr as nr
    return x, nr.zeros((), dtype=dt.int64, device=x.device)


def _dim(op: str, x: Any, dim: Any) -> int:
    d = normalize_dim(dim, x.ndim, op)
    if x.ndim and x.shape[d] == 0:
        raise IndexOutOfRange(f"{op}: cannot reduce dim {d} of size 0 (shape {tuple(x.shape)})")
    return d


def _median(op: str, x: Any, dim: Any, keepdim: bool, ignore_nan: bool) -> Any:
    import numr as nr
    x = _orderable(op, x)
    if dim is None:
        if x.size == 0:
            if not x.dtype.is_floating_point:
                raise IndexOutOfRange(f"{op}: the median of an empty {x.dtype} tensor is undefined")
            return nr.full((1,) * x.ndim if keepdim else (), math.nan, dtype=x.dtype, device=x.device)
        v, _ = _median(op, x.reshape(-1), 0, False, ignore_nan)
        return v.reshape((1,) * x.ndim) if keepdim else v
    if x.ndim == 0:
        normalize_dim(dim, 0, op)
        return _zero_d(x)
    d = _dim(op, x, dim)
    n = x.shape[d]
    sv, si = nr.sort(plain(x), d)
    if x.dtype.is_floating_point:
        nans = nr.sum(nr.isnan(sv), d, keepdim=True)  # NaNs sort last: the first one is at n - nans
        if ignore_nan:
            valid = n - nans
            pos = nr.where(valid > 0, nr.floor_divide(valid - 1, 2), 0)
        else:
            pos = nr.where(nans > 0, n - nans, (n - 1) // 2)
    else:
        pos = nr.full(_keep_shape(x, d), (n - 1) // 2, dtype=dt.int64, device=x.device)
    return _pick(x, d, si, pos, keepdim)


def median_any(x: Any, dim: int | None = None, keepdim: bool = False) -> Any:
    return _median("median", x, dim, keepdim, False)


def nanmedian_any(x: Any, dim: int | None = None, keepdim: bool = False) -> Any:
    return _median("nanmedian", x, dim, keepdim, True)


def kthvalue_any(x: Any, k: int, dim: int = -1, keepdim: bool = False) -> tuple[Any, Any]:
    import numr as nr
    x = _orderable("kthvalue", x)
    d = normalize_dim(dim, x.ndim, "kthvalue")
    k = rank_arg("kthvalue", k, 1, x, d)
    if x.ndim == 0:
        return _zero_d(x)
    _, si = nr.sort(plain(x), d)
    return _pick(x, d, si, nr.full(_keep_shape(x, d), k - 1, dtype=dt.int64, device=x.device), keepdim)


def _positions(x: Any, d: int) -> Any:
    """int64 arange along d, broadcast to x's shape."""
    import numr as nr
    n = x.shape[d]
    ar = nr.arange(n, dtype=dt.int64, device=x.device)
    return nr.broadcast_to(ar.reshape(tuple(n if i == d else 1 for i in range(x.ndim))), tuple(x.shape))


def _shifted(t: Any, d: int, s: int) -> Any:
    """t moved s places along d, its first s slices kept (so they combine with themselves)."""
    import numr as nr
    n = t.shape[d]
    return nr.cat([t.narrow(d, 0, s), t.narrow(d, 0, n - s)], d)


def _scan(v: Any, i: Any, d: int, largest: bool) -> tuple[Any, Any]:
    """Inclusive scan of (value, index) pairs keeping the max (min) value, later index on ties,
    NaN above everything (torch.cummax/cummin)."""
    import numr as nr
    n, s = v.shape[d], 1
    is_float = v.dtype.is_floating_point
    while s < n:
        av, ai = _shifted(v, d, s), _shifted(i, d, s)
        take = nr.ge(v, av) if largest else nr.le(v, av)
        if is_float:
            take = nr.logical_or(nr.isnan(v), nr.logical_and(take, nr.logical_not(nr.isnan(av))))
        v, i = nr.where(take, v, av), nr.where(take, i, ai)
        s *= 2
    return v, i


def _cum(op: str, x: Any, dim: int, largest: bool) -> tuple[Any, Any]:
    import numr as nr
    x = _orderable(op, x)
    d = normalize_dim(dim, x.ndim, op)
    if x.ndim == 0:
        return _zero_d(x)
    p = plain(x)
    if p.dtype is dt.bool_:
        p = nr.cast(p, dt.uint8)
    _, idx = _scan(p, _positions(p, d), d, largest)
    idx = idx.contiguous()
    return (nr.gather(x, d, idx) if x.size else x), idx


def cummax_any(x: Any, dim: int) -> tuple[Any, Any]:
    return _cum("cummax", x, dim, True)


def cummin_any(x: Any, dim: int) -> tuple[Any, Any]:
    return _cum("cummin", x, dim, False)


def mode_any(x: Any, dim: int = -1, keepdim: bool = False) -> tuple[Any, Any]:
    import numr as nr
    x = _orderable("mode", x)
    if x.ndim == 0:
        normalize_dim(dim, 0, "mode")
        return _zero_d(x)
    d = _dim("mode", x, dim)
    n = x.shape[d]
    sv, si = nr.sort(plain(x), d)
    first = nr.cat([nr.full(_keep_shape(x, d), True, dtype=dt.bool_, device=x.device),
                    _differs(sv.narrow(d, 1, n - 1), sv.narrow(d, 0, n - 1))], d)
    at = _positions(sv, d)
    start, _ = _scan(nr.where(first, at, 0), at, d, True)  # where each element's run starts
    run = at - start  # run length - 1 at each element: largest at the end of the longest run
    pos = nr.argmax(run, d, keepdim=True)  # the first longest run: the smallest most frequent value
    return _pick(x, d, si, pos, keepdim)


def _quantile(op: str, x: Any, q: Any, dim: int | None, keepdim: bool, interpolation: str,
              ignore_nan: bool) -> Any:
    """quantile and nanquantile: ranks q * (count - 1) into the sorted slice, NaNs sorting last;
    count is the slice's size (a NaN in it gives NaN) or its non-NaN count (none gives NaN)."""
    import numr as nr
    x = as_tensor(x)
    if interpolation not in INTERPOLATIONS:
        raise ShapeError(f"{op}: interpolation must be one of {INTERPOLATIONS}, got {interpolation!r}")
    if not x.dtype.is_floating_point:
        raise DTypeError(f"{op}: needs a float input (torch.{op}), got dtype {x.dtype}")
    ct = x.dtype if x.dtype in (dt.float32, dt.float64) else dt.float32
    xc = cast_to(x, ct)
    qt = cast_to(plain(as_tensor(q, x, dtype=None if hasattr(q, "dtype") else ct)), ct)
    scalar = qt.ndim == 0
    if qt.ndim > 1:
        raise ShapeError(f"{op}: q must be a float or a 1-d tensor, got shape {tuple(qt.shape)}")
    qt = qt.reshape(-1)
    if qt.shape[0] and bool(nr.any(nr.logical_not(nr.logical_and(qt >= 0, qt <= 1))).item()):
        raise ShapeError(f"{op}: q values must be in the range [0, 1]")
    if dim is None:
        xs, d = xc.reshape(-1), 0
    else:
        d = normalize_dim(dim, x.ndim, op)
        xs = xc.reshape(1) if x.ndim == 0 else xc
    n = xs.shape[d]
    if n == 0:
        raise IndexOutOfRange(f"{op}: input must be non-empty along the reduced dim (shape {tuple(x.shape)})")
    moved = nr.movedim(xs, d, -1)
    sv, si = nr.sort(plain(moved), -1)
    lead = tuple(moved.shape[:-1])
    nq = qt.shape[0]
    if ignore_nan:
        valid = float(n) - nr.sum(nr.cast(nr.isnan(sv), ct), -1, keepdim=True)
        ranks = nr.clamp(qt * (valid - 1.0), 0.0)  # an all-NaN slice: rank 0, a NaN
    else:
        ranks = nr.broadcast_to(qt * float(n - 1), lead + (nq,))
        ranks = nr.where(nr.any(nr.isnan(sv), -1, keepdim=True), float(n - 1), ranks)  # NaN gives NaN
    if interpolation in ("lower", "higher", "nearest"):
        ranks = {"lower": nr.floor, "higher": nr.ceil, "nearest": nr.round}[interpolation](ranks)
    below = nr.floor(ranks)
    r = nr.gather(moved, -1, nr.gather(si, -1, nr.cast(below, dt.int64)))
    if interpolation in ("linear", "midpoint"):
        above = nr.gather(moved, -1, nr.gather(si, -1, nr.cast(nr.ceil(ranks), dt.int64)))
        w = ranks - below if interpolation == "linear" else nr.full_like(ranks, 0.5)
        delta = above - r
        r = nr.where(w < 0.5, r + w * delta, above - delta * (1.0 - w))  # torch.lerp
    r = nr.movedim(r, -1, 0)
    if keepdim:
        r = r.reshape((nq,) + (1,) * x.ndim) if dim is None else \
            r.reshape((nq,) + tuple(1 if i == d else s for i, s in enumerate(x.shape)))
    if scalar:
        r = r.reshape(tuple(r.shape[1:]))
    return cast_to(r, x.dtype)


def quantile_any(x: Any, q: Any, dim: int | None = None, keepdim: bool = False,
                 interpolation: str = "linear") -> Any:
    return _quantile("quantile", x, q, dim, keepdim, interpolation, False)


def nanquantile_any(x: Any, q: Any, dim: int | None = None, keepdim: bool = False,
                    interpolation: str = "linear") -> Any:
    return _quantile("nanquantile", x, q, dim, keepdim, interpolation, True)


COMPOSITES = {"median": median_any, "nanmedian": nanmedian_any, "kthvalue": kthvalue_any, "mode": mode_any,
              "cummax": cummax_any, "cummin": cummin_any, "quantile": quantile_any,
              "nanquantile": nanquantile_any}
