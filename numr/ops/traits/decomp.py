"""Dense decompositions and solvers (torch.linalg semantics): batched over leading dims,
float32/float64/complex64/complex128 (float16/bfloat16 computed in float32). Singular or
non-positive-definite input raises numr.LinAlgError naming the op and the batch element; NaN
propagates through solve, makes every output of eigh/svd NaN and fails cholesky. The CPU runs
native kernels; wgpu and cuda run composites of public ops on the device
(numr/ops/generic/decomp_blocked.py, decomp_jacobi.py: blocked LU/Cholesky/triangular solves,
Householder QR, Jacobi eigh/svd), real dtypes only (complex raises UnsupportedDType there)."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from ...tensor import Tensor


@runtime_checkable
class DecompOps(Protocol):
    def solve(self, A: Tensor, B: Tensor, left: bool = True) -> Tensor:
        """X with A X = B (X A = B when not ``left``); B (..., n, k) or a vector (..., n)."""
    def solve_triangular(self, A: Tensor, B: Tensor, upper: bool, left: bool = True,
                         unitriangular: bool = False) -> Tensor:
        """X with A X = B (X A = B when not ``left``) reading only A's upper or lower triangle."""
    def lu_factor(self, A: Tensor) -> tuple[Tensor, Tensor]:
        """(LU, pivots): P A = L U packed in one matrix, pivots int32 1-based (LAPACK's)."""
    def lu(self, A: Tensor, pivot: bool = True) -> tuple[Tensor, Tensor, Tensor]:
        """(P, L, U) with A = P L U, L unit lower, for square matrices (pivot=True only)."""
    def inv(self, A: Tensor) -> Tensor:
        """The inverse of square matrices."""
    def det(self, A: Tensor) -> Tensor:
        """The determinant (0 for a singular matrix)."""
    def slogdet(self, A: Tensor) -> tuple[Tensor, Tensor]:
        """(sign, log|det|); a singular matrix gives (0, -inf)."""
    def cholesky(self, A: Tensor, upper: bool = False) -> Tensor:
        """L with A = L L^H (lower triangle of A read), or U = L^H when ``upper``."""
    def qr(self, A: Tensor, mode: str = "reduced") -> tuple[Tensor, Tensor]:
        """(Q, R) by Householder reflections; mode "reduced", "complete" or "r" (Q empty)."""
    def eigh(self, A: Tensor, UPLO: str = "L") -> tuple[Tensor, Tensor]:
        """(w, V) of a Hermitian matrix (the UPLO triangle read): ascending w, A V = V diag(w)."""
    def eigvalsh(self, A: Tensor, UPLO: str = "L") -> Tensor:
        """The ascending eigenvalues of a Hermitian matrix."""
    def eig(self, A: Tensor, B: Tensor | None = None, homogeneous_eigvals: bool = False) -> tuple[Tensor, Tensor]:
        """(w, V) of a general square matrix, complex always (complex64 for float32): A V = V diag(w),
        V's columns of unit 2-norm; the order as off the Schur form. With B (scipy.linalg.eig's b,
        CPU only, no gradient): the generalized problem A V = B V diag(w) off the complex QZ form, w
        inf where beta = 0 (NaN for 0/0); ``homogeneous_eigvals``: w as the (..., 2, n) rows
        (alpha, beta), w = alpha / beta (beta = 1 without B)."""
    def eigvals(self, A: Tensor, B: Tensor | None = None, homogeneous_eigvals: bool = False) -> Tensor:
        """The complex eigenvalues of a general square matrix or pencil (as eig's w)."""
    def svd(self, A: Tensor, full_matrices: bool = True) -> tuple[Tensor, Tensor, Tensor]:
        """(U, S, Vh) with A = U diag(S) Vh, S descending."""
    def svdvals(self, A: Tensor) -> Tensor:
        """The singular values, descending."""
    def lstsq(self, A: Tensor, B: Tensor) -> Tensor:
        """The least-squares (m >= n) or minimum-norm (m < n) solution of A X = B for full-rank A."""
    def pinv(self, A: Tensor, rtol: float | None = None, hermitian: bool = False) -> Tensor:
        """The Moore-Penrose pseudo-inverse (singular values <= rtol * max dropped; rtol defaults
        to max(m, n) * eps; ``hermitian`` is accepted, the SVD serves either way)."""
    def matrix_norm(self, A: Tensor, ord: str | float = "fro", dim: tuple[int, int] = (-2, -1),
                    keepdim: bool = False) -> Tensor:
        """Matrix norm over ``dim``: "fro", "nuc", 2, -2, 1, -1, inf, -inf."""
    def matrix_rank(self, A: Tensor, atol: float | None = None, rtol: float | None = None,
                    hermitian: bool = False) -> Tensor:
        """The number of singular values above max(atol, rtol * largest) (int64; ``hermitian`` is
        accepted, the SVD serves either way)."""
    def cond(self, A: Tensor, p: str | float | None = None) -> Tensor:
        """The condition number in the norm ``p`` (None: 2, the ratio of singular values)."""
    def lu_solve(self, LU: Tensor, pivots: Tensor, B: Tensor, left: bool = True, adjoint: bool = False) -> Tensor:
        """X with A X = B (A^H X = B when ``adjoint``, X A = B when not ``left``) from lu_factor."""
    def cholesky_solve(self, B: Tensor, L: Tensor, upper: bool = False) -> Tensor:
        """X with A X = B from A's Cholesky factor L (or U when ``upper``)."""
    def cholesky_inverse(self, L: Tensor, upper: bool = False) -> Tensor:
        """A^-1 from A's Cholesky factor L (or U when ``upper``)."""
    def logdet(self, A: Tensor) -> Tensor:
        """log(det A): NaN for a negative determinant, -inf for a singular matrix."""
    # torch.linalg's *_ex forms, LDL^T and orgqr (numr/ops/generic/decomp_ex.py, decomp_ldl.py)
    def cholesky_ex(self, A: Tensor, upper: bool = False, check_errors: bool = False) -> tuple[Tensor, Tensor]:
        """(L, info): cholesky with an int32 info per batch element (i > 0: the leading minor of
        order i is not positive-definite; that element's L is NaN) instead of raising."""
    def inv_ex(self, A: Tensor, check_errors: bool = False) -> tuple[Tensor, Tensor]:
        """(inverse, info): inv with lu_factor_ex's info (a singular element's inverse is NaN)."""
    def solve_ex(self, A: Tensor, B: Tensor, left: bool = True, check_errors: bool = False) -> tuple[Tensor, Tensor]:
        """(X, info): solve with lu_factor_ex's info (a singular element's X is NaN)."""
    def lu_factor_ex(self, A: Tensor, pivot: bool = True, check_errors: bool = False) -> tuple[Tensor, Tensor, Tensor]:
        """(LU, pivots, info): lu_factor with info i > 0 where U[i-1, i-1] is exactly zero."""
    def ldl_factor(self, A: Tensor, hermitian: bool = False) -> tuple[Tensor, Tensor]:
        """(LD, pivots): P A P^T = L D L^T (L^H when hermitian) from A's lower triangle by
        Bunch-Kaufman pivoting, D of 1x1 and 2x2 blocks, in LAPACK's sytrf form (torch's)."""
    def ldl_factor_ex(self, A: Tensor, hermitian: bool = False,
                      check_errors: bool = False) -> tuple[Tensor, Tensor, Tensor]:
        """(LD, pivots, info): ldl_factor with info i > 0 where D[i-1, i-1] is exactly zero."""
    def ldl_solve(self, LD: Tensor, pivots: Tensor, B: Tensor, hermitian: bool = False) -> Tensor:
        """X with A X = B from ldl_factor's (LD, pivots); B (..., n, k)."""
    def householder_product(self, A: Tensor, tau: Tensor) -> Tensor:
        """The first n columns of the product of the Householder reflectors I - tau_i v_i v_i^H
        stored below A's diagonal (geqrf's form; torch.linalg.householder_product, orgqr)."""
