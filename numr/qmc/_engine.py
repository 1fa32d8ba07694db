"""The state every quasi-Monte Carlo engine shares (scipy.stats.qmc.QMCEngine's): dimension,
device, output dtype, the count of points drawn so far, and the seeded Philox draws that
scramble it (numr's generator, so a seed gives the same points on every backend)."""

from __future__ import annotations

import operator
from typing import Any

from .. import dtypes as dt
from ..errors import DomainError, DTypeError, UnsupportedDType
from ..ops.generic.distributions import Draws
from ..runtime import device as parse_device


def check_int(op: str, name: str, v: Any, lo: int = 0) -> int:
    """``v`` as a Python int >= lo, else DomainError (bools and floats are refused too)."""
    if isinstance(v, bool):
        raise DomainError(f"{op}: {name} must be an integer >= {lo}, got {v!r}")
    try:
        i = operator.index(v)
    except TypeError:
        raise DomainError(f"{op}: {name} must be an integer >= {lo}, got {v!r}") from None
    if i < lo:
        raise DomainError(f"{op}: {name} must be an integer >= {lo}, got {v!r}")
    return i


def need_dtype(op: str, dev: Any, d: dt.DType) -> None:
    """UnsupportedDType naming backend, op and dtype when ``dev`` cannot hold ``d``."""
    if d not in dev.runtime.supported_dtypes(dev):
        raise UnsupportedDType(dev.runtime_name, op, d, f"{dev} lacks it")


class QMCEngine:
    """Base class: ``random(n)`` gives an (n, d) tensor of points in [0, 1) on ``device``."""

    op = "QMCEngine"

    def __init__(self, d: int, seed: int | None = None, device: Any = None, dtype: Any = None,
                 optimization: str | None = None) -> None:
        from .optimize import check_optimization
        self.d = check_int(self.op, "d", d)
        self.optimization = check_optimization(optimization)
        self.device = parse_device(device)
        self.dtype = dt.dtype(dtype) if dtype is not None else dt.float64
        if self.dtype not in (dt.float32, dt.float64):
            raise DTypeError(f"{self.op}: dtype must be float32 or float64, got {self.dtype}")
        need_dtype(self.op, self.device, self.dtype)
        self._draws0 = Draws(seed, self.device)
        self._draws = self._fresh_draws()
        self.num_generated = 0

    def _fresh_draws(self) -> Draws:
        """A copy of the engine's draws at their start (the stream reset() returns to)."""
        out = Draws.__new__(Draws)
        out.seed, out.stream, out.client, out.j = self._draws0.seed, self._draws0.stream, self._draws0.client, 0
        return out

    @property
    def work_dtype(self) -> dt.DType:
        """float64 where the device has it (scipy's arithmetic), else float32."""
        return dt.float64 if dt.float64 in self.device.runtime.supported_dtypes(self.device) else dt.float32

    def _finish(self, x: Any) -> Any:
        """x in the output dtype, kept below 1 (a float64 value just under 1 may round up in float32)."""
        import numr as nr
        if x.dtype == self.dtype:
            return x
        x = nr.cast(x, self.dtype)
        return nr.minimum(x, 1.0 - 2.0 ** -24) if self.dtype == dt.float32 else x

    def _random(self, n: int) -> Any:  # pragma: no cover - every engine defines it
        raise NotImplementedError

    def random(self, n: int = 1) -> Any:
        """The next ``n`` points, an (n, d) tensor."""
        n = check_int(self.op, "n", n)
        sample = self._random(n)
        if self.optimization is not None:
            from .optimize import optimize
            sample = optimize(self, sample)
        self.num_generated += n
        return sample

    def integers(self, l_bounds: Any, u_bounds: Any = None, n: int = 1, endpoint: bool = False) -> Any:
        """``n`` points as int64 in [l, u) per dimension ([l, u] with endpoint=True): scipy's
        floor(sample * (u - l) + l); ``u_bounds=None`` means [0, l_bounds)."""
        import numr as nr

        from .discrepancy import int_bounds
        lo, width = int_bounds(self.op, l_bounds, u_bounds, endpoint, self.d, self.device)
        sample = self.random(n)
        wd = dt.float64 if sample.dtype == dt.float64 else dt.float32
        out = nr.cast(nr.floor(nr.cast(sample, wd) * nr.cast(width, wd)), dt.int64)
        return nr.minimum(out, width - 1) + lo  # float32 rounding must not reach u

    def reset(self) -> QMCEngine:
        """Back to the first point (and, scrambled, the same scramble)."""
        self._draws = self._fresh_draws()
        self.num_generated = 0
        return self

    def fast_forward(self, n: int) -> QMCEngine:
        """Skip ``n`` points."""
        self.random(check_int(self.op, "n", n))
        return self

    def _empty(self, n: int) -> Any:
        import numr as nr
        return nr.zeros((n, self.d), dtype=self.dtype, device=self.device)
