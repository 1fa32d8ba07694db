"""NumPy Generator's closed-form continuous samplers, written once with public numr functions over
the Philox draws (stream rules in distributions.py): weibull, rayleigh, logistic, pareto (Lomax),
power_distribution (Generator.power; nr.power is elementwise), wald (inverse Gaussian),
triangular and the standard_* forms. Each is an exact transform of one or two draws (inversion,
or Michael-Schucany-Haas for wald); parameters are Python numbers or tensors broadcasting with
``size``; their values are used (no gradient). float64 output computes in float64, the narrower
floats in float32 (then rounded), as the other samplers.
"""

from __future__ import annotations

from typing import Any

from ... import dtypes as dt
from ...errors import DomainError
from .distributions import Draws, _prep, as_work, cauchy, check, exponential, finish, is_tensor, plain
from .distributions_gamma import gamma, student_t


def std_exp(dr: Draws, shape: tuple[int, ...], wd: dt.DType) -> Any:
    """Standard exponential -log1p(-u) of one draw (u in [0, 1): finite, >= 0)."""
    import numr as nr
    return -nr.log1p(-dr.rand(shape, wd))


def _params(op: str, names: tuple[str, ...], values: tuple, size: Any, dtype: Any, device: Any, seed: Any):
    """The plain parameters in the work dtype, the output dtype, shape and draws."""
    values = tuple(plain(v) for v in values)
    d, wd, shape, dr = _prep(op, values, size, dtype, device, seed)
    return (*(as_work(v, wd) for v in values), d, wd, shape, dr)


def weibull(a: Any, size: Any = None, *, dtype: Any = None, device: Any = None, seed: Any = None) -> Any:
    """Weibull of shape a >= 0 (scale 1): E**(1/a), E standard exponential; 0 where a == 0 (NumPy)."""
    import numr as nr
    check("weibull", "a", plain(a), finite=True)
    a, d, wd, shape, dr = _params("weibull", ("a",), (a,), size, dtype, device, seed)
    e = std_exp(dr, shape, wd)
    if is_tensor(a):
        return finish(nr.where(a == 0, 0.0, e ** (1.0 / nr.where(a == 0, 1.0, a))), d)
    return finish(e ** (1.0 / a) if a else nr.zeros_like(e), d)


def rayleigh(scale: Any = 1.0, size: Any = None, *, dtype: Any = None, device: Any = None, seed: Any = None) -> Any:
    """Rayleigh(scale >= 0) = scale * sqrt(2 E), E standard exponential."""
    import numr as nr
    check("rayleigh", "scale", plain(scale), finite=True)
    s, d, wd, shape, dr = _params("rayleigh", ("scale",), (scale,), size, dtype, device, seed)
    return finish(s * nr.sqrt(2.0 * std_exp(dr, shape, wd)), d)


def logistic(loc: Any = 0.0, scale: Any = 1.0, size: Any = None, *, dtype: Any = None, device: Any = None,
             seed: Any = None) -> Any:
    """Logistic(loc, scale >= 0) = loc + scale * log(u / (1 - u)), u open (finite)."""
    import numr as nr
    check("logistic", "scale", plain(scale), finite=True)
    loc, s, d, wd, shape, dr = _params("logistic", ("loc", "scale"), (loc, scale), size, dtype, device, seed)
    u = dr.rand_open(shape, wd)
    return finish(loc + s * nr.log(u / (1.0 - u)), d)


def pareto(a: Any, size: Any = None, *, dtype: Any = None, device: Any = None, seed: Any = None) -> Any:
    """Pareto II (Lomax) of shape a > 0, NumPy's pareto: expm1(E / a) (add 1 and scale for classic Pareto)."""
    import numr as nr
    check("pareto", "a", plain(a), lo_open=True)
    a, d, wd, shape, dr = _params("pareto", ("a",), (a,), size, dtype, device, seed)
    return finish(nr.expm1(std_exp(dr, shape, wd) / a), d)


def power_distribution(a: Any, size: Any = None, *, dtype: Any = None, device: Any = None, seed: Any = None) -> Any:
    """NumPy's Generator.power (nr.power is the elementwise power): the power distribution on
    [0, 1] with shape a > 0 (density a x**(a-1)), u**(1/a)."""
    check("power_distribution", "a", plain(a), lo_open=True)
    a, d, wd, shape, dr = _params("power_distribution", ("a",), (a,), size, dtype, device, seed)
    return finish(dr.rand(shape, wd) ** (1.0 / a), d)


def wald(mean: Any, scale: Any, size: Any = None, *, dtype: Any = None, device: Any = None, seed: Any = None) -> Any:
    """Wald (inverse Gaussian) of mean > 0 and scale (shape lambda) > 0, by Michael, Schucany &
    Haas (1976): y = mean z**2, x = mean - 2 mean y / (y + sqrt(y**2 + 4 lambda y)) (the
    cancellation-free form of NumPy's), then x if u <= mean / (mean + x) else mean**2 / x."""
    import numr as nr
    check("wald", "mean", plain(mean), lo_open=True, finite=True)
    check("wald", "scale", plain(scale), lo_open=True, finite=True)
    mu, lam, d, wd, shape, dr = _params("wald", ("mean", "scale"), (mean, scale), size, dtype, device, seed)
    z = dr.randn(shape, wd)
    y = mu * z * z
    x = mu - 2.0 * mu * y / (y + nr.sqrt(y * y + 4.0 * lam * y))
    x = nr.maximum(x, 1e-300 if wd == dt.float64 else 1e-37)  # x underflows only where y is huge
    u = dr.rand(shape, wd)
    return finish(nr.where(u * (mu + x) <= mu, x, mu * mu / x), d)


def triangular(left: Any, mode: Any, right: Any, size: Any = None, *, dtype: Any = None, device: Any = None,
               seed: Any = None) -> Any:
    """Triangular on [left, right] peaking at mode (left <= mode <= right, left < right), by inversion."""
    import numr as nr
    op = "triangular"
    lo, mo, hi = plain(left), plain(mode), plain(right)
    for name, v in (("left", lo), ("mode", mo), ("right", hi)):
        check(op, name, v, lo=-float("inf"), finite=True)
    lo, mo, hi, d, wd, shape, dr = _params(op, ("left", "mode", "right"), (lo, mo, hi), size, dtype, device, seed)
    for c in (mo - lo >= 0, hi - mo >= 0, hi - lo > 0):  # a tensor condition costs one scalar read
        if not (bool(nr.all(c).item()) if is_tensor(c) else c):
            raise DomainError(f"{op}: needs left <= mode <= right and left < right everywhere")
    u = dr.rand(shape, wd)
    width, below, above = hi - lo, mo - lo, hi - mo
    left_side = lo + nr.sqrt(u * width * below)
    right_side = hi - nr.sqrt((1.0 - u) * width * above)
    return finish(nr.where(u * width <= below, left_side, right_side), d)


def standard_exponential(size: Any = None, *, dtype: Any = None, device: Any = None, seed: Any = None) -> Any:
    """Exponential of rate 1 (NumPy's standard_exponential): the draws of nr.exponential(1.0)."""
    return exponential(1.0, size, dtype=dtype, device=device, seed=seed)


def standard_gamma(shape: Any, size: Any = None, *, dtype: Any = None, device: Any = None, seed: Any = None) -> Any:
    """Gamma(shape, scale 1): the draws of nr.gamma(shape)."""
    return gamma(shape, 1.0, size, dtype=dtype, device=device, seed=seed)


def standard_cauchy(size: Any = None, *, dtype: Any = None, device: Any = None, seed: Any = None) -> Any:
    """Cauchy(0, 1): the draws of nr.cauchy()."""
    return cauchy(0.0, 1.0, size, dtype=dtype, device=device, seed=seed)


def standard_t(df: Any, size: Any = None, *, dtype: Any = None, device: Any = None, seed: Any = None) -> Any:
    """Student's t with df > 0 degrees of freedom: the draws of nr.student_t(df)."""
    return student_t(df, size, dtype=dtype, device=device, seed=seed)


PUBLIC = ("weibull", "rayleigh", "logistic", "pareto", "power_distribution", "wald", "triangular",
          "standard_exponential", "standard_gamma", "standard_cauchy", "standard_t")
