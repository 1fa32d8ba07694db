"""CPU implementation of the sparse kernels (numr/ops/traits/sparse.py): CSR @ dense in C
(kernels/sparse.pyx, OpenMP over rows) for float32/float64/complex64/complex128; other
dtypes (integers, bool, float16, bfloat16, float8) take the composite of GenericOps. The
direct solves and factorisations (triangular solve, ILU(0), IC(0), sparse LU, ILUT, ILU(k))
run sequential C kernels (kernels/sparse_solve.h, sparse_ilut.h) on contiguous copies of the
structure. Sparse @ sparse, sparse +/- sparse and sparse .* sparse of CSR matrices run
kernels/sparse_spgemm.h (numr.sparse's _ops.py calls csr_combine when no Var flows)."""

from __future__ import annotations

from ... import dtypes as dt
from ...errors import IndexOutOfRange
from ...ops import prepare_sparse
from ...ops.generic import sparse as generic
from ...ops.generic import sparse_solve as gsolve
from ...tensor import Tensor
from .. import storage
from ..kernels import sparse as _k

_KIND = {dt.float32: 0, dt.float64: 1, dt.complex64: 2, dt.complex128: 3}
_COMBINE = {"matmul": 0, "add": 1, "sub": 2, "multiply": 3}


def _flat(t: Tensor) -> Tensor:
    """A 1-d tensor with unit stride (a copy only when t's stride is not 1)."""
    return t if t.ndim == 1 and (t.strides[0] == 1 or t.shape[0] <= 1) else t.contiguous()


def _arrays(*ts: Tensor) -> list:
    """Contiguous NumPy views of the tensors' storage (a copy only where one is strided)."""
    return [storage.view_numpy(t.contiguous()) for t in ts]


def _fresh(t: Tensor) -> Tensor:
    """A new contiguous copy (the kernels work in place)."""
    out = storage.empty(t.device, tuple(t.shape), t.dtype)
    storage.view_numpy(out)[...] = storage.view_numpy(t.contiguous())
    return out


class SparseCpu:
    """Mixin of CpuClient: CSR @ dense and the direct solves."""

    def csr_triangular_solve(self, indptr: Tensor, indices: Tensor, values: Tensor, rhs: Tensor,
                             lower: bool = True, unit_diagonal: bool = False, trans: bool = False) -> Tensor:
        n = gsolve.check(self, "csr_triangular_solve", indptr, indices, values, rhs)
        x = _fresh(rhs)
        if x.size:
            p, i, v = _arrays(indptr, indices, values)
            flags = int(bool(lower)) | 2 * int(bool(unit_diagonal)) | 4 * int(bool(trans))
            gsolve.report("spsolve_triangular", _k.sparse_solve(_KIND[values.dtype], p, i, v, storage.view_numpy(x),
                                                                n, rhs.shape[1], False, flags))
        return x

    def csr_ilu0(self, indptr: Tensor, indices: Tensor, values: Tensor) -> Tensor:
        n = gsolve.check(self, "csr_ilu0", indptr, indices, values)
        return self._incomplete("spilu", indptr, indices, values, n, False)

    def csr_ic0(self, indptr: Tensor, indices: Tensor, values: Tensor) -> Tensor:
        n = gsolve.check(self, "csr_ic0", indptr, indices, values, kinds=gsolve.KINDS[:2])
        return self._incomplete("ic0", indptr, indices, values, n, True)

    def _incomplete(self, op: str, indptr: Tensor, indices: Tensor, values: Tensor, n: int, chol: bool) -> Tensor:
        out = _fresh(values)
        p, i = _arrays(indptr, indices)
        gsolve.report(op, _k.csr_incomplete(_KIND[values.dtype], p, i, storage.view_numpy(out), n, chol),
                      "not positive definite" if chol else "singular")
        return out

    def csc_lu_solve(self, indptr: Tensor, indices: Tensor, values: Tensor, rhs: Tensor,
                     ordering: str = "mmd", csr: bool = False) -> Tensor:
        n = gsolve.check(self, "csc_lu_solve", indptr, indices, values, rhs)
        flags = gsolve.ordering(ordering) | 2 * int(bool(csr))
        x = _fresh(rhs)
        if n:
            p, i, v = _arrays(indptr, indices, values)
            gsolve.report("spsolve", _k.sparse_solve(_KIND[values.dtype], p, i, v, storage.view_numpy(x),
                                                     n, rhs.shape[1], True, flags))
        return x

    def csc_lu_factor(self, indptr: Tensor, indices: Tensor, values: Tensor, ordering: str = "mmd",
                      csr: bool = False, diag_pivot_thresh: float = 1.0) -> tuple:
        n = gsolve.check(self, "csc_lu_factor", indptr, indices, values)
        gsolve.check_thresh(diag_pivot_thresh)
        p, i, v = _arrays(indptr, indices, values)
        flags = gsolve.ordering(ordering) | 2 * int(bool(csr))
        code, out = _k.sparse_factor(_KIND[values.dtype], p, i, v, n, 0, flags, float(diag_pivot_thresh))
        gsolve.report("splu", code)
        return self._tensors(out, values.dtype)

    def csr_ilut(self, indptr: Tensor, indices: Tensor, values: Tensor, drop_tol: float, fill_factor: float) -> tuple:
        n = gsolve.check(self, "csr_ilut", indptr, indices, values)
        gsolve.check_ilut(drop_tol, fill_factor)
        p, i, v = _arrays(indptr, indices, values)
        code, out = _k.sparse_factor(_KIND[values.dtype], p, i, v, n, 1, float(drop_tol), float(fill_factor))
        gsolve.report("spilu", code)
        return self._tensors(out, values.dtype)

    def csr_iluk(self, indptr: Tensor, indices: Tensor, values: Tensor, k: int) -> tuple:
        n = gsolve.check(self, "csr_iluk", indptr, indices, values)
        gsolve.check_iluk(k)
        p, i, v = _arrays(indptr, indices, values)
        code, out = _k.sparse_factor(_KIND[values.dtype], p, i, v, n, 2, min(int(k), n), 0)
        gsolve.report("iluk", code)
        return self._tensors(out, values.dtype)

    def csr_combine(self, op: str, a: tuple, b: tuple, n_rows: int, n_inner: int, n_cols: int) -> tuple | None:
        """(indptr, indices, values) of canonical CSR C = A @ B (op "matmul"; A n_rows x n_inner,
        B n_inner x n_cols) or A + B, A - B, A .* B ("add", "sub", "multiply"; both n_rows x
        n_cols), A and B given as CSR (indptr, indices, values) triples whose values share one
        dtype (indices may be unsorted or repeat); None for a dtype without a kernel (the caller
        takes the composite). Structural, as the composite: stored and cancelled zeros stay."""
        kind = _KIND.get(a[2].dtype)
        if kind is None:
            return None
        vdtype = a[2].dtype
        code, out = _k.csr_combine(kind, _COMBINE[op], *_arrays(*a, *b), n_rows, n_inner, n_cols,
                                   lambda n, values: storage.allocate(n, vdtype if values else dt.int64))
        if code == -3:
            raise MemoryError(f"{op}: out of memory for a sparse result with {n_rows} rows")
        if code != -1:
            raise IndexOutOfRange(f"{op}: the {'first' if code == 0 else 'second'} sparse operand is malformed "
                                  "(indptr must start at 0, never decrease and end at nnz; indices in range)")
        return self._tensors(out, vdtype)

    def _tensors(self, arrays: list, vdtype: dt.DType) -> tuple:
        return tuple(storage.wrap(a, self.device, vdtype if a.dtype.kind in "fc" else dt.int64) for a in arrays)

    def csr_matmul(self, indptr: Tensor, indices: Tensor, values: Tensor, dense: Tensor, n_rows: int) -> Tensor:
        out_dtype = prepare_sparse.csr_matmul(self, indptr, indices, values, dense, n_rows)
        kind = _KIND.get(out_dtype)
        if kind is None or type(values) is not Tensor or type(dense) is not Tensor:
            return generic.csr_matmul(self, indptr, indices, values, dense, n_rows)
        n_cols, m = dense.shape
        out = storage.empty(self.device, (n_rows, m), out_dtype)
        nnz = indices.shape[0]
        if out.size == 0:
            return out
        values, dense = prepare_sparse.in_result_dtype(self, values, dense, out_dtype)
        # rows of x ldx apart with unit stride inside a row; anything else is copied once
        if m > 1 and dense.strides[1] != 1 or dense.strides[0] < 0:
            dense = dense.contiguous()
        ldx = dense.strides[0] if n_cols > 1 else m
        indptr, indices, values = _flat(indptr), _flat(indices), _flat(values)
        x_off = dense._layout.offset
        bad = _k.csr_matmul(kind, out_dtype.itemsize, indptr._storage, indptr._layout.offset,
                            indices._storage, indices._layout.offset, values._storage, values._layout.offset,
                            dense._storage, x_off, ldx, n_cols, m, out._storage, out._layout.offset,
                            n_rows, nnz)
        if bad != -1:
            raise prepare_sparse.bad_structure(bad, indices, n_cols)
        return out
