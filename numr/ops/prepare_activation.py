"""Preparation of the activation ops shared by the backends: promoted, broadcast inputs of the
element-wise and gated forms, the row ops' input, and the gelu kernel names."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from .. import dtypes as dt
from ..dtypes import DType
from . import prepare
from .generic import activation as generic


def _compute(out_dtype: DType, native: Collection[DType] | None) -> DType:
    """The dtype a kernel runs in: the result dtype, or float32 where it is not ``native``."""
    return out_dtype if native is None or out_dtype in native else dt.float32


def elementwise(name: str, client: Any, operands: Sequence[Any], native: Collection[DType] | None = None):
    """(inputs cast to the compute dtype and broadcast, out shape, compute dtype, result dtype)."""
    ops = [prepare.to_operand(name, client, x) for x in operands]
    _, out_dtype = generic.act_dtypes(name, prepare.promoted(name, ops))
    kd = _compute(out_dtype, native)
    ins, shape, _, _ = prepare.elementwise(name, client, ops, compute=kd)
    return ins, shape, kd, out_dtype


def rows(name: str, client: Any, x: Any, dim: int, native: Collection[DType] | None = None):
    """softmax/log_softmax's (input as a tensor cast to the compute dtype, dim, compute, result dtype)."""
    from ..tensor import Tensor
    x = prepare.to_operand(name, client, x)
    if not isinstance(x, Tensor):
        from ..creation import tensor as make_tensor
        x = make_tensor(x, device=client.device)
    d = prepare.single_dim(name, x, dim)
    _, out_dtype = generic.act_dtypes(name, x.dtype)
    kd = _compute(out_dtype, native)
    return (x if x.dtype is kd else client.cast(x, kd)), d, kd, out_dtype


def gelu_kernel(op: str, approximate: str) -> str:
    """Kernel name of gelu, gelu_mul or gelu_mul_bwd: the tanh form is gelu_tanh..."""
    return op.replace("gelu", "gelu_tanh", 1) if generic.check_approximate(op, approximate) else op
