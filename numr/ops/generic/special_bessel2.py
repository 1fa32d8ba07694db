"""Bessel functions of the first and second kind of order 0 and 1 (j0, j1, y0, y1) and the
modified ones of the second kind (k0, k1 and their exp(x)-scaled forms) as composites, every
branch evaluated and selected by ``where``. J/Y on [0, 8]: Chebyshev series in t = x^2/32 - 1 of
J0 / ((x^2 - r1^2)(x^2 - r2^2)) (the first two zeros factored out, each r^2 as a hi + lo pair, so
J keeps its relative accuracy near them), of J1 / (x (...)), of Y0 - 2/pi log(x) J0 and of
(Y1 - 2/pi (J1 log x - 1/x)) / x (Y is accurate in absolute terms near its zeros, as Cephes); on
(8, inf) Hankel's form sqrt(2/(pi x)) (P cos(xi) -+ Q sin(xi)), xi = x - (2n+1) pi/4, with P and
8 Q / x Chebyshev series in 128/x^2 - 1 and cos(xi), sin(xi) from cos x, sin x (x exact, no
rounding of x - pi/4). K on [0, 2]: series in x^2/2 - 1 of K0 + log(x) I0 and (K1 - 1/x -
log(x) I1) / x; on (2, inf) of sqrt(x) e^x K in 4/x - 1. Every coefficient was computed for numr
with mpmath (40 digits, 60 Chebyshev nodes, cut below 1e-18 of the function's size). Values at
the ends follow scipy.special (and torch): J and Y at +-inf are NaN (cos(inf)), Y -inf at 0 and
NaN for x < 0, K inf at 0 and NaN for x < 0."""

from __future__ import annotations

import math
from typing import Any

from .special import sel
from .special_bessel import _i0, _i1, clenshaw

J0Z = ((5.783185962946784, 4.123247343506204e-16), (30.471262343662087, -2.366534485750659e-16))
J1Z = ((14.681970642123893, -9.858177825793294e-17), (49.2184563216946, 5.086354069436341e-16))
J0_SMALL = (
    0.0019903555001601486, -0.002620939138497025, 0.0008687721472062577, -0.00017040584951557357,
    2.204908639454817e-05, -2.0248894980012834e-06, 1.3898025173428905e-07,
    -7.406701254344167e-09, 3.1559927583611334e-10, -1.1003860827939697e-11,
    3.1989232970233477e-13, -7.875041254709154e-15, 1.6632588015211278e-16,
    -3.0475993756698376e-18, 4.8912290055811176e-20,
)
J1_SMALL = (
    0.00027895709887613106, -0.0003115684036643562, 8.553646588540538e-05,
    -1.4149356425623485e-05, 1.576470099225889e-06, -1.269075502369425e-07, 7.747614077073057e-09,
    -3.716577146675772e-10, 1.4395417669312554e-11, -4.60007822413452e-13, 1.2341465589619718e-14,
    -2.8205466239524856e-16, 5.558821065951572e-18, -9.546930865755219e-20,
    1.4418291781315051e-21,
)
Y0_SMALL = (
    -0.03314611320328494, -0.2744743055297453, 0.17903431407718265, 0.26156734625504663,
    -0.17730201278114358, 0.04719668959576339, -0.007287962479552079, 0.0007531135932577742,
    -5.632079141056987e-05, 3.206532537654801e-06, -1.44072332740187e-07, 5.248794787330516e-09,
    -1.5837552541812015e-10, 4.02633081830612e-12, -8.747341203310769e-14, 1.6434898714919468e-15,
    -2.6977881152566837e-17,
)
Y1_SMALL = (
    0.0025380132357417816, -0.01608717304766875, -0.09591204536083074, 0.08445197259652346,
    -0.028328123944594365, 0.005289897544167113, -0.0006414551451326356, 5.505982873338744e-05,
    -3.53808001868935e-06, 1.7707804556154404e-07, -7.11055004989928e-09, 2.344337905911516e-10,
    -6.4651518414115946e-12, 1.51429151205002e-13, -3.0511859694473254e-15, 5.34668038572867e-17,
    -8.224911372021585e-19,
)
P0 = (
    0.9994603493475187, -0.0005365220468132117, 3.0751847875194745e-06, -5.1705945376060975e-08,
    1.6306464635151382e-09, -7.86409137723707e-11, 5.168262387349193e-12, -4.3045788699253914e-13,
    4.3265957431549404e-14, -5.069034095935236e-15, 6.748072215733873e-16,
    -1.0011513723467786e-16, 1.6305919233744186e-17, -2.880866169482871e-18,
)
Q0 = (
    -0.015555854605337009, 6.838519942611649e-05, -7.414498411060647e-07, 1.7972457247968992e-08,
    -7.27191593686632e-10, 4.2201219046687385e-11, -3.206747420996635e-12, 3.006145125351706e-13,
    -3.336328185322427e-14, 4.255225040245461e-15, -6.09993013164005e-16, 9.662128970303257e-17,
    -1.6686065214378146e-17, 3.1082440486738143e-18, -6.191115787358145e-19,
    1.3091448717220122e-19, -2.9211627152642775e-20,
)
P1 = (
    1.0009030408600137, 0.0008989898330859408, -3.987284300488908e-06, 6.177633960644299e-08,
    -1.8718907491063067e-09, 8.816898659582339e-11, -5.704863640395645e-12, 4.699195515230542e-13,
    -4.6842237839904895e-14, 5.452674896044717e-15, -7.221180842274018e-16,
    1.0667689114335412e-16, -1.7312313216116335e-17, 3.0492991197665872e-18,
)
Q1 = (
    0.04677778706953532, -9.62772354915708e-05, 9.138615257955454e-07, -2.0959781384083424e-08,
    8.229193327650554e-10, -4.686363688176945e-11, 3.5152187949686082e-12, -3.2643156743279e-13,
    3.5967765829165294e-14, -4.5612523950772974e-15, 6.508282957783384e-16,
    -1.0269147531823243e-16, 1.767635548776479e-17, -3.2834519872981614e-18,
    6.524081149589261e-19, -1.3765771484849487e-19,
)
K0_SMALL = (
    0.8433977275772223, 0.787078990859296, 0.06152577860244072, 0.0019458946141853283,
    3.3247998700597626e-05, 3.5563825166277007e-07, 2.6056207418988497e-09,
    1.3895141631982779e-11, 5.635214661841847e-14, 1.7966278703136082e-16,
)
K1_SMALL = (
    -0.5089237845320825, -0.2114356597763456, -0.010725575310322739, -0.0002513233586483403,
    -3.4112002554142968e-06, -3.026704146655771e-08, -1.89459722399161e-10,
    -8.819221396228751e-13, -3.1733487638923218e-15, -9.092150880033067e-18,
)
K0_LARGE = (
    1.2201515410329777, -0.0314481013119645, 0.0015698838857300533, -0.00012849549581627802,
    1.39498137188765e-05, -1.8317555227191195e-06, 2.766813639445015e-07, -4.660489897687948e-08,
    8.574034017414225e-09, -1.6975345093890614e-09, 3.5773972814003283e-10,
    -7.957489244477396e-11, 1.8559491149549264e-11, -4.514597883374519e-12,
    1.1403405882073441e-12, -2.9800969231481784e-13, 8.032890775068375e-14,
    -2.2275133267462965e-14, 6.340076476276646e-15, -1.848593377920907e-15,
    5.5120559994043335e-16, -1.6782311257549006e-16, 5.2103917776435543e-17,
    -1.6475805939842632e-17, 5.3004337711773354e-18, -1.7331712005821001e-18,
)
K1_LARGE = (
    1.3603130952422213, 0.10392373657681724, -0.002857816859622779, 0.00019521551847135162,
    -1.936197974166083e-05, 2.406484947837217e-06, -3.5019606030878126e-07,
    5.7410841254500495e-08, -1.0345762465678097e-08, 2.0150497551970347e-09,
    -4.1903547593419254e-10, 9.218315187605315e-11, -2.129967838427791e-11, 5.139639673482343e-12,
    -1.2891739609498229e-12, 3.348419666052243e-13, -8.976705182010146e-14,
    2.4771544242195988e-14, -7.0198370892147685e-15, 2.038703166239861e-15,
    -6.057047270643018e-16, 1.8380935752430455e-16, -5.689462849193648e-17,
    1.7940510478863572e-17, -5.7567444820733025e-18, 1.8778651901623268e-18,
)
TWO_PI = 2.0 / math.pi


def _zeros(z: Any, zeros: tuple[tuple[float, float], ...]) -> Any:
    """prod (z - r^2) with each r^2 = hi + lo: z - hi is exact near the zero."""
    out = None
    for hi, lo in zeros:
        f = (z - hi) - lo
        out = f if out is None else out * f
    return out


def _j_small(x: Any, n: int) -> Any:
    """J_n(x) for 0 <= x <= 8 (J1: odd, so any sign)."""
    z = x * x
    t = z * (1.0 / 32.0) - 1.0
    if n == 0:
        return clenshaw(t, J0_SMALL) * _zeros(z, J0Z)
    return clenshaw(t, J1_SMALL) * _zeros(z, J1Z) * x


def _hankel(a: Any, n: int, second: bool) -> Any:
    """J_n(a) (second: Y_n(a)) for a >= 8 by the (P, Q) form."""
    import numr as nr
    u = 64.0 / (a * a)
    t = 2.0 * u - 1.0
    p = clenshaw(t, P0 if n == 0 else P1)
    q = clenshaw(t, Q0 if n == 0 else Q1) * (8.0 / a)
    s, c = nr.sin(a), nr.cos(a)
    # sqrt(2) cos(xi), sqrt(2) sin(xi) for xi = a - pi/4 (n = 0) or a - 3 pi/4 (n = 1)
    cx, sx = (c + s, s - c) if n == 0 else (s - c, -(s + c))
    r = nr.rsqrt(math.pi * a)
    return (p * sx + q * cx) * r if second else (p * cx - q * sx) * r


def _j(x: Any, n: int) -> Any:
    import numr as nr
    a = nr.abs(x)
    lo = _j_small(nr.minimum(a, 8.0), n)
    out = nr.where(a <= 8.0, lo, _hankel(nr.maximum(a, 8.0), n, False))
    out = out if n == 0 else nr.where(x < 0, -out, out)
    return nr.where(nr.isnan(x), x, out)


def _j0(x: Any) -> Any:
    """J0(x), the Bessel function of the first kind of order 0 (even)."""
    return _j(x, 0)


def _j1(x: Any) -> Any:
    """J1(x), the Bessel function of the first kind of order 1 (odd)."""
    return _j(x, 1)


def _y0(x: Any) -> Any:
    """Y0(x), the Bessel function of the second kind of order 0: -inf at 0, NaN for x < 0."""
    import numr as nr
    s = nr.minimum(x, 8.0)
    small = clenshaw(s * s * (1.0 / 32.0) - 1.0, Y0_SMALL) + TWO_PI * nr.log(s) * _j_small(s, 0)
    out = nr.where(x <= 8.0, small, _hankel(nr.maximum(x, 8.0), 0, True))
    return nr.where(nr.isnan(x), x, out)


def _y1(x: Any) -> Any:
    """Y1(x), the Bessel function of the second kind of order 1: -inf at 0, NaN for x < 0."""
    import numr as nr
    s = nr.minimum(x, 8.0)
    safe = sel(s == 0.0, 1.0, s)
    small = clenshaw(s * s * (1.0 / 32.0) - 1.0, Y1_SMALL) * s + TWO_PI * (_j_small(s, 1) * nr.log(safe) - 1.0 / safe)
    small = sel(s == 0.0, -math.inf, sel(s < 0.0, math.nan, small))
    out = nr.where(x <= 8.0, small, _hankel(nr.maximum(x, 8.0), 1, True))
    return nr.where(nr.isnan(x), x, out)


def _k_scaled(x: Any, n: int, scaled: bool) -> Any:
    """K_n(x) (scaled: exp(x) K_n(x)): inf at +-0, NaN for x < 0, 0 at inf."""
    import numr as nr
    s = nr.minimum(x, 2.0)
    safe = sel(s == 0.0, 1.0, s)
    t = s * s * 0.5 - 1.0
    if n == 0:
        small = clenshaw(t, K0_SMALL) - nr.log(safe) * _i0(s)
    else:
        small = 1.0 / safe + nr.log(safe) * _i1(s) + clenshaw(t, K1_SMALL) * s
    small = sel(s == 0.0, math.inf, sel(s < 0.0, math.nan, small))
    if scaled:
        small = small * nr.exp(s)
    b = nr.maximum(x, 2.0)
    big = clenshaw(4.0 / b - 1.0, K0_LARGE if n == 0 else K1_LARGE) * nr.rsqrt(b)
    if not scaled:
        h = nr.exp(-0.5 * b)  # e^-x as h * h: the product underflows only where K does
        big = big * h * h
    out = nr.where(x <= 2.0, small, big)
    return nr.where(nr.isnan(x), x, out)


def _k0(x: Any) -> Any:
    """K0(x), the modified Bessel function of the second kind of order 0."""
    return _k_scaled(x, 0, False)


def _k1(x: Any) -> Any:
    """K1(x), the modified Bessel function of the second kind of order 1."""
    return _k_scaled(x, 1, False)


def _k0e(x: Any) -> Any:
    """exp(x) K0(x)."""
    return _k_scaled(x, 0, True)


def _k1e(x: Any) -> Any:
    """exp(x) K1(x)."""
    return _k_scaled(x, 1, True)


UNARY = {"bessel_j0": _j0, "bessel_j1": _j1, "bessel_y0": _y0, "bessel_y1": _y1,
         "modified_bessel_k0": _k0, "modified_bessel_k1": _k1,
         "scaled_modified_bessel_k0": _k0e, "scaled_modified_bessel_k1": _k1e}
