"""Discrete distributions written once with public numr functions (stream rules in
distributions.py): bernoulli, geometric, poisson, binomial, multinomial, randperm.

poisson: rate < 10 by inversion (sub-stream 0): k counts the terms of the CDF, summed in float64
until every u <= CDF (exact up to float64 rounding of the CDF). rate >= 10 by Hoermann's
transformed rejection PTRS (1993; NumPy's method), exact: vectorised rounds (round r uses
sub-streams 1 + 2r and 2 + 2r), each element keeping its first accepted k, until all are
accepted (acceptance about 90% a round); log k! is Stirling's series at k + 1 >= 8 (shifted by
8 below), error < 2e-10.
"""

from __future__ import annotations

import math
from typing import Any

from ... import dtypes as dt
from ...errors import DomainError, DTypeError, ShapeError
from .distributions import (
    Draws,
    as_work,
    check,
    flat_param,
    float_out,
    is_tensor,
    out_shape,
    pick_device,
    plain,
    rejection,
    take,
)


def _int_out(op: str, dtype: Any) -> dt.DType:
    d = dt.int64 if dtype is None else dt.dtype(dtype)
    if d.kind == "c" or d == dt.bool_:
        raise DTypeError(f"{op}: needs an integer or float dtype, got {d}")
    return d


def _discrete_prep(op: str, params: tuple, size: Any, dtype: Any, device: Any, seed: int | None):
    d = _int_out(op, dtype)
    dev = pick_device(op, params, device)
    return d, out_shape(op, params, size), Draws(seed, dev), dev


def _to(x: Any, d: dt.DType) -> Any:
    import numr as nr
    return x if x.dtype == d else nr.cast(x, d)


def bernoulli(p: Any, size: Any = None, *, dtype: Any = None, device: Any = None, seed: int | None = None) -> Any:
    """1 with probability p, else 0 (torch.bernoulli: rand < p, float32 uniforms unless p is
    float64); the dtype is p's float dtype (the default float for a number) unless given."""
    p = plain(p)
    check("bernoulli", "p", p, hi=1.0)
    d = dt.dtype(dtype) if dtype is not None else float_out("bernoulli", (p,), None)
    dev = pick_device("bernoulli", (p,), device)
    shape, dr = out_shape("bernoulli", (p,), size), Draws(seed, dev)
    wide = p.dtype == dt.float64 if is_tensor(p) else d == dt.float64
    wd = dt.float64 if wide else dt.float32
    return _to(dr.rand(shape, wd) < as_work(p, wd), d)


def geometric(p: Any, size: Any = None, *, dtype: Any = None, device: Any = None, seed: int | None = None) -> Any:
    """Trials up to the first success (support 1, 2, ...): ceil(log u / log1p(-p)), u open, float64."""
    p = plain(p)
    import numr as nr
    check("geometric", "p", p, lo_open=True, hi=1.0)
    d, shape, dr, _ = _discrete_prep("geometric", (p,), size, dtype, device, seed)
    q = as_work(p, dt.float64)
    denom = nr.log1p(-q) if is_tensor(q) else (math.log1p(-q) if q < 1 else -math.inf)
    k = nr.ceil(nr.log(dr.rand_open(shape, dt.float64)) / denom)
    return _to(nr.maximum(k, 1.0), d)


def log_factorial(k: Any) -> Any:
    """log k! for float64 k >= 0 (Stirling's series at x = k + 1 >= 8, shifted by 8 below)."""
    import numr as nr
    x = k + 1.0
    small = x < 8.0
    z = nr.where(small, x + 8.0, x)
    m = nr.minimum(x, 8.0)
    prod = m
    for j in range(1, 8):
        prod = prod * (m + float(j))
    zi = 1.0 / z
    zi2 = zi * zi
    s = (z - 0.5) * nr.log(z) - z + 0.5 * math.log(2 * math.pi) + zi * (1 / 12 - zi2 * (1 / 360 - zi2 / 1260))
    return s - nr.where(small, nr.log(prod), 0.0)


def _poisson_small(lam: Any, u: Any) -> Any:
    """Inversion: the number of CDF terms below u (lam < 10). The CDF only grows, so an element
    whose u it has passed is done: every 8 terms the loop keeps only the unfinished ones (a
    gather), which makes its cost follow the mean count rather than the largest."""
    import numr as nr
    shape = u.shape
    lam, u = lam.reshape(-1), u.reshape(-1)
    p = nr.exp(-lam)
    cdf = p
    k = nr.zeros(u.shape, dtype=dt.float64, device=u.device)
    out, live = k, None  # live: flat positions of the elements still counting (None: all)
    cap = int(float(nr.amax(lam).item()) * 2 + 60) if lam.size else 0
    for i in range(1, cap + 1):
        below = u > cdf
        if i % 8 == 1:
            sel = nr.nonzero(below).reshape(-1)  # one scalar read, as the stop test was
            if sel.shape[0] < u.shape[0] // 2 or sel.shape[0] == 0:
                out = _write_back(out, live, k)
                live = sel if live is None else live[sel]
                if live.shape[0] == 0:
                    return out.reshape(shape)
                u, cdf, p, lam, k = (t[sel] for t in (u, cdf, p, lam, k))
                below = u > cdf
        k = k + nr.cast(below, dt.float64)
        p = p * lam / float(i)
        cdf = cdf + p
    return _write_back(out, live, k).reshape(shape)


def _write_back(out: Any, live: Any, k: Any) -> Any:
    """``out`` with the counts ``k`` of the positions ``live`` (all when None) written in."""
    if live is None:
        return k
    out.index_put_(0, live, k)
    return out


def _poisson_ptrs(lam: Any, shape: tuple[int, ...], dr: Draws, start: Any = None) -> Any:
    """Transformed rejection with squeeze (PTRS) for lam >= 10 (a number, or a flat float64
    tensor of shape's size; ``start``: the flat positions to sample, the others give 0)."""
    import numr as nr
    f = nr if is_tensor(lam) else math
    slam, loglam = f.sqrt(lam), f.log(lam)
    b = 0.931 + 2.53 * slam
    a = -0.059 + 0.02483 * b
    log_invalpha = f.log(1.1239 + 1.1328 / (b - 3.4))
    vr = 0.9277 - 3.6224 / (b - 2.0)

    def step(draws: list, idx: Any) -> tuple[Any, Any]:
        uu, v = draws
        uu = uu - 0.5
        lm, lg, bb, aa, lia, vv = (take(t, idx) for t in (lam, loglam, b, a, log_invalpha, vr))
        us = 0.5 - nr.abs(uu)
        k = nr.floor((2.0 * aa / us + bb) * uu + lm + 0.43)
        fast = (us >= 0.07) & (v <= vv)
        rej = (k < 0) | ((us < 0.013) & (v > us))
        kk = nr.maximum(k, 0.0)
        slow = nr.log(v) + lia - nr.log(aa / (us * us) + bb) <= -lm + kk * lg - log_factorial(kk)
        return fast | (~rej & slow), k

    return rejection("poisson", shape, dt.float64, dr, "uu", step, start)


def poisson(rate: Any, size: Any = None, *, dtype: Any = None, device: Any = None, seed: int | None = None) -> Any:
    """Poisson(rate) counts, int64 unless dtype says (a float dtype gives torch.poisson's floats)."""
    rate = plain(rate)
    import numr as nr
    check("poisson", "rate", rate, finite=True)
    d, shape, dr, dev = _discrete_prep("poisson", (rate,), size, dtype, device, seed)
    lam = flat_param(as_work(rate, dt.float64), shape)
    if math.prod(shape) == 0:
        return nr.zeros(shape, dtype=d, device=dev)
    if not is_tensor(lam):  # one rate: one method
        if lam < 10.0:
            u = dr.rand(shape, dt.float64)  # sub-stream 0: inversion
            return _to(_poisson_small(nr.full(shape, lam, dtype=dt.float64, device=dev), u), d)
        dr.skip()
        return _to(_poisson_ptrs(lam, shape, dr), d)
    small = lam < 10.0
    any_small, all_small = bool(nr.any(small).item()), bool(nr.all(small).item())
    u = dr.rand(lam.shape, dt.float64)
    out = _poisson_small(nr.where(small, lam, 0.0), u) if any_small else None
    if not all_small:
        big = _poisson_ptrs(nr.where(small, 10.0, lam), lam.shape, dr,
                            nr.nonzero(~small).reshape(-1) if any_small else None)
        out = big if out is None else nr.where(small, out, big)
    return _to(out.reshape(shape), d)


def _binomial_small(n: Any, q: Any, u: Any) -> Any:
    """Inversion (n q < 10, q <= 1/2): the number of CDF terms below u, pmf by recurrence."""
    import numr as nr
    pmf = nr.exp(n * nr.log1p(-q))
    cdf, r = pmf, q / (1.0 - q)
    k = nr.zeros(u.shape, dtype=dt.float64, device=u.device)
    cap = int(min(float(nr.amax(n).item()), float(nr.amax(n * q).item()) * 3 + 60))
    for i in range(cap):
        below = u > cdf
        if i % 8 == 0 and not bool(nr.any(below).item()):
            break
        k = k + nr.cast(below, dt.float64)
        pmf = pmf * nr.maximum(n - float(i), 0.0) / float(i + 1) * r
        cdf = cdf + pmf
    return k


def _binomial_btrs(n: Any, q: Any, shape: tuple[int, ...], dr: Draws, start: Any = None) -> Any:
    """Hoermann's BTRS (transformed rejection, 1993) for n q >= 10, q <= 1/2 (flat tensors;
    ``start``: the flat positions to sample, the others give 0)."""
    import numr as nr
    spq = nr.sqrt(n * q * (1.0 - q))
    b = 1.15 + 2.53 * spq
    a = -0.0873 + 0.0248 * b + 0.01 * q
    c = n * q + 0.5
    vr = 0.92 - 4.2 / b
    log_alpha = nr.log((2.83 + 5.1 / b) * spq)
    lpq = nr.log(q / (1.0 - q))
    m = nr.floor((n + 1.0) * q)
    h = log_factorial(m) + log_factorial(n - m)

    def step(draws: list, idx: Any) -> tuple[Any, Any]:
        uu, v = draws
        uu = uu - 0.5
        nn, bb, aa, cc, vv, la, lp, mm, hh = (take(t, idx) for t in (n, b, a, c, vr, log_alpha, lpq, m, h))
        us = 0.5 - nr.abs(uu)
        k = nr.floor((2.0 * aa / us + bb) * uu + cc)
        inside = (k >= 0) & (k <= nn)
        fast = (us >= 0.07) & (v <= vv)
        kk = nr.minimum(nr.maximum(k, 0.0), nn)
        lhs = nr.log(v) + la - nr.log(aa / (us * us) + bb)
        slow = lhs <= hh - log_factorial(kk) - log_factorial(nn - kk) + (kk - mm) * lp
        return inside & (fast | slow), k

    return rejection("binomial", shape, dt.float64, dr, "uu", step, start)


def binomial(count: Any, prob: Any, size: Any = None, *, dtype: Any = None, device: Any = None,
             seed: int | None = None) -> Any:
    """Successes in ``count`` trials of probability ``prob`` (int64 unless dtype says): float64
    inversion where count * min(p, 1-p) < 10 (sub-stream 0), else Hoermann's exact BTRS in
    rejection rounds; p > 1/2 draws count - Binomial(count, 1 - p)."""
    count, prob = plain(count), plain(prob)
    import numr as nr
    check("binomial", "count", count, finite=True)
    check("binomial", "prob", prob, hi=1.0)
    d, shape, dr, dev = _discrete_prep("binomial", (count, prob), size, dtype, device, seed)
    full = [nr.full(shape, float(x), dtype=dt.float64, device=dev) if not is_tensor(x) else x for x in (count, prob)]
    n, p = (flat_param(as_work(x, dt.float64), shape) for x in full)
    if n.shape[0] == 0:
        return nr.zeros(shape, dtype=d, device=dev)
    if not bool(nr.all(nr.floor(n) == n).item()):
        raise DomainError("binomial: count must hold whole numbers")
    flip = p > 0.5
    q = nr.where(flip, 1.0 - p, p)
    small = n * q < 10.0
    any_small, all_small = bool(nr.any(small).item()), bool(nr.all(small).item())
    u = dr.rand(n.shape, dt.float64)
    out = _binomial_small(nr.where(small, n, 0.0), q, u) if any_small else None
    if not all_small:
        big = _binomial_btrs(nr.where(small, 100.0, n), nr.where(small, 0.5, q), n.shape, dr,
                             nr.nonzero(~small).reshape(-1) if any_small else None)
        out = big if out is None else nr.where(small, out, big)
    out = nr.where(flip, n - out, out)
    return _to(out.reshape(shape), d)


def multinomial(probs: Any, num_samples: int, replacement: bool = False, *, seed: int | None = None) -> Any:
    """int64 category indices drawn from the rows of ``probs`` (1-d or 2-d, non-negative weights,
    not necessarily normalised), as torch.multinomial. Without replacement: the top
    ``num_samples`` of log p + Gumbel noise (distinct categories, zero weights never drawn);
    with replacement: searchsorted of uniform * total in the float64 cumulative sums."""
    probs = plain(probs)
    import numr as nr
    op = "multinomial"
    if not is_tensor(probs):
        raise DTypeError(f"{op}: probs must be a tensor, got {type(probs).__name__}")
    if probs.dtype.kind != "f":
        raise DTypeError(f"{op}: probs must be a float tensor, got {probs.dtype}")
    if probs.ndim not in (1, 2) or probs.shape[-1] == 0:
        raise ShapeError(f"{op}: probs must be 1-d or 2-d with at least one category, got shape {tuple(probs.shape)}")
    n = int(num_samples)
    if n < 0:
        raise DomainError(f"{op}: num_samples must be >= 0, got {num_samples}")
    k = probs.shape[-1]
    if not replacement and n > k:
        raise DomainError(f"{op}: cannot draw {n} samples without replacement from {k} categories")
    p = nr.cast(probs, dt.float64).reshape(-1, k)
    check(op, "probs", p, finite=True)
    rows = p.shape[0]
    dr = Draws(seed, probs.device)
    if rows:
        nonzero = nr.sum(nr.cast(p > 0, dt.int64), dim=-1)
        least = int(nr.amin(nonzero).item())
        if least == 0:
            raise DomainError(f"{op}: every row of probs needs a positive sum (shape {tuple(probs.shape)})")
        if not replacement and n > least:
            raise DomainError(f"{op}: a row has only {least} non-zero categories, cannot draw {n} without replacement")
    if n == 0 or rows == 0:
        out = nr.zeros((rows, n), dtype=dt.int64, device=probs.device)
    elif not replacement:
        g = -nr.log(-nr.log(dr.rand_open((rows, k), dt.float64)))
        out = nr.topk(nr.log(p) + g, n, dim=-1)[1]
    else:
        cdf = nr.cumsum(p, dim=-1)
        total = cdf[:, k - 1:]
        u = dr.rand((rows, n), dt.float64) * total
        idx = nr.searchsorted(cdf, u, right=True)
        last = nr.argmax(nr.cast(cdf >= total, dt.int8), dim=-1, keepdim=True)  # the last non-zero category
        out = nr.minimum(idx, last)
    return out.reshape(n) if probs.ndim == 1 else out


def randperm(n: int, *, dtype: Any = None, device: Any = None, seed: int | None = None) -> Any:
    """A random permutation of 0..n-1: the stable argsort of n random uint64 keys (ties, which
    keep index order, have probability below n**2 / 2**65)."""
    import numr as nr
    n = int(n)
    if n < 0:
        raise ShapeError(f"randperm: n must be >= 0, got {n}")
    d = _int_out("randperm", dtype)
    if d.is_integer and n > 0 and n - 1 > int(nr.iinfo(d).max):
        raise DTypeError(f"randperm: {n - 1} does not fit in {d}")
    dev = pick_device("randperm", (), device)
    keys = Draws(seed, dev).randint(0, 1 << 64, (n,), dt.uint64)  # uint64 sorts faster than int64
    return _to(nr.argsort(keys), d)


PUBLIC = ("bernoulli", "geometric", "poisson", "binomial", "multinomial", "randperm")
