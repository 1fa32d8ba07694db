"""QMC samples of a multivariate normal and of a multinomial (scipy.stats.qmc's
MultivariateNormalQMC and MultinomialQMC), transformed from an engine's points on its device.

Normal: the inverse normal CDF of 0.5 + (1 - 1e-10) (u - 0.5) (scipy's squeeze keeps u = 0 finite)
or Box-Muller on pairs of dimensions, then ``z @ R + mean`` with R the transposed Cholesky factor of
cov (the symmetric eigen root when cov is only semi-definite), as scipy. Multinomial: sample i
puts each of its n_trials consecutive engine points (one dimension) in the category whose
cumulative probability interval holds it, counted for all samples at once with one bincount.
"""

from __future__ import annotations

import math
from typing import Any

from .. import dtypes as dt
from ..errors import DeviceError, DomainError, LinAlgError, ShapeError
from ..runtime import device as parse_device
from ._engine import QMCEngine, check_int
from .sobol import Sobol


def _engine(op: str, engine: Any, d: int, seed: Any, device: Any, dtype: Any, why: str) -> QMCEngine:
    """The given engine (checked: a numr QMC engine of dimension d) or a scrambled Sobol."""
    if engine is None:
        return Sobol(d, scramble=True, bits=30, seed=seed, device=device, dtype=dtype)
    if not isinstance(engine, QMCEngine):
        raise DomainError(f"{op}: `engine` must be an instance of numr.qmc.QMCEngine or None, got "
                          f"{type(engine).__name__}")
    if engine.d != d:
        raise DomainError(f"{op}: Dimension of `engine` ({engine.d}) must be {d}{why}")
    return engine


def _device(engine: Any, device: Any, *params: Any) -> Any:
    """The engine's device, else ``device``, else that of the first tensor parameter."""
    import numr as nr
    if isinstance(engine, QMCEngine):
        return engine.device
    if device is not None:
        return parse_device(device)
    return next((p.device for p in params if isinstance(p, nr.Tensor)), parse_device(None))


def _param(op: str, name: str, v: Any, dev: Any) -> Any:
    """A parameter as a float tensor on ``dev`` (float64 where it has it); a tensor on another device
    is refused rather than copied."""
    import numr as nr
    wd = dt.float64 if dt.float64 in dev.runtime.supported_dtypes(dev) else dt.float32
    if not isinstance(v, nr.Tensor):
        return nr.tensor(v, dtype=wd, device=dev)
    if v.device != dev:
        raise DeviceError(f"{op}: {name} is on {v.device}, the samples on {dev}")
    return nr.cast(v, wd)


class MultivariateNormalQMC:
    """QMC samples of N(mean, cov) (cov omitted: identity; or a root with cov = R^T R given)."""

    op = "MultivariateNormalQMC"

    def __init__(self, mean: Any, cov: Any = None, *, cov_root: Any = None, inv_transform: bool = True,
                 engine: QMCEngine | None = None, seed: int | None = None, device: Any = None,
                 dtype: Any = None) -> None:
        import numr as nr
        dev = _device(engine, device, mean, cov, cov_root)
        mu = _param(self.op, "mean", mean, dev)
        self._mean = mu.reshape(-1) if mu.ndim == 0 else mu
        if self._mean.ndim != 1:
            raise ShapeError(f"{self.op}: mean must be 1-d, got shape {tuple(mu.shape)}")
        d = self._mean.shape[0]
        self._root = None
        if cov is not None:
            c = _param(self.op, "cov", cov, dev)
            c = c.reshape(1, 1) if c.ndim == 0 else c
            if c.shape != (d, d):
                raise ShapeError(f"{self.op}: Dimension mismatch between mean {tuple(self._mean.shape)} and "
                                 f"covariance {tuple(c.shape)}.")
            if not bool(nr.allclose(c, c.transpose(0, 1))):
                raise DomainError(f"{self.op}: Covariance matrix is not symmetric.")
            self._root = self._cov_root(c)
        elif cov_root is not None:
            r = _param(self.op, "cov_root", cov_root, dev)
            r = r.reshape(1, 1) if r.ndim == 0 else r
            if r.ndim != 2 or r.shape[0] != d:
                raise ShapeError(f"{self.op}: Dimension mismatch between mean {tuple(self._mean.shape)} and "
                                 f"cov_root {tuple(r.shape)}.")
            self._root = r
        self._inv = bool(inv_transform)
        self._d = d
        dim = d if self._inv else 2 * math.ceil(d / 2)
        self.engine = _engine(self.op, engine, dim, seed, dev, dtype,
                              "" if self._inv else " (an even number when inv_transform is False)")
        wd = self.engine.work_dtype
        self._mean = nr.cast(self._mean, wd)
        self._root = nr.cast(self._root, wd) if self._root is not None else None

    def _cov_root(self, c: Any) -> Any:
        """R with R^T R = cov: the transposed Cholesky factor, else the eigen root (PSD checked)."""
        import numr as nr
        try:
            return nr.linalg.cholesky(c).transpose(0, 1)
        except LinAlgError:
            w, q = nr.linalg.eigh(c)
            if not bool((w >= -1e-8).all().item()):
                raise DomainError(f"{self.op}: Covariance matrix not PSD.") from None
            return (q * nr.sqrt(nr.clamp(w, min=0.0))).transpose(0, 1)

    def _standard(self, n: int) -> Any:
        """n QMC draws of N(0, I_d) (work dtype)."""
        import numr as nr
        u = nr.cast(self.engine.random(n), self.engine.work_dtype)
        if self._inv:
            return nr.ndtri(0.5 + (1.0 - 1e-10) * (u - 0.5))
        r = nr.sqrt(-2.0 * nr.log(u[:, 0::2]))
        t = 2.0 * math.pi * u[:, 1::2]
        return nr.stack([r * nr.cos(t), r * nr.sin(t)], dim=-1).reshape(n, -1)[:, : self._d]

    def random(self, n: int = 1) -> Any:
        """n samples, an (n, d) tensor in the engine's dtype."""
        import numr as nr
        z = self._standard(check_int(self.op, "n", n))
        x = (nr.matmul(z, self._root) if self._root is not None else z) + self._mean
        return nr.cast(x, self.engine.dtype)


class MultinomialQMC:
    """QMC samples of the multinomial(n_trials, pvals): (n, k) category counts."""

    op = "MultinomialQMC"

    def __init__(self, pvals: Any, n_trials: int, *, engine: QMCEngine | None = None, seed: int | None = None,
                 device: Any = None, dtype: Any = None) -> None:
        import numr as nr
        dev = _device(engine, device, pvals)
        p = _param(self.op, "pvals", pvals, dev).reshape(-1)
        self.engine = _engine(self.op, engine, 1, seed, dev, dtype, "")
        p = nr.cast(p, self.engine.work_dtype)
        if p.shape[0] == 0:
            raise ShapeError(f"{self.op}: pvals is empty")
        if not bool((p >= 0).all().item()):
            raise DomainError(f"{self.op}: Elements of pvals must be non-negative.")
        if abs(float(nr.sum(p)) - 1.0) > 1e-8 + 1e-5:  # numpy.isclose's default tolerances
            raise DomainError(f"{self.op}: Elements of pvals must sum to 1.")
        self.pvals = p
        self.n_trials = check_int(self.op, "n_trials", n_trials)
        self._edges = nr.cumsum(p, dim=0)[:-1]  # category j holds draws in (edge[j-1], edge[j]] (scipy)

    def random(self, n: int = 1) -> Any:
        """n samples: row i counts the categories of engine points i*n_trials .. (i+1)*n_trials-1."""
        import numr as nr
        n, k, t = check_int(self.op, "n", n), self.pvals.shape[0], self.n_trials
        dev = self.engine.device
        u = nr.cast(self.engine.random(n * t), self.engine.work_dtype).reshape(-1)
        cat = nr.searchsorted(self._edges, u)
        row = nr.arange(n * t, dtype=cat.dtype, device=dev) // max(t, 1) * k
        counts = nr.bincount(cat + row, minlength=n * k) if n * t else nr.zeros((n * k,), device=dev)
        return nr.cast(counts.reshape(n, k), self.engine.dtype)
