"""NaN-ignoring reductions and the higher moments of the statistics family, written once with
numr's public functions (so every backend runs them and autograd differentiates their parts):
NaNs are replaced by the reduction's identity (0 for sums, 1 for products, -inf/+inf for max/min)
through ``where`` on the plain tensor's mask, and an all-NaN slice gives NaN as NumPy does.
skew/kurtosis follow scipy.stats (central moments, optional bias correction, NaN for a constant
slice). Integer inputs of float-valued ops compute in the default float."""

from __future__ import annotations

import math
from typing import Any

from ... import dtypes as dt
from ...errors import DomainError, ShapeError
from ...shapes import normalize_dim, normalize_dims, numel
from ..prepare import plain
from .statistics import as_tensor, cast_to, float_input


def _nan_mask(x: Any) -> Any:
    import numr as nr
    return nr.isnan(plain(x)) if x.dtype.is_floating_point else None


def _filled(x: Any, value: float) -> tuple[Any, Any]:
    """(x with NaNs replaced by value, the NaN mask or None for non-float x)."""
    import numr as nr
    mask = _nan_mask(x)
    return (x if mask is None else nr.where(mask, value, x)), mask


def nanvar_any(x: Any, dim: Any = None, ddof: float = 0, keepdim: bool = False) -> Any:
    import numr as nr
    xc, out = float_input("nanvar", x)
    ok = nr.cast(nr.logical_not(nr.isnan(plain(xc))), xc.dtype)
    dims = normalize_dims(dim, xc.ndim, "nanvar")
    count = nr.sum(ok, dims, keepdim=True)
    mean = nr.sum(nr.where(ok > 0, xc, 0.0), dims, keepdim=True) / nr.where(count > 0, count, 1.0)
    dev = nr.where(ok > 0, xc - mean, 0.0)
    dof = count - float(ddof)
    v = nr.sum(dev * dev, dims, keepdim=True) / nr.where(dof > 0, dof, 1.0)
    v = nr.where(dof > 0, v, math.nan)
    if not keepdim:
        v = v.reshape(tuple(s for i, s in enumerate(xc.shape) if i not in dims))
    return cast_to(v, out)


def nanstd_any(x: Any, dim: Any = None, ddof: float = 0, keepdim: bool = False) -> Any:
    import numr as nr
    return nr.sqrt(nanvar_any(x, dim, ddof, keepdim))


def nanprod_any(x: Any, dim: Any = None, keepdim: bool = False) -> Any:
    import numr as nr
    return nr.prod(_filled(as_tensor(x), 1.0)[0], dim, keepdim)


def _nan_extreme(op: str, x: Any, dim: Any, keepdim: bool, largest: bool) -> Any:
    import numr as nr
    x = as_tensor(x)
    dims = normalize_dims(dim, x.ndim, op)
    if x.ndim and numel(x.shape[d] for d in dims) == 0:
        raise ShapeError(f"{op}: cannot reduce an empty dimension (shape {tuple(x.shape)}, dims {dims}): no identity")
    filled, mask = _filled(x, -math.inf if largest else math.inf)
    r = (nr.amax if largest else nr.amin)(filled, dims, keepdim)
    if mask is None:
        return r
    return nr.where(nr.all(mask, dims, keepdim), math.nan, r)


def nanmax_any(x: Any, dim: Any = None, keepdim: bool = False) -> Any:
    return _nan_extreme("nanmax", x, dim, keepdim, True)


def nanmin_any(x: Any, dim: Any = None, keepdim: bool = False) -> Any:
    return _nan_extreme("nanmin", x, dim, keepdim, False)


def _nan_arg(op: str, x: Any, dim: Any, keepdim: bool, largest: bool) -> Any:
    import numr as nr
    x = plain(as_tensor(x))
    filled, mask = _filled(x, -math.inf if largest else math.inf)
    if mask is not None and x.size:
        all_nan = nr.all(mask) if dim is None else nr.all(mask, normalize_dim(dim, max(x.ndim, 1), op))
        if bool(nr.any(all_nan).item()):  # one host read: NumPy raises for an all-NaN slice
            raise DomainError(f"{op}: all-NaN slice encountered (shape {tuple(x.shape)}, dim {dim})")
    return (nr.argmax if largest else nr.argmin)(filled, dim, keepdim)


def nanargmax_any(x: Any, dim: int | None = None, keepdim: bool = False) -> Any:
    return _nan_arg("nanargmax", x, dim, keepdim, True)


def nanargmin_any(x: Any, dim: int | None = None, keepdim: bool = False) -> Any:
    return _nan_arg("nanargmin", x, dim, keepdim, False)


def nancumsum_any(x: Any, dim: int | None = None) -> Any:
    import numr as nr
    return nr.cumsum(_filled(as_tensor(x), 0.0)[0], dim)


def nancumprod_any(x: Any, dim: int | None = None) -> Any:
    import numr as nr
    return nr.cumprod(_filled(as_tensor(x), 1.0)[0], dim)


def _moments(op: str, x: Any, dim: Any) -> tuple[Any, Any, Any, float, int, dt.DType]:
    """(deviations from the mean, m2, the constant-slice mask, n, the reduced dim, result dtype)
    of x over dim (None flattens), kept dims; constant means m2 <= (resolution * mean)**2 (scipy)."""
    import numr as nr
    xc, out = float_input(op, x)
    if dim is None:
        xc, d = xc.reshape(-1), 0
    else:
        d = normalize_dim(dim, xc.ndim, op)
        xc = xc.reshape(1) if xc.ndim == 0 else xc
    mean = nr.mean(xc, d, keepdim=True)
    dev = xc - mean
    m2 = nr.mean(dev * dev, d, keepdim=True)
    res = 1e-15 if xc.dtype is dt.float64 else 1e-6  # np.finfo(dtype).resolution
    zero = plain(m2) <= (plain(mean) * res) ** 2
    return dev, m2, zero, float(xc.shape[d]), d, out


def _finish(v: Any, x: Any, dim: Any, d: int, keepdim: bool, out: dt.DType) -> Any:
    """v (kept dims) as the reduction's result: squeezed unless keepdim, in the result dtype."""
    if not keepdim:
        v = v.squeeze(d)
    elif dim is None:
        v = v.reshape((1,) * as_tensor(x).ndim)
    elif as_tensor(x).ndim == 0:
        v = v.reshape(())
    return cast_to(v, out)


def skew_any(x: Any, dim: int | None = 0, bias: bool = True, keepdim: bool = False) -> Any:
    import numr as nr
    dev, m2, zero, n, d, out = _moments("skew", x, dim)
    m3 = nr.mean(dev * dev * dev, d, keepdim=True)
    safe = nr.where(zero, 1.0, m2)
    v = m3 / (safe * nr.sqrt(safe))
    if not bias and n > 2:
        v = v * (math.sqrt((n - 1.0) * n) / (n - 2.0))
    return _finish(nr.where(zero, math.nan, v), x, dim, d, keepdim, out)


def kurtosis_any(x: Any, dim: int | None = 0, fisher: bool = True, bias: bool = True, keepdim: bool = False) -> Any:
    import numr as nr
    dev, m2, zero, n, d, out = _moments("kurtosis", x, dim)
    sq = dev * dev
    m4 = nr.mean(sq * sq, d, keepdim=True)
    safe = nr.where(zero, 1.0, m2)
    v = m4 / (safe * safe)
    if not bias and n > 3:
        v = ((n * n - 1.0) * v - 3.0 * (n - 1.0) ** 2) * (1.0 / ((n - 2.0) * (n - 3.0))) + 3.0
    v = nr.where(zero, math.nan, v)
    return _finish(v - 3.0 if fisher else v, x, dim, d, keepdim, out)


COMPOSITES = {"nanvar": nanvar_any, "nanstd": nanstd_any, "nanprod": nanprod_any, "nanmax": nanmax_any,
              "nanmin": nanmin_any, "nanargmax": nanargmax_any, "nanargmin": nanargmin_any,
              "nancumsum": nancumsum_any, "nancumprod": nancumprod_any, "skew": skew_any,
              "kurtosis": kurtosis_any}
