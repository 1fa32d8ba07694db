"""wgpu where: a select over bit patterns (any dtype) with broadcasting."""

from __future__ import annotations

from typing import Any

from ... import dtypes as dt
from ...ops import prepare
from ...tensor import Tensor
from .. import launch
from .. import template as tpl


class ConditionalWgpu:
    """Mixin of WgpuClient: where."""

    def where(self, cond: Any, a: Any, b: Any) -> Tensor:
        cond = prepare.to_operand("where", self, cond)
        if not isinstance(cond, Tensor):
            cond = self.full((), cond, dt.bool_)
        if cond.dtype is not dt.bool_:
            cond = self.cast(cond, dt.bool_)
        (a, b), shape, compute, out_dtype = prepare.elementwise("where", self, [a, b])
        shape = prepare.broadcast_shapes(cond.shape, shape, op="where")
        ins = [cond.broadcast_to(shape), a.broadcast_to(shape), b.broadcast_to(shape)]
        out = self.empty(shape, out_dtype)
        kb = tpl.bits_kind(out_dtype)
        kinds = [kb, launch.kind(self, dt.bool_, "where"), kb, kb]
        launch.kind(self, out_dtype, "where")
        body = tpl.sections("binary.wgsl")["where"]
        return launch.elementwise(self, ("where",), out, ins, lambda: {"body": body}, kinds=kinds)
