"""NumPy's 1-d numerics as composites of numr's public functions (every backend runs them and
autograd differentiates their parts): convolve/correlate (conv1d for floats, or an rfft product
for long pairs; shifted products for integers, exact), interp (searchsorted, then the two
neighbours gathered; NumPy's rules at exact nodes and for non-finite slopes), trapezoid and
cumulative_trapezoid, gradient (second-order central differences). Histograms and binning are
in numeric_hist.py."""

from __future__ import annotations

import math
from typing import Any

from ... import dtypes as dt
from ...errors import DTypeError, ShapeError, UnsupportedDType
from ...shapes import normalize_dim
from ..prepare import plain
from .statistics import as_tensor, cast_to, float_input

MODES = ("full", "same", "valid")
#: both lengths at least this: the rfft product (padded to a power of two) beats conv1d; measured
#: on the CPU (1 thread): 64k * 64 conv1d 0.6 ms vs fft 2.8 ms, 64k * 2048 25 ms vs 1.0 ms,
#: 16k * 16k 29 ms vs 0.3 ms, 2k * 2k 0.3 ms either way
FFT_MIN = 2048


def real_float(op: str, *xs: Any) -> tuple[list[Any], dt.DType]:
    """xs promoted together and cast to the float dtype computed in (float32 for half and
    float8, the default float for integers), and the result dtype; complex raises DTypeError."""
    import numr as nr
    like = next((x for x in xs if hasattr(x, "device")), None)
    ts = [as_tensor(x, like) for x in xs]
    rt = nr.result_type(*(plain(t) for t in ts)) if len(ts) > 1 else ts[0].dtype
    probe, out = float_input(op, nr.zeros((), dtype=rt, device=ts[0].device))
    return [cast_to(t, probe.dtype) for t in ts], out


def _sequence(op: str, a: Any) -> Any:
    a = as_tensor(a)
    if a.ndim > 1:
        raise ShapeError(f"{op}: expected 1-d sequences, got shape {tuple(a.shape)}")
    if a.size == 0:
        raise ShapeError(f"{op}: inputs cannot be empty (shape {tuple(a.shape)})")
    if a.dtype.is_complex or a.dtype is dt.bool_:
        raise DTypeError(f"{op}: dtype {a.dtype} is not supported (real numbers only)")
    return a.reshape(-1)


def _full(a: Any, v: Any) -> Any:
    """The full linear convolution of 1-d a and v (same dtype)."""
    import numr as nr
    n, m = a.shape[0], v.shape[0]
    if not a.dtype.is_floating_point:  # exact: one shifted product per element of the shorter
        lo, hi = (a, v) if n <= m else (v, a)
        s, L = lo.shape[0], n + m - 1
        out = None
        for j in range(s):
            term = nr.pad(hi * lo.narrow(0, j, 1), (j, s - 1 - j))
            out = term if out is None else out + term
        return out.reshape(L)
    if min(n, m) >= FFT_MIN:
        L = n + m - 1
        N = 1 << (L - 1).bit_length()
        try:
            return nr.irfft(nr.rfft(a, N) * nr.rfft(v, N), N).narrow(0, 0, L)
        except UnsupportedDType:  # a backend without complex dtypes (wgpu): the direct route
            pass
    return nr.conv1d(a.reshape((1, 1, n)), v.flip(0).reshape((1, 1, m)), padding=m - 1).reshape(-1)


def _conv(op: str, a: Any, v: Any, mode: str, flip: bool) -> Any:
    import numr as nr
    if mode not in MODES:
        raise ShapeError(f"{op}: mode must be one of {MODES}, got {mode!r}")
    a, v = _sequence(op, a), _sequence(op, as_tensor(v, as_tensor(a)))
    rt = nr.result_type(plain(a), plain(v))
    ct = rt if rt in (dt.float32, dt.float64) or not rt.is_floating_point else dt.float32
    a, v = cast_to(a, ct), cast_to(v, ct)
    n, m = a.shape[0], v.shape[0]
    full = _full(a, v.flip(0) if flip else v)
    lo, hi = min(n, m), max(n, m)
    if mode == "full":
        r = full
    elif mode == "valid":
        r = full.narrow(0, lo - 1, hi - lo + 1)
    else:  # NumPy's "same": centred, a correlation with the longer v counted from the other end
        r = full.narrow(0, lo // 2 if flip and n < m else (lo - 1) // 2, hi)
    return cast_to(r, rt)


def convolve_any(a: Any, v: Any, mode: str = "full") -> Any:
    return _conv("convolve", a, v, mode, False)


def correlate_any(a: Any, v: Any, mode: str = "valid") -> Any:
    return _conv("correlate", a, v, mode, True)


def _edge_value(v: Any, default: Any, like: Any) -> Any:
    return default if v is None else cast_to(as_tensor(v, like, dtype=like.dtype), like.dtype)


def _part(v: Any, part: str) -> Any:
    """The real or imaginary part of an edge value (None stays None)."""
    import numr as nr
    return None if v is None else getattr(nr, part)(v) if hasattr(v, "dtype") else getattr(complex(v), part)


def interp_any(x: Any, xp: Any, fp: Any, left: Any = None, right: Any = None, period: Any = None) -> Any:
    import numr as nr
    if getattr(fp, "dtype", None) is not None and fp.dtype.is_complex:  # NumPy: real and imaginary parts
        return nr.complex(*(interp_any(x, xp, getattr(nr, p)(fp), _part(left, p), _part(right, p), period)
                            for p in ("real", "imag")))
    (x, xp, fp), out = real_float("interp", x, xp, fp)
    if xp.ndim != 1 or fp.ndim != 1:
        raise ShapeError(f"interp: xp and fp must be 1-d, got shapes {tuple(xp.shape)} and {tuple(fp.shape)}")
    if xp.shape[0] != fp.shape[0]:
        raise ShapeError(f"interp: fp and xp are not of the same length ({fp.shape[0]} and {xp.shape[0]})")
    if xp.shape[0] == 0:
        raise ShapeError("interp: array of sample points (xp) is empty")
    if period is not None:
        period = abs(float(period))
        if period == 0:
            raise ShapeError("interp: period must be a non-zero value")
        left = right = None
        x, xp = nr.remainder(x, period), nr.remainder(xp, period)
        order = nr.argsort(plain(xp))
        xp, fp = nr.index_select(xp, 0, order), nr.index_select(fp, 0, order)
        xp = nr.cat([xp.narrow(0, xp.shape[0] - 1, 1) - period, xp, xp.narrow(0, 0, 1) + period])
        fp = nr.cat([fp.narrow(0, fp.shape[0] - 1, 1), fp, fp.narrow(0, 0, 1)])
    n = xp.shape[0]
    px, pxp = plain(x), plain(xp)
    lo_node, hi_node = pxp.narrow(0, 0, 1).reshape(()), pxp.narrow(0, n - 1, 1).reshape(())
    first, last = fp.narrow(0, 0, 1).reshape(()), fp.narrow(0, n - 1, 1).reshape(())
    if n == 1:
        y = nr.broadcast_to(first, tuple(x.shape))
    else:
        # j with xp[j] <= x < xp[j + 1], clamped to a segment; x == xp[-1] is the last node
        j = nr.clamp(nr.searchsorted(pxp, px.reshape(-1), right=True) - 1, 0, n - 2).reshape(tuple(x.shape))
        flat = j.reshape(-1)
        x0, x1 = (nr.index_select(xp, 0, flat + k).reshape(tuple(x.shape)) for k in (0, 1))
        f0, f1 = (nr.index_select(fp, 0, flat + k).reshape(tuple(x.shape)) for k in (0, 1))
        slope = (f1 - f0) / (x1 - x0)
        y = slope * (x - x0) + f0
        bad = nr.isnan(plain(y))  # NumPy's retries: from the right node, then a flat segment
        y = nr.where(bad, slope * (x - x1) + f1, y)
        y = nr.where(nr.logical_and(nr.isnan(plain(y)), plain(f0) == plain(f1)), f0, y)
        y = nr.where(px == plain(x0), f0, y)
        y = nr.where(px == hi_node, last, y)
    y = nr.where(px < lo_node, _edge_value(left, first, y), y)
    y = nr.where(px > hi_node, _edge_value(right, last, y), y)
    if n > 1:  # NumPy: NaN x gives NaN, but fp[0] with a single sample point
        y = nr.where(nr.isnan(px), math.nan, y)
    return cast_to(y, out)


def _trapezoid_terms(op: str, y: Any, x: Any, dx: Any, axis: int) -> tuple[Any, int, dt.DType]:
    """(the trapezoid areas between neighbours along axis, the normalized axis, result dtype)."""
    import numr as nr
    (y,), out = real_float(op, y)
    if y.ndim == 0:
        raise ShapeError(f"{op}: needs at least 1 dim, got a 0-d tensor")
    d = normalize_dim(axis, y.ndim, op)
    n = y.shape[d]
    avg = (y.narrow(d, min(n, 1), max(n - 1, 0)) + y.narrow(d, 0, max(n - 1, 0))) * 0.5
    if x is None:
        return avg * dx, d, out
    (x,), xout = real_float(op, x)
    rt = nr.result_type(nr.zeros((), dtype=out), nr.zeros((), dtype=xout))
    if x.ndim == 1:
        if x.shape[0] != n:
            raise ShapeError(f"{op}: x of length {x.shape[0]} does not match y's axis {d} of size {n}")
        h = nr.diff(x).reshape(tuple(max(n - 1, 0) if i == d else 1 for i in range(y.ndim)))
    elif tuple(x.shape) == tuple(y.shape):
        h = nr.diff(x, 1, d)
    else:
        raise ShapeError(f"{op}: x must be 1-d or have y's shape {tuple(y.shape)}, got {tuple(x.shape)}")
    ct = nr.result_type(plain(avg), plain(h))
    return cast_to(avg, ct) * cast_to(h, ct), d, rt


def trapezoid_any(y: Any, x: Any = None, dx: float = 1.0, axis: int = -1) -> Any:
    import numr as nr
    t, d, out = _trapezoid_terms("trapezoid", y, x, dx, axis)
    return cast_to(nr.sum(t, d), out)


def cumulative_trapezoid_any(y: Any, x: Any = None, dx: float = 1.0, axis: int = -1, initial: Any = None) -> Any:
    import numr as nr
    t, d, out = _trapezoid_terms("cumulative_trapezoid", y, x, dx, axis)
    c = nr.cumsum(t, d)
    if initial is not None:
        first = nr.full(tuple(1 if i == d else s for i, s in enumerate(c.shape)), float(initial),
                        dtype=c.dtype, device=c.device)
        c = nr.cat([first, c], d)
    return cast_to(c, out)


def _spacing(op: str, h: Any, n: int, like: Any) -> Any:
    """A scalar spacing as a float, or 1-d coordinates of length n as a tensor in like's dtype."""
    if not hasattr(h, "shape") and not isinstance(h, (list, tuple)):
        return float(h)
    t = as_tensor(h, like)
    if t.ndim == 0:
        return float(t.item())
    if t.ndim != 1 or t.shape[0] != n:
        raise ShapeError(f"{op}: spacing must be a scalar or 1-d coordinates of the axis' length {n}, "
                         f"got shape {tuple(t.shape)}")
    return cast_to(t, like.dtype)


def _gradient_axis(f: Any, d: int, h: Any, edge_order: int) -> Any:
    import numr as nr
    n = f.shape[d]

    def at(start: int, length: int) -> Any:
        return f.narrow(d, start, length)

    def col(t: Any) -> Any:  # a 1-d coefficient along d
        return t.reshape(tuple(t.shape[0] if i == d else 1 for i in range(f.ndim)))
    if isinstance(h, float):
        inner = (at(2, n - 2) - at(0, n - 2)) / (2.0 * h)
        if edge_order == 1:
            lo, hi = (at(1, 1) - at(0, 1)) / h, (at(n - 1, 1) - at(n - 2, 1)) / h
        else:
            lo = (-1.5 * at(0, 1) + 2.0 * at(1, 1) - 0.5 * at(2, 1)) / h
            hi = (0.5 * at(n - 3, 1) - 2.0 * at(n - 2, 1) + 1.5 * at(n - 1, 1)) / h
        return nr.cat([lo, inner, hi], d)
    dx = nr.diff(h)
    h1, h2 = dx.narrow(0, 0, n - 2), dx.narrow(0, 1, n - 2)
    a, b, c = -h2 / (h1 * (h1 + h2)), (h2 - h1) / (h1 * h2), h1 / (h2 * (h1 + h2))
    inner = col(a) * at(0, n - 2) + col(b) * at(1, n - 2) + col(c) * at(2, n - 2)
    if edge_order == 1:
        lo = (at(1, 1) - at(0, 1)) / dx.narrow(0, 0, 1).reshape(())
        hi = (at(n - 1, 1) - at(n - 2, 1)) / dx.narrow(0, n - 2, 1).reshape(())
    else:
        p, q = dx.narrow(0, 0, 1).reshape(()), dx.narrow(0, 1, 1).reshape(())
        lo = (-(2.0 * p + q) / (p * (p + q))) * at(0, 1) + ((p + q) / (p * q)) * at(1, 1) \
            - (p / (q * (p + q))) * at(2, 1)
        p, q = dx.narrow(0, n - 3, 1).reshape(()), dx.narrow(0, n - 2, 1).reshape(())
        hi = (q / (p * (p + q))) * at(n - 3, 1) - ((p + q) / (p * q)) * at(n - 2, 1) \
            + ((2.0 * q + p) / (q * (p + q))) * at(n - 1, 1)
    return nr.cat([lo, inner, hi], d)


def gradient_any(f: Any, *varargs: Any, axis: Any = None, edge_order: int = 1) -> Any:
    (f,), out = real_float("gradient", f)
    if f.ndim == 0:
        raise ShapeError("gradient: needs at least 1 dim, got a 0-d tensor")
    single = isinstance(axis, int)
    axes = tuple(range(f.ndim)) if axis is None else (axis,) if single else tuple(axis)
    axes = tuple(normalize_dim(a, f.ndim, "gradient") for a in axes)
    if len(set(axes)) != len(axes):
        raise ShapeError(f"gradient: repeated axis in {axis!r}")
    if edge_order not in (1, 2):
        raise ShapeError(f"gradient: edge_order must be 1 or 2, got {edge_order!r}")
    if len(varargs) not in (0, 1, len(axes)):
        raise ShapeError(f"gradient: expected 0, 1 or {len(axes)} spacings, got {len(varargs)}")
    spacing = list(varargs) * (len(axes) if len(varargs) == 1 else 1) if varargs else [1.0] * len(axes)
    res = []
    for d, h in zip(axes, spacing, strict=True):
        if f.shape[d] < edge_order + 1:
            raise ShapeError(f"gradient: axis {d} of shape {tuple(f.shape)} needs at least edge_order + 1 = "
                             f"{edge_order + 1} samples")
        res.append(cast_to(_gradient_axis(f, d, _spacing("gradient", h, f.shape[d], f), edge_order), out))
    return res[0] if len(res) == 1 else tuple(res)


COMPOSITES = {"convolve": convolve_any, "correlate": correlate_any, "interp": interp_any,
              "trapezoid": trapezoid_any, "cumulative_trapezoid": cumulative_trapezoid_any,
              "gradient": gradient_any}
