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
    x = prepare.as_tensor(name, client, x)
    d = prepare.single_dim(name, x, dim)
    _, out_dtype = generic.act_dtypes(name, x.dtype)
    kd = _compute(out_dtype, native)
    return (x if x.dtype is kd else client.cast(x, kd)), d, kd, out_dtype


def gelu_kernel(op: str, approximate: str) -> str:
    """Kernel name of gelu, gelu_mul or gelu_mul_bwd: the tanh form is gelu_tanh..."""
    return op.replace("gelu", "gelu_tanh", 1) if generic.check_approximate(op, approximate) else op


def gated_mixin(launch: Any) -> type:
    """Base of a backend's activation mixin: the gated forms and their backward, each calling
    ``launch(client, op, kernel, operands, n_outputs)`` (the backend's fused-kernel launcher)."""

    class GatedMixin:
        def silu_mul(self, gate: Any, up: Any) -> Any:
            return launch(self, "silu_mul", "silu_mul", [gate, up], 1)[0]

        def gelu_mul(self, gate: Any, up: Any, approximate: str = "none") -> Any:
            return launch(self, "gelu_mul", gelu_kernel("gelu_mul", approximate), [gate, up], 1)[0]

        def relu_mul(self, gate: Any, up: Any) -> Any:
            return launch(self, "relu_mul", "relu_mul", [gate, up], 1)[0]

        def sigmoid_mul(self, gate: Any, up: Any) -> Any:
            return launch(self, "sigmoid_mul", "sigmoid_mul", [gate, up], 1)[0]

        def silu_mul_bwd(self, grad: Any, gate: Any, up: Any) -> tuple[Any, Any]:
            return tuple(launch(self, "silu_mul_bwd", "silu_mul_bwd", [grad, gate, up], 2))

        def gelu_mul_bwd(self, grad: Any, gate: Any, up: Any, approximate: str = "none") -> tuple[Any, Any]:
            k = gelu_kernel("gelu_mul_bwd", approximate)
            return tuple(launch(self, "gelu_mul_bwd", k, [grad, gate, up], 2))

        def relu_mul_bwd(self, grad: Any, gate: Any, up: Any) -> tuple[Any, Any]:
            return tuple(launch(self, "relu_mul_bwd", "relu_mul_bwd", [grad, gate, up], 2))

        def sigmoid_mul_bwd(self, grad: Any, gate: Any, up: Any) -> tuple[Any, Any]:
            return tuple(launch(self, "sigmoid_mul_bwd", "sigmoid_mul_bwd", [grad, gate, up], 2))

    return GatedMixin
