"""The gamma and beta functions and their regularized incomplete forms as composites.
gamma_fn(x) = sign * exp(lgamma(x)) (scipy's gamma: inf at +0, -inf at -0, NaN at the negative
integers and -inf), betaln(a, b) = lgamma(a) + lgamma(b) - lgamma(a + b), beta_fn its signed exp.
(gamma_fn/beta_fn, not gamma/beta: nr.gamma and nr.beta are the random samplers; betaln takes
the difference of the two large lgammas by Stirling where max(a, b) >= 10.)
gammainc/gammaincc (P and Q): the series for P, Legendre's continued fraction for Q where
x > max(a, 1.1), and for Q at x <= 1.1 with a small the series of 1 - P written with expm1
(scipy's igamc_series), so neither loses its small values to 1 - (the other); for a >= 20 and
0.3 <= x/a <= 2.5 Temme's uniform expansion (special_temme.py). betainc by its continued
fraction with the symmetry swap I_x(a, b) = 1 - I_{1-x}(b, a) where x > (a + 1)/(a + b + 2).
Series and fractions run a fixed number of terms per call, evaluated from the last term back,
the count from the largest parameter of the input (one scalar read, as nonzero reads its
count): ceil(sqrt(80 a)) + 40 in [64, 340] in float64 (float32: ceil(sqrt(30 a)) + 16 in
[32, 160]), a taken as min(a_max, 20) for gammainc (Temme covers the slow region beyond).
gammainc/gammaincc are within ~2e-13 relative of mpmath for a in [1e-3, 1e5] (tests: 3e-13;
scipy is 1.6e-12 off at P(1000, 386.6)); betainc within ~1e-12 of scipy for a, b <= 1000, 1e-11
where b << a near x = 1 (1 - I_{1-x}(b, a) cancels), 1e-10 at a = b = 1e5 (340 terms)."""

from __future__ import annotations

import math
from typing import Any

from ... import dtypes as dt
from .special import horner, sel, special_input, special_unary
from .special_bessel2 import UNARY as _BESSEL2
from .special_elliptic import UNARY as _ELLIPTIC
from .special_gamma import _BERNOULLI
from .special_temme import TEMME_A, TEMME_HI, TEMME_LO, temme_pq

#: lgamma(a) - ((a - 1/2) log a - a + log(2 pi)/2) = sum_k B_2k / (2k (2k - 1) a^(2k-1)), highest first
_STIRLING = tuple(float(b / (2 * k * (2 * k - 1))) for k, b in enumerate(_BERNOULLI[:8], 1))[::-1]
_QS_TERMS = 20  # igamc_series for x <= 1.1: 1.1^20 / 20! < 3e-18
#: lgamma(1 + a) = a (-euler + sum_k>=2 (-1)^k zeta(k)/k a^(k-1)), |a| <= 0.2 (mpmath)
_LGAM1P = (-0.5772156649015329, 0.8224670334241132, -0.40068563438653143, 0.27058080842778454,
           -0.207385551028674, 0.16955717699740822, -0.14404989676884614, 0.12550966952474304,
           -0.11133426586956469, 0.10009945751278179, -0.09095401714582904, 0.083353840546109,
           -0.0769325164113522, 0.07143294629536134, -0.06666870588242046, 0.06250095514121304,
           -0.05882397865868458, 0.055555767627403614, -0.05263167937961666, 0.05000004769810169,
           -0.04761907033014223, 0.04545455629320467, -0.04347826605304026)


#: dtype -> (c, extra, least, most): ceil(sqrt(c a_max)) + extra iterations, clamped to [least, most]
ITERATIONS = {dt.float64: (80.0, 40, 64, 340), dt.float32: (30.0, 16, 32, 160)}


def largest(*params: Any) -> float:
    """The largest finite parameter of the inputs, at least 1 (one scalar read per input)."""
    import numr as nr
    top = 1.0
    for p in params:
        if p.size:
            top = max(top, float(nr.max(nr.where(nr.isfinite(p), p, 0.0)).item()))
    return top


def iterations(dtype: dt.DType, top: float) -> int:
    """The fixed iteration count for the largest parameter top."""
    c, extra, least, most = ITERATIONS[dtype]
    return int(min(max(math.ceil(math.sqrt(c * top)) + extra, least), most))


def _log_prefactor_large(a: Any, x: Any) -> Any:
    """a log x - x - lgamma(a) for a >= 10 as a (log1p(s) - s) + log(a / 2 pi) / 2 - stirling(a),
    s = (x - a) / a: near x = a its rounding error is eps |x - a|, not eps a |log x| (7e-13 at
    a = 1000); log(x / a) for log1p(s) where |s| >= 1/2 (1 + s would round)."""
    import numr as nr
    a = nr.maximum(a, 10.0)
    s = (x - a) / a  # x - a exact for a/2 <= x <= 2a
    log = nr.where(nr.abs(s) < 0.5, nr.log1p(s), nr.log(x / a))
    return a * (log - s) + 0.5 * nr.log(a * (0.5 / math.pi)) - _stirling(a)


def _gamma_series(a: Any, x: Any, lp: Any, n: int) -> Any:
    """P(a, x) = x^a e^-x / Gamma(a + 1) (1 + x/(a+1) (1 + x/(a+2) (1 + ...))), from the n-th term back."""
    import numr as nr
    s = x * 0.0 + 1.0
    for k in range(n, 0, -1):
        s = nr.fma(x / (a + float(k)), s, 1.0)
    return nr.exp(lp) / a * s


def _gamma_cf(a: Any, x: Any, lp: Any, n: int) -> Any:
    """Q(a, x) = x^a e^-x / Gamma(a) / (b_0 + a_1 / (b_1 + a_2 / (b_2 + ...))), b_i = x + 2i + 1 - a,
    a_i = i (a - i), evaluated from its n-th term back (4 operations a term, against Lentz's 10)."""
    import numr as nr
    b0 = x + 1.0 - a
    f = b0 + 2.0 * n
    for i in range(n, 0, -1):
        f = nr.fma((a - float(i)) / f, float(i), b0 + 2.0 * (i - 1))
    return nr.exp(lp) / f


def _gammaincc_small_x(a: Any, x: Any) -> Any:
    """Q(a, x) for x <= 1.1: -expm1(f) - a e^f sum_k>=1 (-x)^k / (k! (a + k)), f = a log x - lgamma(a + 1)."""
    import numr as nr
    lg1p = nr.where(a <= 0.2, a * horner(nr.minimum(a, 0.2), _LGAM1P[::-1]), nr.lgamma(a + 1.0))
    f = a * nr.log(x) - lg1p  # lgamma(1 + a) by its series: Lanczos' 1e-16 absolute is 1e-12 of Q at a = 1e-3
    r = x * 0.0
    for k in range(_QS_TERMS, 0, -1):  # Horner in -x
        r = nr.fma(r, -x, (1.0 / math.factorial(k)) / (a + float(k)))
    return -nr.expm1(f) - a * nr.exp(f) * (r * -x)


def _gammainc_pq(a: Any, x: Any) -> tuple[Any, Any]:
    """(P, Q) for float tensors of one shape, ends and domain included."""
    import numr as nr
    top = largest(a)
    temme = top >= TEMME_A  # then the series and the fraction serve only x/a < 0.3 or > 2.5 there
    n = iterations(a.dtype, min(top, TEMME_A) if temme else top)
    xs = nr.where(x > 0.0, x, 1.0)  # log(0) = -inf would poison every branch's x = 0 end
    ap = nr.where(a > 0.0, a, 1.0)
    lp = nr.where(ap < 10.0, ap * nr.log(xs) - xs - nr.lgamma(ap), _log_prefactor_large(ap, xs))
    cf = (x > 1.1) & (x > a)
    small = (x <= 1.1) & (a <= nr.where(x <= 0.5, -0.4 / nr.log(xs), 1.1 * x))
    ps = _gamma_series(ap, xs, lp, n)
    qc = _gamma_cf(ap, nr.where(cf, xs, ap + 2.0), lp, n)
    qs = _gammaincc_small_x(ap, nr.minimum(xs, 1.1))
    p = nr.where(cf, 1.0 - qc, ps)
    q = nr.where(cf, qc, nr.where(small, qs, 1.0 - ps))
    if temme:
        pt, qt = temme_pq(ap, xs)
        near = (a >= TEMME_A) & (x >= TEMME_LO * a) & (x <= TEMME_HI * a)
        p, q = nr.where(near, pt, p), nr.where(near, qt, q)
    zero = x == 0.0
    p, q = sel(zero, 0.0, p), sel(zero, 1.0, q)
    end = (x == math.inf) | ((a == 0.0) & (x > 0.0))  # P = 1
    p, q = sel(end, 1.0, p), sel(end, 0.0, q)
    big = a == math.inf
    p, q = sel(big, 0.0, p), sel(big, 1.0, q)
    bad = (a < 0.0) | (x < 0.0) | ((a == 0.0) & zero) | (big & (x == math.inf)) | nr.isnan(a) | nr.isnan(x)
    return sel(bad, math.nan, p), sel(bad, math.nan, q)


def _binary(op: str, a: Any, x: Any) -> tuple[Any, Any, dt.DType]:
    import numr as nr
    (ac, xc), out = special_input(op, a, x)
    ac, xc = nr.broadcast_to(ac, _shape(ac, xc)), nr.broadcast_to(xc, _shape(ac, xc))
    return ac, xc, out


def _shape(*ts: Any) -> tuple[int, ...]:
    from ...shapes import broadcast_shapes
    return tuple(broadcast_shapes(*(t.shape for t in ts)))


def _finish(y: Any, out: dt.DType) -> Any:
    import numr as nr
    return y if y.dtype is out else nr.cast(y, out)


def gammainc_any(a: Any, x: Any) -> Any:
    """The regularized lower incomplete gamma function P(a, x) = gamma(a, x) / Gamma(a)."""
    ac, xc, out = _binary("gammainc", a, x)
    return _finish(_gammainc_pq(ac, xc)[0], out)


def gammaincc_any(a: Any, x: Any) -> Any:
    """The regularized upper incomplete gamma function Q(a, x) = 1 - P(a, x)."""
    ac, xc, out = _binary("gammaincc", a, x)
    return _finish(_gammainc_pq(ac, xc)[1], out)


def _gamma_sign(x: Any) -> Any:
    """The sign of Gamma(x): -1 on (-1, 0), (-3, -2), ...; +1 elsewhere."""
    import numr as nr
    odd = nr.remainder(nr.floor(x), 2.0) == 1.0
    return sel((x < 0.0) & odd, -1.0, nr.full_like(x, 1.0))


def _gamma_fn(x: Any) -> Any:
    """Gamma(x): inf at +0, -inf at -0, NaN at the negative integers and -inf (scipy)."""
    import numr as nr
    y = _gamma_sign(x) * nr.exp(nr.lgamma(x))
    y = sel(x == 0.0, sel(1.0 / x > 0.0, math.inf, nr.full_like(x, -math.inf)), y)
    pole = ((x < 0.0) & (nr.floor(x) == x)) | (x == -math.inf)
    return sel(pole, math.nan, y)


def _stirling(a: Any) -> Any:
    """lgamma(a) - ((a - 1/2) log a - a + log(2 pi)/2) for a >= 10 (8 terms: 3e-17 at 10)."""
    r = 1.0 / a
    return r * horner(r * r, _STIRLING)


def _betaln(a: Any, b: Any) -> Any:
    """lgamma(a) + lgamma(b) - lgamma(a + b); where max(a, b) >= 10 and min(a, b) > 0, lgamma(lo) +
    (lgamma(hi) - lgamma(lo + hi)) with the difference by Stirling: -(hi - 1/2) log1p(lo/hi) -
    lo log(lo + hi) + lo + S(hi) - S(lo + hi), free of the cancellation of two large lgammas."""
    import numr as nr
    lo, hi = nr.minimum(a, b), nr.maximum(a, b)
    direct = nr.lgamma(a) + nr.lgamma(b) - nr.lgamma(a + b)
    h, lp = nr.maximum(hi, 10.0), nr.where(lo > 0.0, lo, 1.0)
    diff = -(h - 0.5) * nr.log1p(lp / h) - lp * nr.log(lp + h) + lp + _stirling(h) - _stirling(lp + h)
    return nr.where((hi >= 10.0) & (lo > 0.0), nr.lgamma(lp) + diff, direct)


def betaln_any(a: Any, b: Any) -> Any:
    """log |B(a, b)| = lgamma(a) + lgamma(b) - lgamma(a + b)."""
    ac, bc, out = _binary("betaln", a, b)
    return _finish(_betaln(ac, bc), out)


def beta_fn_any(a: Any, b: Any) -> Any:
    """The beta function B(a, b) = Gamma(a) Gamma(b) / Gamma(a + b), signed."""
    import numr as nr
    ac, bc, out = _binary("beta_fn", a, b)
    sign = _gamma_sign(ac) * _gamma_sign(bc) * _gamma_sign(ac + bc)
    lb = _betaln(ac, bc)
    return _finish(nr.where(lb == math.inf, lb, sign * nr.exp(lb)), out)  # a pole: +inf, as scipy


def _beta_cf(a: Any, b: Any, x: Any, n: int) -> Any:
    """The continued fraction 1 / (1 + d_1 / (1 + d_2 / ...)) of I_x(a, b) (x <= (a + 1) / (a + b + 2)),
    without the prefactor: d_2m = m (b - m) x / ((a + 2m - 1)(a + 2m)), d_2m+1 = -(a + m)(a + b + m) x /
    ((a + 2m)(a + 2m + 1)), evaluated from its 2n-th term back."""
    ab, nx = a + b, -x
    f = x * 0.0 + 1.0
    hi = a + float(2 * n)  # a + k, carried down: each denominator shares one factor with the next
    for k in range(2 * n, 0, -1):
        lo = a + float(k - 1)
        m = k // 2
        num = (b - float(m)) * (x * float(m)) if k % 2 == 0 else (a + float(m)) * (ab + float(m)) * nx
        f = 1.0 + num / (lo * hi * f)
        hi = lo
    return 1.0 / f


def betainc_any(a: Any, b: Any, x: Any) -> Any:
    """The regularized incomplete beta function I_x(a, b) (scipy.special.betainc)."""
    import numr as nr
    (ac, bc, xc), out = special_input("betainc", a, b, x)
    shape = _shape(ac, bc, xc)
    ac, bc, xc = (nr.broadcast_to(t, shape) for t in (ac, bc, xc))
    n = iterations(ac.dtype, largest(ac, bc))
    ap, bp = nr.where(ac > 0.0, ac, 1.0), nr.where(bc > 0.0, bc, 1.0)
    xi = nr.where((xc > 0.0) & (xc < 1.0), xc, 0.5)
    swap = xi > (ap + 1.0) / (ap + bp + 2.0)
    p, q = nr.where(swap, bp, ap), nr.where(swap, ap, bp)
    y = nr.where(swap, 1.0 - xi, xi)
    front = nr.exp(p * nr.log(y) + q * nr.log1p(-y) - _betaln(p, q)) / p
    r = front * _beta_cf(p, q, y, n)
    r = nr.where(swap, 1.0 - r, r)
    r = sel(xc == 0.0, 0.0, sel(xc == 1.0, 1.0, r))
    r = sel((ac == 0.0) & (bc > 0.0), 1.0, sel((bc == 0.0) & (ac > 0.0), 0.0, r))
    r = sel((ac == math.inf) & (bc < math.inf) & (xc < 1.0), 0.0, r)
    r = sel((bc == math.inf) & (ac < math.inf) & (xc > 0.0), 1.0, r)
    bad = (ac < 0.0) | (bc < 0.0) | ((ac == 0.0) & (bc == 0.0)) | (xc < 0.0) | (xc > 1.0) \
        | nr.isnan(ac) | nr.isnan(bc) | nr.isnan(xc)
    return _finish(sel(bad, math.nan, r), out)


UNARY = {"gamma_fn": _gamma_fn, **_BESSEL2, **_ELLIPTIC}
#: the special functions of this file, special_bessel2.py and special_elliptic.py: name -> composite
COMPOSITES = {**{n: special_unary(n, f) for n, f in UNARY.items()}, "gammainc": gammainc_any,
              "gammaincc": gammaincc_any, "betaln": betaln_any, "beta_fn": beta_fn_any, "betainc": betainc_any}
