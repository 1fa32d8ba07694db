"""CUDA storage (a device allocation) and host<->device copies."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..dtypes import DType
from ..layout import Layout
from ..runtime.caching_allocator import Block
from ..tensor import Tensor
from .driver import call, cu

PINNED_THRESHOLD = 4 << 20  # bytes; larger host copies go through pinned staging
PINNED_CHUNK = 16 << 20


class CudaStorage:
    """A device buffer: ``ptr`` (int address), ``nbytes``, and who frees it.

    Owned storage returns its block to the device's caching allocator when the
    last tensor (view) using it goes away; imported (DLPack) storage keeps the
    producer alive through ``owner`` instead.
    """

    __slots__ = ("ptr", "nbytes", "state", "block", "owner", "__weakref__")

    def __init__(self, ptr: int, nbytes: int, state: Any, block: Block | None = None, owner: Any = None):
        self.ptr, self.nbytes, self.state, self.block, self.owner = ptr, nbytes, state, block, owner

    def __del__(self) -> None:
        b, self.block = self.block, None
        if b is not None and b.size:
            try:
                self.state.allocator.free(b)
            except Exception:  # interpreter shutdown: the driver may be gone
                pass

    def __repr__(self) -> str:
        return f"CudaStorage(0x{self.ptr:x}, {self.nbytes} bytes, cuda:{self.state.index})"


def allocate(state: Any, numel: int, dtype: DType) -> CudaStorage:
    nbytes = numel * dtype.itemsize
    block = state.allocator.malloc(nbytes)
    return CudaStorage(block.ptr, nbytes, state, block)


def empty(device: Any, state: Any, shape: tuple[int, ...], dtype: DType) -> Tensor:
    n = 1
    for s in shape:
        n *= s
    return Tensor(allocate(state, n, dtype), Layout(shape), dtype, device)


class _Pinned:
    """One pinned host staging buffer per device (page-locked copies run at full PCIe speed)."""

    def __init__(self, state: Any):
        state.activate()
        self.addr = int(call("cuMemHostAlloc", PINNED_CHUNK, 0))
        self.buf = np.ctypeslib.as_array((np.ctypeslib.ctypes.c_uint8 * PINNED_CHUNK).from_address(self.addr))


_pinned: dict[int, _Pinned] = {}


def _staging(state: Any) -> _Pinned | None:
    p = _pinned.get(state.index)
    if p is None:
        try:
            p = _pinned[state.index] = _Pinned(state)
        except Exception:
            return None
    return p


def host_to_device(state: Any, dst: int, host: np.ndarray) -> None:
    """Copy a C-contiguous host array to device address ``dst``; returns when done."""
    flat = host.reshape(-1).view(np.uint8)
    n = flat.nbytes
    if n == 0:
        return
    if getattr(state, "emulated", False):
        state.host_copy(dst, flat.ctypes.data, n)
        return
    state.activate()
    stage = _staging(state) if n >= PINNED_THRESHOLD else None
    if stage is None:
        call("cuMemcpyHtoDAsync", cu.CUdeviceptr(dst), flat.ctypes.data, n, state.stream)
        state.synchronize()
        return
    for start in range(0, n, PINNED_CHUNK):
        k = min(PINNED_CHUNK, n - start)
        stage.buf[:k] = flat[start:start + k]
        call("cuMemcpyHtoDAsync", cu.CUdeviceptr(dst + start), stage.addr, k, state.stream)
        state.synchronize()  # the staging buffer is reused for the next chunk


def device_to_host(state: Any, out: np.ndarray, src: int) -> None:
    """Copy ``out.nbytes`` bytes from device address ``src`` into a C-contiguous array."""
    flat = out.reshape(-1).view(np.uint8)
    n = flat.nbytes
    if n == 0:
        return
    if getattr(state, "emulated", False):
        state.host_copy(flat.ctypes.data, src, n)
        return
    state.activate()
    stage = _staging(state) if n >= PINNED_THRESHOLD else None
    if stage is None:
        call("cuMemcpyDtoHAsync", flat.ctypes.data, cu.CUdeviceptr(src), n, state.stream)
        state.synchronize()
        return
    for start in range(0, n, PINNED_CHUNK):
        k = min(PINNED_CHUNK, n - start)
        call("cuMemcpyDtoHAsync", stage.addr, cu.CUdeviceptr(src + start), k, state.stream)
        state.synchronize()
        flat[start:start + k] = stage.buf[:k]


def device_to_device(state: Any, dst: int, src: int, nbytes: int) -> None:
    if nbytes and getattr(state, "emulated", False):
        state.device_copy(dst, src, nbytes)
    elif nbytes:
        state.activate()
        call("cuMemcpyDtoDAsync", cu.CUdeviceptr(dst), cu.CUdeviceptr(src), nbytes, state.stream)
