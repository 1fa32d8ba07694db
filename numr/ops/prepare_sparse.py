"""Checks and dtypes of the CSR @ dense kernel, shared by every backend."""

from __future__ import annotations

from typing import Any

from .. import dtypes as dt
from ..dtypes import DType
from ..errors import DTypeError, IndexOutOfRange, ShapeError
from . import prepare


def csr_matmul(client: Any, indptr: Any, indices: Any, values: Any, dense: Any, n_rows: int) -> DType:
    """Validate the operands of ``csr_matmul`` (devices, ranks, lengths, index dtypes);
    returns the result dtype (values' and dense's promoted)."""
    op = "csr_matmul"
    prepare.check_device(op, client, indptr, indices, values, dense)
    for name, t in (("indptr", indptr), ("indices", indices)):
        if t.dtype != dt.int64 or t.ndim != 1:
            raise DTypeError(f"{op}: {name} must be a 1-d int64 tensor, got {t.dtype} of shape {t.shape}")
    if values.ndim != 1 or values.shape[0] != indices.shape[0]:
        raise ShapeError(f"{op}: values of shape {values.shape} must match indices of shape {indices.shape}")
    if indptr.shape[0] != n_rows + 1:
        raise ShapeError(f"{op}: indptr of shape {indptr.shape} must have n_rows + 1 = {n_rows + 1} entries")
    if dense.ndim != 2:
        raise ShapeError(f"{op}: dense operand must be 2-d (n_cols, m), got shape {dense.shape}")
    return dt.result_type(values.dtype, dense.dtype)


def in_result_dtype(client: Any, values: Any, dense: Any, out_dtype: DType) -> tuple[Any, Any]:
    """values and dense cast to the result dtype where they differ (a kernel computes in one)."""
    if values.dtype != out_dtype:
        values = client.cast(values, out_dtype)
    if dense.dtype != out_dtype:
        dense = client.cast(dense, out_dtype)
    return values, dense


def bad_structure(bad: int, indices: Any, n_cols: int) -> IndexOutOfRange:
    """The error for a kernel's report: -2 - row (malformed indptr) or a bad column position."""
    if bad <= -2:
        return IndexOutOfRange(f"csr_matmul: indptr must start at 0, never decrease and end at most at nnz "
                               f"(first bad at row {-2 - bad})")
    return IndexOutOfRange(f"csr_matmul: column index {int(indices[bad].item())} at position {bad} is out of "
                           f"range for a matrix with {n_cols} columns")
