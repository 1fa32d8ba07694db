"""Logical ops: operands are read as truth values; results are bool."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from ...tensor import Tensor


@runtime_checkable
class LogicalOps(Protocol):
    def logical_and(self, a: Tensor, b: Tensor) -> Tensor: """a and b."""
    def logical_or(self, a: Tensor, b: Tensor) -> Tensor: """a or b."""
    def logical_xor(self, a: Tensor, b: Tensor) -> Tensor: """a xor b."""
    def logical_not(self, x: Tensor) -> Tensor: """not x."""
