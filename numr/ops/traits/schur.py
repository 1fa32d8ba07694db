"""The Schur decomposition and what is built on it (scipy.linalg semantics): schur, rsf2csf, funm
and the generalized Schur form qz (behind eig(A, B)), batched over leading dims, float32/float64/
complex64/complex128 (float16/bfloat16 computed in float32). The CPU runs native kernels (eig's
Hessenberg reduction and QR iterations with the Schur vectors kept; complex QZ); rsf2csf also has
a composite the GPUs run; schur, funm and qz raise UnsupportedOperation on wgpu and cuda. NaN or
inf input gives all-NaN results (scipy's check_finite raises ValueError instead). No gradients
(torch has none either)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, runtime_checkable

from ...tensor import Tensor


@runtime_checkable
class SchurOps(Protocol):
    def schur(self, a: Tensor, output: str = "real") -> tuple[Tensor, Tensor]:
        """(T, Z) with a = Z T Z^H, Z unitary: output "real" gives the real quasi-triangular form
        of a real matrix (complex pairs as standardised 2x2 blocks, equal diagonal, as LAPACK's),
        "complex" the upper triangular form (real input computed in complex)."""
    def rsf2csf(self, T: Tensor, Z: Tensor) -> tuple[Tensor, Tensor]:
        """The complex Schur form (T', Z') from a real one (scipy.linalg.rsf2csf): each 2x2 block
        made triangular by a complex Givens rotation, Z' T' Z'^H = Z T Z^T."""
    def funm(self, a: Tensor, func: Callable[[Tensor], Tensor]) -> Tensor:
        """f(a) for the element-wise numr function ``func`` (scipy.linalg.funm): the Schur-Parlett
        recurrence on the complex Schur form (inaccurate for close eigenvalues, as scipy's); a real
        a gives a real result (the imaginary part dropped), complex a complex."""
    def qz(self, A: Tensor, B: Tensor, output: str = "real") -> tuple[Tensor, Tensor, Tensor, Tensor]:
        """(AA, BB, Q, Z) with A = Q AA Z^H, B = Q BB Z^H, Q and Z unitary, BB upper triangular with a
        non-negative diagonal (scipy.linalg.qz): Hessenberg-triangular reduction and Moler-Stewart
        QZ; output "real" (real input) double-shift, AA quasi-triangular with each complex pair a
        2x2 block whose BB block is diagonal positive (as dgges); "complex" (or complex input)
        single-shift, AA triangular, BB's diagonal real. Zeros on B's diagonal deflate as infinite
        eigenvalues; batch dims broadcast."""
