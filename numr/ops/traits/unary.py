"""Element-wise unary ops. Integers and bool map to the default float in the
float-valued ops; complex where the function is defined (see dtype_rules)."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from ...tensor import Tensor


@runtime_checkable
class UnaryOps(Protocol):
    def neg(self, x: Tensor) -> Tensor: """-x (integers wrap; bool is an error)."""
    def abs(self, x: Tensor) -> Tensor: """|x| (complex gives the real magnitude)."""
    def sign(self, x: Tensor) -> Tensor: """-1, 0 or 1 (NaN stays NaN; complex: x/|x|)."""
    def sqrt(self, x: Tensor) -> Tensor: """Square root (NaN below 0 for real input)."""
    def rsqrt(self, x: Tensor) -> Tensor: """1/sqrt(x)."""
    def square(self, x: Tensor) -> Tensor: """x*x in x's dtype."""
    def cbrt(self, x: Tensor) -> Tensor: """Real cube root."""
    def reciprocal(self, x: Tensor) -> Tensor: """1/x."""
    def exp(self, x: Tensor) -> Tensor: """e**x."""
    def exp2(self, x: Tensor) -> Tensor: """2**x."""
    def expm1(self, x: Tensor) -> Tensor: """e**x - 1, accurate near 0."""
    def log(self, x: Tensor) -> Tensor: """Natural logarithm."""
    def log2(self, x: Tensor) -> Tensor: """Base-2 logarithm."""
    def log10(self, x: Tensor) -> Tensor: """Base-10 logarithm."""
    def log1p(self, x: Tensor) -> Tensor: """log(1 + x), accurate near 0."""
    def sin(self, x: Tensor) -> Tensor: """Sine."""
    def cos(self, x: Tensor) -> Tensor: """Cosine."""
    def tan(self, x: Tensor) -> Tensor: """Tangent."""
    def asin(self, x: Tensor) -> Tensor: """Inverse sine."""
    def acos(self, x: Tensor) -> Tensor: """Inverse cosine."""
    def atan(self, x: Tensor) -> Tensor: """Inverse tangent."""
    def sinh(self, x: Tensor) -> Tensor: """Hyperbolic sine."""
    def cosh(self, x: Tensor) -> Tensor: """Hyperbolic cosine."""
    def tanh(self, x: Tensor) -> Tensor: """Hyperbolic tangent (no overflow for large |x|)."""
    def asinh(self, x: Tensor) -> Tensor: """Inverse hyperbolic sine."""
    def acosh(self, x: Tensor) -> Tensor: """Inverse hyperbolic cosine."""
    def atanh(self, x: Tensor) -> Tensor: """Inverse hyperbolic tangent."""
    def floor(self, x: Tensor) -> Tensor: """Round toward -inf (identity on integers)."""
    def ceil(self, x: Tensor) -> Tensor: """Round toward +inf (identity on integers)."""
    def round(self, x: Tensor) -> Tensor: """Round half to even, as NumPy."""
    def trunc(self, x: Tensor) -> Tensor: """Round toward 0."""
    def isnan(self, x: Tensor) -> Tensor: """NaN test (bool result)."""
    def isinf(self, x: Tensor) -> Tensor: """+-inf test (bool result)."""
    def isfinite(self, x: Tensor) -> Tensor: """Finite test (bool result)."""
    def bitwise_not(self, x: Tensor) -> Tensor: """~x for bool and integer tensors."""
