"""Matrix functions (scipy.linalg's sqrtm, logm, signm, fractional_matrix_power, polar) and two
scipy.linalg structured helpers (khatri_rao, solve_banded). Composites over numr's public linear
algebra, so every backend runs them and autograd differentiates through their parts. Real input
whose principal root/logarithm is not real (an eigenvalue on the closed negative real axis)
gives NaN matrices: numr cannot switch to a complex dtype by data; pass complex input instead."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from ...tensor import Tensor


@runtime_checkable
class MatfuncOps(Protocol):
    def sqrtm(self, A: Tensor) -> Tensor:
        """The principal square root X (X @ X = A, eigenvalues in the right half plane), batched:
        on the CPU the Schur method (scipy's; a singular but rootable matrix gets its root), on the
        GPUs (and for autograd) the Denman-Beavers product iteration with determinant scaling (a
        singular matrix raises LinAlgError). A real matrix without a real principal root gives NaN."""
    def logm(self, A: Tensor) -> Tensor:
        """The principal logarithm: inverse scaling and squaring (sqrtm until ||A - I||_1 <= 1/2,
        then the Gregory series 2 atanh((A - I)(A + I)^-1), scaled back by 2^k); batched."""
    def signm(self, A: Tensor) -> Tensor:
        """The matrix sign function by the determinant-scaled Newton iteration (NaN where it does
        not converge: an eigenvalue on the imaginary axis)."""
    def fractional_matrix_power(self, A: Tensor, p: float) -> Tensor:
        """A^p: matrix_power for an integer-valued p, else expm(p logm(A))."""
    def polar_decomposition(self, A: Tensor, side: str = "right") -> tuple[Tensor, Tensor]:
        """(U, P) with A = U P (side "right") or A = P U ("left"), U with orthonormal columns/rows and P
        Hermitian positive semi-definite, from the SVD (scipy.linalg.polar; numr.linalg.polar)."""
    def khatri_rao(self, a: Tensor, b: Tensor) -> Tensor:
        """The column-wise Kronecker product of a (..., I, K) and b (..., J, K): (..., I*J, K)."""
    def solve_banded(self, l_and_u: tuple[int, int], ab: Tensor, b: Tensor) -> Tensor:
        """x with A x = b for the banded A in LAPACK band storage ab (l + u + 1, n), ab[u + i - j, j] =
        A[i, j] (scipy.linalg.solve_banded): block banded LU with partial pivoting, O(n max(l, u, 32)^2)
        work in n / max(l, u, 32) steps."""
