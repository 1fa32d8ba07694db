"""splu / factorized: a reusable sparse LU factor object (scipy.sparse.linalg's SuperLU), the
factorisation of spsolve kept: P_r A P_c = L U by the left-looking Gilbert-Peierls kernel
(csc_lu_factor: threshold partial pivoting preferring the diagonal, columns in minimum degree
order of A + A^T), solves by two sparse triangular sweeps (csr_triangular_solve on the CSC factors,
read as the CSR structure of their transposes) between two row gathers. CPU only: a GPU
backend raises UnsupportedOperation naming itself and the op (no GPU sparse LU)."""

from __future__ import annotations

from typing import Any

from ..tensor import Tensor
from . import _structure as st
from ._base import SparseMatrix
from .solve import _dtypes, _Factor, _matrix, _values

_ORDERINGS = {None: "mmd", "MMD_AT_PLUS_A": "mmd", "COLAMD": "mmd", "MMD_ATA": "mmd", "NATURAL": "natural"}


def ordering(op: str, permc_spec: str | None) -> str:
    """The kernel's column ordering for scipy's permc_spec ("NATURAL" keeps the natural order;
    every other spec takes numr's minimum degree ordering of A + A^T)."""
    if permc_spec not in _ORDERINGS:
        raise ValueError(f"{op}: permc_spec must be one of {sorted(k for k in _ORDERINGS if k)} or None, "
                         f"got {permc_spec!r}")
    return _ORDERINGS[permc_spec]


class SuperLU(_Factor):
    """The LU factorisation P_r A P_c = L U of a square sparse A (scipy's SuperLU): ``L`` (unit
    lower, its diagonal stored) and ``U`` (upper) as canonical CSC matrices, ``perm_r`` (row i
    of A is row perm_r[i] of L U), ``perm_c`` (column j of A is column perm_c[j] of L U),
    ``shape``, ``nnz`` (of L and U) and ``solve(b, trans)``. It is also a preconditioner
    (matvec = solve). Computed in float32/float64/complex64/complex128 (integers in float64,
    float16/bfloat16 in float32)."""

    def __init__(self, A: Any, permc_spec: str | None = None, op: str = "splu", b: Any = None,
                 diag_pivot_thresh: float | None = None) -> None:
        from .compressed import CSCMatrix
        A = _matrix(op, A)
        order = ordering(op, permc_spec)
        d, _ = _dtypes(A, b)  # spsolve factors in the dtype of A and b together
        C = A if A.format in ("csr", "csc") else A.tocsc()  # CSR is transposed by the kernel
        v = _values(C, d)
        thresh = 1.0 if diag_pivot_thresh is None else float(diag_pivot_thresh)
        Lp, Li, Lx, Up, Ui, Ux, pr, pc, rows, cols = v.client.csc_lu_factor(C.indptr, C.indices, v, order,
                                                                            C.format == "csr", thresh)
        self.shape, self.dtype = A.shape, d
        self.L = CSCMatrix(Lp, Li, Lx, A.shape, check=False, canonical=True)
        self.U = CSCMatrix(Up, Ui, Ux, A.shape, check=False, canonical=True)
        self.perm_r, self.perm_c, self._rows, self._cols = pr, pc, rows, cols
        self._v, self._ix = Lx, Li

    @property
    def nnz(self) -> int:
        return self.L.nnz + self.U.nnz

    def _tri(self, F: SparseMatrix, r: Tensor, upper: bool, trans: bool) -> Tensor:
        """op(F)^-1 r for the CSC factor F, whose structure is the CSR of F^T."""
        v = F.values if F.values.dtype == r.dtype else st.nr_mod().cast(F.values, r.dtype)
        return v.client.csr_triangular_solve(F.indptr, F.indices, v, r, upper, not upper, not trans)

    def _solve(self, r: Tensor, trans: str) -> Tensor:
        nr = st.nr_mod()
        if trans == "N":  # x = P_c U^-1 L^-1 P_r b
            y = self._tri(self.L, nr.index_select(r, 0, self._rows), False, False)
            return nr.index_select(self._tri(self.U, y, True, False), 0, self.perm_c)
        y = self._tri(self.U, nr.index_select(r, 0, self._cols), True, True)  # x = P_r^T L^-T U^-T P_c^T b
        return nr.index_select(self._tri(self.L, y, False, True), 0, self.perm_r)

    def __repr__(self) -> str:
        return f"<SuperLU shape={self.shape} nnz={self.nnz} dtype={self.dtype}>"


def splu(A: Any, permc_spec: str | None = None, diag_pivot_thresh: Any = None, relax: Any = None,
         panel_size: Any = None, options: Any = None) -> SuperLU:
    """The sparse LU factor object of a square sparse A (scipy.sparse.linalg.splu): permc_spec
    "NATURAL" or any other scipy spec (minimum degree of A + A^T); diag_pivot_thresh in [0, 1]
    (default 1, SuperLU's: partial pivoting, the diagonal kept on ties; smaller keeps the
    diagonal pivot while it is >= that fraction of the column's largest, less fill); SuperLU's
    other tuning options (relax, panel_size, options) are accepted and ignored. A singular A
    raises LinAlgError."""
    return SuperLU(A, permc_spec, diag_pivot_thresh=diag_pivot_thresh)


def factorized(A: Any) -> Any:
    """A function b -> A^-1 b from one sparse LU of A (scipy.sparse.linalg.factorized)."""
    return SuperLU(A, op="factorized").solve


__all__ = ["SuperLU", "factorized", "splu"]
