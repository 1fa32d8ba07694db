"""Complex numbers taken apart and built (torch's names and semantics): the real and imaginary
parts as zero-copy views of the complex storage (writes go through), conj, angle, and complex /
polar from real parts. complex64 pairs with float32, complex128 with float64. A backend
without complex tensors (WebGPU) raises UnsupportedDType for every op that would make one."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from ...tensor import Tensor


@runtime_checkable
class ComplexOps(Protocol):
    def real(self, x: Tensor) -> Tensor:
        """The real parts of complex x as a view (strides doubled in the real dtype, same
        storage: ``z.real[...] = 1`` writes z); a real x is returned itself (NumPy, torch)."""
    def imag(self, x: Tensor) -> Tensor:
        """The imaginary parts of complex x as a view (offset + 1); a real x raises DTypeError,
        as torch (NumPy would return zeros)."""
    def view_as_real(self, x: Tensor) -> Tensor:
        """Complex x of shape s as a real view of shape (*s, 2) holding (re, im) pairs."""
    def view_as_complex(self, x: Tensor) -> Tensor:
        """A float32/float64 x of shape (*s, 2) (last stride 1, even offset and strides) as a
        complex view of shape s; other layouts raise ShapeError."""
    def conj(self, x: Tensor) -> Tensor:
        """The complex conjugate (a new tensor); a real x is returned itself."""
    def conj_physical(self, x: Tensor) -> Tensor:
        """conj (numr has no lazy conjugate bit: conj always computes)."""
    def angle(self, x: Tensor) -> Tensor:
        """The argument atan2(imag, real) in the real dtype; real x gives 0 or pi (pi for
        negatives and -0.0, as NumPy's angle; torch gives 0 for -0.0), NaN stays NaN, and
        bool/integers give float64."""
    def complex(self, real: Tensor, imag: Tensor) -> Tensor:
        """real + i imag (torch.complex): two tensors of one dtype, float32 -> complex64 or
        float64 -> complex128, broadcast together; other dtypes raise DTypeError (numr has no
        complex32, so float16/bfloat16 are not promoted: cast them to float32 first)."""
    def polar(self, abs: Any, angle: Any) -> Tensor:  # noqa: A002  (torch's argument name)
        """abs * (cos(angle) + i sin(angle)) (torch.polar), dtypes as ``complex``."""
