"""Complete elliptic integrals of the first and second kind in scipy's parameter m (k^2):
ellipk(m) = int_0^{pi/2} (1 - m sin^2 t)^-1/2 dt, ellipe(m) = int_0^{pi/2} (1 - m sin^2 t)^1/2 dt,
by the arithmetic-geometric mean with a fixed number of steps: a0 = 1, b0 = sqrt(1 - m),
c0^2 = m, c_{n+1}^2 = c_n^4 / (16 a_{n+1}^2) (no a - b cancellation); K = pi / (2 a_N),
E = K (1 - sum 2^(n-1) c_n^2). Quadratic convergence: 12 steps reach float64 rounding down to
1 - m' = 1e-308 (E for m < -1e10 loses ~log(-m) ulp to the cancellation in 1 - sum: 8e-14
relative at m = -1e239). m < 0 goes through the imaginary-modulus transformation (as scipy):
K(m) = K(m') / sqrt(1 - m), E(m) = E(m') sqrt(1 - m), m' = -m / (1 - m) in [0, 1), with
1 - m' = 1 / (1 - m) formed directly. m = 1: K = inf, E = 1; m > 1: NaN; m = -inf: K = 0, E = inf."""

from __future__ import annotations

import math
from typing import Any

from .special import sel

STEPS = 12


def _agm(m: Any) -> tuple[Any, Any, Any]:
    """(K(m'), E(m'), sqrt(1 - m)) with m' = m for m >= 0, the transformed m' for m < 0."""
    import numr as nr
    neg = m < 0.0
    one_m = 1.0 - m
    b2 = nr.where(neg, 1.0 / one_m, one_m)  # 1 - m', exact for m near 1
    q = nr.where(neg, -m / one_m, m)  # c_0^2 = m'
    a, b = b2 * 0.0 + 1.0, nr.sqrt(b2)
    s, w = 0.5 * q, 0.5
    for _ in range(STEPS):
        a, b = 0.5 * (a + b), nr.sqrt(a * b)
        q = q * q / (16.0 * a * a)  # c_{n+1}^2 = c_n^4 / (16 a_{n+1}^2)
        w *= 2.0
        s = s + w * q
    k = (0.5 * math.pi) / a
    return k, k * (1.0 - s), nr.sqrt(one_m)


def _ends(m: Any, out: Any, at_one: float, at_minf: float) -> Any:
    """m = 1, m > 1 (NaN), m = -inf and NaN."""
    import numr as nr
    out = sel(m == 1.0, at_one, out)
    out = sel(m > 1.0, math.nan, sel(m == -math.inf, at_minf, out))
    return nr.where(nr.isnan(m), m, out)


def _ellipk(m: Any) -> Any:
    """K(m), the complete elliptic integral of the first kind (parameter m = k^2)."""
    import numr as nr
    k, _, r = _agm(nr.minimum(m, 1.0))
    return _ends(m, nr.where(m < 0.0, k / r, k), math.inf, 0.0)


def _ellipe(m: Any) -> Any:
    """E(m), the complete elliptic integral of the second kind (parameter m = k^2)."""
    import numr as nr
    _, e, r = _agm(nr.minimum(m, 1.0))
    return _ends(m, nr.where(m < 0.0, e * r, e), 1.0, math.inf)


UNARY = {"ellipk": _ellipk, "ellipe": _ellipe}
