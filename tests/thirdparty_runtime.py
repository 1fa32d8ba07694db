"""A small third-party numr runtime, defined outside ``numr/`` as a plugin would be.

"toy" keeps its storage in NumPy arrays (allowed here: this is not numr) and
implements only a few ops: creation, cast/copy/fill, add/sub/mul/div, sum.
Everything else must surface as numr's UnsupportedOperation, and the generic
composites (mean, matmul_bias, cat, ...) must run on it unchanged.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import numr as nr
from numr.errors import UnsupportedDType
from numr.layout import Layout
from numr.ops import prepare
from numr.ops.generic import GenericOps
from numr.runtime import Device
from numr.tensor import Tensor

SUPPORTED = frozenset({nr.bool_, nr.int32, nr.int64, nr.float32, nr.float64})


def _np(t: Tensor) -> np.ndarray:
    """A strided NumPy view of a toy tensor's storage."""
    lay, size = t._layout, t.dtype.itemsize
    if lay.numel == 0:
        return np.empty(lay.shape, t.dtype.np)
    return np.ndarray(lay.shape, t.dtype.np, buffer=t._storage, offset=lay.offset * size,
                      strides=tuple(s * size for s in lay.strides))


class ToyClient(GenericOps):
    """The ops of a toy device (a few primitives; composites from GenericOps)."""

    backend = "toy"

    def __init__(self, device: Device):
        self.device = device

    def synchronize(self) -> None:
        return None

    def _check(self, op: str, d: nr.DType) -> None:
        if d not in SUPPORTED:
            raise UnsupportedDType("toy", op, d)

    def _wrap(self, a: np.ndarray, d: nr.DType) -> Tensor:
        a = np.array(a, dtype=d.np, order="C", copy=True)
        return Tensor(a.reshape(-1), Layout(a.shape), d, self.device)

    # creation / conversion (used by the shared code)
    def empty(self, shape: tuple[int, ...], dtype: nr.DType) -> Tensor:
        self._check("empty", dtype)
        return self._wrap(np.empty(shape, dtype.np), dtype)

    def full(self, shape: tuple[int, ...], value: Any, dtype: nr.DType) -> Tensor:
        self._check("full", dtype)
        return self._wrap(np.full(shape, value, dtype.np), dtype)

    def arange(self, start: float, step: float, n: int, dtype: nr.DType) -> Tensor:
        self._check("arange", dtype)
        return self._wrap(start + step * np.arange(n), dtype)

    def cast(self, x: Tensor, dtype: nr.DType) -> Tensor:
        self._check("cast", x.dtype)
        self._check("cast", dtype)
        return self._wrap(_np(x).astype(dtype.np), dtype)

    def copy_(self, dst: Tensor, src: Tensor) -> Tensor:
        prepare.check_device("copy_", self, dst, src)
        self._check("copy_", dst.dtype)
        s = np.broadcast_to(_np(src), dst.shape).astype(dst.dtype.np)  # validated (and copied) before writing
        _np(dst)[...] = s
        return dst

    def fill_(self, x: Tensor, value: Any) -> Tensor:
        self._check("fill_", x.dtype)
        _np(x)[...] = value
        return x

    # arithmetic through numr's shared preparation
    def _binary(self, op: str, fn: Any, a: Any, b: Any) -> Tensor:
        (x, y), shape, compute, out = prepare.elementwise(op, self, (a, b))
        self._check(op, compute)
        return self._wrap(fn(_np(x), _np(y)), out)

    def add(self, a: Any, b: Any) -> Tensor:
        return self._binary("add", np.add, a, b)

    def sub(self, a: Any, b: Any) -> Tensor:
        return self._binary("sub", np.subtract, a, b)

    def mul(self, a: Any, b: Any) -> Tensor:
        return self._binary("mul", np.multiply, a, b)

    def div(self, a: Any, b: Any) -> Tensor:
        return self._binary("div", np.true_divide, a, b)

    def sum(self, x: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:
        prepare.check_device("sum", self, x)
        plan = prepare.reduction("sum", x, dim)
        out = nr.ops.dtype_rules.sum_dtype(x.dtype)
        self._check("sum", out)
        r = _np(x).sum(axis=plan.dims, dtype=out.np, keepdims=True).reshape(plan.result_shape(keepdim))
        return self._wrap(r, out)


class ToyRuntime:
    """Runtime protocol of the toy backend: one device, host memory."""

    def __init__(self, name: str = "toy") -> None:
        self.name = name
        self._device = Device(name, 0)
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
        return {"name": "toy (NumPy)"}

    def supported_dtypes(self, device: Device) -> frozenset:
        return SUPPORTED

    def client(self, device: Device | None = None) -> ToyClient:
        dev = self._device if device is None else device
        if dev._client is None:
            dev._client = ToyClient(dev)
        return dev._client

    def allocate(self, numel: int, dtype: nr.DType, device: Device) -> np.ndarray:
        return np.empty(numel, dtype.np)

    def from_numpy(self, array: np.ndarray, device: Device) -> np.ndarray:
        return np.array(array, copy=True).reshape(-1)

    def to_numpy(self, tensor: Tensor) -> np.ndarray:
        return _np(tensor)

    def synchronize(self, device: Device) -> None:
        return None

    def supports_graph_capture(self) -> bool:
        return False

    def dlpack(self, tensor: Tensor, **kwargs: Any) -> Any:
        from numr.errors import UnsupportedOperation
        raise UnsupportedOperation("toy", "__dlpack__")

    def dlpack_device(self, tensor: Tensor) -> tuple[int, int]:
        return (1, 0)


def make_runtime() -> ToyRuntime:
    """The factory an entry point would name."""
    return ToyRuntime("toy_ep")
