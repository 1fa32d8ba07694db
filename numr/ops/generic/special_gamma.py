"""The gamma family as composites: lgamma by Lanczos (g = 7, n = 9) with the reflection formula
for x < 0.5 (poles -> inf, as torch), digamma and polygamma(n >= 1) by the recurrence shifting
every y by 10 + 2n (no masks), the asymptotic (Bernoulli) series there, and the reflection formula for x < 0 (the
n-th derivative of pi cot(pi x) as a polynomial in cot, built once per n), multigammaln, and the
modified Bessel functions (special_bessel.py). sin/tan(pi x) are taken on x - round(x) (exact),
so large negative arguments keep their accuracy."""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache
from typing import Any

from ...errors import DomainError
from .special import COMPOSITES as _ERF
from .special import horner, sel, special_input, special_unary
from .special_bessel import UNARY as _BESSEL

_LANCZOS = (0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
            -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
            1.5056327351493116e-7)
HALF_LOG_2PI = 0.91893853320467274178
#: B_2k for k = 1..10
_BERNOULLI = (Fraction(1, 6), Fraction(-1, 30), Fraction(1, 42), Fraction(-1, 30), Fraction(5, 66),
              Fraction(-691, 2730), Fraction(7, 6), Fraction(-3617, 510), Fraction(43867, 798),
              Fraction(-174611, 330))


def _lanczos(y: Any) -> Any:
    """lgamma(y) for y >= 0.5: (z + 1/2) (log t - 1) - 6.5... written so large y does not
    overflow to inf - inf (t = z + g + 1/2, z = y - 1)."""
    import numr as nr
    z = y - 1.0
    a = z * 0.0 + _LANCZOS[0]
    for i, c in enumerate(_LANCZOS[1:], 1):
        a = a + c / (z + float(i))
    t = z + 7.5
    return HALF_LOG_2PI + (z + 0.5) * (nr.log(t) - 1.0) - 7.0 + nr.log(a)


def _reduce(x: Any) -> tuple[Any, Any]:
    """(r, n) with x = n + r, n = round(x), |r| <= 1/2, r exact."""
    import numr as nr
    n = nr.round(x)
    return x - n, n


def _lgamma(x: Any) -> Any:
    """log |Gamma(x)|; inf at the poles 0, -1, -2, ... and at +-inf."""
    import numr as nr
    refl = x < 0.5
    lg = _lanczos(nr.where(refl, 1.0 - x, x))
    r, _ = _reduce(x)
    s = nr.abs(nr.sin(math.pi * r))
    out = nr.where(refl, nr.log(math.pi / s) - lg, lg)
    return nr.where(nr.isinf(x), nr.abs(x), out)


@cache
def _cot_derivative(n: int) -> tuple[float, ...]:
    """Q_n, highest power first, with d^n/dx^n cot(pi x) = pi^n Q_n(cot(pi x))."""
    q = [0, 1]  # Q_0 = c, lowest power first
    for _ in range(n):
        d = [k * q[k] for k in range(1, len(q))]  # Q'
        nq = [0] * (len(d) + 2)
        for k, v in enumerate(d):  # -(1 + c^2) Q'
            nq[k] -= v
            nq[k + 2] -= v
        q = nq
    while len(q) > 1 and q[-1] == 0:
        q.pop()
    return tuple(float(v) for v in reversed(q))


def _psi_series(n: int, y: Any) -> Any:
    """psi^(n)(y) for y >= 10 + 2n by the asymptotic series (10 Bernoulli terms)."""
    import numr as nr
    r = 1.0 / y
    r2 = r * r
    if n == 0:
        coeffs = [float(b / (2 * k)) for k, b in enumerate(_BERNOULLI, 1)]
        return nr.log(y) - 0.5 * r - r2 * horner(r2, coeffs[::-1])
    sign = 1.0 if n % 2 else -1.0
    fn = math.factorial
    coeffs = [float(b * fn(2 * k + n - 1) / fn(2 * k)) for k, b in enumerate(_BERNOULLI, 1)]
    head = fn(n - 1) + 0.5 * fn(n) * r + r2 * horner(r2, coeffs[::-1])
    return sign * head * r ** n


def polygamma_n(n: int, x: Any) -> Any:
    """psi^(n)(x) (n = 0: digamma) for a float32/float64 tensor."""
    import numr as nr
    refl = x < 0
    y = nr.where(refl, 1.0 - x, x)  # >= 0
    shift = 10 + 2 * n
    acc = None
    for k in range(shift):  # psi^(n)(y) = psi^(n)(y + shift) + sign sum_k (y + k)^-(n+1), for every y
        t = _ipow(1.0 / (y + float(k)), n + 1)
        acc = t if acc is None else acc + t
    sign = -math.factorial(n) if n % 2 == 0 else math.factorial(n)
    out = _psi_series(n, y + float(shift)) + sign * acc
    r, _ = _reduce(x)
    c = 1.0 / nr.tan(math.pi * r)
    cot = -(math.pi ** (n + 1)) * horner(c, _cot_derivative(n)) if n else -math.pi * c
    out = nr.where(refl, cot + (1.0 if n % 2 == 0 else -1.0) * out, out)
    pole = (r == 0) & (x <= 0)
    if n == 0:
        at = sel(x == 0, sel(1.0 / x > 0, nr.full_like(x, -math.inf), math.inf), math.nan)
    else:
        at = math.inf if n % 2 else -math.inf
    out = sel(pole, at, out)
    return sel(nr.isinf(x) & (x < 0), math.nan, out)


def _ipow(r: Any, k: int) -> Any:
    """r ** k for an int k >= 1 by squaring (a few multiplications instead of pow)."""
    out, sq = None, r
    while k:
        if k & 1:
            out = sq if out is None else out * sq
        k >>= 1
        if k:
            sq = sq * sq
    return out


def _digamma(x: Any) -> Any:
    """psi(x) = d/dx log Gamma(x); -inf at 0, +inf at -0, NaN at the negative integers."""
    return polygamma_n(0, x)


def polygamma_any(n: int, x: Any) -> Any:
    """The n-th derivative of digamma (n >= 0 an int; n = 0 is digamma)."""
    import numr as nr
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise DomainError(f"polygamma: n must be a non-negative int, got {n!r}")
    (xc,), out = special_input("polygamma", x)
    y = polygamma_n(n, xc)
    return y if y.dtype is out else nr.cast(y, out)


def multigammaln_any(a: Any, p: int) -> Any:
    """log of the multivariate gamma function of dimension p: p(p-1)/4 log(pi) + sum_j
    lgamma(a - j/2), j < p; every element of a must exceed (p - 1)/2."""
    import numr as nr
    if isinstance(p, bool) or not isinstance(p, int) or p < 1:
        raise DomainError(f"multigammaln: p must be a positive int, got {p!r}")
    (ac,), out = special_input("multigammaln", a)
    if ac.size and bool(nr.any(ac <= (p - 1) / 2).item()):
        raise DomainError(f"multigammaln: every element of a (shape {tuple(ac.shape)}) must be > {(p - 1) / 2}")
    y = nr.full_like(ac, p * (p - 1) / 4 * math.log(math.pi))
    for j in range(p):
        y = y + nr.lgamma(ac - j / 2)
    return y if y.dtype is out else nr.cast(y, out)


UNARY = {"lgamma": _lgamma, "digamma": _digamma, **_BESSEL}
#: every special composite: public name -> function of the public arguments
COMPOSITES = {**_ERF, **{n: special_unary(n, f) for n, f in UNARY.items()},
              "polygamma": polygamma_any, "multigammaln": multigammaln_any}
