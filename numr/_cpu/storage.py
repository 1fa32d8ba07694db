"""CPU storage: a 1-d NumPy array (64-byte aligned when large; from the caching
allocator of hostmem.py from 1 MiB) and the helpers
every CPU op uses to allocate outputs and hand tensors to kernels."""

from __future__ import annotations

import numpy as np

from ..dtypes import DType
from ..layout import Layout, result_strides
from ..tensor import Tensor
from . import hostmem
from .kernels.copy import empty_aligned as _empty_aligned

ALIGN = 64
_SMALL = 4096  # bytes; below this NumPy's own allocation is used as is


def allocate(numel: int, dtype: DType) -> np.ndarray:
    nbytes = numel * dtype.itemsize
    if nbytes < _SMALL:
        return np.empty(numel, dtype.np)
    if nbytes >= hostmem.POOL_MIN:  # page-aligned, from the caching allocator
        return hostmem.empty_bytes(nbytes).view(dtype.np)
    return _empty_aligned(numel, dtype.np, ALIGN)


def empty(device, shape: tuple[int, ...], dtype: DType) -> Tensor:
    """A new contiguous CPU tensor (uninitialised)."""
    n = 1
    for s in shape:
        n *= s
    return Tensor(allocate(n, dtype), Layout(shape), dtype, device)


def empty_for(device, shape: tuple[int, ...], dtype: DType, operand_strides: list) -> Tensor:
    """A new element-wise result: laid out like its operands when they share one permuted
    dense layout (``numr.layout.result_strides``), else contiguous."""
    lay = Layout(shape, result_strides(shape, operand_strides), 0)
    return Tensor(allocate(lay.numel, dtype), lay, dtype, device)


def view_numpy(t: Tensor) -> np.ndarray:
    """The tensor as a NumPy view of its storage (writes go through)."""
    lay = t._layout
    size = t.dtype.itemsize
    if lay.numel == 0:
        return np.empty(lay.shape, t.dtype.np)
    return np.ndarray(lay.shape, t.dtype.np, buffer=t._storage, offset=lay.offset * size,
                      strides=tuple(s * size for s in lay.strides))


def wrap(a: np.ndarray, device, dtype: DType) -> Tensor | None:
    """A tensor sharing ``a``'s memory, or None when that is impossible."""
    size = a.itemsize
    if not a.flags.writeable or any(s % size for s in a.strides) or not a.dtype.isnative:
        return None
    if a.size == 0:
        return Tensor(np.empty(0, a.dtype), Layout(a.shape), dtype, device)
    strides = tuple(s // size for s in a.strides)
    # storage starts at the lowest address the array touches
    low = tuple(n - 1 if st < 0 else 0 for n, st in zip(a.shape, strides, strict=True))
    lay = Layout(a.shape, strides, 0)
    lo, hi = lay.extent()
    # a view (never a copy: a[()] of a 0-d array would be a scalar) of the lowest element, as raw
    # bytes so that as_strided also works for ml_dtypes types whose typestr NumPy cannot parse
    base = a.reshape(1) if a.ndim == 0 else a[tuple(slice(i, i + 1) for i in low)]
    raw = base.view(np.dtype((np.void, size)))
    flat = np.lib.stride_tricks.as_strided(raw, shape=(hi - lo,), strides=(size,)).view(a.dtype)
    offset = -lo
    return Tensor(flat, Layout(a.shape, strides, offset), dtype, device)
