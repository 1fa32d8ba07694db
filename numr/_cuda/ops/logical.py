"""CUDA logical ops (kernels/logical.cu)."""

from __future__ import annotations

from typing import Any

from ...ops import prepare
from ...tensor import Tensor
from ._base import ew
from .binary import binary


class LogicalCuda:
    """Mixin of CudaClient: logical_and/or/xor/not (bool results)."""

    def logical_and(self, a: Any, b: Any) -> Tensor:
        return binary(self, "logical", "logical_and", [a, b])

    def logical_or(self, a: Any, b: Any) -> Tensor:
        return binary(self, "logical", "logical_or", [a, b])

    def logical_xor(self, a: Any, b: Any) -> Tensor:
        return binary(self, "logical", "logical_xor", [a, b])

    def logical_not(self, x: Any) -> Tensor:
        x, compute, out_dtype = prepare.unary("logical_not", self, x)
        return ew(self, "logical", compute, "logical_not", self.empty(x.shape, out_dtype), [x])
