"""wgpu logical ops: operands read as truth values, bool results."""

from __future__ import annotations

from typing import Any

from ...ops import prepare
from ...tensor import Tensor
from .binary import binary, run_op


class LogicalWgpu:
    """Mixin of WgpuClient: the logical ops."""

    def logical_and(self, a: Any, b: Any) -> Tensor: return binary(self, "logical_and", [a, b])
    def logical_or(self, a: Any, b: Any) -> Tensor: return binary(self, "logical_or", [a, b])
    def logical_xor(self, a: Any, b: Any) -> Tensor: return binary(self, "logical_xor", [a, b])

    def logical_not(self, x: Any) -> Tensor:
        x, compute, out = prepare.unary("logical_not", self, x)
        return run_op(self, "logical_not", "unary.wgsl", [x], x.shape, compute, out)
