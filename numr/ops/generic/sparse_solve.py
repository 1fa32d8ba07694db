"""The sparse direct-solve kernels (numr/ops/traits/sparse.py: triangular solve, ILU(0),
IC(0), sparse LU solve): their checks, the errors for a kernel's report, and the fallback
every client inherits. The CPU runs sequential C kernels; each of these algorithms is a
chain of n dependent row (or column) steps, and the only device formulations without a
host structure analysis (level scheduling, a launch per row) cost O(n) kernel launches, so
a GPU backend raises UnsupportedOperation naming itself, the op and the dtype instead of
copying the matrix to the host behind the caller's back."""

from __future__ import annotations

from typing import Any

from ... import dtypes as dt
from ...errors import DTypeError, IndexOutOfRange, LinAlgError, ShapeError, UnsupportedOperation
from .. import prepare

KINDS = (dt.float32, dt.float64, dt.complex64, dt.complex128)
_WHY = ("a sequential sparse factorisation/substitution; numr has no GPU algorithm without O(n) kernel "
        "launches - move the matrix and right-hand side to the CPU with .to('cpu')")


def check(client: Any, op: str, indptr: Any, indices: Any, values: Any, rhs: Any = None,
          kinds: tuple = KINDS) -> int:
    """Validate a square compressed structure (and a right-hand side (n, m) of the values'
    dtype); returns n."""
    prepare.check_device(op, client, *[t for t in (indptr, indices, values, rhs) if t is not None])
    for name, t in (("indptr", indptr), ("indices", indices)):
        if t.dtype != dt.int64 or t.ndim != 1:
            raise DTypeError(f"{op}: {name} must be a 1-d int64 tensor, got {t.dtype} of shape {t.shape}")
    if values.ndim != 1 or values.shape[0] != indices.shape[0]:
        raise ShapeError(f"{op}: values of shape {values.shape} must match indices of shape {indices.shape}")
    if values.dtype not in kinds:
        raise DTypeError(f"{op}: values have dtype {values.dtype}; the kernel takes "
                         f"{', '.join(str(k) for k in kinds)}")
    n = indptr.shape[0] - 1
    if n < 0:
        raise ShapeError(f"{op}: indptr must have n + 1 >= 1 entries, got shape {indptr.shape}")
    if rhs is not None and (rhs.ndim != 2 or rhs.shape[0] != n or rhs.dtype != values.dtype):
        raise ShapeError(f"{op}: right-hand side of shape {rhs.shape} and dtype {rhs.dtype} must be ({n}, m) "
                         f"of the matrix's dtype {values.dtype}")
    return n


def report(op: str, code: int, what: str = "singular") -> None:
    """Raise for a kernel's return code: -2 malformed, -3 out of memory, k >= 0 a zero pivot."""
    if code == -1:
        return
    if code == -2:
        raise IndexOutOfRange(f"{op}: malformed sparse structure (indptr must start at 0 and never decrease, "
                              "indices lie in [0, n); canonical where the op needs it)")
    if code == -3:
        raise MemoryError(f"{op}: out of memory for the factors")
    raise LinAlgError(f"{op}: matrix is {what}: zero or missing pivot at row/column {code}")


def _unsupported(self: Any, op: str, values: Any) -> UnsupportedOperation:
    return UnsupportedOperation(getattr(self, "backend", type(self).__name__), op, values.dtype, reason=_WHY)


def csr_triangular_solve(self: Any, indptr: Any, indices: Any, values: Any, rhs: Any, lower: bool = True,
                         unit_diagonal: bool = False, trans: bool = False) -> Any:
    check(self, "csr_triangular_solve", indptr, indices, values, rhs)
    raise _unsupported(self, "csr_triangular_solve", values)


def csr_ilu0(self: Any, indptr: Any, indices: Any, values: Any) -> Any:
    check(self, "csr_ilu0", indptr, indices, values)
    raise _unsupported(self, "csr_ilu0", values)


def csr_ic0(self: Any, indptr: Any, indices: Any, values: Any) -> Any:
    check(self, "csr_ic0", indptr, indices, values, kinds=KINDS[:2])
    raise _unsupported(self, "csr_ic0", values)


def ordering(name: str) -> int:
    """The LU column ordering: 1 minimum degree of A + A^T ("mmd"), 0 natural ("natural")."""
    if name not in ("mmd", "natural"):
        raise ValueError(f"csc_lu_solve: ordering must be 'mmd' or 'natural', got {name!r}")
    return int(name == "mmd")


def csc_lu_solve(self: Any, indptr: Any, indices: Any, values: Any, rhs: Any, ordering: str = "mmd",
                 csr: bool = False) -> Any:
    check(self, "csc_lu_solve", indptr, indices, values, rhs)
    raise _unsupported(self, "csc_lu_solve", values)


def check_ilut(drop_tol: float, fill_factor: float) -> None:
    if not drop_tol >= 0 or not fill_factor > 0:  # NaN fails both
        raise ValueError(f"csr_ilut: drop_tol must be >= 0 and fill_factor > 0, got {drop_tol!r}, {fill_factor!r}")


def check_iluk(k: int) -> None:
    if isinstance(k, bool) or not hasattr(k, "__index__") or k < 0:
        raise ValueError(f"csr_iluk: the level of fill k must be an int >= 0, got {k!r}")


def check_thresh(diag_pivot_thresh: float) -> None:
    if not 0 <= diag_pivot_thresh <= 1:
        raise ValueError(f"csc_lu_factor: diag_pivot_thresh must lie in [0, 1], got {diag_pivot_thresh!r}")


def csc_lu_factor(self: Any, indptr: Any, indices: Any, values: Any, ordering: str = "mmd", csr: bool = False,
                  diag_pivot_thresh: float = 1.0) -> tuple:
    check(self, "csc_lu_factor", indptr, indices, values)
    check_thresh(diag_pivot_thresh)
    raise _unsupported(self, "csc_lu_factor", values)


def csr_ilut(self: Any, indptr: Any, indices: Any, values: Any, drop_tol: float, fill_factor: float) -> tuple:
    check(self, "csr_ilut", indptr, indices, values)
    check_ilut(drop_tol, fill_factor)
    raise _unsupported(self, "csr_ilut", values)


def csr_iluk(self: Any, indptr: Any, indices: Any, values: Any, k: int) -> tuple:
    check(self, "csr_iluk", indptr, indices, values)
    check_iluk(k)
    raise _unsupported(self, "csr_iluk", values)


METHODS = {f.__name__: f for f in (csr_triangular_solve, csr_ilu0, csr_ic0, csc_lu_solve, csc_lu_factor, csr_ilut,
                                   csr_iluk)}

__all__ = ["METHODS", "check", "check_ilut", "check_iluk", "check_thresh", "report", "ordering", "KINDS"]
