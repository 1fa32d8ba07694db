"""Confluent hypergeometric function M(a, b, x) = 1F1(a; b; x) (scipy.special.hyp1f1, real
arguments). x < 0 goes through Kummer's transformation M(a, b, x) = e^x M(b - a, b, -x), so one
evaluation M(p, b, y) with y = |x| >= 0 serves both signs; its series sum_k (p)_k / (b)_k y^k / k!
is summed from its N-th term back, N = 40 + 2 y_max in [64, 600] (one scalar read: the largest y
the series serves), and for y > 250 where |(1-p)(b-p)| < y / 4 the large-argument expansion
Gamma(b)/Gamma(p) e^y y^(p-b) sum_s (1-p)_s (b-p)_s / s! y^-s (25 terms; for x < 0 the e^y
cancels Kummer's e^x) replaces it.
Accuracy (tests: scipy as the oracle for a in [-5, 5], b in [0.5, 10], x in [-60, 60]): ~1e-13
relative where the terms keep one sign (x >= 0 with a >= 0; x < 0 with b >= a); digits are lost
to cancellation where they alternate (a < 0 with large x > 0, b < a with large |x|, x < 0): about
log10 of max term / |M| of them. b a non-positive integer gives inf (scipy), x = +-inf NaN."""

from __future__ import annotations

import math
from typing import Any

from .special import sel, special_input
from .special_incomplete import _finish, _gamma_sign, _shape

_ASYM_TERMS = 25


def _series(p: Any, b: Any, y: Any, n: int) -> Any:
    """sum_k (p)_k / (b)_k y^k / k!, k < n + 1, from the last term back."""
    import numr as nr
    s = y * 0.0 + 1.0
    for k in range(n, 0, -1):
        s = nr.fma(s, (p + float(k - 1)) * y / ((b + float(k - 1)) * float(k)), 1.0)
    return s


def _asymptotic(p: Any, b: Any, y: Any, log_scale: Any) -> Any:
    """Gamma(b)/Gamma(p) e^(y + log_scale) y^(p-b) sum_s (1-p)_s (b-p)_s / s! y^-s (y large)."""
    import numr as nr
    s = y * 0.0 + 1.0
    for k in range(_ASYM_TERMS, 0, -1):
        s = nr.fma(s, (float(k) - p) * (b - p + float(k - 1)) / (float(k) * y), 1.0)
    pole = (p <= 0.0) & (nr.floor(p) == p)  # 1/Gamma(p) = 0 at p = 0, -1, ...
    pn = nr.where(pole, 0.5, p)
    lg = nr.lgamma(b) - nr.lgamma(pn) + y + log_scale + (p - b) * nr.log(y)
    r = _gamma_sign(b) * _gamma_sign(pn) * nr.exp(lg) * s
    return nr.where(pole, 0.0, r)


def _hyp1f1(a: Any, b: Any, x: Any) -> Any:
    import numr as nr
    neg = x < 0.0
    y = nr.abs(x)
    p = nr.where(neg, b - a, a)
    poly = (p <= 0.0) & (nr.floor(p) == p)  # a terminating series
    asym = (y > 250.0) & (nr.abs((1.0 - p) * (b - p)) < 0.25 * y) & ~poly
    ys = nr.where(asym | ~nr.isfinite(y), 0.0, y)
    top = float(nr.max(ys).item()) if ys.size else 0.0
    n = int(min(max(40 + 2 * math.ceil(top), 64), 600))
    series = _series(p, b, ys, n)
    series = nr.where(neg, nr.exp(x) * series, series)
    r = series
    if bool(nr.any(asym).item()):  # the expansion only where some element needs it (one scalar read)
        far = _asymptotic(p, b, nr.where(asym, y, 300.0), nr.where(neg, x, 0.0))
        r = nr.where(asym, far, series)
    r = sel((b <= 0.0) & (nr.floor(b) == b), math.inf, r)
    r = sel(a == 0.0, 1.0, r)
    bad = nr.isnan(a) | nr.isnan(b) | nr.isnan(x) | nr.isinf(x)
    return sel(bad, math.nan, r)


def hyp1f1_any(a: Any, b: Any, x: Any) -> Any:
    """Kummer's confluent hypergeometric function M(a, b, x) = 1F1(a; b; x) (scipy.special.hyp1f1)."""
    import numr as nr
    (ac, bc, xc), out = special_input("hyp1f1", a, b, x)
    shape = _shape(ac, bc, xc)
    return _finish(_hyp1f1(*(nr.broadcast_to(t, shape) for t in (ac, bc, xc))), out)


COMPOSITES = {"hyp1f1": hyp1f1_any}
