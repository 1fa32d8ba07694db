"""Element-wise binary ops with NumPy broadcasting and one promotion table.
Either operand may be a Python scalar (a weak type)."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from ...tensor import Tensor

Operand = "Tensor | bool | int | float | complex"


@runtime_checkable
class BinaryOps(Protocol):
    def add(self, a: Operand, b: Operand) -> Tensor: """a + b (bool: logical or)."""
    def sub(self, a: Operand, b: Operand) -> Tensor: """a - b."""
    def mul(self, a: Operand, b: Operand) -> Tensor: """a * b (bool: logical and)."""
    def div(self, a: Operand, b: Operand) -> Tensor: """True division; integers give the default float."""
    def floor_divide(self, a: Operand, b: Operand) -> Tensor: """floor(a / b); integer division by 0 gives 0."""
    def remainder(self, a: Operand, b: Operand) -> Tensor:
        """a - floor(a/b)*b, sign of b (Python's %); integer x % 0 gives 0."""
    def pow(self, a: Operand, b: Operand) -> Tensor:
        """a ** b; integer negative powers give 0 except for bases 1 and -1."""
    def maximum(self, a: Operand, b: Operand) -> Tensor: """Element-wise max, NaN-propagating."""
    def minimum(self, a: Operand, b: Operand) -> Tensor: """Element-wise min, NaN-propagating."""
    def atan2(self, a: Operand, b: Operand) -> Tensor: """Angle of (b, a) in radians."""
    def hypot(self, a: Operand, b: Operand) -> Tensor: """sqrt(a*a + b*b) without overflow."""
    def bitwise_and(self, a: Operand, b: Operand) -> Tensor: """a & b (bool and integers)."""
    def bitwise_or(self, a: Operand, b: Operand) -> Tensor: """a | b (bool and integers)."""
    def bitwise_xor(self, a: Operand, b: Operand) -> Tensor: """a ^ b (bool and integers)."""
    def fma(self, a: Operand, b: Operand, c: Operand) -> Tensor: """Fused a * b + c (one rounding for floats)."""
