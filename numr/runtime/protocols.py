"""The backend contract: Runtime, Device and RuntimeClient.

A backend (built in or third party) provides a Runtime object, Device
objects and a client per device whose methods are the op families of
``numr.ops.traits``. Storage is opaque to the core: only the runtime that
made it reads or writes it.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import numpy as np

from ..dtypes import DType


class Device:
    """A device of one runtime: ``Device("cpu", 0)`` prints as ``cpu``, others as ``name:index``."""

    __slots__ = ("runtime_name", "index", "_client", "_runtime")

    def __init__(self, runtime_name: str, index: int = 0):
        self.runtime_name = runtime_name
        self.index = index
        self._client = None
        self._runtime = None

    @property
    def type(self) -> str:
        return self.runtime_name

    @property
    def runtime(self) -> Runtime:
        if self._runtime is None:
            from .registry import get
            self._runtime = get(self.runtime_name)
        return self._runtime

    @property
    def client(self) -> Any:
        c = self._client
        if c is None:
            c = self._client = self.runtime.client(self)
        return c

    def __str__(self) -> str:
        return "cpu" if self.runtime_name == "cpu" else f"{self.runtime_name}:{self.index}"

    def __repr__(self) -> str:
        return f"device('{self}')"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, str):
            from .registry import device as _parse
            try:
                other = _parse(other)
            except Exception:
                return False
        return isinstance(other, Device) and other.runtime_name == self.runtime_name and other.index == self.index

    def __hash__(self) -> int:
        return hash((self.runtime_name, self.index))


@runtime_checkable
class Runtime(Protocol):
    """One backend. Keyed by device, not by client, like the Rust trait."""

    name: str

    def is_available(self) -> bool: ...
    def unavailable_reason(self) -> str | None: ...
    def devices(self) -> list[Device]: ...
    def default_device(self) -> Device: ...
    def device_info(self, device: Device) -> dict[str, Any]: ...
    def supported_dtypes(self, device: Device) -> frozenset[DType]: ...
    def client(self, device: Device | None = None) -> RuntimeClient:
        """The cached client of ``device`` (default: the default device)."""

    # storage: opaque objects owned by the runtime
    def allocate(self, numel: int, dtype: DType, device: Device) -> Any: ...
    def from_numpy(self, array: np.ndarray, device: Device) -> Any:
        """Storage holding a C-contiguous array's elements (zero copy where possible)."""
    def to_numpy(self, tensor: Any) -> np.ndarray:
        """The tensor's values on the host with its shape (a view on the CPU)."""
    def synchronize(self, device: Device) -> None: ...
    def supports_graph_capture(self) -> bool: ...


@runtime_checkable
class RuntimeClient(Protocol):
    """The ops of one device. Implements the op-family protocols it supports."""

    device: Device

    def synchronize(self) -> None: ...
