"""Autograd of the CSR @ dense kernel, and Var @ sparse.

``csr_matmul`` runs the backend's kernel on the tensors and, when the values or the dense
operand is a Var, records one node whose rule is written with public ops (so it is
differentiable again): grad_dense = A^T g (a scatter of values * g's rows into the column
rows), grad_values[k] = sum_j g[row_k, j] * dense[col_k, j]. DualTensors take the
composite (gather, multiply, index_add), whose parts carry the tangents."""

from __future__ import annotations

from typing import Any

from ...sparse._base import SparseMatrix
from ...tensor import Tensor
from ..var import Var
from ._common import VAR_OPS, record, register


def _vjp(g: Any, args: Any, out: Any, need: list[bool], extra: Any) -> list[Any]:
    import numr as nr

    from ...ops.generic.sparse import scatter_matmul
    values, dense = args
    indices, rows, n_cols = extra
    gv = gd = None
    if need[0]:
        gv = (nr.index_select(g, 0, rows) * nr.index_select(dense, 0, indices)).sum(1)
        gv = gv if gv.dtype == values.dtype else nr.cast(gv, values.dtype)
    if need[1]:
        gd = scatter_matmul(indices, rows, values, g, n_cols)
        gd = gd if gd.dtype == dense.dtype else nr.cast(gd, dense.dtype)
    return [gv, gd]


def csr_matmul(indptr: Tensor, indices: Tensor, values: Any, dense: Any, n_rows: int) -> Any:
    """(n_rows, m) = A @ dense through the backend kernel (``client.csr_matmul``), recording
    the gradient for Var values and/or dense operands."""
    if isinstance(values, Var) or isinstance(dense, Var):
        from ...ops.generic.sparse import csr_row_ids
        v = values.tensor if isinstance(values, Var) else values
        d = dense.tensor if isinstance(dense, Var) else dense
        out = d.device.client.csr_matmul(indptr, indices, v, d, n_rows)
        rows = csr_row_ids(indptr, indices.shape[0])
        return record("csr_matmul", (values, dense), out, _vjp, extra=(indices, rows, d.shape[0]))
    if type(values) is Tensor and type(dense) is Tensor:
        return dense.device.client.csr_matmul(indptr, indices, values, dense, n_rows)
    from ...ops.generic.sparse import csr_matmul as composite  # DualTensors: tangents flow through the parts
    client = indptr.device.client
    return composite(client, indptr, indices, values, dense, n_rows)


_dense_matmul = VAR_OPS["matmul"]


@register("matmul")
def var_matmul_sparse(a: Any, b: Any) -> Any:
    """Var @ sparse matrix goes to the sparse matrix's reflected product; everything else to
    the dense rule."""
    if isinstance(b, SparseMatrix):
        return b.__rmatmul__(a)
    if isinstance(a, SparseMatrix):
        return a.__matmul__(b)
    return _dense_matmul(a, b)


__all__ = ["csr_matmul", "var_matmul_sparse"]
