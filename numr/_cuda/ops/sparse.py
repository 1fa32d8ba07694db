"""CUDA CSR @ dense (kernels/sparse.cu: one warp per output row) for floating and complex
dtypes; integers and bool take the composite of GenericOps. One flag is read back to report
a malformed structure, so the op synchronises (as index_select does)."""

from __future__ import annotations

from ... import dtypes as dt
from ...errors import IndexOutOfRange
from ...ops import prepare_sparse
from ...ops.generic import sparse as generic
from ...tensor import Tensor
from ..launch import BLOCK, i64, ptr
from ._base import grid


class SparseCuda:
    """Mixin of CudaClient: CSR @ dense."""

    def csr_matmul(self, indptr: Tensor, indices: Tensor, values: Tensor, dense: Tensor, n_rows: int) -> Tensor:
        out_dtype = prepare_sparse.csr_matmul(self, indptr, indices, values, dense, n_rows)
        if out_dtype.kind not in "fc" or type(values) is not Tensor or type(dense) is not Tensor:
            return generic.csr_matmul(self, indptr, indices, values, dense, n_rows)
        n_cols, m = dense.shape
        out = self.empty((n_rows, m), out_dtype)
        if out.size == 0:
            return out
        values, dense = prepare_sparse.in_result_dtype(self, values, dense, out_dtype)
        indptr, indices, values = (t if t.shape[0] <= 1 or t.strides[0] == 1 else t.contiguous()
                                   for t in (indptr, indices, values))
        flag = self.full((), 0, dt.int32)
        self._st.run("sparse", out_dtype.code, f"csr_matmul_{out_dtype.name}", grid(self, n_rows * 32), BLOCK,
                     [ptr(out), ptr(indptr), ptr(indices), ptr(values), ptr(dense), i64(dense.strides[0]),
                      i64(dense.strides[1]), i64(n_cols), i64(m), i64(n_rows), i64(indices.shape[0]), ptr(flag)])
        if int(flag.item()):
            generic.check_indptr(indptr, indices.shape[0])  # raises for a malformed indptr
            raise IndexOutOfRange(f"csr_matmul: a column index is out of range for a matrix with {n_cols} columns")
        return out
