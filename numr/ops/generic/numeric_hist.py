"""Histograms and binning of the numeric family, composites of numr's public functions:
histogram (NumPy's uniform-bin rule on the device: the bin computed from the scaled value, then
corrected against the edges; or searchsorted into given edges; index_add of ones or weights),
digitize (np.digitize, increasing or decreasing bins) and bucketize (torch.bucketize)."""

from __future__ import annotations

import math
import operator
from typing import Any

from ... import dtypes as dt
from ...errors import DTypeError, ShapeError
from ..prepare import plain
from .statistics import as_tensor, cast_to, float_input


def _real(op: str, x: Any, like: Any = None) -> Any:
    x = plain(as_tensor(x, like))
    if x.dtype.is_complex:
        raise DTypeError(f"{op}: complex input (dtype {x.dtype}, shape {tuple(x.shape)}) has no order")
    return x


def _boundaries(op: str, b: Any, like: Any) -> Any:
    b = _real(op, b, like)
    if b.ndim != 1:
        raise ShapeError(f"{op}: bins/boundaries must be 1-d, got shape {tuple(b.shape)}")
    return b


def _common(x: Any, b: Any) -> tuple[Any, Any]:
    import numr as nr
    rt = nr.result_type(x, b)
    return cast_to(x, rt), cast_to(b, rt)


def _uniform_edges(op: str, flat: Any, bins: int, range: Any) -> tuple[Any, Any, Any]:
    """(edges (bins + 1), first, last) of equal bins over range or the data's range, on the device;
    NumPy widens a one-point range by 0.5 each side and needs a finite range (one host read)."""
    import numr as nr
    if range is not None:
        lo, hi = (float(v) for v in range)
        if lo > hi:
            raise ShapeError(f"{op}: max must be larger than min in range parameter ({lo}, {hi})")
        if not (math.isfinite(lo) and math.isfinite(hi)):
            raise ShapeError(f"{op}: supplied range of [{lo}, {hi}] is not finite")
        lo, hi = (lo - 0.5, hi + 0.5) if lo == hi else (lo, hi)
        first, last = (nr.full((), v, dtype=flat.dtype, device=flat.device) for v in (lo, hi))
    elif flat.shape[0] == 0:
        first, last = (nr.full((), v, dtype=flat.dtype, device=flat.device) for v in (0.0, 1.0))
    else:
        first, last = nr.amin(flat), nr.amax(flat)
        if not bool(nr.logical_and(nr.isfinite(first), nr.isfinite(last)).item()):
            raise ShapeError(f"{op}: autodetected range of [{first.item()}, {last.item()}] is not finite")
        same = first == last
        first, last = nr.where(same, first - 0.5, first), nr.where(same, last + 0.5, last)
    steps = nr.arange(bins + 1, dtype=flat.dtype, device=flat.device)
    edges = steps * ((last - first) / float(bins)) + first  # np.linspace: the last edge exact
    return nr.where(steps == float(bins), last, edges), first, last


def histogram_any(a: Any, bins: Any = 10, range: Any = None, weights: Any = None, density: bool = False) -> Any:
    import numr as nr
    a = _real("histogram", a)
    if isinstance(bins, str):
        raise ShapeError(f"histogram: bin estimators such as {bins!r} are not supported; give a count or edges")
    flat, _ = float_input("histogram", a.reshape(-1))
    if hasattr(bins, "shape") or isinstance(bins, (list, tuple)):
        edges = _boundaries("histogram", bins, a)
        nb = edges.shape[0] - 1
        if nb < 1:
            raise ShapeError(f"histogram: bins needs at least 2 edges, got {edges.shape[0]}")
        if bool(nr.any(nr.diff(edges) < 0).item()):  # one host read
            raise ShapeError("histogram: bins must increase monotonically, when an array")
        v, e = _common(flat, edges)
        keep = nr.logical_and(v >= e.narrow(0, 0, 1), v <= e.narrow(0, nb, 1))
        pos = nr.clamp(nr.searchsorted(e, v, right=True) - 1, 0, nb - 1)
    else:
        try:
            nb = operator.index(bins)
        except TypeError:
            raise ShapeError(f"histogram: bins must be an int, a 1-d sequence of edges or a tensor, got {bins!r}") \
                from None
        if nb < 1:
            raise ShapeError(f"histogram: bins must be positive, got {nb}")
        edges, first, last = _uniform_edges("histogram", flat, nb, range)
        keep = nr.logical_and(flat >= first, flat <= last)  # NaN is outside
        scaled = (flat - first) * (float(nb) / (last - first))
        pos = nr.cast(nr.clamp(nr.where(keep, nr.floor(scaled), 0.0), 0.0, float(nb - 1)), dt.int64)
        pos = nr.where(flat < nr.index_select(edges, 0, pos), pos - 1, pos)  # NumPy's corrections
        up = nr.logical_and(flat >= nr.index_select(edges, 0, nr.clamp(pos + 1, 0, nb)), pos != nb - 1)
        pos = nr.clamp(nr.where(up, pos + 1, pos), 0, nb - 1)
        if not a.dtype.is_floating_point:
            edges = cast_to(edges, dt.default_float)
        elif edges.dtype is not a.dtype:
            edges = cast_to(edges, a.dtype)
    if weights is None:
        src = nr.cast(keep, dt.int64)
        hist = nr.index_add(nr.zeros(nb, dtype=dt.int64, device=a.device), 0, pos, src)
    else:
        w = as_tensor(weights, a)
        if tuple(w.shape) != tuple(a.shape):
            raise ShapeError(f"histogram: weights should have the same shape as a {tuple(a.shape)}, got "
                             f"{tuple(w.shape)}")
        w = w.reshape(-1)
        src = nr.where(keep, w, nr.zeros((), dtype=w.dtype, device=w.device))
        hist = nr.index_add(nr.zeros(nb, dtype=w.dtype, device=a.device), 0, pos, src)
    if density:
        hf, _ = float_input("histogram", hist)
        widths = cast_to(nr.diff(edges), hf.dtype)
        hist = hf / widths / nr.sum(hf)
    return hist, edges


def digitize_any(x: Any, bins: Any, right: bool = False) -> Any:
    import numr as nr
    b = _boundaries("digitize", bins, x if hasattr(x, "device") else None)
    x = _real("digitize", x, b)
    x, b = _common(x, b)
    n = b.shape[0]
    increasing = True
    if n > 1:
        d = nr.diff(b)
        inc, dec = (bool(v) for v in nr.stack([nr.all(d >= 0), nr.all(d <= 0)]).tolist())  # one host read
        if not (inc or dec):
            raise ShapeError("digitize: bins must be monotonically increasing or decreasing")
        increasing = inc
    if increasing:
        return nr.searchsorted(b, x, right=not right)
    return n - nr.searchsorted(b.flip(0), x, right=not right)


def bucketize_any(input: Any, boundaries: Any, right: bool = False, out_int32: bool = False) -> Any:
    import numr as nr
    b = _boundaries("bucketize", boundaries, input if hasattr(input, "device") else None)
    x, b = _common(_real("bucketize", input, b), b)
    r = nr.searchsorted(b, x, right=right)
    return cast_to(r, dt.int32) if out_int32 else r


COMPOSITES = {"histogram": histogram_any, "digitize": digitize_any, "bucketize": bucketize_any}
