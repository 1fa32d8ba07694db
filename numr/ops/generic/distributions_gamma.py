"""Gamma and the distributions made of gammas (beta, chi-square, Student's t, Dirichlet), written
once with public numr functions (see distributions.py for the stream rules).

gamma: Marsaglia & Tsang (2000). With d = a - 1/3, c = 1/sqrt(9d): x ~ N(0, 1), u ~ U(0, 1),
v = (1 + c x)**3, accept d v when v > 0 and log u < x**2/2 + d - d v + d log v. This is exact
(a rejection method, no approximation); it runs as vectorised rounds, each drawing x and u for
every element (round r uses sub-streams 1 + 2r and 2 + 2r) and keeping the first accepted
value of each element, until all are accepted (one scalar read a round; acceptance >= 95% a round,
so 1M elements take about 6 rounds). Shape a < 1 uses a + 1 and the boost u0**(1/a) (u0 from
sub-stream 0), done in log space.
"""

from __future__ import annotations

from typing import Any

from ... import dtypes as dt
from ...errors import ShapeError
from .distributions import (
    Draws,
    _prep,
    as_work,
    check,
    finish,
    flat_param,
    is_tensor,
    pick_device,
    plain,
    rejection,
    take,
)


def standard_gamma(a: Any, shape: tuple[int, ...], wd: dt.DType, dr: Draws) -> Any:
    """Gamma(a, 1) of ``shape`` in dtype ``wd`` (``a``: a Python number or a tensor broadcasting to shape)."""
    import numr as nr
    u0 = dr.rand_open(shape, wd)  # sub-stream 0: the boost of shapes below 1
    af = flat_param(a, shape)
    if is_tensor(af):
        boost = af < 1
        d = nr.where(boost, af + 1.0, af) - 1.0 / 3.0
        c = 1.0 / nr.sqrt(9.0 * d)
    else:
        boost = af < 1
        d = (af + 1.0 if boost else af) - 1.0 / 3.0
        c = (9.0 * d) ** -0.5
    tiny = 1e-300 if wd == dt.float64 else 1e-30

    def step(draws: list, idx: Any) -> tuple[Any, Any]:
        x, u = draws
        dd, cc = take(d, idx), take(c, idx)
        t = 1.0 + cc * x
        v = t * t * t
        logv = nr.log(nr.maximum(v, tiny))  # v <= 0 is rejected anyway
        return (v > 0) & (nr.log(u) < 0.5 * x * x + dd - dd * v + dd * logv), dd * v

    out = rejection("gamma", shape, wd, dr, "nu", step)
    if is_tensor(af):
        a_ = af.reshape(shape)
        boosted = nr.exp(nr.log(out) + nr.log(u0) / nr.where(boost.reshape(shape), a_, 1.0))
        return nr.where(boost.reshape(shape), boosted, out)
    return nr.exp(nr.log(out) + nr.log(u0) / af) if boost else out


def gamma(shape: Any, scale: Any = 1.0, size: Any = None, *, dtype: Any = None, device: Any = None,
          seed: int | None = None) -> Any:
    """Gamma(shape k, scale theta): mean k theta, variance k theta**2 (NumPy's gamma)."""
    shape, scale = plain(shape), plain(scale)
    check("gamma", "shape", shape, lo_open=True, finite=True)
    check("gamma", "scale", scale, lo_open=True, finite=True)
    d, wd, out_shape, dr = _prep("gamma", (shape, scale), size, dtype, device, seed)
    g = standard_gamma(as_work(shape, wd), out_shape, wd, dr)
    return finish(g * as_work(scale, wd), d)


def beta(a: Any, b: Any, size: Any = None, *, dtype: Any = None, device: Any = None,
         seed: int | None = None) -> Any:
    """Beta(a, b) = X / (X + Y), X ~ Gamma(a), Y ~ Gamma(b) (Y from part 1 of the stream)."""
    a, b = plain(a), plain(b)
    check("beta", "a", a, lo_open=True, finite=True)
    check("beta", "b", b, lo_open=True, finite=True)
    d, wd, shape, dr = _prep("beta", (a, b), size, dtype, device, seed)
    x = standard_gamma(as_work(a, wd), shape, wd, dr)
    y = standard_gamma(as_work(b, wd), shape, wd, dr.fork(1))
    return finish(x / (x + y), d)


def chi_square(df: Any, size: Any = None, *, dtype: Any = None, device: Any = None,
               seed: int | None = None) -> Any:
    """Chi-square with df degrees of freedom = 2 Gamma(df / 2)."""
    df = plain(df)
    check("chi_square", "df", df, lo_open=True, finite=True)
    d, wd, shape, dr = _prep("chi_square", (df,), size, dtype, device, seed)
    return finish(2.0 * standard_gamma(as_work(df, wd) * 0.5, shape, wd, dr), d)


def student_t(df: Any, size: Any = None, *, dtype: Any = None, device: Any = None,
              seed: int | None = None) -> Any:
    """Student's t = Z / sqrt(V / df), Z ~ N(0, 1) (part 1), V ~ chi-square(df)."""
    df = plain(df)
    import numr as nr
    check("student_t", "df", df, lo_open=True, finite=True)
    d, wd, shape, dr = _prep("student_t", (df,), size, dtype, device, seed)
    nu = as_work(df, wd)
    v = 2.0 * standard_gamma(nu * 0.5, shape, wd, dr)
    z = dr.fork(1).randn(shape, wd)
    return finish(z / nr.sqrt(v / nu), d)


def dirichlet(alpha: Any, size: Any = None, *, dtype: Any = None, device: Any = None,
              seed: int | None = None) -> Any:
    """Dirichlet(alpha) over alpha's last dim: gammas normalised to sum 1; ``size`` adds leading
    dims (output shape size + alpha.shape, as NumPy)."""
    alpha = plain(alpha)
    import numr as nr
    if not is_tensor(alpha):
        dev = pick_device("dirichlet", (), device)
        alpha = nr.tensor(alpha, dtype=dtype or dt.default_float, device=dev)
    if alpha.ndim == 0 or alpha.shape[-1] == 0:
        raise ShapeError(f"dirichlet: alpha needs a last dim with at least 1 category, got shape {tuple(alpha.shape)}")
    check("dirichlet", "alpha", alpha, lo_open=True, finite=True)
    full = tuple(alpha.shape) if size is None else tuple(_prep_size(size)) + tuple(alpha.shape)
    d, wd, shape, dr = _prep("dirichlet", (alpha,), full, dtype, device, seed)
    g = standard_gamma(as_work(alpha, wd), shape, wd, dr)
    return finish(g / nr.sum(g, dim=-1, keepdim=True), d)


def _prep_size(size: Any) -> tuple[int, ...]:
    from ...shapes import normalize_shape
    return normalize_shape(size, "dirichlet")


PUBLIC = ("gamma", "beta", "chi_square", "student_t", "dirichlet")
