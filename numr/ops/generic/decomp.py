"""The decomposition family's composites, written once with numr's public functions over the
kernels (lu_factor, solve, solve_triangular, qr, svd, eigh), so that autograd differentiates
through their parts: inv by solve against the identity, det/slogdet from the LU factors, lstsq
by QR, pinv/matrix_norm/matrix_rank/cond from the singular values."""

from __future__ import annotations

import math
from typing import Any

from ... import dtypes as dt
from ...errors import LinAlgError, ShapeError
from ...shapes import normalize_dim
from ..prepare import plain
from .methods import client_methods


def _mH(x: Any) -> Any:
    """The conjugate transpose of the last two dims (nr.conj: a copy for complex, differentiable)."""
    if x.dtype.kind != "c":
        return x.mT
    import numr as nr
    return nr.conj(x.mT)


def _low(A: Any) -> tuple[Any, Any]:
    """(A in its work dtype, the dtype to return): narrow floats compute in float32."""
    import numr as nr
    if A.dtype.kind == "f" and A.dtype not in (dt.float32, dt.float64):
        return nr.cast(A, dt.float32), A.dtype
    return A, None


def _back(x: Any, d: Any) -> Any:
    import numr as nr
    return x if d is None else nr.cast(x, d)


def _square(op: str, A: Any) -> int:
    if A.ndim < 2 or A.shape[-1] != A.shape[-2]:
        raise ShapeError(f"{op}: needs square matrices, got shape {tuple(A.shape)}")
    return A.shape[-1]


def inv_any(A: Any) -> Any:
    """solve(A, I): the LU solve of the identity, expanded to A's batch shape (a plain (n, n) I
    beside a batch of n matrices would be read as a batch of vectors, torch's solve rule)."""
    import numr as nr
    n = _square("inv", A)
    try:
        return nr.solve(A, nr.eye(n, dtype=A.dtype, device=A.device).expand(tuple(A.shape)))
    except LinAlgError as e:
        raise LinAlgError("inv" + str(e).removeprefix("solve")) from None


def _lu_parts(op: str, A: Any) -> tuple[Any, Any, Any]:
    """(diagonal of U, the permutation's sign (+-1, int), the work-dtype A) of P A = L U."""
    import numr as nr
    n = _square(op, A)
    A, _ = _low(A)
    lu, piv = nr.lu_factor(A)
    swaps = nr.sum(piv != nr.arange(1, n + 1, dtype=dt.int32, device=A.device), dim=-1)
    return lu.diagonal(0, -2, -1), 1 - 2 * (swaps % 2), A


def det_any(A: Any) -> Any:
    """prod(diag(U)) times the sign of the row permutation (0 for a singular matrix)."""
    import numr as nr
    diag, parity, A32 = _lu_parts("det", A)
    return _back(nr.prod(diag, dim=-1) * parity, _low(A)[1])


def slogdet_any(A: Any) -> tuple[Any, Any]:
    """(sign, log|det|) from the LU diagonal: (0, -inf) for a singular matrix."""
    import numr as nr
    diag, parity, A32 = _lu_parts("slogdet", A)
    mag = nr.abs(diag)
    zero = mag == 0
    phase = nr.where(zero, 0, diag / nr.where(zero, 1, mag))
    sign = nr.prod(phase, dim=-1) * parity
    d = _low(A)[1]
    return _back(sign, d), _back(nr.sum(nr.log(mag), dim=-1), d)


def eigvalsh_any(A: Any, UPLO: str = "L") -> Any:
    import numr as nr
    return nr.eigh(A, UPLO)[0]


def svdvals_any(A: Any) -> Any:
    import numr as nr
    return nr.svd(A, full_matrices=False)[1]


def lstsq_any(A: Any, B: Any) -> Any:
    """m >= n: R X = Q^H B; m < n: the minimum-norm X = Q R^-H B from A^H = Q R (full rank)."""
    import numr as nr
    if A.ndim < 2:
        raise ShapeError(f"lstsq: A needs at least 2 dims, got shape {tuple(A.shape)}")
    vec = B.ndim == 1
    B2 = B.unsqueeze(-1) if vec else B
    m, n = A.shape[-2:]
    if B2.ndim < 2 or B2.shape[-2] != m:
        raise ShapeError(f"lstsq: A {tuple(A.shape)} and B {tuple(B.shape)}: B needs {m} rows")
    if m >= n:
        Q, R = nr.qr(A)
        X = nr.solve_triangular(R, _mH(Q) @ B2, upper=True)
    else:
        Q, R = nr.qr(_mH(A))
        X = Q @ nr.solve_triangular(_mH(R), B2, upper=False)
    return X.squeeze(-1) if vec else X


def _eps(A: Any) -> float:
    return float(dt.finfo(A.dtype if A.dtype.kind != "c" else (dt.float32 if A.dtype.itemsize == 8 else
                                                                 dt.float64)).eps)


def pinv_any(A: Any, rtol: float | None = None, hermitian: bool = False) -> Any:
    """V diag(1/s) U^H over the singular values above rtol * max (default max(m, n) * eps)."""
    import numr as nr
    if A.ndim < 2:
        raise ShapeError(f"pinv: needs at least 2 dims, got shape {tuple(A.shape)}")
    m, n = A.shape[-2:]
    if A.size == 0:
        return nr.zeros(tuple(A.shape[:-2]) + (n, m), dtype=A.dtype, device=A.device)
    U, S, Vh = nr.svd(A, full_matrices=False)
    r = max(m, n) * _eps(A) if rtol is None else float(rtol)
    keep = S > r * nr.amax(S, dim=-1, keepdim=True)
    sinv = nr.where(keep, 1 / nr.where(keep, S, 1), 0)
    return (_mH(Vh) * sinv.unsqueeze(-2)) @ _mH(U)


def _to_end(A: Any, dim: tuple[int, int], op: str) -> tuple[Any, tuple[int, int]]:
    d0, d1 = (normalize_dim(d, A.ndim, op) for d in dim)
    if d0 == d1:
        raise ShapeError(f"{op}: dim {dim} names one dim twice")
    rest = [i for i in range(A.ndim) if i not in (d0, d1)]
    return (A if (d0, d1) == (A.ndim - 2, A.ndim - 1) else A.permute(tuple(rest + [d0, d1]))), (d0, d1)


def matrix_norm_any(A: Any, ord: str | float = "fro", dim: tuple[int, int] = (-2, -1),
                    keepdim: bool = False) -> Any:
    """fro: sqrt(sum |a|^2); nuc/2/-2 from the singular values; 1/-1 (inf/-inf): the largest/smallest
    absolute column (row) sum."""
    import numr as nr
    if A.ndim < 2:
        raise ShapeError(f"matrix_norm: needs at least 2 dims, got shape {tuple(A.shape)}")
    if A.dtype.kind not in "fc":
        raise dt_error("matrix_norm", A)
    x, (d0, d1) = _to_end(A, tuple(dim), "matrix_norm")
    if ord == "fro":
        a = nr.abs(x) if x.dtype.kind == "c" else x
        out = nr.sqrt(nr.sum(a * a, dim=(-2, -1)))
    elif ord == "nuc":
        out = nr.sum(nr.svdvals(x), dim=-1)
    elif ord in (2, -2):
        s = nr.svdvals(x)
        out = nr.amax(s, dim=-1) if ord == 2 else nr.amin(s, dim=-1)
    elif ord in (1, -1, math.inf, -math.inf):
        sums = nr.sum(nr.abs(x), dim=-2 if abs(ord) == 1 else -1)
        out = nr.amax(sums, dim=-1) if ord > 0 else nr.amin(sums, dim=-1)
    else:
        raise ValueError(f"matrix_norm: ord must be 'fro', 'nuc', 2, -2, 1, -1, inf or -inf, got {ord!r}")
    if keepdim:
        for d in sorted((d0, d1)):
            out = out.unsqueeze(d)
    return out


def dt_error(op: str, A: Any) -> Exception:
    from ...errors import DTypeError
    return DTypeError(f"{op}: needs a floating-point or complex tensor, got {A.dtype}")


def matrix_rank_any(A: Any, atol: float | None = None, rtol: float | None = None,
                    hermitian: bool = False) -> Any:
    """How many singular values exceed max(atol, rtol * largest) (rtol defaults to max(m, n) * eps
    when neither is given, as in torch)."""
    import numr as nr
    if A.ndim < 2:
        raise ShapeError(f"matrix_rank: needs at least 2 dims, got shape {tuple(A.shape)}")
    m, n = A.shape[-2:]
    if min(m, n) == 0:
        return nr.zeros(tuple(A.shape[:-2]), dtype=dt.int64, device=A.device)
    S = nr.svdvals(plain(A))  # no gradient: a count
    r = (max(m, n) * _eps(A) if atol is None else 0.0) if rtol is None else float(rtol)
    tol = nr.maximum(nr.amax(S, dim=-1, keepdim=True) * r, float(atol or 0.0))
    return nr.count_nonzero(S > tol, dim=-1)


def cond_any(A: Any, p: str | float | None = None) -> Any:
    """p None/2/-2: the ratio of extreme singular values (inf for a singular matrix); else
    matrix_norm(A, p) * matrix_norm(inv(A), p)."""
    import numr as nr
    if p is None or p in (2, -2):
        S = nr.svdvals(A)
        big, small = S.narrow(-1, 0, 1).squeeze(-1), S.narrow(-1, S.shape[-1] - 1, 1).squeeze(-1)
        return big / small if p != -2 else small / big
    n = _square("cond", A)
    if A.size == 0:
        return matrix_norm_any(A, p) * matrix_norm_any(A, p)
    # a singular matrix (a zero pivot) has condition inf (numpy, torch): it is replaced by the
    # identity for the inverse, so the batch's other matrices go on, and its result set to inf
    lu, _ = nr.lu_factor(_low(plain(A))[0])  # which matrices are singular: no gradient
    singular = nr.any(nr.diagonal(lu, 0, -2, -1) == 0, dim=-1)
    eye = nr.eye(n, dtype=A.dtype, device=A.device)
    safe = nr.where(singular.unsqueeze(-1).unsqueeze(-1), eye, A)
    c = matrix_norm_any(A, p) * matrix_norm_any(nr.inv(safe), p)
    return nr.where(singular, math.inf, c)


#: public name -> the composite taking the public arguments (autograd registers these)
COMPOSITES = {"inv": inv_any, "det": det_any, "slogdet": slogdet_any, "eigvalsh": eigvalsh_any,
              "svdvals": svdvals_any, "lstsq": lstsq_any, "pinv": pinv_any, "matrix_norm": matrix_norm_any,
              "matrix_rank": matrix_rank_any, "cond": cond_any}


GENERIC = client_methods(COMPOSITES)
