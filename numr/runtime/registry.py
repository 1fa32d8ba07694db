"""Runtime registry and device strings ("cpu", "cuda", "cuda:1", "wgpu:0")."""

from __future__ import annotations

import importlib
from importlib.metadata import entry_points
from typing import Any

from ..errors import DeviceError
from .protocols import Device, Runtime

#: built-in runtimes, imported on first use so a missing GPU stack costs nothing
_BUILTIN = {
    "cpu": "numr._cpu.runtime:CpuRuntime",
    "wgpu": "numr._wgpu.runtime:WgpuRuntime",
    "cuda": "numr._cuda.runtime:CudaRuntime",
}
_runtimes: dict[str, Runtime] = {}
_entry_points_loaded = False
_DEVICE_CACHE: dict[Any, Device] = {}


class UnloadableRuntime:
    """Stands in for a runtime whose module failed to import: unavailable, with the error as reason.

    ``names()``/``available()``/``python -m numr`` keep working when an optional backend is broken."""

    def __init__(self, name: str, error: BaseException):
        self.name = name
        self.error = error

    def is_available(self) -> bool:
        return False

    def unavailable_reason(self) -> str:
        return f"the {self.name} runtime failed to load: {type(self.error).__name__}: {self.error}"

    def devices(self) -> list[Device]:
        return []

    def default_device(self) -> Device:
        raise DeviceError(self.unavailable_reason())

    def device_info(self, device: Device) -> dict[str, Any]:
        return {}

    def supported_dtypes(self, device: Device) -> frozenset:
        return frozenset()

    def client(self, device: Device | None = None) -> Any:
        raise DeviceError(self.unavailable_reason())

    def allocate(self, numel: int, dtype: Any, device: Device) -> Any:
        raise DeviceError(self.unavailable_reason())

    def from_numpy(self, array: Any, device: Device) -> Any:
        raise DeviceError(self.unavailable_reason())

    def to_numpy(self, tensor: Any) -> Any:
        raise DeviceError(self.unavailable_reason())

    def synchronize(self, device: Device) -> None:
        return None

    def supports_graph_capture(self) -> bool:
        return False


def _forget_devices(name: str) -> None:
    for key, dev in list(_DEVICE_CACHE.items()):
        if dev.runtime_name == name:
            del _DEVICE_CACHE[key]


def register(runtime: Runtime, *, replace: bool = False) -> Runtime:
    """Register a runtime under ``runtime.name`` (third-party backends use this)."""
    if not isinstance(runtime, Runtime):
        raise TypeError(f"{runtime!r} does not implement the numr Runtime protocol")
    if runtime.name in _runtimes and not replace:
        raise DeviceError(f"a runtime named {runtime.name!r} is already registered")
    _runtimes[runtime.name] = runtime
    _forget_devices(runtime.name)
    return runtime


def unregister(name: str) -> None:
    """Remove a runtime (and the cached devices of that name)."""
    _runtimes.pop(name, None)
    _forget_devices(name)


def _load(name: str, spec: str) -> Runtime:
    mod, _, attr = spec.partition(":")
    try:
        return getattr(importlib.import_module(mod), attr)()
    except Exception as e:  # a broken optional backend becomes an unavailable one, with the reason
        return UnloadableRuntime(name, e)


def _load_entry_points() -> None:
    global _entry_points_loaded
    if _entry_points_loaded:
        return
    _entry_points_loaded = True
    for ep in entry_points(group="numr.runtimes"):
        if ep.name in _runtimes:
            continue
        try:
            obj = ep.load()  # a Runtime class, a Runtime instance, or a factory returning one
            rt = obj() if isinstance(obj, type) or (callable(obj) and not isinstance(obj, Runtime)) else obj
            if not isinstance(rt, Runtime):
                raise TypeError(f"entry point {ep.value} gave {rt!r}, not a numr Runtime")
        except Exception as e:
            rt = UnloadableRuntime(ep.name, e)
        if rt.name not in _runtimes:
            register(rt)


def get(name: str) -> Runtime:
    """The runtime registered as ``name`` (even when it is not available)."""
    rt = _runtimes.get(name)
    if rt is not None:
        return rt
    if name in _BUILTIN:
        return register(_load(name, _BUILTIN[name]))
    _load_entry_points()
    if name in _runtimes:
        return _runtimes[name]
    raise DeviceError(f"no runtime named {name!r}; known: {', '.join(names())}")


def names() -> list[str]:
    """Every registered runtime name, built-ins first."""
    _load_entry_points()
    return list(dict.fromkeys([*_BUILTIN, *_runtimes]))


def all_runtimes() -> list[Runtime]:
    return [get(n) for n in names()]


def available() -> list[str]:
    """Names of the runtimes that have at least one usable device here."""
    return [rt.name for rt in all_runtimes() if rt.is_available()]



def device(spec: Any = None) -> Device:
    """Parse a device spec (None means the CPU) into the runtime's Device object."""
    if isinstance(spec, Device):
        return spec
    if spec is not None and not isinstance(spec, str):
        raise DeviceError(f"not a device: {spec!r}")
    d = _DEVICE_CACHE.get(spec)
    if d is not None:
        return d
    if spec is None:
        spec_s = "cpu"
    elif isinstance(spec, str):
        spec_s = spec.strip()
    else:
        raise DeviceError(f"not a device: {spec!r}")
    name, _, idx = spec_s.partition(":")
    rt = get(name)
    if not rt.is_available():
        raise DeviceError(f"device {spec_s!r} is unavailable: {rt.unavailable_reason()}")
    devs = rt.devices()
    if idx:
        try:
            index = int(idx)
        except ValueError:
            raise DeviceError(f"bad device index in {spec_s!r}") from None
        match = [d for d in devs if d.index == index]
        if not match:
            raise DeviceError(f"{name} has no device {index} (it has {len(devs)})")
        d = match[0]
    else:
        d = rt.default_device()
    _DEVICE_CACHE[spec] = d
    return d
