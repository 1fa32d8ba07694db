"""Comparisons. Results are bool tensors; operands broadcast and promote."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from ...tensor import Tensor


@runtime_checkable
class CompareOps(Protocol):
    def eq(self, a: Tensor, b: Tensor) -> Tensor: """a == b."""
    def ne(self, a: Tensor, b: Tensor) -> Tensor: """a != b."""
    def lt(self, a: Tensor, b: Tensor) -> Tensor: """a < b."""
    def le(self, a: Tensor, b: Tensor) -> Tensor: """a <= b."""
    def gt(self, a: Tensor, b: Tensor) -> Tensor: """a > b."""
    def ge(self, a: Tensor, b: Tensor) -> Tensor: """a >= b."""
    def isclose(self, a: Tensor, b: Tensor, rtol: float = 1e-05, atol: float = 1e-08,
                equal_nan: bool = False) -> Tensor: """|a - b| <= atol + rtol*|b| (NumPy's definition)."""
    def allclose(self, a: Tensor, b: Tensor, rtol: float = 1e-05, atol: float = 1e-08,
                 equal_nan: bool = False) -> bool: """isclose everywhere (a Python bool)."""
