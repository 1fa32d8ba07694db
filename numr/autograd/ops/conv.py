"""Reverse mode for convolution and pooling. unfold and fold are each other's adjoint, so each
has a rule calling the other (through the public function: a Var gradient stays
differentiable, for higher order); the convs and pools are composites of public ops and
take their gradients from those rules (conv2d: pad, unfold, matmul, reshape, add)."""

from __future__ import annotations

from typing import Any

from ...ops import api
from ...ops.generic.conv import COMPOSITES as CONV
from ...ops.generic.conv_pool import COMPOSITES as POOL
from ..var import Var
from ._common import record, register, tensor_call, unwrap

for _name, _fn in {**CONV, **POOL}.items():
    register(_name)(_fn)


def _unfold_vjp(g, args, out, need, extra):
    return [api.call("fold", (g, *extra), {})]


def _fold_vjp(g, args, out, need, extra):
    return [api.call("unfold", (g, *extra), {})]


@register("unfold")
def var_unfold(x: Any, kernel_size: Any, dilation: Any = 1, padding: Any = 0, stride: Any = 1) -> Var:
    out = tensor_call("unfold", (x, kernel_size, dilation, padding, stride))
    hw = tuple(unwrap(x).shape[-2:])
    return record("unfold", (x,), out, _unfold_vjp, save_args=False, extra=(hw, kernel_size, dilation, padding, stride))


@register("fold")
def var_fold(x: Any, output_size: Any, kernel_size: Any, dilation: Any = 1, padding: Any = 0, stride: Any = 1) -> Var:
    out = tensor_call("fold", (x, output_size, kernel_size, dilation, padding, stride))
    return record("fold", (x,), out, _fold_vjp, save_args=False, extra=(kernel_size, dilation, padding, stride))


__all__ = ["var_unfold", "var_fold"]
