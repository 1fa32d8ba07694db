"""Shared preparation of the FFT family (numr/ops/traits/fft.py), used by every backend and by
autograd: the transformed dims and their lengths (NumPy's n/s/dim rules), the norm's scale,
the complex (or real) compute dtype, and the errors for bad arguments."""

from __future__ import annotations

import math
import numbers
from typing import Any, NamedTuple

from .. import dtypes as dt
from ..errors import DTypeError, ShapeError, UnsupportedDType
from ..shapes import normalize_dim

NORMS = ("backward", "ortho", "forward")

#: public op -> (kind, inverse, rank): kind c2c / r2c / c2r; rank 1, 2 or None (n-d)
OPS = {
    "fft": ("c2c", False, 1), "ifft": ("c2c", True, 1), "rfft": ("r2c", False, 1), "irfft": ("c2r", True, 1),
    "fft2": ("c2c", False, 2), "ifft2": ("c2c", True, 2), "rfft2": ("r2c", False, 2), "irfft2": ("c2r", True, 2),
    "fftn": ("c2c", False, None), "ifftn": ("c2c", True, None), "rfftn": ("r2c", False, None),
    "irfftn": ("c2r", True, None),
}


class FftPlan(NamedTuple):
    """What one call computes: the dims (distinct, in the order given) and the transform's
    lengths along them (for c2r the last one is the real output length), the scale applied
    after the unnormalised transform, and the dtype the input is cast to."""
    op: str
    kind: str
    inverse: bool
    dims: tuple[int, ...]
    sizes: tuple[int, ...]
    norm: str
    scale: float
    in_dtype: dt.DType

    @property
    def in_sizes(self) -> tuple[int, ...]:
        """The input's lengths along dims once resized (c2r: n // 2 + 1 bins on the last)."""
        if self.kind != "c2r":
            return self.sizes
        return (*self.sizes[:-1], self.sizes[-1] // 2 + 1)

    @property
    def out_sizes(self) -> tuple[int, ...]:
        """The result's lengths along dims (r2c: n // 2 + 1 bins on the last)."""
        if self.kind != "r2c":
            return self.sizes
        return (*self.sizes[:-1], self.sizes[-1] // 2 + 1)


def complex_of(dtype: dt.DType) -> dt.DType:
    """The complex dtype a transform of ``dtype`` computes in (torch's rule, NumPy 2's for float32):
    complex stays, float64/int/bool -> complex128, float32/float16/bfloat16/float8 -> complex64."""
    if dtype.is_complex:
        return dtype
    if dtype.is_floating_point and dtype is not dt.float64:
        return dt.complex64
    return dt.complex128


def real_of(dtype: dt.DType) -> dt.DType:
    """The real dtype of complex ``dtype``'s parts."""
    return dt.float32 if dtype is dt.complex64 else dt.float64


def norm_mode(op: str, norm: Any) -> str:
    if norm is None:
        return "backward"
    if norm not in NORMS:
        raise ValueError(f"{op}: norm must be None, 'backward', 'ortho' or 'forward', got {norm!r}")
    return norm


def scale_of(norm: str, inverse: bool, count: int) -> float:
    """The factor after the unnormalised sum: 1/N for the inverse ("backward") or the forward
    ("forward") transform, 1/sqrt(N) both ways for "ortho"."""
    if norm == "ortho":
        return 1.0 / math.sqrt(count)
    return 1.0 / count if (norm == "forward") != inverse else 1.0


def _length(op: str, n: Any) -> int:
    if isinstance(n, bool) or not isinstance(n, int) and not hasattr(n, "__index__"):
        raise DTypeError(f"{op}: a transform length must be an int, got {type(n).__name__}")
    n = int(n)
    if n < 1:
        raise ShapeError(f"{op}: invalid number of FFT data points ({n}) specified; must be >= 1")
    return n


def plan(op: str, x: Any, s: Any = None, dim: Any = None, norm: Any = None) -> FftPlan:
    """Check the arguments of ``op`` (a name in OPS) applied to x and return its FftPlan. For
    the 1-d ops ``s`` is n and ``dim`` an int; for fft2 dim defaults to (-2, -1); for the n-d ops
    dim defaults to the last len(s) dims, or every dim when s is None too (NumPy's rules)."""
    kind, inverse, rank = OPS[op]
    norm = norm_mode(op, norm)
    ndim = x.ndim
    if rank == 1:
        dims_in: Any = (-1 if dim is None else dim,)
        s = None if s is None else (s,)
    else:
        if s is not None and not isinstance(s, (list, tuple)):
            raise DTypeError(f"{op}: s must be a sequence of ints, got {type(s).__name__}")
        if dim is None:
            if rank == 2:
                dims_in = (-2, -1)
            else:
                dims_in = tuple(range(-len(s), 0)) if s is not None else tuple(range(ndim))
        else:
            dims_in = (dim,) if isinstance(dim, int) else tuple(dim)
    if ndim == 0:
        raise ShapeError(f"{op}: needs a tensor with at least 1 dim, got a 0-d tensor")
    dims = tuple(normalize_dim(d, ndim, op) for d in dims_in)
    if len(set(dims)) != len(dims):
        raise ShapeError(f"{op}: repeated dims {tuple(dims_in)}")
    if not dims:
        raise ShapeError(f"{op}: no dims to transform")
    if s is not None and len(s) != len(dims):
        raise ShapeError(f"{op}: s {tuple(s)} and dims {tuple(dims_in)} differ in length")
    if s is None:
        sizes = [x.shape[d] for d in dims]
        if kind == "c2r":
            sizes[-1] = 2 * (sizes[-1] - 1)
        sizes = [_length(op, n) for n in sizes]
    else:
        sizes = [_length(op, n) for n in s]
    if kind == "r2c":
        if x.dtype.is_complex:
            raise DTypeError(f"{op}: needs a real input, got {x.dtype.name} (use fft for complex input)")
        in_dtype = real_of(complex_of(x.dtype))
    else:
        in_dtype = complex_of(x.dtype)
    return FftPlan(op, kind, inverse, dims, tuple(sizes), norm,
                   scale_of(norm, inverse, math.prod(sizes)), in_dtype)


def operand(op: str, client: Any, x: Any) -> Any:
    """x as a tensor on the client's device (lists, NumPy arrays and scalars accepted; a tensor
    on another device raises DeviceError)."""
    from .prepare import as_tensor
    return as_tensor(op, client, x)


def check_complex(client: Any, op: str, dtype: dt.DType) -> None:
    """A backend without complex tensors (WebGPU) raises UnsupportedDType naming it and the op,
    before any work."""
    runtime = client.device.runtime
    if dt.complex64 not in runtime.supported_dtypes(client.device):
        raise UnsupportedDType(client.device.runtime_name, op, dtype,
                               reason="the FFT computes in complex and this backend has no complex dtype")


def freq_args(op: str, n: Any, d: Any, dtype: Any) -> tuple[int, float, dt.DType]:
    """fftfreq/rfftfreq's arguments checked: n >= 1, a real d, a float dtype (default float64)."""
    n = _length(op, n)
    if isinstance(d, bool) or not isinstance(d, numbers.Real):
        raise DTypeError(f"{op}: d must be a real number, got {type(d).__name__}")
    out = dt.float64 if dtype is None else dt.dtype(dtype)
    if not out.is_floating_point:
        raise DTypeError(f"{op}: dtype must be a float dtype, got {out.name}")
    return n, float(d), out
