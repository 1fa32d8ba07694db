"""The CPU runtime: one device, every dtype, storage in host memory."""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from .. import dtypes as dt
from ..errors import DTypeError
from ..runtime.protocols import Device
from . import hostmem, storage


class CpuRuntime:
    name = "cpu"

    def __init__(self) -> None:
        self._device = Device("cpu", 0)
        self._device._runtime = self

    def is_available(self) -> bool:
        return True

    def unavailable_reason(self) -> str | None:
        return None

    def devices(self) -> list[Device]:
        return [self._device]

    def default_device(self) -> Device:
        return self._device

    def device_info(self, device: Device) -> dict[str, Any]:
        from .kernels import info  # noqa: F401  (fails loudly if the extension is not built)
        return {"name": "host CPU", "threads": os.cpu_count(), "simd": info.simd_level()}

    def supported_dtypes(self, device: Device) -> frozenset[dt.DType]:
        return frozenset(dt.ALL_DTYPES)

    def client(self, device: Device | None = None) -> Any:
        """The (cached) client of ``device``, by default the CPU."""
        dev = self._device if device is None else device
        if dev._client is None:
            from .client import CpuClient
            dev._client = CpuClient(dev)
        return dev._client

    def allocate(self, numel: int, dtype: dt.DType, device: Device) -> np.ndarray:
        return storage.allocate(numel, dtype)

    def from_numpy(self, array: np.ndarray, device: Device) -> np.ndarray:
        return array.reshape(-1)

    def wrap_numpy(self, array: np.ndarray, device: Device, dtype: dt.DType) -> Any:
        return storage.wrap(array, device, dtype)

    def reinterpret(self, array: np.ndarray, dtype: dt.DType) -> np.ndarray:
        """The same memory as a 1-d array of ``dtype`` (kernels read a storage's item size):
        the complex family's real/imag views of complex storage, and back."""
        if array.dtype == dtype.np:
            return array
        if array.nbytes % dtype.itemsize == 0:
            return array.view(dtype.np)
        n = array.nbytes // dtype.itemsize
        return array.view(np.uint8)[: n * dtype.itemsize].view(dtype.np)

    def to_numpy(self, tensor: Any) -> np.ndarray:
        return storage.view_numpy(tensor)

    def synchronize(self, device: Device) -> None:
        return None

    # ---- memory statistics (buffers of 1 MiB and more: see hostmem.py) ------------------
    def memory_stats(self, device: Any = None) -> dict[str, int]:
        return hostmem.ALLOCATOR.stats()

    def allocated_bytes(self, device: Any = None) -> int:
        return hostmem.ALLOCATOR.allocated_bytes

    def cached_bytes(self, device: Any = None) -> int:
        return hostmem.ALLOCATOR.cached_bytes

    def empty_cache(self, device: Any = None) -> None:
        """Unmap every cached buffer that no tensor uses."""
        hostmem.ALLOCATOR.empty_cache()

    def supports_graph_capture(self) -> bool:
        return False

    def capture_graph(self, *args: Any, **kwargs: Any) -> Any:
        from ..errors import UnsupportedOperation
        raise UnsupportedOperation("cpu", "graph capture", reason="only the CUDA runtime captures graphs")

    def dlpack(self, tensor: Any, stream: Any = None, max_version: Any = None, copy: Any = None) -> Any:
        a = storage.view_numpy(tensor)
        if any(st < 0 for st in a.strides):
            # DLPack allows negative strides but consumers crash on them (PyTorch aborts the process):
            # export a contiguous copy instead, which the protocol permits unless copy=False
            if copy is False:
                raise BufferError("__dlpack__: a tensor with negative strides cannot be exported without a copy")
            a = a.copy()
        try:
            if max_version is None:
                return a.__dlpack__(stream=stream)
            return a.__dlpack__(stream=stream, max_version=max_version, copy=copy)
        except (BufferError, TypeError) as e:
            raise DTypeError(f"__dlpack__: dtype {tensor.dtype} cannot be exported ({e})") from None

    def dlpack_device(self, tensor: Any) -> tuple[int, int]:
        return (1, 0)
