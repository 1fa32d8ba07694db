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
    def fmod(self, a: Operand, b: Operand) -> Tensor:
        """C fmod: a - trunc(a/b)*b, sign of a; integer fmod by 0 gives 0 (numr's division rule)."""
    def copysign(self, a: Operand, b: Operand) -> Tensor: """|a| with the sign bit of b (floats)."""
    def nextafter(self, a: Operand, b: Operand) -> Tensor: """The next float after a toward b."""
    def ldexp(self, x: Operand, n: Operand) -> Tensor: """x * 2**n exactly, n an integer tensor or int."""
    def gcd(self, a: Operand, b: Operand) -> Tensor: """Greatest common divisor of integers (>= 0; gcd(0, 0) = 0)."""
    def lcm(self, a: Operand, b: Operand) -> Tensor: """Least common multiple of integers, |a / gcd * b|."""
    def heaviside(self, x: Operand, values: Operand) -> Tensor:
        """0 where x < 0, values where x == 0, 1 where x > 0 (NaN stays NaN)."""
    def logaddexp(self, a: Operand, b: Operand) -> Tensor: """log(exp(a) + exp(b)) without overflow."""
    def logaddexp2(self, a: Operand, b: Operand) -> Tensor: """log2(2**a + 2**b) without overflow."""
    def float_power(self, a: Operand, b: Operand) -> Tensor:
        """a ** b in float64 (complex128 if either is complex), as NumPy/torch."""
