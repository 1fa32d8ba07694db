"""Orthogonal polynomials of integer degree n (a tensor, broadcast with x) by their three-term
recurrences, run to the largest degree in n (one scalar read sizes the loop, as nonzero reads its
count) and the value at each element's own degree selected: Legendre P_n, Chebyshev T_n/U_n,
Hermite H_n (physicists') and He_n (probabilists'), Laguerre L_n (torch.special's
*_polynomial_* semantics: n is truncated to an integer, n < 0 gives 0). The associated Legendre
function P_n^m(x) (scipy.special.lpmv's convention: with the Condon-Shortley phase (-1)^m,
P_n^-m = (-1)^m (n-m)!/(n+m)! P_n^m, 0 for |m| > n) and the spherical harmonic
Y_n^m(theta, phi) = sqrt((2n+1)/(4 pi) (n-m)!/(n+m)!) P_n^m(cos theta) e^{i m phi}
(scipy.special.sph_harm_y, scipy >= 1.15: theta polar, phi azimuthal) come from the same loop.
Every step is a polynomial in x, so autograd differentiates through the recurrence exactly."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ... import dtypes as dt
from ...errors import UnsupportedDType
from .special import sel, special_input

#: name -> (p_0, p_1 as functions of x, step(k, x, p_k, p_{k-1}) -> p_{k+1})
_RECURRENCES: dict[str, tuple[Callable, Callable, Callable]] = {
    "legendre_p": (lambda x: 1.0, lambda x: x, lambda k, x, p, q: ((2 * k + 1) * x * p - k * q) * (1.0 / (k + 1))),
    "chebyshev_t": (lambda x: 1.0, lambda x: x, lambda k, x, p, q: 2.0 * x * p - q),
    "chebyshev_u": (lambda x: 1.0, lambda x: 2.0 * x, lambda k, x, p, q: 2.0 * x * p - q),
    "hermite_h": (lambda x: 1.0, lambda x: 2.0 * x, lambda k, x, p, q: 2.0 * x * p - (2.0 * k) * q),
    "hermite_he": (lambda x: 1.0, lambda x: x, lambda k, x, p, q: x * p - float(k) * q),
    "laguerre_l": (lambda x: 1.0, lambda x: 1.0 - x,
                   lambda k, x, p, q: ((2 * k + 1) - x) * p * (1.0 / (k + 1)) - q * (k / (k + 1))),
}


def _top(n: Any) -> int:
    """The largest degree in n (0 for an empty n): the loop's length."""
    import numr as nr
    return int(nr.max(n).item()) if n.size else 0


def _degree(op: str, n: Any, *xs: Any) -> tuple[Any, list[Any], dt.DType]:
    """(n truncated, as the computing float, broadcast; the float inputs broadcast; result dtype)."""
    import numr as nr

    from ...shapes import broadcast_shapes
    if not hasattr(n, "shape"):
        n = nr.tensor(n, device=next((x.device for x in xs if hasattr(x, "device")), None))
    if n.dtype.is_complex:
        raise UnsupportedDType(n.device.runtime_name, op, n.dtype)
    cs, out = special_input(op, *xs)
    nf = nr.trunc(nr.cast(n, cs[0].dtype)) if n.dtype.is_floating_point else nr.cast(n, cs[0].dtype)
    shape = tuple(broadcast_shapes(nf.shape, *(c.shape for c in cs)))
    return nr.broadcast_to(nf, shape), [nr.broadcast_to(c, shape) for c in cs], out


def _finish(y: Any, out: dt.DType) -> Any:
    import numr as nr
    return y if y.dtype is out else nr.cast(y, out)


def recurrence(name: str, n: Any, x: Any) -> Any:
    """p_n(x) for float tensors n (integral values) and x of one shape."""
    import numr as nr
    f0, f1, step = _RECURRENCES[name]
    p0, p1 = x * 0.0 + f0(x), x * 0.0 + f1(x)
    out = nr.where(n == 0.0, p0, x * 0.0)
    q, p = p0, p1
    for k in range(1, _top(n) + 1):
        out = nr.where(n == float(k), p, out)
        q, p = p, step(k, x, p, q)
    return out


def _make(name: str) -> Callable[[Any, Any], Any]:
    def f(n: Any, x: Any) -> Any:
        nf, (xc,), out = _degree(name, n, x)
        return _finish(recurrence(name, nf, xc), out)
    f.__name__ = f"{name}_any"
    f.__doc__ = f"The polynomial {name}(n, x) of integer degree n by its three-term recurrence."
    return f


def _assoc(n: Any, m: Any, x: Any) -> Any:
    """P_n^m(x) for float tensors of one shape (n, m integral), Condon-Shortley phase included."""
    import numr as nr
    am = nr.abs(m)
    top = _top(n)
    s = nr.sqrt(nr.maximum((1.0 - x) * (1.0 + x), 0.0))
    pmm = x * 0.0 + 1.0  # P_m^m = (-1)^m (2m-1)!! (1-x^2)^(m/2), built up to each element's m
    for k in range(1, min(_top(am), top) + 1):
        pmm = nr.where(am >= float(k), pmm * s * -(2.0 * k - 1.0), pmm)
    zero = x * 0.0
    prev, cur = zero, nr.where(am == 0.0, pmm, zero)
    out = nr.where(n == 0.0, cur, zero)
    for k in range(1, top + 1):  # cur = P_k^m once k >= m
        nxt = ((2.0 * k - 1.0) * x * cur - (float(k - 1) + am) * prev) / nr.maximum(float(k) - am, 1.0)
        start = am == float(k)
        prev, cur = nr.where(start, zero, cur), nr.where(start, pmm, nr.where(am < float(k), nxt, zero))
        out = nr.where(n == float(k), cur, out)
    # P_n^-m = (-1)^m (n-m)!/(n+m)! P_n^m
    ratio = nr.exp(nr.lgamma(nr.maximum(n - am, 0.0) + 1.0) - nr.lgamma(n + am + 1.0))
    sign = 1.0 - 2.0 * nr.remainder(am, 2.0)  # (-1)^m
    out = nr.where(m < 0.0, sign * ratio * out, out)
    return sel((am > n) | (n < 0.0), 0.0, out)


def legendre_p_assoc_any(n: Any, m: Any, x: Any) -> Any:
    """The associated Legendre function P_n^m(x) of integer degree n >= 0 and order m (scipy.special.lpmv(m, n, x))."""
    import numr as nr
    nf, (mc, xc), out = _degree("legendre_p_assoc", n, m, x)
    return _finish(_assoc(nf, nr.trunc(mc), xc), out)


def sph_harm_y_any(n: Any, m: Any, theta: Any, phi: Any) -> Any:
    """The spherical harmonic Y_n^m(theta, phi) (scipy.special.sph_harm_y): complex64 for float32
    (and half) inputs, complex128 for float64; UnsupportedDType where the backend has no complex."""
    import numr as nr
    nf, (mc, tc, pc), out = _degree("sph_harm_y", n, m, theta, phi)
    ctype = dt.complex128 if out is dt.float64 else dt.complex64
    if ctype not in tc.device.runtime.supported_dtypes(tc.device):
        raise UnsupportedDType(tc.device.runtime_name, "sph_harm_y", ctype)
    mi = nr.trunc(mc)
    am = nr.abs(mi)
    p = _assoc(nf, mi, nr.cos(tc))
    norm = nr.sqrt((2.0 * nf + 1.0) * (0.25 / math.pi)
                   * nr.exp(nr.lgamma(nr.maximum(nf - mi, 0.0) + 1.0) - nr.lgamma(nr.maximum(nf + mi, 0.0) + 1.0)))
    r = sel((am > nf) | (nf < 0.0), 0.0, norm * p)
    if out not in (dt.float32, dt.float64):
        r, pc = nr.cast(r, dt.float32), nr.cast(pc, dt.float32)
    return nr.polar(r, mi * pc)


#: every op of this file: public name -> composite of the public arguments
COMPOSITES: dict[str, Callable[..., Any]] = {
    **{name: _make(name) for name in _RECURRENCES},
    "legendre_p_assoc": legendre_p_assoc_any, "sph_harm_y": sph_harm_y_any}
