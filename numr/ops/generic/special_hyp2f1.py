"""The Gauss hypergeometric function 2F1(a, b; c; x) for real arguments and x <= 1
(scipy.special.hyp2f1). Its series sum_k (a)_k (b)_k / (c)_k z^k / k! runs in z = x for
-1/2 <= x <= 0.9 and, for x < -1/2, in z = x/(x-1) after Pfaff's (1-x)^-a F(a, c-b; c; z);
where z > 0.9 the w-transformation (Abramowitz & Stegun 15.3.6, w = 1 - z < 0.1; for x < -1
w = 1/(1-x), free of z's rounding) replaces it:
  F(a, b; c; 1-w) = G(c) G(d) / (G(c-a) G(c-b)) F(a, b; 1-d; w)
                  + w^d G(c) G(-d) / (G(a) G(b)) F(c-a, c-b; 1+d; w),  d = c - a - b.
The series runs a fixed 60 + 2 max(|a|, |b|) + (the terms z_max^k needs to reach 1e-16) terms,
in [64, 600] (one scalar read sizes it, one more skips the transformation where no z needs it),
summed from the last term back; the reciprocal gammas are 0 at their poles, so terminating
cases need no branch of their own.
Accuracy (tests: scipy and mpmath for a, b in [-5, 5], c in [0.5, 10], x in [-20, 1]): ~1e-13
relative for |x| <= 0.9, 1e-12 typical beyond; where d (x > 0.9) or b - a (x < -9) lies within
1e-5 of an integer, the two terms' poles cancel and F is the mean of its values at c +- 1e-5:
~3e-10 relative there; x < -1 with a, b < 0 loses up to ~1e-8 to the alternating Pfaff series.
x = 1: Gauss's sum for d > 0, inf otherwise; c a non-positive integer (neither a nor b a larger
non-positive integer) inf, as scipy; x > 1 (a complex value; scipy: inf) and x = -inf NaN.
Large parameters (|a|, |b| beyond ~50) lose digits to the growth of the terms and gamma ratios."""

from __future__ import annotations

import math
from typing import Any

from .special import sel, special_input
from .special_incomplete import _finish, _gamma_fn, _shape

_NEAR = 1e-5
#: the series runs directly up to this |variable|; the w-transformation (w = 1 - z < 0.1) beyond
_SERIES_MAX = 0.9


def _rgamma(x: Any) -> Any:
    """1 / Gamma(x), 0 at the poles 0, -1, -2, ..."""
    import numr as nr
    pole = (x <= 0.0) & (nr.floor(x) == x)
    return nr.where(pole, 0.0, 1.0 / _gamma_fn(nr.where(pole, 0.5, x)))


def _series(a: Any, b: Any, c: Any, z: Any, n: int) -> Any:
    """sum_k<=n (a)_k (b)_k / (c)_k z^k / k! from the last term back; a term with a zero factor
    (a or b a non-positive integer) ends the sum there, so (c)_k's zeros beyond it do not enter."""
    import numr as nr
    s = z * 0.0 + 1.0
    for k in range(n, 0, -1):
        num = (a + float(k - 1)) * (b + float(k - 1))
        s = nr.where(num == 0.0, 1.0, nr.fma(s, num * z / ((c + float(k - 1)) * float(k)), 1.0))
    return s


def _one_minus(a: Any, b: Any, c: Any, w: Any, n: int) -> Any:
    """F(a, b; c; 1 - w) by the w-transformation (0 < w <= 1/2; c - a - b not an integer)."""
    import numr as nr
    d = c - a - b
    gc = _gamma_fn(c)
    t1 = gc * _gamma_fn(d) * _rgamma(c - a) * _rgamma(c - b) * _series(a, b, 1.0 - d, w, n)
    t2 = gc * _gamma_fn(-d) * _rgamma(a) * _rgamma(b) * nr.exp(d * nr.log(w)) * _series(c - a, c - b, 1.0 + d, w, n)
    t1 = nr.where(_rgamma(c - a) * _rgamma(c - b) == 0.0, 0.0, t1)
    t2 = nr.where(_rgamma(a) * _rgamma(b) == 0.0, 0.0, t2)
    return t1 + t2


def _transformed(a: Any, b: Any, c: Any, w: Any, n: int) -> Any:
    """_one_minus, averaged over c +- 1e-5 where c - a - b is within 1e-5 of an integer."""
    import numr as nr
    d = c - a - b
    near = nr.abs(d - nr.round(d)) < _NEAR
    cp, cm = nr.where(near, c + _NEAR, c), nr.where(near, c - _NEAR, c)
    return 0.5 * (_one_minus(a, b, cp, w, n) + _one_minus(a, b, cm, w, n))


def _terms(z: Any, *params: Any) -> int:
    """60 + 2 max(|a|, |b|) + the terms |z|^k needs to fall below 1e-16, in [64, 600] (one scalar read)."""
    import numr as nr
    if not z.size:
        return 64
    cols = [nr.max(nr.where(nr.isfinite(p), nr.abs(p), 0.0)).reshape(1) for p in (z, *params)]
    zmax, *tops = (float(v) for v in nr.cat(cols).numpy())
    need = 37.0 / -math.log(min(max(zmax, 1e-3), 0.95))
    return int(min(max(60 + 2 * math.ceil(max(tops + [1.0])) + math.ceil(need), 64), 600))


def _hyp2f1(a: Any, b: Any, c: Any, x: Any) -> Any:
    import numr as nr
    neg = x < -0.5
    xn = nr.where(neg, x, -1.0)
    z = xn / (xn - 1.0)  # Pfaff: (1 - x)^-a F(a, c - b; c; z), z in (1/3, 1)
    bb = nr.where(neg, c - b, b)
    zs = nr.where(neg, z, x)  # the series variable
    tail = zs > _SERIES_MAX
    zd = nr.where(tail | ~nr.isfinite(zs), 0.0, zs)
    n = _terms(zd, a, b)
    direct = _series(a, bb, c, zd, n)
    r = direct
    if bool(nr.any(tail).item()):  # the w-transformation's four series only where some z > 0.9
        w = nr.where(neg, 1.0 / (1.0 - xn), 1.0 - x)  # 1 - z for x < -1, formed without z's rounding
        r = nr.where(tail, _transformed(a, bb, c, nr.where(tail & (zs < 1.0), w, 0.5), n), direct)
    r = nr.where(neg, nr.exp(-a * nr.log1p(-xn)) * r, r)
    d = c - a - b
    gauss = _gamma_fn(c) * _gamma_fn(nr.where(d > 0.0, d, 1.0)) * _rgamma(c - a) * _rgamma(c - b)
    r = nr.where(x == 1.0, sel(d > 0.0, gauss, math.inf), r)
    terminates = ((a <= 0.0) & (nr.floor(a) == a) & (a > c)) | ((b <= 0.0) & (nr.floor(b) == b) & (b > c))
    r = sel((c <= 0.0) & (nr.floor(c) == c) & ~terminates, math.inf, r)
    r = sel((a == 0.0) | (b == 0.0), 1.0, r)
    bad = (x > 1.0) | (x == -math.inf) | nr.isnan(a) | nr.isnan(b) | nr.isnan(c) | nr.isnan(x)
    return sel(bad, math.nan, r)


def hyp2f1_any(a: Any, b: Any, c: Any, x: Any) -> Any:
    """The Gauss hypergeometric function 2F1(a, b; c; x), real arguments, x <= 1 (scipy.special.hyp2f1)."""
    import numr as nr
    (ac, bc, cc, xc), out = special_input("hyp2f1", a, b, c, x)
    shape = _shape(ac, bc, cc, xc)
    return _finish(_hyp2f1(*(nr.broadcast_to(t, shape) for t in (ac, bc, cc, xc))), out)


COMPOSITES = {"hyp2f1": hyp2f1_any}
