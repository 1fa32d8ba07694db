"""Linear-algebra basics: tensor contractions, products, diagonals and triangles."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from ...tensor import Tensor


@runtime_checkable
class LinalgOps(Protocol):
    def tensordot(self, a: Tensor, b: Tensor, dims: int | Sequence[Sequence[int]] = 2) -> Tensor:
        """Sum over a's last ``dims`` dims against b's first ones, or over the dims of the pair
        of lists ``([a dims], [b dims])``; result shape: a's other dims, then b's."""
    def outer(self, a: Tensor, b: Tensor) -> Tensor:
        """out[i, j] = a[i] * b[j] for 1-d a and b."""
    def inner(self, a: Tensor, b: Tensor) -> Tensor:
        """Sum over the last dims of a and b (a 0-d operand multiplies); shape a[:-1] + b[:-1]."""
    def kron(self, a: Tensor, b: Tensor) -> Tensor:
        """Kronecker product: blocks a[i] * b; ranks padded with leading 1s to the larger."""
    def trace(self, x: Tensor) -> Tensor:
        """Sum of the main diagonal of a 2-d tensor (integers widen as in sum)."""
    def diagonal(self, x: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
        """The diagonal x[..., i, ..., i + offset] of dims dim1, dim2 as a view, appended last."""
    def diag(self, x: Tensor, diagonal: int = 0) -> Tensor:
        """1-d x: the square matrix with x on diagonal ``diagonal``; 2-d x: that diagonal (a copy)."""
    def diag_embed(self, x: Tensor, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:
        """Matrices (dims dim1, dim2 of the result) with x's last dim on diagonal ``offset``."""
    def tril(self, x: Tensor, diagonal: int = 0) -> Tensor:
        """x with the elements above diagonal ``diagonal`` of its last two dims zeroed."""
    def triu(self, x: Tensor, diagonal: int = 0) -> Tensor:
        """x with the elements below diagonal ``diagonal`` of its last two dims zeroed."""
    def matrix_power(self, A: Tensor, n: int) -> Tensor:
        """A^n for square matrices by repeated squaring (n < 0: powers of inv(A); 0: the identity)."""
    def matrix_exp(self, A: Tensor) -> Tensor:
        """The matrix exponential (scaling and squaring, degree-13 Pade; batched)."""
    def multi_dot(self, tensors: Sequence[Tensor]) -> Tensor:
        """The chain product in the cheapest order; 1-d first/last operands are vectors."""
    def cross(self, a: Tensor, b: Tensor, dim: int = -1) -> Tensor:
        """The cross product of 3-vectors along ``dim`` (broadcasting)."""
    def vecdot(self, x: Tensor, y: Tensor, dim: int = -1) -> Tensor:
        """sum(conj(x) * y) along ``dim`` (broadcasting)."""
    def vander(self, x: Tensor, N: int | None = None) -> Tensor:
        """(..., n, N) Vandermonde matrices of increasing powers x^0 .. x^(N-1)."""
    def tensorsolve(self, a: Tensor, b: Tensor, dims: Sequence[int] | None = None) -> Tensor:
        """x with tensordot(a, x, x.ndim) = b (numpy.linalg.tensorsolve)."""
    def tensorinv(self, a: Tensor, ind: int = 2) -> Tensor:
        """The inverse of a under tensordot over ``ind`` dims (numpy.linalg.tensorinv)."""
