"""The low-level sparse kernels a backend may implement: CSR @ dense, and the direct solves
(triangular solve, ILU(0), IC(0), sparse LU) that numr.sparse.linalg builds on.

Not in FAMILIES on purpose: the public sparse API is the ``numr.sparse`` package (matrix
classes in COO/CSR/CSC with scipy's and torch.sparse's names), not ``nr.<name>`` functions
or Tensor methods over loose index arrays. Every client inherits a composite of this op
from ``GenericOps`` (``numr/ops/generic/sparse.py``: gather, multiply, index_add), so a
third-party backend runs numr.sparse unchanged and may replace it with a kernel. The direct
solves are inherited as checks that raise UnsupportedOperation (numr/ops/generic/sparse_solve.py):
only the CPU has kernels for them.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from ...tensor import Tensor


@runtime_checkable
class SparseOps(Protocol):
    def csr_matmul(self, indptr: Tensor, indices: Tensor, values: Tensor, dense: Tensor, n_rows: int) -> Tensor:
        """(n_rows, m) = A @ dense for the CSR matrix A given by int64 ``indptr`` (n_rows + 1,),
        int64 column ``indices`` (nnz,) and ``values`` (nnz,), and a 2-d ``dense`` (n_cols, m)
        of any layout; the result dtype promotes values' and dense's. Duplicates add up; a
        malformed indptr or a column index out of [0, n_cols) raises IndexOutOfRange."""

    def csr_triangular_solve(self, indptr: Tensor, indices: Tensor, values: Tensor, rhs: Tensor,
                             lower: bool = True, unit_diagonal: bool = False, trans: bool = False) -> Tensor:
        """x (n, m) with op(T) x = rhs, T the lower (or upper) triangle of the square CSR matrix
        (the other triangle ignored, duplicates added, the diagonal taken as 1 with
        unit_diagonal), op(T) = T^T with trans. rhs (n, m) of values' dtype. A zero or missing
        diagonal raises LinAlgError; a malformed structure IndexOutOfRange."""

    def csr_ilu0(self, indptr: Tensor, indices: Tensor, values: Tensor) -> Tensor:
        """ILU(0) values on the canonical CSR pattern (L strictly below the diagonal with a unit
        diagonal implied, U on and above it). A zero pivot raises LinAlgError."""

    def csr_ic0(self, indptr: Tensor, indices: Tensor, values: Tensor) -> Tensor:
        """IC(0) values L on the pattern of a canonical lower-triangular CSR matrix (real SPD):
        L L^T = A on the pattern. A non-positive pivot raises LinAlgError."""

    def csc_lu_solve(self, indptr: Tensor, indices: Tensor, values: Tensor, rhs: Tensor,
                     ordering: str = "mmd", csr: bool = False) -> Tensor:
        """x (n, m) with A x = rhs for the square CSC matrix A (with csr: the structure
        compresses rows; duplicates added) by a sparse LU with partial pivoting, columns in
        minimum degree order of A + A^T ("mmd") or natural order ("natural"). A singular A
        raises LinAlgError."""

    def csc_lu_factor(self, indptr: Tensor, indices: Tensor, values: Tensor, ordering: str = "mmd",
                      csr: bool = False, diag_pivot_thresh: float = 1.0) -> tuple:
        """The sparse LU P_r A P_c = L U of csc_lu_solve (threshold pivoting: the diagonal when it
        is >= diag_pivot_thresh times the column's largest candidate), as (Lp, Li, Lx, Up, Ui, Ux,
        perm_r, perm_c, rows, cols): L unit lower and U upper in canonical CSC (L's diagonal
        stored), row i of A is row perm_r[i] of L U, column j of A is column perm_c[j] of L U
        (scipy's SuperLU), rows and cols their inverses (int64)."""

    def csr_ilut(self, indptr: Tensor, indices: Tensor, values: Tensor, drop_tol: float,
                 fill_factor: float) -> tuple:
        """Saad's ILUT of a canonical CSR matrix as (indptr, indices, values) of a canonical CSR
        matrix holding L (strictly lower, unit diagonal implied) and U: entries below drop_tol
        times the row's 2-norm dropped, each triangle of row i capped at
        ceil(fill_factor nnz(a_i) / 2) entries. A zero pivot raises LinAlgError."""

    def csr_iluk(self, indptr: Tensor, indices: Tensor, values: Tensor, k: int) -> tuple:
        """ILU(k) (level-of-fill k) of a canonical CSR matrix, in csr_ilut's layout."""
