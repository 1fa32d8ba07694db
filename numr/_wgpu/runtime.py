"""The WebGPU runtime: devices "wgpu:N" (one per adapter), storage in GPU buffers."""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from .. import dtypes as dt
from ..errors import DeviceError, UnsupportedOperation
from ..runtime.protocols import Device


class WgpuRuntime:
    name = "wgpu"

    def __init__(self) -> None:
        self._adapters: list[Any] | None = None
        self._reason: str | None = None
        self._devices: list[Device] = []
        self._gpus: dict[int, Any] = {}

    # ---- discovery ---------------------------------------------------------
    def _probe(self) -> None:
        if self._adapters is not None:
            return
        self._adapters = []
        if "XDG_RUNTIME_DIR" not in os.environ:  # silences a harmless warning of the Vulkan loader
            path = "/tmp/xdg-numr"
            try:
                os.makedirs(path, mode=0o700, exist_ok=True)
                os.environ["XDG_RUNTIME_DIR"] = path
            except OSError:
                pass
        try:
            import wgpu
        except Exception as e:
            self._reason = f"wgpu is not installed ({type(e).__name__}: {e}); pip install 'numr[wgpu]'"
            return
        try:
            adapters = list(wgpu.gpu.enumerate_adapters_sync())
        except Exception as e:
            self._reason = f"wgpu found no adapter ({type(e).__name__}: {e})"
            return
        if not adapters:
            self._reason = "wgpu found no adapter (no Vulkan/Metal/D3D12/OpenGL driver)"
            return
        # real GPUs first, then CPU adapters, OpenGL last
        order = {"DiscreteGPU": 0, "IntegratedGPU": 1, "VirtualGPU": 2, "CPU": 3}
        adapters.sort(key=lambda a: (a.info.get("backend_type") == "OpenGL",
                                     order.get(a.info.get("adapter_type"), 4)))
        self._adapters = adapters
        for i in range(len(adapters)):
            d = Device(self.name, i)
            d._runtime = self
            self._devices.append(d)

    def is_available(self) -> bool:
        self._probe()
        return bool(self._adapters)

    def unavailable_reason(self) -> str | None:
        self._probe()
        return None if self._adapters else self._reason

    def devices(self) -> list[Device]:
        self._probe()
        return list(self._devices)

    def default_device(self) -> Device:
        self._probe()
        if not self._devices:
            raise DeviceError(f"wgpu is unavailable: {self._reason}")
        return self._devices[0]

    def gpu(self, device: Device) -> Any:
        """The shared WgpuDevice of ``device`` (created on first use)."""
        g = self._gpus.get(device.index)
        if g is None:
            from .device import WgpuDevice
            self._probe()
            if not 0 <= device.index < len(self._adapters or []):
                raise DeviceError(f"wgpu has no device {device.index}")
            g = self._gpus[device.index] = WgpuDevice(self._adapters[device.index])
        return g

    def adapter_info(self, device: Device) -> dict[str, Any]:
        self._probe()
        return dict(self._adapters[device.index].info)

    def device_info(self, device: Device) -> dict[str, Any]:
        self._probe()
        a = self._adapters[device.index]
        info = a.info
        from .device import WANTED_FEATURES, disabled_features
        a_feats = set(a.features) - disabled_features()
        return {"name": info.get("device") or info.get("description"), "backend": info.get("backend_type"),
                "adapter_type": info.get("adapter_type"),
                "features": " ".join(f for f in WANTED_FEATURES if f in a_feats) or "-",
                "max_binding_MiB": int(a.limits["max-storage-buffer-binding-size"]) >> 20}

    def supported_dtypes(self, device: Device) -> frozenset[dt.DType]:
        from . import template
        self._probe()
        from .device import WANTED_FEATURES, disabled_features
        have = set(self._adapters[device.index].features) - disabled_features()
        feats = frozenset(f for f in WANTED_FEATURES if f in have)
        return template.supported(feats)

    def client(self, device: Device | None = None) -> Any:
        dev = self.default_device() if device is None else device
        if dev._client is None:
            from .client import WgpuClient
            dev._client = WgpuClient(dev, self.gpu(dev))
        return dev._client

    # ---- storage -------------------------------------------------------------
    def allocate(self, numel: int, dtype: dt.DType, device: Device) -> Any:
        from .launch import kind
        kind(self.client(device), dtype, "allocate")
        return self.gpu(device).alloc(numel * dtype.itemsize)

    def from_numpy(self, array: np.ndarray, device: Device) -> Any:
        from .launch import kind
        kind(self.client(device), dt.dtype(array.dtype), "from_numpy")
        return self.gpu(device).upload(array)

    def to_numpy(self, tensor: Any) -> np.ndarray:
        t = tensor
        if t.size == 0:
            return np.empty(t.shape, t.dtype.np)
        if not t._layout.is_contiguous():
            t = t.clone()
        isz = t.dtype.itemsize
        raw = t._storage.gpu.read(t._storage, t._layout.offset * isz, t.size * isz)
        return raw.view(t.dtype.np).reshape(t.shape).copy()

    def synchronize(self, device: Device) -> None:
        if device.index in self._gpus:
            self._gpus[device.index].synchronize()

    def supports_graph_capture(self) -> bool:
        return False

    def capture_graph(self, *args: Any, **kwargs: Any) -> Any:
        raise UnsupportedOperation("wgpu", "graph capture", reason="only the CUDA runtime captures graphs")

    def dlpack(self, tensor: Any, stream: Any = None, max_version: Any = None, copy: Any = None) -> Any:
        raise UnsupportedOperation("wgpu", "__dlpack__",
                                   reason="WebGPU buffers cannot be shared; use x.to('cpu') or x.numpy()")

    def dlpack_device(self, tensor: Any) -> tuple[int, int]:
        raise UnsupportedOperation("wgpu", "__dlpack_device__",
                                   reason="WebGPU buffers cannot be shared; use x.to('cpu')")

    def copy_from(self, x: Any, dev: Device) -> Any:
        """Device-to-device copies on the same wgpu device; None lets the caller go through the host."""
        if x.device.runtime_name == "wgpu" and x.device.index == dev.index:
            return x.clone()
        return None
