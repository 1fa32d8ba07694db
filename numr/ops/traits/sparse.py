"""The low-level sparse kernel a backend may implement: CSR @ dense.

Not in FAMILIES on purpose: the public sparse API is the ``numr.sparse`` package (matrix
classes in COO/CSR/CSC with scipy's and torch.sparse's names), not ``nr.<name>`` functions
or Tensor methods over loose index arrays. Every client inherits a composite of this op
from ``GenericOps`` (``numr/ops/generic/sparse.py``: gather, multiply, index_add), so a
third-party backend runs numr.sparse unchanged and may replace it with a kernel.
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
