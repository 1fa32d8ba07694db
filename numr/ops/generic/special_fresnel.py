"""The Fresnel integrals S(x) = int_0^x sin(pi t^2/2) dt and C(x) = int_0^x cos(pi t^2/2) dt
(scipy.special.fresnel returns (S, C)) by Cephes' rational approximations: x S(x^4)/T(x^4) for
x^2 < 2.5625, else the auxiliary functions f, g in u = 1/(pi x^2)^2 with
C = 1/2 + (f sin(pi x^2/2) - g cos(pi x^2/2)) / (pi x), S = 1/2 - (f cos + g sin) / (pi x).
Unlike Cephes (and scipy), the angle pi x^2/2 is reduced exactly: x is split x_h + x_l with x_h
of half the mantissa (Veltkamp), x_h^2 mod 4 is exact, and only 2 x_h x_l + x_l^2 rounds; so C and
S stay accurate where scipy's sin(pi x x / 2) loses eps x^2 of the angle. Odd in x; +-1/2 at +-inf."""

from __future__ import annotations

import math
from typing import Any

from ... import dtypes as dt
from .special import horner, special_unary

_SN = (-2.99181919401019853726e3, 7.08840045257738576863e5, -6.29741486205862506537e7,
       2.54890880573376359104e9, -4.42979518059697779103e10, 3.18016297876567817986e11)
_SD = (1.0, 2.81376268889994315696e2, 4.55847810806532581675e4, 5.17343888770096400730e6,
       4.19320245898111231129e8, 2.24411795645340920940e10, 6.07366389490084639049e11)
_CN = (-4.98843114573573548651e-8, 9.50428062829859605134e-6, -6.45191435683965050962e-4,
       1.88843319396703850064e-2, -2.05525900955013891793e-1, 9.99999999999999998822e-1)
_CD = (3.99982968972495980367e-12, 9.15439215774657478799e-10, 1.25001862479598821474e-7,
       1.22262789024179030997e-5, 8.68029542941784300606e-4, 4.12142090722199792936e-2,
       1.00000000000000000118e0)
_FN = (4.21543555043677546506e-1, 1.43407919780758885261e-1, 1.15220955073585758835e-2,
       3.45017939782574027900e-4, 4.63613749287867322088e-6, 3.05568983790257605827e-8,
       1.02304514164907233465e-10, 1.72010743268161828879e-13, 1.34283276233062758925e-16,
       3.76329711269987889006e-20)
_FD = (1.0, 7.51586398353378947175e-1, 1.16888925859191382142e-1, 6.44051526508858611005e-3,
       1.55934409164153020873e-4, 1.84627567348930545870e-6, 1.12699224763999035261e-8,
       3.60140029589371370404e-11, 5.88754533621578410010e-14, 4.52001434074129701496e-17,
       1.25443237090011264384e-20)
_GN = (5.04442073643383265887e-1, 1.97102833525523411709e-1, 1.87648584092575249293e-2,
       6.84079380915393090172e-4, 1.15138826111884280931e-5, 9.82852443688422223854e-8,
       4.45344415861750144738e-10, 1.08268041139020870318e-12, 1.37555460633261799868e-15,
       8.36354435630677421531e-19, 1.86958710162783235106e-22)
_GD = (1.0, 1.47495759925128324529e0, 3.37748989120019970451e-1, 2.53603741420338795122e-2,
       8.14679107184306179049e-4, 1.27545075667729118702e-5, 1.04314589657571990585e-7,
       4.60680728146520428211e-10, 1.10273215066240270757e-12, 1.38796531259578871258e-15,
       8.39158816283118707363e-19, 1.86958710162783236342e-22)


def half_pi_square(x: Any) -> tuple[Any, Any]:
    """(sin, cos) of pi x^2 / 2 for x >= 0, x^2 reduced modulo 4 exactly through a Veltkamp split."""
    import numr as nr
    x = nr.minimum(x, 1e150 if x.dtype is dt.float64 else 1e18)  # x_h^2 stays finite
    c = x * (134217729.0 if x.dtype is dt.float64 else 4097.0)
    xh = c - (c - x)
    xl = x - xh
    r = nr.remainder(xh * xh, 4.0) + (2.0 * xh + xl) * xl
    r = r - 4.0 * nr.round(r * 0.25)  # [-2, 2]: an angle in [-pi, pi]
    a = (0.5 * math.pi) * r
    return nr.sin(a), nr.cos(a)


def _fresnel(x: Any) -> tuple[Any, Any]:
    """(S(x), C(x))."""
    import numr as nr
    ax = nr.abs(x)
    x2 = ax * ax
    small = x2 < 2.5625
    xs = nr.where(small, ax, 0.0)
    t = xs * xs
    t = t * t
    ss = xs * (xs * xs) * horner(t, _SN) / horner(t, _SD)
    cc = xs * horner(t, _CN) / horner(t, _CD)
    xb = nr.where(small, 2.0, ax)
    pt = 1.0 / (math.pi * (xb * xb))
    u = pt * pt
    f = 1.0 - u * horner(u, _FN) / horner(u, _FD)
    g = pt * horner(u, _GN) / horner(u, _GD)
    s, c = half_pi_square(xb)
    w = 1.0 / (math.pi * xb)
    cb = 0.5 + (f * s - g * c) * w
    sb = 0.5 - (f * c + g * s) * w
    big = ax == math.inf
    cb, sb = nr.where(big, 0.5, cb), nr.where(big, 0.5, sb)
    neg = x < 0.0
    sv, cv = nr.where(small, ss, sb), nr.where(small, cc, cb)
    sv, cv = nr.where(neg, -sv, sv), nr.where(neg, -cv, cv)
    nan = nr.isnan(x)
    return nr.where(nan, x, sv), nr.where(nan, x, cv)


def _fresnel_s(x: Any) -> Any:
    """S(x) = int_0^x sin(pi t^2 / 2) dt."""
    return _fresnel(x)[0]


def _fresnel_c(x: Any) -> Any:
    """C(x) = int_0^x cos(pi t^2 / 2) dt."""
    return _fresnel(x)[1]


def fresnel_any(x: Any) -> tuple[Any, Any]:
    """(S(x), C(x)) as scipy.special.fresnel, from one evaluation."""
    import numr as nr

    from .special import special_input
    (xc,), out = special_input("fresnel", x)
    s, c = _fresnel(xc)
    return (s, c) if s.dtype is out else (nr.cast(s, out), nr.cast(c, out))


UNARY = {"fresnel_s": _fresnel_s, "fresnel_c": _fresnel_c}
COMPOSITES = {**{n: special_unary(n, f) for n, f in UNARY.items()}, "fresnel": fresnel_any}
