"""Direct sparse solves and incomplete factorisations (scipy.sparse.linalg's spsolve,
spsolve_triangular, spilu; ic0 for SPD matrices), through the backend kernels of
numr/ops/traits/sparse.py: native sequential C kernels on the CPU; the GPU backends raise
UnsupportedOperation (no GPU algorithm without O(n) kernel launches, and no silent host copy).

Limits, named: ``spsolve`` (through splu, numr/sparse/splu.py) is a left-looking sparse LU with
partial pivoting (Gilbert-Peierls) with a plain minimum degree column ordering of A + A^T (no
supernodes, no COLAMD), and a structurally or numerically singular matrix raises LinAlgError
(scipy warns and returns NaN). ``ilu0`` is ILU(0) on A's pattern (spilu's ILUT and iluk's
ILU(k): numr/sparse/ilu.py); a zero pivot raises LinAlgError. Integer and bool inputs solve in float64,
float16/bfloat16 in float32 (returned in their dtype). They are not differentiable: a Var or
DualTensor input raises UnsupportedOperation (rather than being detached silently).
"""

from __future__ import annotations

from typing import Any

from .. import dtypes as dt
from ..errors import DeviceError, DTypeError, ShapeError, UnsupportedOperation
from ..tensor import Tensor
from . import _structure as st
from ._base import SparseMatrix, is_sparse


def _no_autograd(op: str, x: Any) -> None:
    """A Var or DualTensor would lose its graph here: refuse it rather than detach silently."""
    if st.is_tensor_like(x) and not isinstance(x, Tensor):
        raise UnsupportedOperation("autograd", op, x.dtype, reason=f"{type(x).__name__} inputs: the direct sparse "
                                   "solves are not differentiable; pass plain Tensors")


def _matrix(op: str, A: Any) -> SparseMatrix:
    if not is_sparse(A):
        raise DTypeError(f"{op}: A must be a numr sparse matrix, got {type(A).__name__}")
    _no_autograd(op, A.values)
    if A.shape[0] != A.shape[1]:
        raise ShapeError(f"{op}: A must be square, got shape {A.shape}")
    return A


def _dtypes(A: SparseMatrix, b: Any = None) -> tuple[dt.DType, dt.DType]:
    """(the dtype the kernel computes in, the dtype returned)."""
    d = A.dtype if b is None else dt.result_type(A.dtype, b.dtype)
    if d.kind in "biu":
        d = dt.float64
    if d.kind == "f" and d.itemsize < 4:
        return dt.float32, d
    if d.kind not in "fc":
        raise DTypeError(f"{d}: sparse solves take real or complex floating matrices")
    return d, d


def _rhs(op: str, A: SparseMatrix, b: Any) -> Any:
    """b as a 1-d or 2-d Tensor on A's device with A.shape[0] rows."""
    nr = st.nr_mod()
    if is_sparse(b):
        b = b.to_dense()
    if not st.is_tensor_like(b):
        b = nr.tensor(b, device=A.device)
    _no_autograd(op, b)
    if b.device != A.device:
        raise DeviceError(f"{op}: b is on {b.device}, A on {A.device}")
    if b.ndim not in (1, 2) or b.shape[0] != A.shape[0]:
        raise ShapeError(f"{op}: b of shape {tuple(b.shape)} does not match A of shape {A.shape} "
                         f"(dtypes {A.dtype}, {b.dtype})")
    return b


def _values(A: SparseMatrix, d: dt.DType) -> Any:
    v = st.plain(A.values)
    return v if v.dtype == d else st.nr_mod().cast(v, d)


def _as(x: Any, d: dt.DType) -> Any:
    return x if x.dtype == d else st.nr_mod().cast(x, d)


def _solve2d(b: Any, d: dt.DType, fn: Any) -> Any:
    """fn(b as (n, m) in dtype d) reshaped back to b's rank."""
    x = fn(_as(b.reshape(-1, 1) if b.ndim == 1 else b, d))
    return x.reshape(-1) if b.ndim == 1 else x


def spsolve_triangular(A: Any, b: Any, lower: bool = True, overwrite_A: bool = False, overwrite_b: bool = False,
                       unit_diagonal: bool = False) -> Any:
    """x with A x = b for a lower (or upper) triangular sparse A; b (n,) or (n, k). Entries
    of the other triangle are ignored and duplicates add up (scipy); with unit_diagonal the
    diagonal is taken as 1 and not read. A zero or missing diagonal entry raises LinAlgError.
    CSR and CSC run the kernel directly (CSC as the transposed solve), COO converts to CSR."""
    A = _matrix("spsolve_triangular", A)
    b = _rhs("spsolve_triangular", A, b)
    d, out = _dtypes(A, b)
    if A.format == "coo":
        A = A.tocsr()
    trans = A.format == "csc"  # CSC of A is CSR of A^T: solve (A^T)^T x = b
    v = _values(A, d)
    x = _solve2d(b, d, lambda r: v.client.csr_triangular_solve(A.indptr, A.indices, v, r,
                                                               bool(lower) != trans, bool(unit_diagonal), trans))
    return _as(x, out)


def spsolve(A: Any, b: Any, permc_spec: str | None = None, use_umfpack: bool = True) -> Any:
    """x with A x = b by the sparse LU of splu (numr/sparse/splu.py: left-looking Gilbert-Peierls
    with partial pivoting; columns in minimum degree order of A + A^T, or natural with
    permc_spec "NATURAL"). b (n,), (n, 1) -> x (n,) as scipy; (n, k) -> (n, k); a sparse b
    gives a sparse CSC x. A singular matrix raises LinAlgError."""
    from .splu import SuperLU, ordering
    A = _matrix("spsolve", A)
    ordering("spsolve", permc_spec)
    sparse_b = is_sparse(b)
    b = _rhs("spsolve", A, b)
    _, out = _dtypes(A, b)
    x = _as(SuperLU(A, permc_spec, "spsolve", b).solve(b), out)
    if sparse_b:
        from .construct import from_dense
        return from_dense(x.reshape(-1, 1) if x.ndim == 1 else x, "csc")
    return x.reshape(-1) if x.ndim == 2 and x.shape[1] == 1 else x


class _Factor:
    """A preconditioner M ~ A^-1 given by ``solve``: usable as M in cg, gmres, ... (it has
    shape, dtype, matvec and rmatvec)."""

    shape: tuple[int, int]
    dtype: dt.DType
    _out: dt.DType

    @property
    def device(self) -> Any:
        return self._v.device

    def _solve(self, r: Any, trans: str) -> Any:
        raise NotImplementedError

    def solve(self, rhs: Any, trans: str = "N") -> Any:
        """M rhs: (n,) or (n, k); trans 'N', 'T' (transpose) or 'H' (conjugate transpose)."""
        if trans not in ("N", "T", "H"):
            raise ValueError(f"solve: trans must be 'N', 'T' or 'H', got {trans!r}")
        b = _rhs("solve", self, rhs)
        d = dt.result_type(self.dtype, b.dtype)
        d = d if d.kind in "fc" and d.itemsize >= 4 else self.dtype
        conj = trans == "H" and d.is_complex
        nr = st.nr_mod()
        if conj:
            b = nr.conj(b)
        x = _solve2d(b, d, lambda r: self._solve(r, "N" if trans == "N" else "T"))
        return nr.conj(x) if conj else x

    def matvec(self, x: Any) -> Any:
        return self.solve(x)

    def rmatvec(self, x: Any) -> Any:
        return self.solve(x, "H")

    __call__ = matvec

    def _trsv(self, v: Any, r: Any, lower: bool, unit: bool, trans: bool) -> Any:
        v = _as(v, r.dtype)
        return v.client.csr_triangular_solve(self._ip, self._ix, v, r, lower, unit, trans)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} shape={self.shape} nnz={self._ix.shape[0]} dtype={self.dtype}>"


class SparseILU(_Factor):
    """An incomplete LU of a square sparse matrix: L (unit lower, its diagonal stored) and U
    (upper) as CSR matrices; solve(b) = U^-1 L^-1 b. By default ILU(0): L @ U = A on A's
    pattern; ``factor(client, indptr, indices, values)`` may give other factors in the same
    merged CSR layout (ILUT, ILU(k): numr/sparse/ilu.py)."""

    def __init__(self, A: Any, factor: Any = None, op: str = "spilu") -> None:
        A = _matrix(op, A)
        d, _ = _dtypes(A)
        C = A.tocsr().coalesce()
        self.shape, self.dtype = A.shape, d
        v = _values(C, d)
        if factor is None:
            self._ip, self._ix, self._v = C.indptr, C.indices, v.client.csr_ilu0(C.indptr, C.indices, v)
        else:
            self._ip, self._ix, self._v = factor(v.client, C.indptr, C.indices, v)

    def _solve(self, r: Any, trans: str) -> Any:
        if trans == "N":
            return self._trsv(self._v, self._trsv(self._v, r, True, True, False), False, False, False)
        return self._trsv(self._v, self._trsv(self._v, r, False, False, True), True, True, True)

    @property
    def L(self) -> SparseMatrix:
        from .combine import tril
        from .construct import eye
        return (tril(self._lu(), -1) + eye(self.shape[0], dtype=self.dtype, device=self.device)).tocsr()

    @property
    def U(self) -> SparseMatrix:
        from .combine import triu
        return triu(self._lu(), 0, "csr")

    def _lu(self) -> SparseMatrix:
        from .compressed import CSRMatrix
        return CSRMatrix(self._ip, self._ix, self._v, self.shape, check=False, canonical=True)


class SparseIC(_Factor):
    """IC(0) of a symmetric positive definite sparse matrix: L lower on tril(A)'s pattern with
    L @ L^T = A there; solve(b) = L^-T L^-1 b. Real float32/float64 (non-SPD: LinAlgError)."""

    def __init__(self, A: Any) -> None:
        from .combine import tril
        A = _matrix("ic0", A)
        d, _ = _dtypes(A)
        if d.is_complex:
            raise DTypeError(f"ic0: real symmetric matrices only, got {A.dtype}")
        C = tril(A.tocsr().coalesce(), 0, "csr")
        self.shape, self.dtype = A.shape, d
        self._ip, self._ix = C.indptr, C.indices
        v = _values(C, d)
        self._v = v.client.csr_ic0(C.indptr, C.indices, v)

    def _solve(self, r: Any, trans: str) -> Any:
        return self._trsv(self._v, self._trsv(self._v, r, True, False, False), True, False, True)

    @property
    def L(self) -> SparseMatrix:
        from .compressed import CSRMatrix
        return CSRMatrix(self._ip, self._ix, self._v, self.shape, check=False, canonical=True)


def ilu0(A: Any) -> SparseILU:
    """ILU(0) of A: L @ U = A on A's pattern (no fill, no dropping)."""
    return SparseILU(A)


def ic0(A: Any) -> SparseIC:
    """Incomplete Cholesky IC(0) of an SPD A on tril(A)'s pattern."""
    return SparseIC(A)


__all__ = ["spsolve", "spsolve_triangular", "ilu0", "ic0", "SparseILU", "SparseIC"]
