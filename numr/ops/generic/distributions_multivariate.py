"""Multivariate samplers written once with public numr functions (see distributions.py for the
stream rules): multivariate normal and Wishart, batched, on the parameters' device.

multivariate_normal: x = mean + L z with z ~ N(0, I) (draw 0 of the call's stream) and L L^T = cov,
L the Cholesky factor (torch.distributions.MultivariateNormal) or, with method="eigh", the
symmetric square root Q diag(sqrt(max(w, 0))) Q^T of cov = Q diag(w) Q^T, which also takes a
singular (PSD, not PD) cov and does not depend on the eigenvectors' signs (same on every backend).
wishart: Bartlett's decomposition W = (L A)(L A)^T, L the Cholesky factor of scale, A lower
triangular with A_ii = sqrt(chi-square(df - i)) (gammas from part 0 of the stream) and standard
normal A_ij, i > j (part 1).
"""

from __future__ import annotations

from typing import Any

from ... import dtypes as dt
from ...errors import DomainError, ShapeError
from ...shapes import broadcast_shapes, normalize_shape
from .distributions import Draws, check, finish, float_out, is_tensor, pick_device, plain, work_dtype
from .distributions_gamma import standard_gamma


def _params(op: str, params: tuple, dtype: Any, device: Any) -> tuple:
    """(output dtype, work dtype, device, the parameters as tensors in the work dtype); a parameter
    that is an autograd Var stays one, so gradients flow through the samples."""
    import numr as nr
    ts = tuple(p if isinstance(plain(p), nr.Tensor) else None for p in params)
    d = float_out(op, tuple(t for t in ts if t is not None), dtype)
    wd, dev = work_dtype(d), pick_device(op, tuple(t for t in ts if t is not None), device)
    out = tuple(nr.tensor(p, dtype=wd, device=dev) if t is None else (t if t.dtype == wd else nr.cast(t, wd))
                for p, t in zip(params, ts, strict=True))
    return (d, wd, dev) + out


def _square(op: str, name: str, m: Any) -> int:
    """The side of a (..., k, k) matrix parameter, else ShapeError."""
    if m.ndim < 2 or m.shape[-1] != m.shape[-2]:
        raise ShapeError(f"{op}: {name} must be a (..., k, k) square matrix, got shape {tuple(m.shape)}")
    return m.shape[-1]


def multivariate_normal(mean: Any, cov: Any, size: Any = None, *, method: str = "cholesky", dtype: Any = None,
                        device: Any = None, seed: int | None = None) -> Any:
    """Samples of N(mean, cov): mean (..., k), cov (..., k, k); output size + batch + (k,), batch
    the broadcast of the leading dims (NumPy's shape for a 1-d mean, torch's batching)."""
    import numr as nr
    op = "multivariate_normal"
    if method not in ("cholesky", "eigh"):
        raise DomainError(f"{op}: method must be 'cholesky' or 'eigh', got {method!r}")
    d, wd, dev, mu, c = _params(op, (mean, cov), dtype, device)
    k = _square(op, "cov", c)
    if mu.ndim < 1 or mu.shape[-1] != k:
        raise ShapeError(f"{op}: mean of shape {tuple(mu.shape)} does not match cov of shape {tuple(c.shape)}")
    check(op, "mean", mu, lo=-float("inf"), finite=True)
    check(op, "cov", c, lo=-float("inf"), finite=True)
    batch = broadcast_shapes(tuple(mu.shape[:-1]), tuple(c.shape[:-2]), op=op)
    shape = (() if size is None else normalize_shape(size, op)) + batch + (k,)
    if method == "cholesky":
        lf = nr.linalg.cholesky(c)
    else:
        w, q = nr.linalg.eigh(c)
        tol = (1e-8 if wd == dt.float64 else 1e-4) * nr.amax(nr.abs(w), dim=-1, keepdim=True)
        if not bool(nr.all(w >= -tol).item()):
            raise DomainError(f"{op}: cov is not positive semi-definite (an eigenvalue below -{tol.max().item():.3g})")
        # the symmetric square root Q sqrt(w) Q^T: unique, so no eigenvector sign or basis choice shows
        lf = nr.matmul(q * nr.sqrt(nr.clamp(w, min=0.0)).unsqueeze(-2), q.transpose(-1, -2))
    z = Draws(seed, dev).randn(shape, wd)
    if lf.ndim == 2:
        x = nr.matmul(z.reshape(-1, k), lf.transpose(0, 1)).reshape(shape)
    else:
        x = nr.matmul(z.unsqueeze(-2), lf.transpose(-1, -2)).squeeze(-2)
    return finish(x + mu, d)


def wishart(df: Any, scale: Any, size: Any = None, *, dtype: Any = None, device: Any = None,
            seed: int | None = None) -> Any:
    """Samples of Wishart(df, scale): scale (..., p, p) positive definite, df > p - 1 a number;
    output size + batch + (p, p). Mean df * scale (scipy.stats.wishart)."""
    import numr as nr
    op = "wishart"
    d, wd, dev, s = _params(op, (scale,), dtype, device)
    p = _square(op, "scale", s)
    if is_tensor(df) or isinstance(df, bool):
        raise DomainError(f"{op}: df must be a number, got {type(df).__name__}")
    check(op, "df", df, lo=float(p - 1), lo_open=True, finite=True)
    check(op, "scale", s, lo=-float("inf"), finite=True)
    shape = (() if size is None else normalize_shape(size, op)) + tuple(s.shape[:-2]) + (p, p)
    lf = nr.linalg.cholesky(s)
    dr = Draws(seed, dev)
    half = nr.tensor([(float(df) - i) / 2.0 for i in range(p)], dtype=wd, device=dev)
    diag = nr.sqrt(2.0 * standard_gamma(half, shape[:-1], wd, dr))
    a = nr.tril(dr.fork(1).randn(shape, wd), -1) + diag.unsqueeze(-1) * nr.eye(p, dtype=wd, device=dev)
    la = nr.matmul(lf, a)
    return finish(nr.matmul(la, la.transpose(-1, -2)), d)


PUBLIC = ("multivariate_normal", "wishart")
