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


def host_value(value: Any, d: dt.DType) -> Any:
    """A Python scalar as ``d``'s value, given as a Python number of d's compute type
    (integers wrap, floats to integers follow the cast rule, bool is value != 0)."""
    if isinstance(value, complex) or isinstance(value, np.complexfloating):
        if d.kind != "c":
            raise DTypeError(f"fill: cannot store complex {value!r} in a {d} tensor")
    if d is dt.bool_:
        return int(bool(value))
    if d.kind in "iu":
        if isinstance(value, float) or isinstance(value, np.floating):
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

    def fill_(self, x: Tensor, value: Any) -> Tensor:
        prepare.check_device("fill_", self, x)
        k = launch.kind(self, x.dtype, "fill_")
        v = host_value(value, x.dtype)
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
        if compute is dt.bool_:
            raise DTypeError("clamp: dtype bool is not supported")
        out = self.empty(shape, out_dtype)
        k = launch.kind(self, compute, "clamp")
        part = launch.section(self, "utility.wgsl", name, k, "clamp", compute)
        args = ", ".join(f"ld_{n}(k.{c})" for n, c in zip("abc", "yzw") if n in "abc"[:len(ins)])
        body = f"st_o(k.x, op({args}));"
        return launch.elementwise(self, ("clamp", name), out, ins, lambda: {"body": body, "parts": [part]})
