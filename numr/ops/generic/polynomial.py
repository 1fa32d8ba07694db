"""Polynomial composites (NumPy's order: highest power first), written once with numr's public
functions so every backend runs them and autograd differentiates them through their parts:
polyval is Horner's rule, polyfit lstsq on the column-scaled Vandermonde matrix, poly the
product of (x - r), polymul convolve, roots the eigenvalues of the companion matrix."""

from __future__ import annotations

from typing import Any

from ... import dtypes as dt
from ...errors import DTypeError, ShapeError
from ..prepare import plain
from .statistics import as_tensor, cast_to, float_input, order_arg


def _coeffs(op: str, p: Any, batched: bool = False) -> Any:
    """p as a tensor of coefficients: 1-d (a 0-d one becomes 1-d as in NumPy), or batched
    along the last dim when ``batched``; complex and bool raise DTypeError."""
    p = as_tensor(p)
    if p.dtype.is_complex or p.dtype is dt.bool_:
        raise DTypeError(f"{op}: coefficients of dtype {p.dtype} are not supported (real numbers only)")
    if p.ndim == 0:
        return p.reshape(1)
    if p.ndim > 1 and not batched:
        raise ShapeError(f"{op}: expected 1-d coefficients, got shape {tuple(p.shape)}")
    return p


def _coef(p: Any, k: int) -> Any:
    """p[..., k] as a tensor of shape p.shape[:-1]."""
    return p.narrow(p.ndim - 1, k, 1).reshape(tuple(p.shape[:-1]))


def polyval_any(p: Any, x: Any) -> Any:
    import numr as nr
    p = _coeffs("polyval", p, batched=True)
    x = as_tensor(x, p)
    rt = nr.result_type(plain(p), plain(x))
    p, x = cast_to(p, rt), cast_to(x, rt)
    n = p.shape[-1]
    shape = nr.broadcast_shapes(tuple(p.shape[:-1]), tuple(x.shape))
    if n == 0:
        return nr.zeros(shape, dtype=rt, device=x.device)
    if n == 1:
        return _coef(p, 0) + nr.zeros(shape, dtype=rt, device=x.device)
    y = _coef(p, 0) * x
    for k in range(1, n - 1):  # mul and add beat nr.fma here (1M float32: 1.4 vs 6 ms)
        y = (y + _coef(p, k)) * x
    return y + _coef(p, n - 1)


def polyfit_any(x: Any, y: Any, deg: int, w: Any = None) -> Any:
    import numr as nr
    deg = order_arg("polyfit", "deg", deg)
    x, out = float_input("polyfit", x)
    y = cast_to(as_tensor(y, x), x.dtype)
    if x.ndim != 1 or x.shape[0] == 0:
        raise ShapeError(f"polyfit: expected a non-empty 1-d x, got shape {tuple(x.shape)}")
    if y.ndim not in (1, 2) or y.shape[0] != x.shape[0]:
        raise ShapeError(f"polyfit: y must be 1-d or 2-d with x's length {x.shape[0]}, got shape {tuple(y.shape)}")
    powers = nr.arange(deg, -1, -1, dtype=x.dtype, device=x.device)
    lhs = nr.pow(x.reshape((-1, 1)), powers)  # Vandermonde, highest power first (0**0 = 1)
    rhs = y.reshape((-1, 1)) if y.ndim == 1 else y
    if w is not None:
        w = cast_to(as_tensor(w, x), x.dtype)
        if tuple(w.shape) != (x.shape[0],):
            raise ShapeError(f"polyfit: w must have x's shape ({x.shape[0]},), got {tuple(w.shape)}")
        lhs, rhs = lhs * w.reshape((-1, 1)), rhs * w.reshape((-1, 1))
    scale = nr.sqrt(nr.sum(plain(lhs) * plain(lhs), 0))
    scale = nr.where(scale == 0, 1.0, scale)  # NumPy scales the columns for conditioning
    c = nr.lstsq(lhs / scale, rhs) / scale.reshape((-1, 1))
    return cast_to(c.reshape(-1) if y.ndim == 1 else c, out)


def poly_any(roots: Any) -> Any:
    import numr as nr
    r = as_tensor(roots)
    if r.ndim > 1:
        raise ShapeError(f"poly: expected 1-d roots (a matrix's characteristic polynomial is not "
                         f"supported), got shape {tuple(r.shape)}")
    r, out = float_input("poly", r.reshape(-1))
    a = nr.ones(1, dtype=r.dtype, device=r.device)
    zero = nr.zeros(1, dtype=r.dtype, device=r.device)
    for i in range(r.shape[0]):  # a(x) * (x - r_i)
        a = nr.cat([a, zero]) - r.narrow(0, i, 1) * nr.cat([zero, a])
    return cast_to(a, out)


def _pair(op: str, a1: Any, a2: Any) -> tuple[Any, Any]:
    import numr as nr
    a1 = _coeffs(op, a1)
    a2 = _coeffs(op, as_tensor(a2, a1))
    rt = nr.result_type(plain(a1), plain(a2))
    return cast_to(a1, rt), cast_to(a2, rt)


def polyadd_any(a1: Any, a2: Any) -> Any:
    import numr as nr
    a1, a2 = _pair("polyadd", a1, a2)
    n1, n2 = a1.shape[0], a2.shape[0]
    if n1 < n2:
        a1 = nr.cat([nr.zeros(n2 - n1, dtype=a1.dtype, device=a1.device), a1])
    elif n2 < n1:
        a2 = nr.cat([nr.zeros(n1 - n2, dtype=a2.dtype, device=a2.device), a2])
    return a1 + a2


def polymul_any(a1: Any, a2: Any) -> Any:
    import numr as nr
    a1, a2 = _pair("polymul", a1, a2)
    return nr.convolve(a1, a2)


def polyder_any(p: Any, m: int = 1) -> Any:
    import numr as nr
    m = order_arg("polyder", "order m", m)
    p = _coeffs("polyder", p)
    for _ in range(m):
        n = p.shape[0] - 1
        if n <= 0:
            return p.narrow(0, 0, 0)
        p = p.narrow(0, 0, n) * nr.arange(n, 0, -1, dtype=p.dtype, device=p.device)
    return p


def polyint_any(p: Any, m: int = 1, k: Any = 0) -> Any:
    import numr as nr
    m = order_arg("polyint", "order m", m)
    p, out = float_input("polyint", _coeffs("polyint", p))
    ks = [k] * m if not isinstance(k, (list, tuple)) and getattr(k, "ndim", 0) == 0 else k
    if len(ks) < m:
        raise ShapeError(f"polyint: k must be a scalar or have at least m = {m} values, got {len(ks)}")
    for i in range(m):
        n = p.shape[0]
        ki = nr.cast(as_tensor(ks[i], p, dtype=p.dtype).reshape(1), p.dtype)
        p = nr.cat([p / nr.arange(n, 0, -1, dtype=p.dtype, device=p.device), ki])
    return cast_to(p, out)


def roots_any(p: Any) -> Any:
    import numr as nr
    p, _ = float_input("roots", _coeffs("roots", p))
    nz = [i for i, v in enumerate(nr.ne(plain(p), 0).tolist()) if v]  # one host read: the degree
    if not nz:
        return nr.zeros(0, dtype=p.dtype, device=p.device)
    trailing = p.shape[0] - nz[-1] - 1
    p = p.narrow(0, nz[0], nz[-1] + 1 - nz[0])
    n = p.shape[0] - 1
    zeros = nr.zeros(trailing, dtype=p.dtype, device=p.device)
    if n < 1:
        return zeros
    top = (-p.narrow(0, 1, n) / p.narrow(0, 0, 1)).reshape((1, n))
    companion = top if n == 1 else nr.cat([top, nr.eye(n - 1, n, dtype=p.dtype, device=p.device)], 0)
    r = nr.eigvals(companion)
    if not bool(nr.any(nr.imag(plain(r)) != 0).item()):  # real when all are real, as NumPy
        return nr.cat([nr.real(r), zeros])
    return nr.cat([r, cast_to(zeros, r.dtype)])


COMPOSITES = {"polyval": polyval_any, "polyfit": polyfit_any, "poly": poly_any, "polyadd": polyadd_any,
              "polymul": polymul_any, "polyder": polyder_any, "polyint": polyint_any, "roots": roots_any}
