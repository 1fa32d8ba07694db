"""numr.linalg: torch.linalg's names (and numpy.linalg's where they agree) for numr's linear
algebra, so code written against either reads the same. Most names are numr's own ops; the few
whose torch.linalg semantics differ from numr's top-level function are small wrappers:
``diagonal`` works on the last two dims, ``norm`` picks a vector or matrix norm from ``ord`` and
``dim``, and ``lstsq`` returns torch's (solution, residuals, rank, singular_values)."""

from __future__ import annotations

from typing import Any, NamedTuple

from .errors import ShapeError
from .ops import api as _api
from .tensor import Tensor

_OPS = _api.OPS

cholesky = _OPS["cholesky"]
cond = _OPS["cond"]
cross = _OPS["cross"]
det = _OPS["det"]
eig = _OPS["eig"]
eigh = _OPS["eigh"]
eigvals = _OPS["eigvals"]
eigvalsh = _OPS["eigvalsh"]
inv = _OPS["inv"]
lu = _OPS["lu"]
lu_factor = _OPS["lu_factor"]
lu_solve = _OPS["lu_solve"]
matrix_exp = _OPS["matrix_exp"]
expm = matrix_exp  # scipy.linalg's name
matrix_norm = _OPS["matrix_norm"]
matrix_power = _OPS["matrix_power"]
matrix_rank = _OPS["matrix_rank"]
multi_dot = _OPS["multi_dot"]
pinv = _OPS["pinv"]
qr = _OPS["qr"]
slogdet = _OPS["slogdet"]
solve = _OPS["solve"]
solve_triangular = _OPS["solve_triangular"]
svd = _OPS["svd"]
svdvals = _OPS["svdvals"]
tensorinv = _OPS["tensorinv"]
tensorsolve = _OPS["tensorsolve"]
vander = _OPS["vander"]
vecdot = _OPS["vecdot"]
vector_norm = _OPS["vector_norm"]
# scipy.linalg's matrix functions and structured solvers
sqrtm = _OPS["sqrtm"]
logm = _OPS["logm"]
signm = _OPS["signm"]
fractional_matrix_power = _OPS["fractional_matrix_power"]
khatri_rao = _OPS["khatri_rao"]
solve_banded = _OPS["solve_banded"]
# torch.linalg's *_ex forms (an info tensor instead of raising), LDL^T (Bunch-Kaufman) and orgqr
cholesky_ex = _OPS["cholesky_ex"]
inv_ex = _OPS["inv_ex"]
solve_ex = _OPS["solve_ex"]
lu_factor_ex = _OPS["lu_factor_ex"]
ldl_factor = _OPS["ldl_factor"]
ldl_factor_ex = _OPS["ldl_factor_ex"]
ldl_solve = _OPS["ldl_solve"]
householder_product = _OPS["householder_product"]
# scipy.linalg's Schur family (numr/ops/traits/schur.py)
schur = _OPS["schur"]
rsf2csf = _OPS["rsf2csf"]
funm = _OPS["funm"]
qz = _OPS["qz"]


def polar(a: Tensor, side: str = "right") -> tuple[Tensor, Tensor]:
    """scipy.linalg.polar: (U, P) with a = U P (side "right") or a = P U ("left"); numr.polar is
    torch.polar (a complex number from modulus and angle), so the top-level name is
    numr.polar_decomposition."""
    return _OPS["polar_decomposition"](a, side)


def diagonal(A: Tensor, *, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:
    """torch.linalg.diagonal: the (offset) diagonal of the last two dims (a view)."""
    return _OPS["diagonal"](A, offset, dim1, dim2)


def norm(A: Tensor, ord: Any = None, dim: Any = None, keepdim: bool = False) -> Tensor:
    """torch.linalg.norm: a vector norm over one dim (or over a 1-d input), a matrix norm over two
    dims (or over a 2-d input); with neither ord nor dim, the 2-norm of the flattened input."""
    dims = None if dim is None else ((dim,) if isinstance(dim, int) else tuple(dim))
    if dims is None:
        if ord is None:
            return vector_norm(A, 2, None, keepdim)
        if A.ndim not in (1, 2):
            raise ShapeError(f"linalg.norm: with ord={ord!r} and no dim the input must be 1-d or 2-d, got shape "
                             f"{tuple(A.shape)}")
        dims = tuple(range(A.ndim))
    if len(dims) == 1:
        return vector_norm(A, 2 if ord is None else ord, dims, keepdim)
    if len(dims) == 2:
        return matrix_norm(A, "fro" if ord is None else ord, dims, keepdim)
    raise ShapeError(f"linalg.norm: dim must name one or two dims, got {dim!r}")


class LstsqResult(NamedTuple):
    """torch.linalg.lstsq's result: residuals are the squared column norms of A X - B for a tall
    full-rank A (empty otherwise), as torch's gelsd driver; rank and singular_values of A."""
    solution: Tensor
    residuals: Tensor
    rank: Tensor
    singular_values: Tensor


def lstsq(A: Tensor, B: Tensor) -> LstsqResult:
    """torch.linalg.lstsq: the least-squares (or minimum-norm) solution of A X = B with its residuals,
    A's rank and singular values (numr.lstsq returns the solution alone)."""
    import numr as nr
    x = nr.lstsq(A, B)
    sv = nr.svdvals(A)
    rank = nr.matrix_rank(A)
    m, n = A.shape[-2], A.shape[-1]
    if m > n and bool(nr.all(rank == n).item()):
        r = nr.matmul(A, x if B.ndim == A.ndim else x.unsqueeze(-1)) - (B if B.ndim == A.ndim else B.unsqueeze(-1))
        res = nr.sum(nr.abs(r) ** 2, dim=-2)  # a vector B keeps one entry, as numpy.linalg.lstsq
    else:
        res = nr.empty((0,), dtype=sv.dtype, device=A.device)
    return LstsqResult(x, res, rank, sv)


__all__ = ["LstsqResult", "cholesky", "cond", "cross", "det", "diagonal", "eig", "eigh", "eigvals", "eigvalsh",
           "expm", "fractional_matrix_power", "funm", "inv", "khatri_rao", "logm", "lstsq", "lu", "lu_factor",
           "lu_solve", "matrix_exp", "matrix_norm", "matrix_power", "matrix_rank", "multi_dot", "norm", "pinv",
           "polar", "qr", "qz", "rsf2csf", "schur", "signm", "slogdet", "solve", "solve_banded", "solve_triangular",
           "sqrtm", "svd", "svdvals", "tensorinv", "tensorsolve", "vander", "vecdot", "vector_norm"]
