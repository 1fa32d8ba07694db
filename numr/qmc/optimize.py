"""Post-processing of a QMC sample (scipy.stats.qmc's ``optimization=``), on the sample's device.

random-cd (Jin et al. 2005, scipy's budget: at most 10_000 proposals, stop after 100 in a row
without improvement): a proposal swaps the coordinate k of rows i1 and i2 (the marginals stay,
so a Latin hypercube stays one) and is kept when the centered discrepancy drops. The exact change
of the CD is computed for a batch of proposals at once (O(n d) each, from the products of the
rows i1 and i2, whose factors are all >= 1 so they can be divided out), and the best improving one
of the batch is applied: one scalar read per batch instead of one per proposal.

lloyd: ``maxiter=10`` relaxed Lloyd-Max steps with scipy's decay (2 down to 1) and stop
(|change of the min pairwise L1 distance| < 1e-5). APPROXIMATION: scipy moves each point toward
the mean of its Voronoi cell's vertices (qhull, cells not clipped); here each point moves toward
the centroid of its Voronoi cell clipped to [0, 1]^d, estimated from 128 uniform probes per point
(each assigned to its nearest point), so the steps carry Monte Carlo noise of about a tenth of a
cell. Moves that leave the hypercube are dropped, as in scipy.
"""

from __future__ import annotations

import math
from typing import Any

from .. import dtypes as dt
from ..errors import DomainError
from .discrepancy import CHUNK, discrepancy

N_ITERS, N_NOCHANGE, BATCH = 10_000, 100, 25  # scipy's random-cd budget; proposals per batch
MAXITER, TOL, PROBES = 10, 1e-5, 128  # scipy's lloyd settings; probes per point


def check_optimization(optimization: str | None) -> str | None:
    """None, 'random-cd' or 'lloyd' (case-insensitive, as scipy), else DomainError."""
    if optimization is None:
        return None
    if not isinstance(optimization, str) or optimization.lower() not in ("random-cd", "lloyd"):
        raise DomainError(f"{optimization!r} is not a valid optimization method. It must be one of "
                          "{'random-cd', 'lloyd'}")
    return optimization.lower()


def optimize(engine: Any, sample: Any) -> Any:
    """The engine's sample after its optimization (in the engine's dtype, kept below 1)."""
    import numr as nr
    x = nr.cast(sample, engine.work_dtype)
    x = random_cd(x, engine._draws) if engine.optimization == "random-cd" else lloyd(x, engine._draws)
    return engine._finish(x)


def _cd_deltas(x: Any, col: Any, r1: Any, r2: Any) -> Any:
    """Change of the centered discrepancy (squared) of x (n, d) if x[r1, col] and x[r2, col]
    were swapped, for each proposal of the (B,) index tensors. With a = |x - 1/2| and
    h = 1 + a/2, the CD factors are: pair g(u, v) = h_u + h_v - 1 - |u - v|/2, single
    f = h - a**2/2, diagonal g(u, u) = 2 h - 1 (all >= 1, so a factor can be divided out)."""
    import numr as nr
    n = x.shape[0]
    a = nr.abs(x - 0.5)
    h = 0.5 * a + 1.0
    xh = nr.cat([x, h], dim=1)  # one gather of the rows r1, r2 brings both
    x1, h1 = nr.index_select(xh, 0, r1).chunk(2, dim=1)
    x2, h2 = nr.index_select(xh, 0, r2).chunk(2, dim=1)
    hm = h - 1.0
    c = col.unsqueeze(1)
    u1, u2, hu1, hu2 = (nr.gather(t, 1, c) for t in (x1, x2, h1, h2))  # (B, 1): the swapped values
    xc, hc = nr.index_select(x.transpose(0, 1), 0, col), nr.index_select(hm.transpose(0, 1), 0, col)
    g1 = nr.prod(h1.unsqueeze(1) + (hm - 0.5 * nr.abs(x1.unsqueeze(1) - x)), dim=-1)  # (B, n) row r1's pairs
    g2 = nr.prod(h2.unsqueeze(1) + (hm - 0.5 * nr.abs(x2.unsqueeze(1) - x)), dim=-1)
    q = (hu2 + hc - 0.5 * nr.abs(u2 - xc)) / (hu1 + hc - 0.5 * nr.abs(u1 - xc))  # row r1's pair factor change
    j = nr.arange(n, dtype=r1.dtype, device=x.device)
    other = (j != r1.unsqueeze(1)) & (j != r2.unsqueeze(1))
    pair = 2.0 * nr.sum(nr.where(other, g1 * (q - 1.0) + g2 * (1.0 / q - 1.0), 0.0), dim=-1)
    e = ((2.0 * hu2 - 1.0) / (2.0 * hu1 - 1.0)).squeeze(1)
    pair = pair + nr.prod(2.0 * h1 - 1.0, dim=-1) * (e - 1.0) + nr.prod(2.0 * h2 - 1.0, dim=-1) * (1.0 / e - 1.0)
    f = h - 0.5 * a * a
    f1, f2 = nr.index_select(f, 0, r1), nr.index_select(f, 0, r2)
    k = (nr.gather(f2, 1, c) / nr.gather(f1, 1, c)).squeeze(1)
    one = nr.prod(f1, dim=-1) * (k - 1.0) + nr.prod(f2, dim=-1) * (1.0 / k - 1.0)
    return nr.where(r1 == r2, 0.0, pair / (n * n) - 2.0 / n * one)


def random_cd(x: Any, draws: Any, n_iters: int = N_ITERS, n_nochange: int = N_NOCHANGE) -> Any:
    """x (n, d) with coordinates swapped inside columns while the centered discrepancy drops."""
    import numr as nr
    n, d = x.shape
    if n < 2 or d < 2:  # the CD is invariant under permuting a single column or row
        return x
    dev = x.device
    batch = max(1, min(BATCH, CHUNK // (n * d)))
    floor = -1e-12 * float(discrepancy(x))  # below roundoff of the CD: a real improvement
    rows = nr.arange(n, dtype=dt.int64, device=dev).unsqueeze(1)
    cols = nr.arange(d, dtype=dt.int64, device=dev).unsqueeze(0)
    x = x.contiguous()
    done = nochange = 0
    while nochange < n_nochange and done < n_iters:
        b = min(batch, n_iters - done)
        col = draws.randint(0, d, (b,), dt.int64)
        r1, r2 = draws.randint(0, n, (b,), dt.int64), draws.randint(0, n, (b,), dt.int64)
        delta = _cd_deltas(x, col, r1, r2)
        best = nr.argmin(delta).reshape(1)
        done += b
        if not bool((nr.index_select(delta, 0, best) < floor).item()):
            nochange += b
            continue
        nochange = 0
        k, i1, i2 = (nr.index_select(t, 0, best) for t in (col, r1, r2))
        at1, at2 = (rows == i1) & (cols == k), (rows == i2) & (cols == k)
        v1, v2 = nr.sum(nr.where(at1, x, 0.0)), nr.sum(nr.where(at2, x, 0.0))
        x = nr.where(at1, v2, nr.where(at2, v1, x))
    return x


def _min_l1(x: Any) -> float:
    """The smallest cityblock distance between two points (scipy's stopping measure), in row chunks."""
    import numr as nr
    n, d = x.shape
    step = max(1, CHUNK // max(n * d, 1))
    col = nr.arange(n, device=x.device).unsqueeze(0)
    best = math.inf
    for i in range(0, n, step):
        dist = nr.cdist(x[i:i + step], x, p=1.0)
        row = nr.arange(i, min(i + step, n), device=x.device).unsqueeze(1)
        best = min(best, float(nr.amin(nr.where(row == col, math.inf, dist))))
    return best


def _centroids(x: Any, draws: Any) -> Any:
    """Centroid of each point's Voronoi cell in [0, 1]^d, from uniform probes (points whose cell
    caught no probe stay where they are)."""
    import numr as nr
    n, d = x.shape
    m = PROBES * n
    probes = draws.rand((m, d), x.dtype)
    step = max(1, CHUNK // max(n * d, 1))
    near = nr.cat([nr.argmin(nr.cdist(probes[i:i + step], x), dim=1) for i in range(0, m, step)])
    total = nr.index_add(nr.zeros((n, d), dtype=x.dtype, device=x.device), 0, near, probes)
    count = nr.index_add(nr.zeros((n,), dtype=x.dtype, device=x.device), 0, near,
                         nr.ones((m,), dtype=x.dtype, device=x.device)).unsqueeze(1)
    return nr.where(count > 0, total / nr.maximum(count, 1.0), x)


def lloyd(x: Any, draws: Any, maxiter: int = MAXITER, tol: float = TOL) -> Any:
    """x (n, d), d >= 2, after relaxed Lloyd-Max steps toward the (clipped) Voronoi centroids."""
    import numr as nr
    n, d = x.shape
    if n == 0:
        return x
    if d < 2:
        raise DomainError("lloyd: `sample` dimension is not >= 2")
    root = -maxiter / math.log(0.1)
    old = _min_l1(x) if n > 1 else 0.0
    for i in range(maxiter):
        decay = math.exp(-i / root) + 0.9
        moved = x + (_centroids(x, draws) - x) * decay
        inside = nr.all((moved >= 0) & (moved <= 1), dim=1, keepdim=True)
        x = nr.where(inside, moved, x)
        if n < 2:
            break
        new = _min_l1(x)
        if abs(new - old) < tol:
            break
        old = new
    return x
