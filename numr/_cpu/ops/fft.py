"""CPU transforms of the FFT family (see numr/ops/traits/fft.py): the three hooks the generic
public ops call (numr/ops/generic/fft.py), run by numr/_cpu/kernels/fft.pyx one dim at a time.
The first pass reads x in place (any strides, offset, flips; its dim cropped or padded by the
kernel) into a fresh row-major result, later dims transform that result in place. Other dims
are cropped as views first; padding them copies (generic ``resize``)."""

from __future__ import annotations

from typing import Any

from ... import dtypes as dt
from ...ops.generic import fft as gfft
from ...ops.generic.fft import resize
from ...tensor import Tensor
from .. import storage

_kernels = None
C2C, R2C, C2R = 0, 1, 2
MAX_DIMS = 33  # the kernel walks at most 32 batch dims; more go to the generic composite


def _k() -> Any:
    global _kernels
    if _kernels is None:
        from ..kernels import fft as k
        _kernels = k
    return _kernels


def _run(kind: int, x: Tensor, d: int, n: int, y: Tensor, sign: int, scale: float) -> None:
    """Transforms of length n along dim d of x into y (y may be x)."""
    other = [i for i in range(x.ndim) if i != d]
    xs, ys = x._layout.strides, y._layout.strides
    dbl = x.dtype in (dt.complex128, dt.float64)
    _k().rows(kind, dbl, sign, n, x._storage, x._layout.offset, x.shape[d], xs[d], y._storage, y._layout.offset,
              ys[d], [x.shape[i] for i in other], [xs[i] for i in other], [ys[i] for i in other], scale)


def _prepared(x: Tensor, dims: tuple[int, ...], sizes: tuple[int, ...]) -> Tensor:
    """x cropped (views) and padded (a copy) along every dim but the first, which the kernel resizes."""
    return resize(x, dims[1:], sizes[1:])


def _out(client: Any, x: Tensor, d: int, n: int, dtype: dt.DType) -> Tensor:
    return storage.empty(client.device, tuple(n if i == d else s for i, s in enumerate(x.shape)), dtype)


class FftCpu:
    """Mixin of CpuClient: the FFT kernels behind fft/ifft/rfft/irfft/fft2/fftn/..."""

    def _fft_c2c(self, x: Tensor, dims: tuple[int, ...], sizes: tuple[int, ...], inverse: bool,
                 scale: float) -> Tensor:
        if x.ndim > MAX_DIMS:
            return gfft.fft_c2c(self, x, dims, sizes, inverse, scale)
        sign = 1 if inverse else -1
        x = _prepared(x, dims, sizes)
        y = _out(self, x, dims[0], sizes[0], x.dtype)
        if y.size == 0:
            return y
        _run(C2C, x, dims[0], sizes[0], y, sign, scale)
        for d, n in zip(dims[1:], sizes[1:], strict=True):
            _run(C2C, y, d, n, y, sign, 1.0)
        return y

    def _fft_r2c(self, x: Tensor, dims: tuple[int, ...], sizes: tuple[int, ...], scale: float) -> Tensor:
        if x.ndim > MAX_DIMS:
            return gfft.fft_r2c(self, x, dims, sizes, scale)
        last = dims[-1]
        x = resize(x, dims[:-1], sizes[:-1])
        cdt = dt.complex128 if x.dtype is dt.float64 else dt.complex64
        y = _out(self, x, last, sizes[-1] // 2 + 1, cdt)
        if y.size == 0:
            return y
        _run(R2C, x, last, sizes[-1], y, -1, scale)
        for d, n in zip(dims[:-1], sizes[:-1], strict=True):
            _run(C2C, y, d, n, y, -1, 1.0)
        return y

    def _fft_c2r(self, x: Tensor, dims: tuple[int, ...], sizes: tuple[int, ...], scale: float) -> Tensor:
        if x.ndim > MAX_DIMS:
            return gfft.fft_c2r(self, x, dims, sizes, scale)
        last, n = dims[-1], sizes[-1]
        if x.shape[last] > n // 2 + 1:  # bins past n // 2 are never read: crop them (a view) first
            x = resize(x, (last,), (n // 2 + 1,))
        if len(dims) > 1:
            x = self._fft_c2c(x, dims[:-1], sizes[:-1], True, 1.0)
        y = _out(self, x, last, n, dt.float64 if x.dtype is dt.complex128 else dt.float32)
        if y.size == 0:
            return y
        _run(C2R, x, last, n, y, 1, scale)
        return y
