"""NumPy Generator's remaining discrete samplers and the dim-0 shuffles, written once with public
numr functions (stream rules in distributions.py). Counts are computed in float64 and returned
as int64 unless ``dtype`` says otherwise.

- negative_binomial(n, p): the gamma-Poisson mixture, as NumPy: Poisson(Gamma(n, (1 - p) / p))
  (the Poisson from part 1 of the stream).
- hypergeometric(ngood, nbad, nsample): Stadlober's HRUA (ratio of uniforms with the exact
  log-factorial test; NumPy's method for nsample >= 10, used here for every size: it is exact for
  all parameters, and one vectorised rejection serves them all), with the symmetries
  nsample -> N - nsample and good <-> bad.
- multinomial_counts (Generator.multinomial): conditional binomials, one a category.
- zipf(a > 1) and logseries(0 <= p < 1): NumPy's rejection / Kemp's methods, float64.
- permutation / shuffle / permuted: randperm (or the argsort of random keys per lane) followed by
  index_select / take_along_dim on the device.
"""

from __future__ import annotations

import math
from typing import Any

from ... import dtypes as dt
from ...errors import DomainError, ShapeError
from ...random import Stream
from .distributions import Draws, as_work, check, flat_param, is_tensor, pick_device, plain, rejection, take
from .distributions_discrete import _discrete_prep, _to, binomial, log_factorial, poisson, randperm
from .distributions_gamma import standard_gamma


def _below_one(op: str, name: str, p: Any) -> None:
    """DomainError unless p < 1 everywhere."""
    import numr as nr
    bad = bool(nr.any(p >= 1).item()) if is_tensor(p) else p >= 1
    if bad:
        raise DomainError(f"{op}: {name} must be < 1")


def negative_binomial(n: Any, p: Any, size: Any = None, *, dtype: Any = None, device: Any = None,
                      seed: Any = None) -> Any:
    """Failures before the n-th success (n > 0 real, 0 < p <= 1), NumPy's negative_binomial."""
    import numr as nr
    n, p = plain(n), plain(p)
    check("negative_binomial", "n", n, lo_open=True, finite=True)
    check("negative_binomial", "p", p, lo_open=True, hi=1.0)
    d, shape, dr, dev = _discrete_prep("negative_binomial", (n, p), size, dtype, device, seed)
    nn, pp = as_work(n, dt.float64), as_work(p, dt.float64)
    lam = standard_gamma(nn, shape, dt.float64, dr) * ((1.0 - pp) / pp)
    part = dr.fork(1)
    k = poisson(nr.minimum(lam, 1e18) if is_tensor(lam) else lam, shape, dtype=dt.float64, device=dev,
                seed=Stream(part.seed, part.stream))
    return _to(k, d)


D1, D2 = 2.0 * math.sqrt(2.0 / math.e), 3.0 - 2.0 * math.sqrt(3.0 / math.e)  # HRUA's hat constants
TABLE_MAX = 1 << 16  # the largest hat support looked up in a table (beyond: computed per draw)


def _int_param(op: str, name: str, v: Any) -> Any:
    """A whole-number parameter >= 0 (a number or a tensor), as float64."""
    import numr as nr
    check(op, name, v, finite=True)
    if is_tensor(v):
        v = nr.cast(v, dt.float64)
        if not bool(nr.all(nr.floor(v) == v).item()):
            raise DomainError(f"{op}: {name} must hold whole numbers")
        return v
    if float(v) != math.floor(float(v)):
        raise DomainError(f"{op}: {name} must be a whole number, got {v}")
    return float(v)


def _lf4(k: Any, lo: Any, ms: Any, hi: Any) -> Any:
    """log k! + log (lo - k)! + log (ms - k)! + log (hi - ms + k)!: HRUA's log-likelihood term."""
    return log_factorial(k) + log_factorial(lo - k) + log_factorial(ms - k) + log_factorial(hi - ms + k)


def _hrua(good: Any, bad: Any, ns: Any, fn: tuple) -> tuple:
    """HRUA's constants (numbers, or flat float64 tensors with fn the numr functions)."""
    mn, mx, sqrt, floor = fn
    pop = good + bad
    ms = mn(ns, pop - ns)  # the sample drawn: the smaller of nsample and its complement
    lo, hi = mn(good, bad), mx(good, bad)
    p = lo / mx(pop, 1.0)
    a = ms * p + 0.5
    c = sqrt((pop - ms) * ms * p * (1.0 - p) / mx(pop - 1.0, 1.0) + 0.5)
    m = floor((ms + 1.0) * (lo + 1.0) / (pop + 2.0))
    return ms, lo, hi, a, D1 * c + D2, m, mn(mn(ms, lo) + 1.0, floor(a + 16.0 * c))


def hypergeometric(ngood: Any, nbad: Any, nsample: Any, size: Any = None, *, dtype: Any = None,
                   device: Any = None, seed: Any = None) -> Any:
    """Good items among nsample drawn without replacement from ngood good and nbad bad items
    (whole numbers >= 0, nsample <= ngood + nbad). Scalar parameters look the log-factorial
    term up in a table over the hat's support 0..b-1 (built on the device)."""
    import numr as nr
    op = "hypergeometric"
    good, bad, ns = (_int_param(op, nm, plain(v)) for nm, v in (("ngood", ngood), ("nbad", nbad), ("nsample", nsample)))
    d, shape, dr, dev = _discrete_prep(op, (good, bad, ns), size, dtype, device, seed)
    n = math.prod(shape)
    if not any(is_tensor(v) for v in (good, bad, ns)):
        if ns > good + bad:
            raise DomainError(f"{op}: nsample must be <= ngood + nbad, got {ns} > {good} + {bad}")
        ms, lo, hi, a, h, m, b = _hrua(good, bad, ns, (min, max, math.sqrt, math.floor))
        table = _lf4(nr.arange(int(b), dtype=dt.float64, device=dev), lo, ms, hi) if b <= TABLE_MAX else None
        g = float(_lf4(nr.full((1,), m, dtype=dt.float64, device=dev), lo, ms, hi).item())

        def step(draws: list, idx: Any) -> tuple[Any, Any]:
            u, v = draws
            x = a + h * (v - 0.5) / u
            k = nr.floor(nr.minimum(nr.maximum(x, 0.0), b - 1.0))
            lk = _lf4(k, lo, ms, hi) if table is None else nr.index_select(table, 0, nr.cast(k, dt.int64))
            return (x >= 0.0) & (x < b) & (2.0 * nr.log(u) <= g - lk), k
    else:
        good, bad, ns = (flat_param(x, shape) if is_tensor(x) else nr.full((n,), x, dtype=dt.float64, device=dev)
                         for x in (good, bad, ns))
        if bool(nr.any(ns > good + bad).item()):
            raise DomainError(f"{op}: nsample must be <= ngood + nbad everywhere")
        ms, lo, hi, a, h, m, b = _hrua(good, bad, ns, (nr.minimum, nr.maximum, nr.sqrt, nr.floor))
        g = _lf4(m, lo, ms, hi)

        def step(draws: list, idx: Any) -> tuple[Any, Any]:
            u, v = draws
            aa, hh, bb, gg, lo_, ms_, hi_ = (take(t, idx) for t in (a, h, b, g, lo, ms, hi))
            x = aa + hh * (v - 0.5) / u
            k = nr.floor(nr.minimum(nr.maximum(x, 0.0), nr.maximum(bb - 1.0, 0.0)))
            return (x >= 0.0) & (x < bb) & (2.0 * nr.log(u) <= gg - _lf4(k, lo_, ms_, hi_)), k

    k = rejection(op, (n,), dt.float64, dr, "uu", step)
    k = nr.where(good > bad, ms - k, k) if is_tensor(good) or is_tensor(bad) else (ms - k if good > bad else k)
    k = nr.where(ms < ns, good - k, k) if is_tensor(ms) or is_tensor(ns) else (good - k if ms < ns else k)
    return _to(k.reshape(shape), d)


def multinomial_counts(n: Any, pvals: Any, size: Any = None, *, dtype: Any = None, device: Any = None,
                       seed: Any = None) -> Any:
    """NumPy's Generator.multinomial (nr.multinomial is torch's index sampler): counts of n trials
    over the categories of the 1-d ``pvals`` (non-negative, sum of all but the last <= 1; the
    last takes the rest), shape size + (k,). Conditional binomials: category j draws
    Binomial(n - earlier counts, p_j / (1 - p_0 - ... - p_{j-1})) from part j + 1 of the stream."""
    import numr as nr
    op = "multinomial_counts"
    n, pvals = plain(n), plain(pvals)
    d, shape, dr, dev = _discrete_prep(op, (n,), size, dtype, device, seed)
    p = nr.cast(pvals, dt.float64) if is_tensor(pvals) else nr.tensor(pvals, dtype=dt.float64, device=dev)
    if p.ndim != 1 or p.shape[0] == 0:
        raise ShapeError(f"{op}: pvals must be 1-d with at least one category, got shape {tuple(p.shape)}")
    check(op, "pvals", p, hi=1.0)
    if p.shape[0] > 1 and float(nr.sum(p[:-1]).item()) > 1.0 + 1e-12:
        raise DomainError(f"{op}: the probabilities but the last sum to more than 1")
    left = _int_param(op, "n", n)
    left = left.broadcast_to(shape) if is_tensor(left) else nr.full(shape, left, dtype=dt.float64, device=dev)
    rest = 1.0 - (nr.cumsum(p, dim=0) - p)  # the probability mass from category j on
    ratio = nr.where(rest > 0, nr.minimum(p / nr.maximum(rest, 1e-300), 1.0), 0.0)
    counts = []
    for j in range(p.shape[0] - 1):
        part = dr.fork(j + 1)
        x = binomial(left, ratio[j], shape, dtype=dt.float64, seed=Stream(part.seed, part.stream))
        counts.append(x)
        left = left - x
    return _to(nr.stack([*counts, left], dim=-1), d)


def zipf(a: Any, size: Any = None, *, dtype: Any = None, device: Any = None, seed: Any = None) -> Any:
    """Zipf (zeta) of exponent a > 1 by NumPy's rejection: x = floor(u**(-1/(a-1))), accepted when
    v x (t - 1) / (b - 1) <= t / b, t = (1 + 1/x)**(a-1), b = 2**(a-1); x < 2**63."""
    import numr as nr
    a = plain(a)
    check("zipf", "a", a, lo=1.0, lo_open=True, finite=True)
    d, shape, dr, _ = _discrete_prep("zipf", (a,), size, dtype, device, seed)
    am1 = flat_param(as_work(a, dt.float64), shape) - 1.0
    b = 2.0 ** am1

    def step(draws: list, idx: Any) -> tuple[Any, Any]:
        u, v = draws
        e, bb = take(am1, idx), take(b, idx)
        x = nr.floor(u ** (-1.0 / e))
        ok = (x >= 1.0) & (x < 2.0 ** 63)
        xs = nr.where(ok, x, 1.0)
        t = (1.0 + 1.0 / xs) ** e
        return ok & (v * xs * (t - 1.0) / (bb - 1.0) <= t / bb), xs

    return _to(rejection("zipf", shape, dt.float64, dr, "uu", step), d)


def logseries(p: Any, size: Any = None, *, dtype: Any = None, device: Any = None, seed: Any = None) -> Any:
    """Logarithmic series (support 1, 2, ...) of 0 <= p < 1 by Kemp's second method, as NumPy."""
    import numr as nr
    p = plain(p)
    check("logseries", "p", p, hi=1.0)
    _below_one("logseries", "p", p)
    d, shape, dr, _ = _discrete_prep("logseries", (p,), size, dtype, device, seed)
    pf = flat_param(as_work(p, dt.float64), shape)
    r = nr.log1p(-pf) if is_tensor(pf) else math.log1p(-pf)

    def step(draws: list, idx: Any) -> tuple[Any, Any]:
        v, u = draws
        pp, rr = take(pf, idx), take(r, idx)
        q = -nr.expm1(rr * u)
        tail = v <= q * q
        kk = nr.floor(1.0 + nr.log(v) / nr.log(nr.where(tail, q, 0.5)))
        val = nr.where(v >= pp, 1.0, nr.where(tail, kk, nr.where(v >= q, 1.0, 2.0)))
        return (v >= pp) | ~tail | (kk >= 1.0), val

    return _to(rejection("logseries", shape, dt.float64, dr, "uu", step), d)


def permutation(x: Any, *, device: Any = None, seed: Any = None) -> Any:
    """A permuted copy of x along dim 0 (an int n: randperm(n)), NumPy's Generator.permutation."""
    import numr as nr
    x = plain(x)
    if not is_tensor(x):
        return randperm(int(x), device=device, seed=seed)
    if x.ndim == 0:
        raise ShapeError("permutation: x must have at least one dim, got a 0-d tensor")
    return nr.index_select(x, 0, randperm(x.shape[0], device=x.device, seed=seed))


def shuffle(x: Any, *, seed: Any = None) -> None:
    """Permute x in place along dim 0 (the same order as permutation(x) with the same stream)."""
    import numr as nr
    if not is_tensor(x) or x.ndim == 0:
        raise ShapeError(f"shuffle: x must be a tensor with at least one dim, got {getattr(x, 'shape', type(x))}")
    x.copy_(nr.index_select(x, 0, randperm(x.shape[0], device=x.device, seed=seed)))


def permuted(x: Any, axis: int | None = None, *, seed: Any = None) -> Any:
    """x with every 1-d lane along ``axis`` shuffled independently (None: the flattened x),
    NumPy's Generator.permuted: the stable argsort of random uint64 keys per lane."""
    import numr as nr
    x = plain(x)
    if not is_tensor(x):
        raise ShapeError(f"permuted: x must be a tensor, got {type(x).__name__}")
    flat = axis is None
    y = x.reshape(-1) if flat else x
    dim = 0 if flat else int(axis)
    if not -max(y.ndim, 1) <= dim < max(y.ndim, 1) or y.ndim == 0:
        raise ShapeError(f"permuted: axis {axis} out of range for shape {tuple(x.shape)}")
    dev = pick_device("permuted", (x,), None)
    keys = Draws(seed, dev).randint(0, 1 << 64, tuple(y.shape), dt.uint64)
    out = nr.take_along_dim(y, nr.argsort(keys, dim=dim), dim)
    return out.reshape(x.shape) if flat else out


PUBLIC = ("negative_binomial", "hypergeometric", "multinomial_counts", "zipf", "logseries", "permutation", "shuffle",
          "permuted")
