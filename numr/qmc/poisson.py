"""Poisson disk sampling (scipy.stats.qmc.PoissonDisk): Bridson's algorithm.

Each step takes a random point of the active pool out of it and tries ``ncandidates`` random
candidates around it (uniform in the ball of radius 2r, or on the sphere of radius 1.001 r); a
candidate inside the bounds and farther than r from every accepted point is accepted and joins
the pool. Acceptance depends on every earlier acceptance, so the loop is sequential: it runs in
Python on the host over a grid of cells of side r / sqrt(d) (one point per cell at most), with
its random numbers drawn by numr's seeded generator on the CPU backend. The finished points are
then moved to the engine's device (a seed gives the same points on every backend); nothing is
copied back from a GPU. Unlike scipy, the neighbourhood searched is ceil(sqrt(d)) cells wide (scipy
looks 2 cells away, which can miss a neighbour for d >= 5), so the minimum distance always holds.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

from .. import dtypes as dt
from ..errors import DomainError
from ..runtime import device as parse_device
from ._engine import QMCEngine, check_int

CHUNK = 4096  # random numbers fetched from the CPU generator at a time


class _Stream:
    """Uniform and standard normal float64 numbers from CPU Draws, fetched in chunks."""

    def __init__(self, draws: Any) -> None:
        self.draws, self.left = draws, {"rand": iter(()), "randn": iter(())}

    def _next(self, kind: str) -> float:
        v = next(self.left[kind], None)
        if v is None:
            self.left[kind] = iter(getattr(self.draws, kind)((CHUNK,), dt.float64).tolist())
            v = next(self.left[kind])
        return v

    def uniform(self) -> float:
        return self._next("rand")

    def normal(self) -> float:
        return self._next("randn")


class PoissonDisk(QMCEngine):
    """Points at least ``radius`` apart in [l_bounds, u_bounds] (the unit cube by default)."""

    op = "PoissonDisk"

    def __init__(self, d: int, radius: float = 0.05, hypersphere: str = "volume", ncandidates: int = 30,
                 optimization: str | None = None, seed: int | None = None, l_bounds: Any = None,
                 u_bounds: Any = None, *, device: Any = None, dtype: Any = None) -> None:
        super().__init__(d, seed, device, dtype, optimization)
        if hypersphere not in ("volume", "surface"):
            raise DomainError(f"{hypersphere!r} is not a valid hypersphere sampling method. It must be one "
                              "of {'volume', 'surface'}")
        if isinstance(radius, bool) or not isinstance(radius, (int, float)) or not radius > 0 \
                or not math.isfinite(radius):
            raise DomainError(f"PoissonDisk: radius must be a finite number > 0, got {radius!r}")
        self.hypersphere, self.radius = hypersphere, float(radius)
        self.ncandidates = check_int(self.op, "ncandidates", ncandidates, 1)
        self.radius_factor = 2.0 if hypersphere == "volume" else 1.001
        lo = [0.0] * self.d if l_bounds is None else _floats(l_bounds, self.d, "l_bounds")
        hi = [1.0] * self.d if u_bounds is None else _floats(u_bounds, self.d, "u_bounds")
        if not all(a < b for a, b in zip(lo, hi, strict=True)):
            raise DomainError("PoissonDisk: Bounds are not consistent 'l_bounds' < 'u_bounds'")
        self.l_bounds, self.u_bounds = lo, hi
        self.cell_size = self.radius / math.sqrt(self.d) if self.d else 1.0
        self._reach = math.ceil(math.sqrt(self.d))  # cells a neighbour closer than r can be away
        self._start()

    def _start(self) -> None:
        """An empty grid and pool and the random stream at its start."""
        draws = self._fresh_draws()
        draws.client = parse_device("cpu").client  # the engine's stream, drawn on the CPU backend
        self._rng, self._grid, self._pool, self._points = _Stream(draws), {}, [], []

    def reset(self) -> PoissonDisk:
        super().reset()
        self._start()
        return self

    def _cell(self, p: list[float]) -> tuple[int, ...]:
        return tuple(int((v - lo) // self.cell_size) for v, lo in zip(p, self.l_bounds, strict=True))

    def _free(self, p: list[float]) -> bool:
        """Inside the bounds and no accepted point closer than the radius."""
        if any(v < lo or v > hi for v, lo, hi in zip(p, self.l_bounds, self.u_bounds, strict=True)):
            return False
        r2, cell, k = self.radius ** 2, self._cell(p), self._reach
        if cell in self._grid:
            return False
        if (2 * k + 1) ** self.d > len(self._points):
            near = self._points
        else:
            near = [q for off in itertools.product(range(-k, k + 1), repeat=self.d)
                    if (q := self._grid.get(tuple(c + o for c, o in zip(cell, off, strict=True)))) is not None]
        return all(sum((a - b) ** 2 for a, b in zip(p, q, strict=True)) >= r2 for q in near)

    def _add(self, p: list[float], out: list[list[float]]) -> None:
        self._grid[self._cell(p)] = p
        self._points.append(p)
        self._pool.append(p)
        out.append(p)

    def _candidate(self, center: list[float]) -> list[float]:
        """A point uniform in the ball (volume) or on the sphere (surface) around ``center``."""
        rng = self._rng
        z = [rng.normal() for _ in range(self.d)]
        norm = math.sqrt(sum(v * v for v in z)) or 1.0
        r = self.radius * self.radius_factor
        if self.hypersphere == "volume":
            r *= rng.uniform() ** (1.0 / self.d)
        return [c + r * v / norm for c, v in zip(center, z, strict=True)]

    def _sample(self, n: float) -> list[list[float]]:
        """Up to ``n`` new points (fewer when the pool runs dry: the space is full)."""
        rng, out = self._rng, []
        if not self._points and n > 0:
            self._add([lo + rng.uniform() * (hi - lo) for lo, hi in zip(self.l_bounds, self.u_bounds,
                                                                          strict=True)], out)
        while self._pool and len(out) < n:
            center = self._pool.pop(min(int(rng.uniform() * len(self._pool)), len(self._pool) - 1))
            for _ in range(self.ncandidates):
                p = self._candidate(center)
                if self._free(p):
                    self._add(p, out)
                    if len(out) >= n:
                        break
        return out

    def random(self, n: int = 1) -> Any:
        """Up to ``n`` more points, an (m, d) tensor with m <= n (m < n once the space is full)."""
        return self._emit(check_int(self.op, "n", n))

    def fill_space(self) -> Any:
        """Points until the pool is exhausted (the space is full, up to the candidates' luck)."""
        return self._emit(math.inf)

    def _emit(self, n: float) -> Any:
        import numr as nr

        from .optimize import optimize
        pts = self._sample(n) if self.d else []
        if not pts:
            return self._empty(0)
        x = nr.tensor(pts, dtype=self.work_dtype, device=self.device)
        if self.optimization is not None:  # on the sample scaled to the unit cube, as it assumes
            lo, hi = (nr.tensor(b, dtype=x.dtype, device=x.device) for b in (self.l_bounds, self.u_bounds))
            x = nr.cast(optimize(self, (x - lo) / (hi - lo)), x.dtype) * (hi - lo) + lo
        x = nr.cast(x, self.dtype)  # not _finish: the points may reach u_bounds
        self.num_generated += len(pts)
        return x

    def fast_forward(self, n: int) -> PoissonDisk:
        self.random(n)
        return self


def _floats(b: Any, d: int, name: str) -> list[float]:
    """A bound as d Python floats (a number is broadcast)."""
    import numr as nr
    v = (b if isinstance(b, nr.Tensor) else nr.tensor(b, dtype=dt.float64)).reshape(-1).tolist()
    v = v * d if len(v) == 1 else v
    if len(v) != d:
        raise DomainError(f"PoissonDisk: '{name}' must be broadcastable and respect the sample dimension {d}")
    return [float(t) for t in v]
