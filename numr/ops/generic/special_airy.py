"""The Airy functions Ai, Bi (solutions of y'' = x y) and their derivatives, as Cephes' airy.c
(scipy.special.airy returns (Ai, Ai', Bi, Bi')): the Maclaurin series f, g of the two
fundamental solutions (Ai = c1 f - c2 g, Bi = sqrt 3 (c1 f + c2 g)) summed to a fixed 30 terms by Horner in x^3
(enough at x = 8.32, where Bi leaves the series), for x > 2.09 Ai, Ai' by rational
approximations in 1/zeta with zeta = 2/3 x^(3/2) and for x > 8.32 Bi, Bi' likewise, and for
x < -2.09 the modulus/phase asymptotics (absolute error grows as |x|^(3/2), as Cephes'). Beyond
x = 103.9 Ai, Ai' underflow to 0 and Bi, Bi' overflow to inf; at -inf all four are 0."""

from __future__ import annotations

import math
from typing import Any

from .special import horner, special_input, special_unary

C1, C2 = 0.35502805388781723926, 0.258819403792806798405
SQRT3, SQPII = 1.732050807568877293527, 5.64189583547756286948e-1
_TERMS = 30  # at x = 8.33 the 31st term of f is 1e-17 of the sum
_AN = (3.46538101525629032477e-1, 1.20075952739645805542e1, 7.62796053615234516538e1,
       1.68089224934630576269e2, 1.59756391350164413639e2, 7.05360906840444183113e1,
       1.40264691163389668864e1, 9.99999999999999995305e-1)
_AD = (5.67594532638770212846e-1, 1.47562562584847203173e1, 8.45138970141474626562e1,
       1.77318088145400459522e2, 1.64234692871529701831e2, 7.14778400825575695274e1,
       1.40959135607834029598e1, 1.00000000000000000470e0)
_APN = (6.13759184814035759225e-1, 1.47454670787755323881e1, 8.20584123476060982430e1,
        1.71184781360976385540e2, 1.59317847137141783523e2, 6.99778599330103016170e1,
        1.39470856980481566958e1, 1.00000000000000000550e0)
_APD = (3.34203677749736953049e-1, 1.11810297306158156705e1, 7.11727352147859965283e1,
        1.58778084372838313640e2, 1.53206427475809220834e2, 6.86752304592780337944e1,
        1.38498634758259442477e1, 9.99999999999999994502e-1)
_BN16 = (-2.53240795869364152689e-1, 5.75285167332467384228e-1, -3.29907036873225371650e-1,
         6.44404068948199951727e-2, -3.82519546641336734394e-3)
_BD16 = (1.0, -7.15685095054035237902e0, 1.06039580715664694291e1, -5.23246636471251500874e0,
         9.57395864378383833152e-1, -5.50828147163549611107e-2)
_BPPN = (4.65461162774651610328e-1, -1.08992173800493920734e0, 6.38800117371827987759e-1,
         -1.26844349553102907034e-1, 7.62487844342109852105e-3)
_BPPD = (1.0, -8.70622787633159124240e0, 1.38993162704553213172e1, -7.14116144616431159572e0,
         1.34008595960680518666e0, -7.84273211323341930448e-2)
_AFN = (-1.31696323418331795333e-1, -6.26456544431912369773e-1, -6.93158036036933542233e-1,
        -2.79779981545119124951e-1, -4.91900132609500318020e-2, -4.06265923594885404393e-3,
        -1.59276496239262096340e-4, -2.77649108155232920844e-6, -1.67787698489114633780e-8)
_AFD = (1.0, 1.33560420706553243746e1, 3.26825032795224613948e1, 2.67367040941499554804e1,
        9.18707402907259625840e0, 1.47529146771666414581e0, 1.15687173795188044134e-1,
        4.40291641615211203805e-3, 7.54720348287414296618e-5, 4.51850092970580378464e-7)
_AGN = (1.97339932091685679179e-2, 3.91103029615688277255e-1, 1.06579897599595591108e0,
        9.39169229816650230044e-1, 3.51465656105547619242e-1, 6.33888919628925490927e-2,
        5.85804113048388458567e-3, 2.82851600836737019778e-4, 6.98793669997260967291e-6,
        8.11789239554389293311e-8, 3.41551784765923618484e-10)
_AGD = (1.0, 9.30892908077441974853e0, 1.98352928718312140417e1, 1.55646628932864612953e1,
        5.47686069422975497931e0, 9.54293611618961883998e-1, 8.64580826352392193095e-2,
        4.12656523824222607191e-3, 1.01259085116509135510e-4, 1.17166733214413521882e-6,
        4.91834570062930015649e-9)
_APFN = (1.85365624022535566142e-1, 8.86712188052584095637e-1, 9.87391981747398547272e-1,
         4.01241082318003734092e-1, 7.10304926289631174579e-2, 5.90618657995661810071e-3,
         2.33051409401776799569e-4, 4.08718778289035454598e-6, 2.48379932900442457853e-8)
_APFD = (1.0, 1.47345854687502542552e1, 3.75423933435489594466e1, 3.14657751203046424330e1,
         1.09969125207298778536e1, 1.78885054766999417817e0, 1.41733275753662636873e-1,
         5.44066067017226003627e-3, 9.39421290654511171663e-5, 5.65978713036027009243e-7)
_APGN = (-3.55615429033082288335e-2, -6.37311518129435504426e-1, -1.70856738884312371053e0,
         -1.50221872117316635393e0, -5.63606665822102676611e-1, -1.02101031120216891789e-1,
         -9.48396695961445269093e-3, -4.60325307486780994357e-4, -1.14300836484517375919e-5,
         -1.33415518685547420648e-7, -5.63803833958893494476e-10)
_APGD = (1.0, 9.85865801696130355144e0, 2.16401867356585941885e1, 1.73130776389749389525e1,
         6.17872175280828766327e0, 1.08848694396321495475e0, 9.95005543440888479402e-2,
         4.78468199683886610842e-3, 1.18159633322838625562e-4, 1.37480673554219441465e-6,
         5.79912514929147598821e-9)


_SCALE = 512.0  # the series run in u = x^3 / 512: float32's coefficients stay normal where they matter


def _coefficients(step: Any) -> tuple[float, ...]:
    """The series' coefficients t_k 512^k, t_k = prod_j<=k 1/step(j), in u = x^3 / 512, highest first."""
    t, out = 1.0, [1.0]
    for k in range(1, _TERMS + 1):
        t *= _SCALE / step(k)
        out.append(t)
    return tuple(out[::-1])


#: f = sum x^3k / ((2.3)(5.6)...), g / x, f' / (x^2/2) and g' as power series in u
_F = _coefficients(lambda k: (3 * k - 1) * 3 * k)
_G = _coefficients(lambda k: 3 * k * (3 * k + 1))
_FP = _coefficients(lambda k: 3 * k * (3 * k + 2))
_GP = _coefficients(lambda k: (3 * k - 2) * 3 * k)


def _horner_fma(z: Any, coeffs: tuple[float, ...]) -> Any:
    """horner with one fused multiply-add a term (one pass over memory instead of two)."""
    import numr as nr
    r = z * coeffs[0] + coeffs[1]
    for c in coeffs[2:]:
        r = nr.fma(r, z, c)
    return r


def _series(x: Any) -> tuple[Any, Any, Any, Any]:
    """(Ai, Ai', Bi, Bi') by the Maclaurin series of the two fundamental solutions f, g (Horner in z = x^3)."""
    z = x * x * x * (1.0 / _SCALE)
    f, g = _horner_fma(z, _F), x * _horner_fma(z, _G)
    fp, gp = 0.5 * x * x * _horner_fma(z, _FP), _horner_fma(z, _GP)
    uf, ug, ufp, ugp = C1 * f, C2 * g, C1 * fp, C2 * gp
    return uf - ug, ufp - ugp, SQRT3 * (uf + ug), SQRT3 * (ufp + ugp)


def _positive(x: Any) -> tuple[Any, Any, Any, Any]:
    """(Ai, Ai', Bi, Bi') for x >= 2.09 (Bi, Bi' valid beyond 8.32) by the rational forms in 1/zeta."""
    import numr as nr
    t = nr.sqrt(x)
    zeta = (2.0 / 3.0) * x * t
    t = nr.sqrt(t)
    z = 1.0 / zeta
    e = nr.exp(-zeta)
    ai = SQPII * horner(z, _AN) / horner(z, _AD) * e / (2.0 * t)
    aip = -0.5 * SQPII * t * e * horner(z, _APN) / horner(z, _APD)
    g = nr.exp(0.5 * zeta)  # e^zeta as g * g: the product overflows only when Bi does
    bi = (SQPII * g / t) * g * (1.0 + z * horner(z, _BN16) / horner(z, _BD16))
    bip = (SQPII * g * t) * g * (1.0 + z * horner(z, _BPPN) / horner(z, _BPPD))
    return ai, aip, bi, bip


def _negative(x: Any) -> tuple[Any, Any, Any, Any]:
    """(Ai, Ai', Bi, Bi') for x <= -2.09: modulus and phase about theta = zeta + pi/4."""
    import numr as nr
    t = nr.sqrt(-x)
    zeta = (-2.0 / 3.0) * x * t
    t = nr.sqrt(t)
    k = SQPII / t
    z = 1.0 / zeta
    zz = z * z
    uf = 1.0 + zz * horner(zz, _AFN) / horner(zz, _AFD)
    ug = z * horner(zz, _AGN) / horner(zz, _AGD)
    f, g = nr.sin(zeta + 0.25 * math.pi), nr.cos(zeta + 0.25 * math.pi)
    ai, bi = k * (f * uf - g * ug), k * (g * uf + f * ug)
    uf = 1.0 + zz * horner(zz, _APFN) / horner(zz, _APFD)
    ug = z * horner(zz, _APGN) / horner(zz, _APGD)
    k = SQPII * t
    return ai, -k * (g * uf + f * ug), bi, k * (f * uf - g * ug)


def _airy(x: Any) -> tuple[Any, Any, Any, Any]:
    import numr as nr
    xs = nr.clamp(x, -2.09, 8.33)
    xp = nr.clamp(x, 2.09, 103.0)
    xn = nr.clamp(x, -1e300 if x.dtype.itemsize == 8 else -1e37, -2.09)
    s, p, n = _series(xs), _positive(xp), _negative(xn)
    neg, pos = x < -2.09, x >= 2.09
    ai = nr.where(neg, n[0], nr.where(pos, p[0], s[0]))
    aip = nr.where(neg, n[1], nr.where(pos, p[1], s[1]))
    bpos = x > 8.3203353
    bi = nr.where(neg, n[2], nr.where(bpos, p[2], s[2]))
    bip = nr.where(neg, n[3], nr.where(bpos, p[3], s[3]))
    far = x > 103.892  # Ai underflows, Bi overflows
    ai, aip = nr.where(far, 0.0, ai), nr.where(far, 0.0, aip)
    bi, bip = nr.where(far, math.inf, bi), nr.where(far, math.inf, bip)
    ninf = x == -math.inf
    out = [nr.where(ninf, 0.0, v) for v in (ai, aip, bi, bip)]
    return tuple(nr.where(nr.isnan(x), x, v) for v in out)


def _airy_ai(x: Any) -> Any:
    """Ai(x)."""
    return _airy(x)[0]


def _airy_ai_prime(x: Any) -> Any:
    """Ai'(x)."""
    return _airy(x)[1]


def _airy_bi(x: Any) -> Any:
    """Bi(x)."""
    return _airy(x)[2]


def _airy_bi_prime(x: Any) -> Any:
    """Bi'(x)."""
    return _airy(x)[3]


def airy_any(x: Any) -> tuple[Any, Any, Any, Any]:
    """(Ai, Ai', Bi, Bi') from one evaluation (scipy.special.airy)."""
    import numr as nr
    (xc,), out = special_input("airy", x)
    r = _airy(xc)
    return r if r[0].dtype is out else tuple(nr.cast(v, out) for v in r)


UNARY = {"airy_ai": _airy_ai, "airy_ai_prime": _airy_ai_prime, "airy_bi": _airy_bi, "airy_bi_prime": _airy_bi_prime}
COMPOSITES = {**{n: special_unary(n, f) for n, f in UNARY.items()}, "airy": airy_any}
