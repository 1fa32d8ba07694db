"""The sparse kernel as a composite of public ops, for every backend: CSR @ dense is a
gather of dense's rows at the column indices, a multiply by the values and an index_add
into the output rows (row ids from indptr by searchsorted). Written with ``nr.*`` so that
Vars and DualTensors flow through it (gradients and tangents of values and dense)."""

from __future__ import annotations

from typing import Any

from ...errors import IndexOutOfRange
from .. import prepare_sparse
from ..prepare import plain


def csr_row_ids(indptr: Any, nnz: int) -> Any:
    """int64 row of each stored entry: the number of row ends at or before its position."""
    import numr as nr
    pos = nr.arange(nnz, dtype=nr.int64, device=indptr.device)
    return nr.searchsorted(indptr[1:], pos, right=True)


def scatter_matmul(rows: Any, cols: Any, values: Any, dense: Any, n_rows: int) -> Any:
    """(n_rows, m): out[rows[k], :] += values[k] * dense[cols[k], :] (duplicates add up);
    the product of a COO matrix and a 2-d dense operand."""
    import numr as nr
    prod = nr.index_select(dense, 0, cols) * values.reshape(-1, 1)
    out = nr.zeros((n_rows, dense.shape[1]), dtype=prod.dtype, device=prod.device)
    return nr.index_add(out, 0, rows, prod)


def check_indptr(indptr: Any, nnz: int) -> None:
    """Raise IndexOutOfRange unless indptr starts at 0, never decreases and ends at nnz
    (one scalar read back)."""
    import numr as nr
    if indptr.shape[0] == 0:
        return
    bad = nr.any(nr.diff(indptr) < 0) | (indptr[0] != 0) | (indptr[-1] != nnz)
    if bool(bad.item()):
        raise IndexOutOfRange(f"csr_matmul: indptr must start at 0, never decrease and end at nnz = {nnz}")


def csr_matmul(self: Any, indptr: Any, indices: Any, values: Any, dense: Any, n_rows: int) -> Any:
    prepare_sparse.csr_matmul(self, plain(indptr), plain(indices), plain(values), plain(dense), n_rows)
    check_indptr(indptr, indices.shape[0])
    return scatter_matmul(csr_row_ids(indptr, indices.shape[0]), indices, values, dense, n_rows)


__all__ = ["csr_matmul", "csr_row_ids", "scatter_matmul", "check_indptr"]
