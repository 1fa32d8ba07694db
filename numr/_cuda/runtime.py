"""The CUDA runtime: NVIDIA GPUs through cuda-python (driver API) and NVRTC.

Importable everywhere; ``is_available()`` is False with a readable reason
when cuda-python, the driver or a device is missing (the normal state of CI).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import dtypes as dt
from ..errors import DeviceError
from ..layout import Layout
from ..runtime.protocols import Device
from ..tensor import Tensor
from . import driver


class CudaRuntime:
    name = "cuda"

    def __init__(self) -> None:
        self._probed: tuple[int, str | None] | None = None
        self._devices: list[Device] = []
        self._states: dict[int, Any] = {}

    # ---- availability -------------------------------------------------------
    def _probe(self) -> tuple[int, str | None]:
        if self._probed is None:
            from . import emulate
            self._probed = (1, None) if emulate.enabled() else driver.probe()
            self._devices = []
            for i in range(self._probed[0]):
                d = Device("cuda", i)
                d._runtime = self
                self._devices.append(d)
        return self._probed

    def is_available(self) -> bool:
        return self._probe()[1] is None

    def unavailable_reason(self) -> str | None:
        return self._probe()[1]

    def devices(self) -> list[Device]:
        self._probe()
        return list(self._devices)

    def default_device(self) -> Device:
        n, why = self._probe()
        if why is not None:
            raise DeviceError(f"cuda is unavailable: {why}")
        return self._devices[0]

    def device_for(self, index: int) -> Device:
        devs = self.devices()
        if not 0 <= index < len(devs):
            raise DeviceError(f"cuda has no device {index} (it has {len(devs)})")
        return devs[index]

    def state(self, device: Device) -> Any:
        st = self._states.get(device.index)
        if st is None:
            if not self.is_available():
                raise DeviceError(f"cuda is unavailable: {self.unavailable_reason()}")
            from . import emulate
            if emulate.enabled():
                st = self._states[device.index] = emulate.EmuDeviceState(device.index)
            else:
                from .device import DeviceState
                st = self._states[device.index] = DeviceState(device.index)
        return st

    def device_info(self, device: Device) -> dict[str, Any]:
        st = self.state(device)
        return {"name": st.name, "compute_capability": "{}.{}".format(*st.cc), "arch": st.arch,
                "multiprocessors": st.sm_count, "total_memory": st.total_memory}

    def supported_dtypes(self, device: Device) -> frozenset[dt.DType]:
        return frozenset(dt.ALL_DTYPES)

    def client(self, device: Device | None = None) -> Any:
        dev = self.default_device() if device is None else device
        if dev._client is None:
            from .client import CudaClient
            dev._client = CudaClient(dev, self.state(dev))
        return dev._client

    # ---- storage and copies ---------------------------------------------------
    def allocate(self, numel: int, dtype: dt.DType, device: Device) -> Any:
        from .storage import allocate
        return allocate(self.state(device), numel, dtype)

    def from_numpy(self, array: np.ndarray, device: Device) -> Any:
        from .storage import allocate, host_to_device
        st = self.state(device)
        a = np.ascontiguousarray(array)
        s = allocate(st, a.size, dt.dtype(a.dtype))
        host_to_device(st, s.ptr, a)
        return s

    def to_numpy(self, tensor: Tensor) -> np.ndarray:
        from .storage import device_to_host
        t = tensor
        if not (t._layout.is_contiguous()):
            t = t.clone()
        out = np.empty(t.shape, t.dtype.np)
        if t.size:
            device_to_host(t._storage.state, out, t._storage.ptr + t._layout.offset * t.dtype.itemsize)
        return out

    def copy_from(self, x: Tensor, dev: Device) -> Tensor | None:
        """Device-to-device moves between CUDA devices (peer copy); None lets the core go through the host."""
        if x.device.runtime_name != "cuda" or x.device == dev:
            return None
        from .storage import allocate
        src = x.contiguous()
        dst_state, src_state = self.state(dev), self.state(x.device)
        s = allocate(dst_state, src.size, src.dtype)
        if src.size:
            src_state.synchronize()
            driver.call("cuMemcpyPeerAsync", driver.cu.CUdeviceptr(s.ptr), dst_state.ctx,
                        driver.cu.CUdeviceptr(src._storage.ptr + src._layout.offset * src.dtype.itemsize),
                        src_state.ctx, src.nbytes, dst_state.stream)
        return Tensor(s, Layout(src.shape), src.dtype, dev)

    def synchronize(self, device: Device | None = None) -> None:
        for st in ([self.state(device)] if device is not None else list(self._states.values())):
            st.synchronize()

    # ---- memory statistics ------------------------------------------------------
    def memory_stats(self, device: Any = None) -> dict[str, int]:
        return self.state(self._dev(device)).allocator.stats()

    def allocated_bytes(self, device: Any = None) -> int:
        return self.state(self._dev(device)).allocator.allocated_bytes

    def cached_bytes(self, device: Any = None) -> int:
        return self.state(self._dev(device)).allocator.cached_bytes

    def empty_cache(self, device: Any = None) -> None:
        st = self.state(self._dev(device))
        st.synchronize()
        st.allocator.empty_cache()

    def _dev(self, device: Any) -> Device:
        if device is None:
            return self.default_device()
        if isinstance(device, Device):
            return device
        from ..runtime import device as parse
        return parse(device)

    # ---- graphs -----------------------------------------------------------------
    def supports_graph_capture(self) -> bool:
        return True

    def capture_graph(self, device: Any = None) -> Any:
        """A Graph to use as ``with graph: ...`` then ``graph.replay()``."""
        st = self.state(self._dev(device))
        if getattr(st, "emulated", False):
            from .emulate import EmuGraph
            return EmuGraph(st)
        from .graph import Graph
        return Graph(st)

    # ---- DLPack -------------------------------------------------------------------
    def dlpack(self, tensor: Tensor, stream: Any = None, max_version: Any = None, copy: Any = None) -> Any:
        from .dlpack import export
        return export(tensor, tensor._storage.state, stream=stream, copy=copy)

    def dlpack_device(self, tensor: Tensor) -> tuple[int, int]:
        return (2, tensor.device.index)

    def from_dlpack(self, obj: Any) -> Tensor:
        from .dlpack import import_
        return import_(obj, self)
