"""F, noncentral chi-square/F and von Mises samplers (NumPy Generator names), written once with
public numr functions (stream rules in distributions.py).

- f_distribution (Generator.f): (X1 / dfnum) / (X2 / dfden), X1, X2 chi-squares (X2 from part 1).
- noncentral_chisquare: the Poisson mixture, exact for every df > 0: K ~ Poisson(nonc / 2) (part
  1, float64), then 2 Gamma(df / 2 + K) (the draws of this call).
- noncentral_f: (noncentral_chisquare(dfnum, nonc) / dfnum) / (chi-square(dfden) / dfden) (part 2).
- vonmises: Best & Fisher (1979) rejection, as NumPy: with r = 1 + sqrt(1 + 4 kappa**2),
  rho = (r - sqrt(2 r)) / (2 kappa), s = (1 + rho**2) / (2 rho): z = cos(pi u1),
  w = (1 + s z) / (s + z), y = kappa (s - w); accept when y (2 - y) >= v or log(y / v) + 1 >= y.
  The angle is mu +- acos(w) (sign from draw 0), wrapped to [-pi, pi). kappa < 1e-8 gives the
  uniform angle (part 1); kappa > 1e6 the wrapped normal N(mu, 1/kappa) (part 2), as NumPy.
  Rounds of the shared rejection helper, so an element's value depends only on its position.
"""

from __future__ import annotations

import math
from typing import Any

from ... import dtypes as dt
from ...random import Stream
from .distributions import _prep, as_work, check, finish, flat_param, is_tensor, plain, rejection, take
from .distributions_discrete import poisson
from .distributions_gamma import standard_gamma


def _chi2(df: Any, shape: tuple[int, ...], wd: dt.DType, dr: Any) -> Any:
    return 2.0 * standard_gamma(df * 0.5, shape, wd, dr)


def _nc_chi2(df: Any, nonc: Any, shape: tuple[int, ...], wd: dt.DType, dr: Any) -> Any:
    """2 Gamma(df / 2 + K), K ~ Poisson(nonc / 2) from part 1 of dr's stream (float64 counts)."""
    import numr as nr
    part = dr.fork(1)
    k = poisson(nonc * 0.5, shape, dtype=dt.float64, device=dr.client.device, seed=Stream(part.seed, part.stream))
    return 2.0 * standard_gamma(df * 0.5 + nr.cast(k, wd), shape, wd, dr)


def f_distribution(dfnum: Any, dfden: Any, size: Any = None, *, dtype: Any = None, device: Any = None,
                   seed: Any = None) -> Any:
    """F(dfnum > 0, dfden > 0) (NumPy's Generator.f)."""
    dfnum, dfden = plain(dfnum), plain(dfden)
    check("f_distribution", "dfnum", dfnum, lo_open=True, finite=True)
    check("f_distribution", "dfden", dfden, lo_open=True, finite=True)
    d, wd, shape, dr = _prep("f_distribution", (dfnum, dfden), size, dtype, device, seed)
    a, b = as_work(dfnum, wd), as_work(dfden, wd)
    return finish((_chi2(a, shape, wd, dr) / a) / (_chi2(b, shape, wd, dr.fork(1)) / b), d)


def noncentral_chisquare(df: Any, nonc: Any, size: Any = None, *, dtype: Any = None, device: Any = None,
                         seed: Any = None) -> Any:
    """Noncentral chi-square of df > 0 degrees of freedom and noncentrality nonc >= 0."""
    df, nonc = plain(df), plain(nonc)
    check("noncentral_chisquare", "df", df, lo_open=True, finite=True)
    check("noncentral_chisquare", "nonc", nonc, finite=True)
    d, wd, shape, dr = _prep("noncentral_chisquare", (df, nonc), size, dtype, device, seed)
    return finish(_nc_chi2(as_work(df, wd), as_work(nonc, dt.float64), shape, wd, dr), d)


def noncentral_f(dfnum: Any, dfden: Any, nonc: Any, size: Any = None, *, dtype: Any = None, device: Any = None,
                 seed: Any = None) -> Any:
    """Noncentral F(dfnum > 0, dfden > 0, nonc >= 0)."""
    dfnum, dfden, nonc = plain(dfnum), plain(dfden), plain(nonc)
    op = "noncentral_f"
    check(op, "dfnum", dfnum, lo_open=True, finite=True)
    check(op, "dfden", dfden, lo_open=True, finite=True)
    check(op, "nonc", nonc, finite=True)
    d, wd, shape, dr = _prep(op, (dfnum, dfden, nonc), size, dtype, device, seed)
    a, b = as_work(dfnum, wd), as_work(dfden, wd)
    num = _nc_chi2(a, as_work(nonc, dt.float64), shape, wd, dr) / a
    return finish(num / (_chi2(b, shape, wd, dr.fork(2)) / b), d)


def _wrap(x: Any) -> Any:
    """x wrapped to [-pi, pi)."""
    import numr as nr
    return x - 2.0 * math.pi * nr.floor((x + math.pi) / (2.0 * math.pi))


def vonmises(mu: Any, kappa: Any, size: Any = None, *, dtype: Any = None, device: Any = None,
             seed: Any = None) -> Any:
    """Von Mises angles in [-pi, pi) of mode mu and concentration kappa >= 0."""
    import numr as nr
    mu, kappa = plain(mu), plain(kappa)
    check("vonmises", "mu", mu, lo=-math.inf, finite=True)
    check("vonmises", "kappa", kappa, finite=True)
    d, wd, shape, dr = _prep("vonmises", (mu, kappa), size, dtype, device, seed)
    m = as_work(mu, wd)
    k = flat_param(as_work(kappa, dt.float64), shape)  # s in float64: rho -> 1 for large kappa
    kk = nr.minimum(nr.maximum(k, 1e-8), 1e6) if is_tensor(k) else min(max(k, 1e-8), 1e6)
    f, small = (nr if is_tensor(kk) else math), kk < 1e-5  # small: the second-order series, as NumPy
    kb = nr.where(small, 1.0, kk) if is_tensor(kk) else (1.0 if small else kk)
    r = 1.0 + f.sqrt(1.0 + 4.0 * kb * kb)
    rho = (r - f.sqrt(2.0 * r)) / (2.0 * kb)
    s = (1.0 + rho * rho) / (2.0 * rho)
    s = nr.where(small, 1.0 / kk + kk, s) if is_tensor(kk) else (1.0 / kk + kk if small else s)
    kw, sw = (nr.cast(t, wd) if is_tensor(t) else t for t in (kk, s))
    sign = dr.rand(shape, wd)  # draw 0: the side of mu

    def step(draws: list, idx: Any) -> tuple[Any, Any]:
        u, v = draws
        ss, ka = take(sw, idx), take(kw, idx)
        z = nr.cos(math.pi * u)
        w = (1.0 + ss * z) / (ss + z)
        y = ka * (ss - w)
        ok = (y * (2.0 - y) >= v) | (nr.log(nr.maximum(y, 1e-300 if wd == dt.float64 else 1e-37) / v) + 1.0 >= y)
        return ok, w

    n = math.prod(shape)
    w = rejection("vonmises", shape, wd, dr, "uu", step) if n else nr.zeros(shape, dtype=wd, device=dr.client.device)
    ang = nr.acos(nr.clamp(w, -1.0, 1.0))
    out = m + nr.where(sign < 0.5, -ang, ang)
    k_full = k.reshape(shape) if is_tensor(k) else k
    if is_tensor(k) or k < 1e-8:
        flat = math.pi * (2.0 * dr.fork(1).rand(shape, wd) - 1.0) + m
        out = nr.where(k_full < 1e-8, flat, out) if is_tensor(k) else flat
    if is_tensor(k) or k > 1e6:
        kf = nr.cast(k_full, wd) if is_tensor(k) else k
        wn = m + dr.fork(2).randn(shape, wd) / (nr.sqrt(kf) if is_tensor(kf) else math.sqrt(kf))
        out = nr.where(k_full > 1e6, wn, out) if is_tensor(k) else wn
    return finish(_wrap(out), d)


PUBLIC = ("f_distribution", "noncentral_chisquare", "noncentral_f", "vonmises")
