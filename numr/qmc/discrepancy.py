"""Discrepancy of a point set (scipy.stats.qmc.discrepancy) and scaling to bounds
(scipy.stats.qmc.scale), computed on the sample's device.

The four L2 discrepancies (Fang et al. 2006; Zhou et al. 2013; Warnock 1972) are a sum over
points of a product over dimensions plus a sum over PAIRS of points; the pair sum runs in row
chunks of about 4M (pair, dimension) terms, so memory stays bounded for any n.
"""

from __future__ import annotations

from typing import Any

from .. import dtypes as dt
from ..errors import DomainError, DTypeError, ShapeError

CHUNK = 1 << 22  # (pair, dimension) terms per chunk of the pair sum


def _as_sample(sample: Any) -> Any:
    """The sample as a 2-d float tensor (float64 where the device has it) inside [0, 1]."""
    import numr as nr
    x = sample if isinstance(sample, nr.Tensor) else nr.tensor(sample, dtype=dt.float64)
    if x.ndim != 2:
        raise ShapeError(f"discrepancy: Sample is not a 2D array (shape {tuple(x.shape)})")
    if x.shape[0] == 0:
        raise ShapeError("discrepancy: the sample has no points")
    has64 = dt.float64 in x.device.runtime.supported_dtypes(x.device)
    x = nr.cast(x, dt.float64 if has64 else dt.float32) if x.dtype != dt.float64 or not has64 else x
    if x.shape[1] and not bool(((x >= 0) & (x <= 1)).all().item()):
        raise DomainError("discrepancy: Sample is not in unit hypercube")
    return x


def _pairs(x: Any, term: Any) -> Any:
    """sum over (i, j) of prod over k of term(x[i, k], x[j, k]), i in row chunks."""
    import numr as nr
    n, d = x.shape
    step = max(1, CHUNK // max(n * d, 1))
    total = None
    for i in range(0, n, step):
        s = nr.sum(nr.prod(term(x[i:i + step].unsqueeze(1), x.unsqueeze(0)), dim=-1))
        total = s if total is None else total + s
    return total


def discrepancy(sample: Any, *, iterative: bool = False, method: str = "CD") -> Any:
    """Discrepancy of an (n, d) sample in [0, 1]: "CD" centered L2 (default), "WD" wrap-around,
    "MD" mixture, "L2-star" (scipy's definitions; CD/WD/MD squared, L2-star not). A 0-d tensor on
    the sample's device; ``iterative=True`` counts one more point (for update loops)."""
    import numr as nr
    if method not in ("CD", "WD", "MD", "L2-star"):
        raise DomainError(f"{method!r} is not a valid method. It must be one of {{'CD', 'WD', 'MD', 'L2-star'}}")
    x = _as_sample(sample)
    n, d = x.shape
    m = n + 1 if iterative else n
    a = nr.abs(x - 0.5)
    if method == "CD":
        one = nr.sum(nr.prod(1.0 + 0.5 * a - 0.5 * a * a, dim=1))
        two = _pairs(x, lambda u, v: 1.0 + 0.5 * nr.abs(u - 0.5) + 0.5 * nr.abs(v - 0.5) - 0.5 * nr.abs(u - v))
        return (13.0 / 12.0) ** d - 2.0 / m * one + two / (m * m)
    if method == "WD":
        def wrap(u: Any, v: Any) -> Any:
            t = nr.abs(u - v)
            return 1.5 - t + t * t
        return -((4.0 / 3.0) ** d) + _pairs(x, wrap) / (m * m)
    if method == "MD":
        one = nr.sum(nr.prod(5.0 / 3.0 - 0.25 * a - 0.25 * a * a, dim=1))

        def mix(u: Any, v: Any) -> Any:
            t = nr.abs(u - v)
            return 15.0 / 8.0 - 0.25 * nr.abs(u - 0.5) - 0.25 * nr.abs(v - 0.5) - 0.75 * t + 0.5 * t * t
        return (19.0 / 12.0) ** d - 2.0 / m * one + _pairs(x, mix) / (m * m)
    one = nr.sum(nr.prod(1.0 - x * x, dim=1))
    two = _pairs(x, lambda u, v: 1.0 - nr.maximum(u, v))
    return nr.sqrt(3.0 ** -d - 2.0 ** (1 - d) / m * one + two / (m * m))


def _bounds(op: str, l_bounds: Any, u_bounds: Any, d: int, dev: Any, dtype: Any) -> tuple[Any, Any]:
    """l and u as (d,) tensors of ``dtype`` on ``dev`` (broadcast), checked l < u."""
    import numr as nr
    try:
        lo = nr.broadcast_to(nr.tensor(l_bounds, dtype=dtype, device=dev), (d,))
        hi = nr.broadcast_to(nr.tensor(u_bounds, dtype=dtype, device=dev), (d,))
    except ShapeError as e:
        raise ShapeError(f"{op}: 'l_bounds' and 'u_bounds' must be broadcastable and respect the sample "
                         f"dimension {d}") from e
    if d and not bool((lo < hi).all().item()):
        raise DomainError(f"{op}: Bounds are not consistent 'l_bounds' < 'u_bounds'")
    return lo, hi


def int_bounds(op: str, l_bounds: Any, u_bounds: Any, endpoint: bool, d: int, dev: Any) -> tuple[Any, Any]:
    """(l, u - l) as int64 (d,) tensors for QMCEngine.integers; bounds must be integers."""
    import numr as nr
    if u_bounds is None:
        l_bounds, u_bounds = 0, l_bounds
    for b in (l_bounds, u_bounds):
        t = b if isinstance(b, nr.Tensor) else nr.tensor(b)
        if t.dtype.kind not in "iu":
            raise DTypeError(f"{op}.integers: 'u_bounds' and 'l_bounds' must be integers or array-like of "
                             f"integers, got {t.dtype}")
    lo, hi = _bounds(op, l_bounds, u_bounds, d, dev, dt.int64)
    if endpoint:
        hi = hi + 1
    return lo, hi - lo


def scale(sample: Any, l_bounds: Any, u_bounds: Any, *, reverse: bool = False) -> Any:
    """Points of [0, 1)^d mapped to [l, u) per dimension (reverse=True maps back)."""
    import numr as nr
    x = sample if isinstance(sample, nr.Tensor) else nr.tensor(sample, dtype=dt.float64)
    if x.ndim != 2:
        raise ShapeError(f"scale: Sample is not a 2D array (shape {tuple(x.shape)})")
    lo, hi = _bounds("scale", l_bounds, u_bounds, x.shape[1], x.device, x.dtype)
    return (x - lo) / (hi - lo) if reverse else x * (hi - lo) + lo
