"""Histograms and binning of the numeric family, composites of numr's public functions:
histogram and histogram2d (NumPy's uniform-bin rule on the device: the bin computed from the scaled
value, then corrected against the edges; or searchsorted into given edges; index_add of ones or
weights),
digitize (np.digitize, increasing or decreasing bins) and bucketize (torch.bucketize)."""

from __future__ import annotations

import math
from typing import Any

from ... import dtypes as dt
from ...errors import DTypeError, ShapeError
from ..prepare import plain
from .statistics import as_tensor, cast_to, float_input, order_arg


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


def _uniform_edges(op: str, flat: Any, bins: int, range: Any, out: dt.DType) -> tuple[Any, Any, Any, Any]:
    """(edges (bins + 1), first, last, step) of equal bins over range or the data's range, on the
    device, as np.linspace makes them: in float64 from a given range (where the device has it), in
    the data's dtype ``out`` from its own range (each step rounded to a half out); the last edge
    exact. NumPy widens a one-point range by
    0.5 each side and needs a finite range (one host read)."""
    import numr as nr
    wide = flat.dtype
    if range is not None:
        if dt.float64 in flat.device.runtime.supported_dtypes(flat.device):
            wide = dt.float64
        lo, hi = (float(v) for v in range)
        if lo > hi:
            raise ShapeError(f"{op}: max must be larger than min in range parameter ({lo}, {hi})")
        if not (math.isfinite(lo) and math.isfinite(hi)):
            raise ShapeError(f"{op}: supplied range of [{lo}, {hi}] is not finite")
        lo, hi = (lo - 0.5, hi + 0.5) if lo == hi else (lo, hi)
        first, last = (nr.full((), v, dtype=wide, device=flat.device) for v in (lo, hi))
    elif flat.shape[0] == 0:
        first, last = (nr.full((), v, dtype=wide, device=flat.device) for v in (0.0, 1.0))
    else:
        first, last = nr.amin(flat), nr.amax(flat)
        if not bool(nr.logical_and(nr.isfinite(first), nr.isfinite(last)).item()):
            raise ShapeError(f"{op}: autodetected range of [{first.item()}, {last.item()}] is not finite")
        same = first == last
        first, last = nr.where(same, first - 0.5, first), nr.where(same, last + 0.5, last)
    def rnd(t: Any) -> Any:  # NumPy's linspace computes in a float16 array's own dtype
        return t if range is not None or out is wide else cast_to(cast_to(t, out), wide)
    steps = nr.arange(bins + 1, dtype=wide, device=flat.device)
    step = rnd(rnd(last - first) / float(bins))
    return nr.where(steps == float(bins), last, rnd(rnd(steps * step) + first)), first, last, step


def _bins(op: str, a: Any, bins: Any, range: Any) -> tuple[Any, Any, Any, int]:
    """(int64 bin of each element of the flattened a, whether it is counted, the edges, the number
    of bins) for a bin count over range (NumPy's uniform rule) or increasing edges."""
    import numr as nr
    if isinstance(bins, str):
        raise ShapeError(f"{op}: bin estimators such as {bins!r} are not supported; give a count or edges")
    flat, _ = float_input(op, a.reshape(-1))
    if hasattr(bins, "shape") or isinstance(bins, (list, tuple)):
        edges = _boundaries(op, bins, a)
        nb = edges.shape[0] - 1
        if nb < 1:
            raise ShapeError(f"{op}: bins needs at least 2 edges, got {edges.shape[0]}")
        if bool(nr.any(nr.diff(edges) < 0).item()):  # one host read
            raise ShapeError(f"{op}: bins must increase monotonically, when an array")
        v, e = _common(flat, edges)
        keep = nr.logical_and(v >= e.narrow(0, 0, 1), v <= e.narrow(0, nb, 1))
        return nr.clamp(nr.searchsorted(e, v, right=True) - 1, 0, nb - 1), keep, edges, nb
    nb = order_arg(op, "bins (a count, when not edges)", bins)
    if nb < 1:
        raise ShapeError(f"{op}: bins must be positive, got {nb}")
    out = a.dtype if a.dtype.is_floating_point else dt.default_float
    edges, first, last, step = _uniform_edges(op, flat, nb, range, out)
    edges = cast_to(edges, out)
    first, last = (cast_to(cast_to(v, out), flat.dtype) for v in (first, last))  # compared in a's dtype, as NumPy
    keep = nr.logical_and(flat >= first, flat <= last)  # NaN is outside
    f = nr.clamp(nr.where(keep, nr.floor((flat - first) * (float(nb) / (last - first))), 0.0), 0.0, float(nb - 1))
    # NumPy's corrections against the edges: edge k is k * step + first where that is how they were
    # computed, in the data's dtype (float64 data, or float32 data's own range), else gathered
    if step.dtype is flat.dtype and out is flat.dtype:
        lower, upper = f * step + first, (f + 1.0) * step + first
    else:
        k, ce = nr.cast(f, dt.int64), cast_to(edges, flat.dtype)
        lower, upper = nr.index_select(ce, 0, k), nr.index_select(ce, 0, k + 1)
    down = flat < lower
    f = nr.where(down, f - 1.0, f)
    up = nr.logical_and(flat >= nr.where(down, lower, upper), f != float(nb - 1))
    pos = nr.cast(nr.clamp(nr.where(up, f + 1.0, f), 0.0, float(nb - 1)), dt.int64)
    return pos, keep, edges, nb


def _counts(op: str, pos: Any, keep: Any, size: int, weights: Any, a: Any, dtype: Any) -> Any:
    """index_add of ones (in ``dtype``) or of the weights (a's shape) at pos where keep."""
    import numr as nr
    if weights is None:
        return nr.index_add(nr.zeros(size, dtype=dtype, device=a.device), 0, pos, nr.cast(keep, dtype))
    w = as_tensor(weights, a)
    if tuple(w.shape) != tuple(a.shape):
        raise ShapeError(f"{op}: weights should have the same shape as a {tuple(a.shape)}, got {tuple(w.shape)}")
    w = w.reshape(-1)
    src = nr.where(keep, w, nr.zeros((), dtype=w.dtype, device=w.device))
    return nr.index_add(nr.zeros(size, dtype=w.dtype, device=a.device), 0, pos, src)


def histogram_any(a: Any, bins: Any = 10, range: Any = None, weights: Any = None, density: bool = False) -> Any:
    import numr as nr
    a = _real("histogram", a)
    pos, keep, edges, nb = _bins("histogram", a, bins, range)
    hist = _counts("histogram", pos, keep, nb, weights, a, dt.int64)
    if density:
        hf, _ = float_input("histogram", hist)
        hist = hf / cast_to(nr.diff(edges), hf.dtype) / nr.sum(hf)
    return hist, edges


def histogram2d_any(x: Any, y: Any, bins: Any = 10, range: Any = None, weights: Any = None,
                    density: bool = False) -> Any:
    import numr as nr
    x = _real("histogram2d", x)
    y = _real("histogram2d", y, x)
    if x.ndim != 1 or tuple(y.shape) != tuple(x.shape):
        raise ShapeError(f"histogram2d: x and y must be 1-d of one length, got shapes {tuple(x.shape)} and "
                         f"{tuple(y.shape)}")
    per_axis = isinstance(bins, (list, tuple)) and len(bins) == 2
    bx, by = bins if per_axis else (bins, bins)
    rx, ry = (None, None) if range is None else range
    px, kx, ex, nx = _bins("histogram2d", x, bx, rx)
    py, ky, ey, ny = _bins("histogram2d", y, by, ry)
    w = None if weights is None else as_tensor(weights, x)
    dtype = w.dtype if w is not None and w.dtype.is_floating_point else dt.default_float
    hist = _counts("histogram2d", px * ny + py, nr.logical_and(kx, ky), nx * ny, w, x, dtype)
    hist = cast_to(hist, dtype).reshape((nx, ny))
    if density:
        area = cast_to(nr.diff(ex), dtype).reshape((nx, 1)) * cast_to(nr.diff(ey), dtype).reshape((1, ny))
        hist = hist / area / nr.sum(hist)
    return hist, ex, ey


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


COMPOSITES = {"histogram": histogram_any, "histogram2d": histogram2d_any, "digitize": digitize_any,
              "bucketize": bucketize_any}
