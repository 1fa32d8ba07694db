"""Kernel argument packing and launch, shared by every CUDA op.

Arguments are packed on the host into ctypes values and one ``void*`` array
(the driver copies them at launch, and a captured graph keeps its own copy).
Layouts go by value as ``Shp`` / ``Str`` structs mirroring kernels/common.cuh
(rank <= MAXD after coalescing; beyond that a clear ShapeError).
"""

from __future__ import annotations

import ctypes
from collections.abc import Sequence
from typing import Any

from ..errors import ShapeError
from ..layout import coalesce

MAXD = 8
BLOCK = 256


class Shp(ctypes.Structure):
    _fields_ = [("nd", ctypes.c_int32), ("size", ctypes.c_int64 * MAXD)]


class Str(ctypes.Structure):
    _fields_ = [("s", ctypes.c_int64 * MAXD)]


def shp(shape: Sequence[int]) -> Shp:
    if len(shape) > MAXD:
        raise ShapeError(f"cuda: tensors of rank {len(shape)} after merging contiguous dims exceed the "
                         f"CUDA kernels' maximum of {MAXD}; make the tensor contiguous first")
    s = Shp()
    s.nd = len(shape)
    for i, v in enumerate(shape):
        s.size[i] = v
    if not shape:
        s.size[0] = 1
    return s


def strs(strides: Sequence[int]) -> Str:
    s = Str()
    for i, v in enumerate(strides):
        s.s[i] = v
    return s


def dptr(t: Any) -> int:
    """Device address of a tensor's first element (storage base + offset)."""
    return t._storage.ptr + t._layout.offset * t.dtype.itemsize


def u64(v: int) -> ctypes.c_uint64:
    return ctypes.c_uint64(v & 0xFFFFFFFFFFFFFFFF)


def i64(v: int) -> ctypes.c_int64:
    return ctypes.c_int64(v)


def i32(v: int) -> ctypes.c_int32:
    return ctypes.c_int32(v)


def f64(v: float) -> ctypes.c_double:
    return ctypes.c_double(v)


def f32(v: float) -> ctypes.c_float:
    return ctypes.c_float(v)


def ptr(t: Any) -> ctypes.c_uint64:
    """A tensor argument (its element pointer), or a raw address / None (NULL)."""
    if t is None:
        return ctypes.c_uint64(0)
    if isinstance(t, int):
        return ctypes.c_uint64(t)
    return ctypes.c_uint64(dptr(t))


def elementwise_layout(shape: Sequence[int], *tensors: Any) -> tuple[Shp, list[Str]]:
    """Coalesced shape and per-operand strides of same-shaped (broadcast) operands."""
    cshape, cstrides = coalesce(tuple(shape), *(t._layout.strides for t in tensors))
    if not cshape:
        cshape, cstrides = (1,), [(0,) for _ in tensors]
    return shp(cshape), [strs(s) for s in cstrides]


def pack(args: Sequence[Any]) -> tuple[list[Any], int]:
    """(keep-alive list, address of the void* array) for cuLaunchKernel."""
    vals = list(args)
    arr = (ctypes.c_void_p * max(len(vals), 1))(*[ctypes.addressof(v) for v in vals])
    vals.append(arr)
    return vals, ctypes.addressof(arr)


def grid_for(n: int, block: int = BLOCK, max_blocks: int = 65535 * 32) -> int:
    """Blocks for a grid-stride loop over n items."""
    return max(1, min((n + block - 1) // block, max_blocks))
