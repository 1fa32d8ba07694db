"""wgpu utility ops: fill_ and clamp."""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np

from ... import dtypes as dt
from ...errors import DTypeError
from ...ops import prepare
from ...tensor import Tensor
from .. import launch
from .. import template as tpl

PARAM_TYPE = {"f32": "f32", "f64": "f64", "i32": "i32", "u32": "u32", "i64": "i64", "u64": "u64"}


def host_value(value: Any, d: dt.DType, op: str = "fill_") -> Any:
    """A Python scalar as ``d``'s value, given as a Python number of d's compute type
    (integers must fit an integer dtype, floats to integers follow the cast rule,
    bool is value != 0)."""
    if isinstance(value, np.generic):
        value = value.item()
    if not isinstance(value, (bool, int, float, complex)):
        raise DTypeError(f"{op}: cannot use a value of type {type(value).__name__} as a scalar")
    if isinstance(value, complex):
        if d.kind != "c":
            value = value.real
    if isinstance(value, int) and not isinstance(value, bool) and d.is_integer:
        info = np.iinfo(d.np)
        if not info.min <= value <= info.max:
            raise DTypeError(f"{op}: value {value} is out of range for {d} [{info.min}, {info.max}]")
    if d is dt.bool_:
        return int(bool(value))
    if d.kind in "iu":
        if isinstance(value, float):
            v = float(value)
            if v != v:
                return 0
            info = np.iinfo(d.np)
            if v >= info.max:
                return int(info.max)
            if v <= info.min:
                return int(info.min)
            return int(v)
        bits = d.itemsize * 8
        v = int(value) & ((1 << bits) - 1)
        if d.kind == "i" and v >= 1 << (bits - 1):
            v -= 1 << bits
        return v
    v = np.array(float(value), np.float64).astype(d.np)
    if d is dt.bfloat16:
        v = np.array(v, ml_dtypes.bfloat16)
    return float(v.astype(np.float64))


class UtilityWgpu:
    """Mixin of WgpuClient: fill_ and clamp."""

    def fill_(self, x: Tensor, value: Any, _op: str = "fill_") -> Tensor:
        if isinstance(value, Tensor):
            return self.copy_(x, value)
        prepare.check_device("fill_", self, x)
        prepare.check_copy_destination(x, _op)
        k = launch.kind(self, x.dtype, _op)
        v = host_value(value, x.dtype, _op)
        if k.conv == "w64":  # widened int64: the value must fit the 32-bit compute type
            lo, hi = (-(1 << 31), 1 << 31) if k.signed else (0, 1 << 32)
            if not lo <= v < hi:
                from ...errors import UnsupportedDType
                raise UnsupportedDType("wgpu", _op, x.dtype, f"value {value} needs shader-int64")
        fields = [("v", PARAM_TYPE[k.ct])]
        return launch.elementwise(self, ("fill_",), x, [],
                                  lambda: {"body": tpl.sections("creation.wgsl")["fill"], "fields": fields},
                                  values={"v": v}, kinds=[k])

    def clamp(self, x: Tensor, min: Any = None, max: Any = None) -> Tensor:
        if min is None and max is None:
            raise DTypeError("clamp: at least one of min and max must be given")
        name = "clamp" if min is not None and max is not None else ("clamp_lo" if min is not None else "clamp_hi")
        operands = [x] + [b for b in (min, max) if b is not None]
        ins, shape, compute, out_dtype = prepare.elementwise("clamp", self, operands)
        if compute.is_complex:
            raise DTypeError(f"clamp: dtype {compute} is not supported: complex numbers are not ordered")
        out = self.empty(shape, compute)
        k = launch.kind(self, compute, "clamp")
        part = launch.section(self, "utility.wgsl", name, k, "clamp", compute)
        args = ", ".join(f"ld_{n}(k.{c})" for n, c in zip("abc", "yzw", strict=False) if n in "abc"[:len(ins)])
        body = f"st_o(k.x, op({args}));"
        launch.elementwise(self, ("clamp", name), out, ins, lambda: {"body": body, "parts": [part]})
        return out if out_dtype is compute else self.cast(out, out_dtype)
