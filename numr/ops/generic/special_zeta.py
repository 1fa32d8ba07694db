"""The Hurwitz zeta function zeta(x, q) = sum_k>=0 (q + k)^-x (torch.special.zeta,
scipy.special.zeta) and, without q, Riemann's zeta(x) = zeta(x, 1) continued to x < 1 (scipy).
Euler-Maclaurin as Cephes, with a fixed number of terms: N = 10 direct terms (more where some q
is negative: one scalar read) up to w = q + N, then w^(1-x)/(x-1) + w^-x/2 + 12 Bernoulli terms
B_2j/(2j)! x (x+1) ... (x+2j-2) w^(-x-2j+1). Riemann's zeta for x < 0 by the reflection
zeta(x) = 2^x pi^(x-1) sin(pi x/2) Gamma(1-x) zeta(1-x), with sin(pi x/2) on the exactly reduced
argument so that the trivial zeros are exact. Domain as scipy: zeta(1, q) = inf; with q, x < 1
gives NaN; q a non-positive integer gives inf, q < 0 non-integer with x non-integer NaN."""

from __future__ import annotations

import math
from typing import Any

from .special import sel, special_input
from .special_incomplete import _finish, _shape

#: (2j)! / B_2j for j = 1..12 (Cephes' A[])
_A = (12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9, 7.47242496e10,
      -2.950130727918164224e12, 1.1646782814350067249e14, -4.5979787224074726105e15,
      1.8152105401943546773e17, -7.1661652561756670113e18)
_DIRECT = 10


def _hurwitz(x: Any, q: Any) -> Any:
    """zeta(x, q) by Euler-Maclaurin, x != 1 (any x where q >= 1: the continuation)."""
    import numr as nr
    extra = 0
    if q.size:
        extra = max(0, math.ceil(-float(nr.min(nr.where(nr.isfinite(q), q, 0.0)).item())))
    n = _DIRECT + min(extra, 10000)
    s = x * 0.0
    for k in range(n):
        s = s + nr.pow(q + float(k), -x)
    w = q + float(n)
    b = nr.exp(-x * nr.log(w))  # w^-x
    s = s + b * w / (x - 1.0) + 0.5 * b
    t, k = b, 0.0  # x (x+1) ... (x+k-1) w^(-x-k), one product: no overflow of either factor
    for c in _A:
        t = t * ((x + k) / w)
        s = s + t * (1.0 / c)
        t = t * ((x + (k + 1.0)) / w)
        k += 2.0
    return s


def _sin_half_pi(x: Any) -> Any:
    """sin(pi x / 2) with x/2 reduced exactly modulo 2: exact zeros at the even integers."""
    import numr as nr
    h = x * 0.5
    n = nr.round(h)
    s = nr.sin(math.pi * (h - n))  # h - n in [-1/2, 1/2], exact
    return nr.where(nr.remainder(n, 2.0) == 0.0, s, -s)


def _riemann(x: Any) -> Any:
    """zeta(x) for every real x: Euler-Maclaurin for x >= 0 (1 excluded), the reflection below."""
    import numr as nr
    one = x * 0.0 + 1.0
    xp = nr.where(x < 0.0, 1.0 - x, x)
    z = _hurwitz(nr.where(xp == 1.0, 2.0, xp), one)
    lg = nr.lgamma(xp)  # Gamma(1 - x) for x < 0
    mag = nr.exp(x * math.log(2.0) + (x - 1.0) * math.log(math.pi) + lg)
    refl = _sin_half_pi(x) * mag * z
    refl = nr.where(_sin_half_pi(x) == 0.0, 0.0, refl)  # trivial zeros (mag may overflow)
    out = nr.where(x < 0.0, refl, z)
    out = sel(x == 1.0, math.inf, out)
    out = sel(x == math.inf, 1.0, out)
    out = sel(x == -math.inf, math.nan, out)
    return nr.where(nr.isnan(x), x, out)


def zeta_any(x: Any, q: Any = None) -> Any:
    """The Hurwitz zeta function zeta(x, q); Riemann's zeta(x) without q."""
    import numr as nr
    if q is None:
        (xc,), out = special_input("zeta", x)
        return _finish(_riemann(xc), out)
    (xc, qc), out = special_input("zeta", x, q)
    shape = _shape(xc, qc)
    xc, qc = nr.broadcast_to(xc, shape), nr.broadcast_to(qc, shape)
    xs = nr.where((xc == 1.0) | (xc < 1.0), 2.0, xc)
    qint = nr.floor(qc) == qc
    qs = nr.where((qc <= 0.0) & qint, 1.0, qc)
    r = _hurwitz(xs, qs)
    r = sel(xc == math.inf, sel(qc == 1.0, 1.0, sel(qc < 1.0, math.inf, nr.full_like(qc, 0.0))), r)
    r = sel(qc == math.inf, 0.0, r)
    r = sel((qc <= 0.0) & qint, math.inf, r)
    r = sel((qc < 0.0) & ~qint & (nr.floor(xc) != xc), math.nan, r)
    r = sel(xc == 1.0, math.inf, sel(xc < 1.0, math.nan, r))
    return _finish(sel(nr.isnan(xc) | nr.isnan(qc), math.nan, r), out)


COMPOSITES = {"zeta": zeta_any}
