"""matmul_bias as matmul + add, for backends without a fused epilogue."""

from __future__ import annotations

from typing import Any


def matmul_bias(self: Any, a: Any, b: Any, bias: Any) -> Any:
    return self.add(self.matmul(a, b), bias)
