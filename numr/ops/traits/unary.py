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
    def signbit(self, x: Tensor) -> Tensor: """Sign bit set (bool; True for -0.0 and negative NaNs)."""
    def frexp(self, x: Tensor) -> tuple[Tensor, Tensor]:
        """(mantissa, exponent): x = m * 2**e, 0.5 <= |m| < 1, e int32; 0, inf and NaN give (x, 0)."""
    def nan_to_num(self, x: Tensor, nan: float = 0.0, posinf: float | None = None,
                   neginf: float | None = None) -> Tensor:
        """NaN -> nan, +inf -> posinf, -inf -> neginf (defaults: the dtype's max and min);
        integers and bool are copied, complex parts are replaced separately."""
    def deg2rad(self, x: Tensor) -> Tensor: """Degrees to radians (x * pi / 180)."""
    def rad2deg(self, x: Tensor) -> Tensor: """Radians to degrees (x * 180 / pi)."""
    def radians(self, x: Tensor) -> Tensor: """Alias of deg2rad (NumPy)."""
    def degrees(self, x: Tensor) -> Tensor: """Alias of rad2deg (NumPy)."""
    def fix(self, x: Tensor) -> Tensor: """Alias of trunc (round toward 0)."""
    def positive(self, x: Tensor) -> Tensor: """+x: a copy (bool is an error, as NumPy)."""
    def spacing(self, x: Tensor) -> Tensor:
        """Distance from x to the next float away from 0, signed as x (NumPy; NaN at inf)."""
