"""mean, var and std from sum; amax/amin as max/min."""

from __future__ import annotations

from typing import Any

from ...shapes import normalize_dims, numel
from .. import dtype_rules


def _count(x: Any, dim: Any, op: str) -> int:
    dims = normalize_dims(dim, x.ndim, op)
    return numel(x.shape[d] for d in dims)


def mean(self: Any, x: Any, dim: Any = None, keepdim: bool = False) -> Any:
    """sum / count in the mean dtype (ints give the default float); empty gives NaN."""
    x = self.cast(x, dtype_rules.mean_dtype(x.dtype)) if x.dtype is not dtype_rules.mean_dtype(x.dtype) else x
    n = _count(x, dim, "mean")
    s = self.sum(x, dim, keepdim)
    return self.div(s, n) if n else self.mul(s, float("nan"))


def var(self: Any, x: Any, dim: Any = None, correction: float = 0, keepdim: bool = False) -> Any:
    """Two-pass variance: mean of |x - mean|^2 scaled by n / (n - correction)."""
    d = dtype_rules.var_dtype(x.dtype)
    if x.dtype.kind in "biu":
        x = self.cast(x, d)
    n = _count(x, dim, "var")
    m = mean(self, x, dim, keepdim=True)
    centred = self.sub(x, m)
    sq = self.abs(centred) if x.dtype.is_complex else centred
    ss = self.sum(self.mul(sq, sq), dim, keepdim)
    denom = n - correction
    if denom <= 0:  # as NumPy and PyTorch: the sum over max(n - correction, 0), NaN when empty
        return self.mul(ss, float("nan")) if n == 0 else self.div(ss, 0.0)
    return self.div(ss, float(denom))


def std(self: Any, x: Any, dim: Any = None, correction: float = 0, keepdim: bool = False) -> Any:
    return self.sqrt(var(self, x, dim, correction, keepdim))


def amax(self: Any, x: Any, dim: Any = None, keepdim: bool = False) -> Any:
    return self.max(x, dim, keepdim)


def amin(self: Any, x: Any, dim: Any = None, keepdim: bool = False) -> Any:
    return self.min(x, dim, keepdim)


__all__ = ["mean", "var", "std", "amax", "amin"]
