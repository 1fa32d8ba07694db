"""Modified Bessel functions of the first kind of order 0 and 1, plain and exponentially scaled
(i0, i0e, i1, i1e), as composites: Chebyshev series (Clenshaw's recurrence) of exp(-x) I(x) on
[0, 8] in t = x/4 - 1 (of exp(-x) I1(x) / x for I1) and of sqrt(x) exp(-x) I(x) on (8, inf) in
t = 16/x - 1, as Cephes does. The coefficients were computed for numr with mpmath (40 digits,
48 Chebyshev nodes, cut below 1e-18 relative). I(x) = scaled * exp(|x|/2)^2, so it overflows only where I does."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

I0_SMALL = (
    0.33839763720473803, -0.3046826723431984, 0.17162090152220877, -0.09490109704804764,
    0.04930528423967071, -0.02373741480589947, 0.010546460394594998, -0.004324309995050576,
    0.0016394756169413357, -0.0005763755745385824, 0.00018850288509584165,
    -5.754195010082104e-05, 1.6448448070728896e-05, -4.4167383584587505e-06,
    1.1173875391201037e-06, -2.670793853940612e-07, 6.046995022541919e-08,
    -1.300025009986248e-08, 2.6598237246823866e-09, -5.189795601635263e-10,
    9.675809035373237e-11, -1.726826291441556e-11, 2.95505266312964e-12, -4.856446783111929e-13,
    7.676185498604936e-14, -1.1685332877993451e-14, 1.715391285555133e-15,
    -2.431279846547955e-16, 3.3307945188222384e-17, -4.4153416464793395e-18,
    5.669178006921496e-19,
)
I1_SMALL = (
    0.12629359322181682, -0.17641651835783406, 0.1026436586898471, -0.05294598120809499,
    0.024726449030626516, -0.010564084894626197, 0.004156422944312888, -0.0015135724506312532,
    0.0005122859561685758, -0.00016176081582589674, 4.781565107550054e-05,
    -1.3273163656039436e-05, 3.4702513081376785e-06, -8.568720264695455e-07,
    2.0032947535521353e-07, -4.445059128796328e-08, 9.381537386495773e-09,
    -1.8872497517228294e-09, 3.625590281552117e-10, -6.663489723502027e-11,
    1.1736186298890901e-11, -1.9839743977649436e-12, 3.223793365945575e-13,
    -5.042185504727912e-14, 7.600684294735408e-15, -1.1055969477353862e-15,
    1.5536319577362005e-16, -2.111421214358166e-17, 2.7779141127610464e-18,
    -3.541581772542136e-19,
)
I0_LARGE = (
    0.4022452055070544, 0.0033691164782556943, 6.889758346916825e-05, 2.8913705208347567e-06,
    2.0489185894690638e-07, 2.266668990498178e-08, 3.3962320257083865e-09, 4.94060238822497e-10,
    1.1889147107846439e-11, -3.1499165279632416e-11, -1.3215811840447713e-11,
    -1.7941785315068062e-12, 7.180124451383666e-13, 3.8527783827421426e-13,
    1.54008621752141e-14, -4.150569347287222e-14, -9.554846698828307e-15,
    3.8116806693526224e-15, 1.7725601330565263e-15, -3.425485619677219e-16,
    -2.8276239805165836e-16, 3.461222867697461e-17, 4.46562142029676e-17,
    -4.830504485944178e-18, -7.23318048787476e-18, 9.921475412173676e-19, 1.1936508908460063e-18,
)
I1_LARGE = (
    0.38928811750914005, -0.009761097491361469, -0.00011058893876262371, -3.882564808877691e-06,
    -2.512236237870209e-07, -2.6314688468895196e-08, -3.835380385964237e-09,
    -5.589743462196584e-10, -1.8974958123505413e-11, 3.2526035830154884e-11,
    1.4125807436613782e-11, 2.0356285441470896e-12, -7.198551776245908e-13,
    -4.0835511110921974e-13, -2.1015418427726643e-14, 4.272440016711951e-14,
    1.0420276984128802e-14, -3.8144030724370075e-15, -1.8803547755107825e-15,
    3.3082023109209285e-16, 2.96262899764595e-16, -3.209525921993424e-17,
    -4.650305368489358e-17, 4.414348323071704e-18, 7.517296310842111e-18,
    -9.314178867326863e-19, -1.2421932751949152e-18,
)


def clenshaw(t: Any, c: Sequence[float]) -> Any:
    """sum_k c[k] T_k(t); each step one fma (2t b1 + (c_k - b2)): two passes over memory, not four."""
    import numr as nr
    t2 = t * 2.0
    b1 = t * 0.0 + c[-1]
    b2 = t * 0.0
    for ck in reversed(c[1:-1]):
        b1, b2 = nr.fma(t2, b1, ck - b2), b1
    return nr.fma(t, b1, c[0] - b2)


def _scaled(a: Any, small: Sequence[float], large: Sequence[float], scale_small: bool = False) -> Any:
    """exp(-a) I(a) for a >= 0 (NaN kept); scale_small: the [0, 8] series is of exp(-a) I(a) / a
    (I1, so that tiny arguments keep their relative accuracy)."""
    import numr as nr
    lo = clenshaw(nr.minimum(a, 8.0) * 0.25 - 1.0, small)
    lo = lo * a if scale_small else lo
    big = nr.maximum(a, 8.0)
    hi = clenshaw(16.0 / big - 1.0, large) * nr.rsqrt(big)
    return nr.where(a <= 8.0, lo, hi)


def _i0e(x: Any) -> Any:
    """exp(-|x|) I0(x)."""
    import numr as nr
    return _scaled(nr.abs(x), I0_SMALL, I0_LARGE)


def _i1e(x: Any) -> Any:
    """exp(-|x|) I1(x) (odd)."""
    import numr as nr
    a = nr.abs(x)
    s = _scaled(a, I1_SMALL, I1_LARGE, scale_small=True)
    return nr.where(x < 0, -s, s)


def _unscale(x: Any, s: Any) -> Any:
    import numr as nr
    h = nr.exp(nr.abs(x) * 0.5)
    return nr.where(nr.isinf(x), s * 0.0 + x, s * h * h)  # s is 0 at inf: I0(+-inf) = inf, I1 = +-inf


def _i0(x: Any) -> Any:
    """I0(x), the modified Bessel function of order 0."""
    import numr as nr
    return _unscale(nr.abs(x), _i0e(x))


def _i1(x: Any) -> Any:
    """I1(x), the modified Bessel function of order 1."""
    return _unscale(x, _i1e(x))


UNARY = {"i0": _i0, "i0e": _i0e, "i1": _i1, "i1e": _i1e}
