"""numr.sparse: 2-d sparse matrices in COO, CSR and CSC on every backend.

    import numr as nr
    A = nr.sparse.random(1000, 1000, density=0.01, format="csr", seed=0, device="wgpu")
    y = A @ nr.ones(1000, device="wgpu")          # dense result, autograd-aware
    B = (A @ A.T + nr.sparse.eye(1000, device="wgpu")).tocsc()

Names follow scipy.sparse (csr_matrix, tocsr, multiply, getnnz, diags, random, to_scipy)
and torch.sparse (coalesce, crow_indices, to_dense). Index arrays are int64 tensors on the
values' device; CSR @ dense runs the backend's ``csr_matmul`` kernel (native on the CPU,
a gather/index_add composite elsewhere); the rest is written with public numr ops.
Public numr functions given a sparse matrix (``nr.matmul(A, x)``, ``nr.add``) route here.
"""

from __future__ import annotations

from typing import Any

from ..errors import UnsupportedOperation
from ..ops import api as _api
from . import _ops
from ._base import SparseMatrix, is_sparse
from .combine import block_diag, hstack, kron, tril, triu, vstack
from .compressed import CSCMatrix, CSRMatrix
from .construct import (
    coo_matrix,
    csc_matrix,
    csr_matrix,
    diags,
    empty,
    eye,
    from_dense,
    from_scipy,
    identity,
    random,
    spdiags,
)
from .coo import COOMatrix

issparse = is_sparse
coo_array, csr_array, csc_array = coo_matrix, csr_matrix, csc_matrix
diags_array = diags


def _first_sparse(args: tuple) -> Any:
    return next(a for a in args if isinstance(a, SparseMatrix))


_BINARY = {
    "matmul": lambda a, b: a @ b, "add": lambda a, b: a + b, "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b, "div": lambda a, b: a / b,
}
_UNARY = {"neg": lambda a: -a, "abs": lambda a: a.abs(), "conj": lambda a: a.conj(), "sqrt": lambda a: a.sqrt()}


def _handle(name: str, args: tuple, kwargs: dict) -> Any:
    """numr.<name> called with a sparse matrix: the sparse method of the same meaning."""
    if name in _BINARY and len(args) == 2 and not kwargs:
        return _BINARY[name](*args)
    if name in _UNARY and len(args) == 1 and not kwargs:
        return _UNARY[name](args[0])
    if name == "sum" and isinstance(args[0], SparseMatrix):
        return args[0].sum(*args[1:], **kwargs)
    if name in ("transpose", "t") and isinstance(args[0], SparseMatrix):
        return args[0].transpose()
    if name == "pow" and isinstance(args[0], SparseMatrix) and len(args) == 2:
        return args[0].power(args[1])
    a = _first_sparse(args)
    raise UnsupportedOperation("sparse", name, a.dtype, reason="use the numr.sparse methods or A.to_dense()")


for _cls in (COOMatrix, CSRMatrix, CSCMatrix):
    _api.register_tracer(_cls, _handle)


def sum(a: SparseMatrix, dim: int | None = None) -> Any:  # noqa: A001  (torch.sparse.sum)
    return a.sum(dim)


def mm(a: Any, b: Any) -> Any:
    """a @ b with either operand sparse (torch.sparse.mm)."""
    return a @ b


def add(a: Any, b: Any) -> Any:
    return a + b


__all__ = [
    "SparseMatrix", "COOMatrix", "CSRMatrix", "CSCMatrix", "coo_matrix", "csr_matrix", "csc_matrix",
    "coo_array", "csr_array", "csc_array", "from_dense", "from_scipy", "empty", "eye", "identity", "diags",
    "diags_array", "spdiags", "random", "is_sparse", "issparse", "sum", "mm", "add", "_ops",
    "tril", "triu", "hstack", "vstack", "block_diag", "kron", "linalg", "amg",
]

from . import amg, linalg  # noqa: E402  (numr.sparse.linalg: cg, gmres, ...; numr.sparse.amg: AMG)
