"""Matrix products with NumPy's matmul rules (1-d, 2-d, batched with broadcast batch dims)."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from ...tensor import Tensor


@runtime_checkable
class MatmulOps(Protocol):
    def matmul(self, a: Tensor, b: Tensor) -> Tensor: """a @ b."""
    def matmul_bias(self, a: Tensor, b: Tensor, bias: Tensor) -> Tensor:
        """a @ b + bias, bias broadcast over the result (one pass where fused)."""
