"""LDL^T with Bunch-Kaufman pivoting (torch.linalg.ldl_factor / ldl_solve; LAPACK's sytf2 and
sytrs, lower), written once with numr's public functions and batched on the device: every matrix
of a batch takes its own pivot decisions as masks (no host reads), so one step k does, per
element, a 1x1 pivot (maybe with a symmetric interchange), the first column of a 2x2 pivot, or
nothing (the second column of the previous step's 2x2). The output is LAPACK's: LD holds L below
the diagonal and the 1x1/2x2 blocks of D; pivots are 1-based, positive for a 1x1 block (rows k
and p-1 interchanged), the same negative value -p twice for a 2x2 block (rows k+1 and p-1).
Pivot choices use LAPACK's measure (|re| + |im| for complex), so real results match LAPACK's
bit for bit up to rounding. Autograd differentiates the values through their parts."""

from __future__ import annotations

import math
from typing import Any

from ...errors import ShapeError
from ..prepare import plain
from .decomp import _back, _low, _square

ALPHA = (1.0 + math.sqrt(17.0)) / 8.0  # Bunch-Kaufman's growth bound


def _mag(x: Any) -> Any:
    """LAPACK's pivot measure: |x| for reals, |re| + |im| for complex (plain: no gradient)."""
    import numr as nr
    x = plain(x)
    return nr.abs(nr.real(x)) + nr.abs(nr.imag(x)) if x.dtype.is_complex else nr.abs(x)


def _cj(x: Any, hermitian: bool) -> Any:
    import numr as nr
    return nr.conj(x) if hermitian and x.dtype.is_complex else x


def _col(M: Any, j: Any) -> Any:
    """Column j of each matrix of M (..., n, n): j an int, or an int64 (...,) tensor."""
    import numr as nr
    if isinstance(j, int):
        return M[..., :, j]
    idx = j.reshape(tuple(j.shape) + (1, 1))
    return nr.take_along_dim(M, idx, -1).reshape(tuple(M.shape[:-1]))


def _row(M: Any, i: Any) -> Any:
    import numr as nr
    idx = i.reshape(tuple(i.shape) + (1, 1))
    return nr.take_along_dim(M, idx, -2).reshape(tuple(M.shape[:-2]) + (M.shape[-1],))


def _swap(M: Any, a: Any, b: Any, r: Any, both: bool) -> Any:
    """M with rows a and b (int64 (...,)) interchanged, and columns too when ``both``."""
    import numr as nr
    a, b = a.reshape(tuple(a.shape) + (1,)), b.reshape(tuple(b.shape) + (1,))
    perm = nr.where(r == a, b, nr.where(r == b, a, r))
    M = nr.take_along_dim(M, perm.reshape(tuple(perm.shape) + (1,)), -2)
    return nr.take_along_dim(M, perm.reshape(tuple(perm.shape[:-1]) + (1, perm.shape[-1])), -1) if both else M


def _bunch_kaufman(A: Any, hermitian: bool) -> tuple[Any, Any, Any]:
    """(LD, int32 pivots, int32 info) of LAPACK's sytf2 (lower) on A's lower triangle."""
    import numr as nr
    n, batch, dev = A.shape[-1], tuple(A.shape[:-2]), A.device
    low = nr.tril(A)
    S = low + _cj(nr.tril(A, -1), hermitian).mT  # the full symmetric / Hermitian matrix
    r = nr.arange(n, dtype=nr.int64, device=dev)
    skip = nr.zeros(batch, dtype=nr.bool_, device=dev)
    pending = nr.zeros(batch + (n,), dtype=A.dtype, device=dev)
    pend_piv = nr.zeros(batch, dtype=nr.int64, device=dev)
    info = nr.zeros(batch, dtype=nr.int32, device=dev)
    cols, pivs = [], []
    ex = (lambda t: t.reshape(tuple(t.shape) + (1,)))  # (...,) -> (..., 1)
    for k in range(n):
        a = _mag(_col(S, k))
        colv = nr.where(r > k, a, -1.0)
        colmax = nr.maximum(nr.amax(colv, -1), 0.0)
        imax = nr.argmax(colv, -1)
        absakk = a[..., k]
        rowmax = nr.amax(nr.where(nr.logical_and(r >= k, r != ex(imax)), _mag(_row(S, imax)), 0.0), -1)
        aimax = _mag(_col(nr.diagonal(S, 0, -2, -1).reshape(batch + (1, n)), imax)).reshape(batch)
        zero = nr.logical_or(nr.maximum(absakk, colmax) == 0, nr.isnan(absakk))
        nopiv = nr.logical_or(nr.logical_or(zero, absakk >= ALPHA * colmax),
                              absakk * rowmax >= ALPHA * colmax * colmax)
        two = nr.logical_and(nr.logical_not(nr.logical_or(nopiv, aimax >= ALPHA * rowmax)), nr.logical_not(skip))
        kp = nr.where(nr.logical_or(nopiv, skip), k, imax)
        S = _swap(S, k + nr.cast(two, nr.int64), kp, r, both=True)
        col = _col(S, k)
        d = col[..., k]
        below = nr.where(r > k, col, 0.0)
        l1 = nr.where(ex(zero), 0.0, below / ex(nr.where(d == 0, 1.0, d)))
        S1 = S - l1.reshape(tuple(l1.shape) + (1,)) * _cj(below, hermitian).reshape(batch + (1, n))
        col1 = nr.where(r == k, ex(d), l1)
        if k < n - 1:
            d21, d22 = S[..., k + 1, k], S[..., k + 1, k + 1]
            d12 = _cj(d21, hermitian)
            det = nr.where(two, d * d22 - d12 * d21, 1.0)
            W0, W1 = nr.where(r >= k + 2, col, 0.0), nr.where(r >= k + 2, _col(S, k + 1), 0.0)
            L0 = (W0 * ex(d22) - W1 * ex(d21)) / ex(det)
            L1 = (W1 * ex(d) - W0 * ex(d12)) / ex(det)
            S2 = S - L0.reshape(tuple(L0.shape) + (1,)) * _cj(W0, hermitian).reshape(batch + (1, n)) \
                - L1.reshape(tuple(L1.shape) + (1,)) * _cj(W1, hermitian).reshape(batch + (1, n))
            first2 = nr.where(r == k, ex(d), nr.where(r == k + 1, ex(d21), L0))
            second2 = nr.where(r == k + 1, ex(d22), L1)
            col1 = nr.where(ex(two), first2, col1)
            S1 = nr.where(two.reshape(batch + (1, 1)), S2, S1)
        cols.append(nr.where(ex(skip), pending, col1))
        S = nr.where(skip.reshape(batch + (1, 1)), S, S1)
        pivs.append(nr.where(skip, pend_piv, nr.where(two, -(kp + 1), kp + 1)))
        info = nr.where(nr.logical_and(nr.logical_and(info == 0, zero), nr.logical_not(skip)), k + 1, info)
        if k < n - 1:
            pending = second2
        pend_piv, skip = -(kp + 1), two
    if not n:
        return A + 0, nr.zeros(batch + (0,), dtype=nr.int32, device=dev), info
    return nr.stack(cols, -1), nr.cast(nr.stack(pivs, -1), nr.int32), info


def ldl_factor_ex_any(A: Any, hermitian: bool = False, check_errors: bool = False) -> tuple[Any, Any, Any]:
    """(LD, pivots, info) of torch.linalg.ldl_factor_ex: info[b] = i > 0 when D[i-1, i-1] is
    exactly zero (D singular; the factorization completes)."""
    _square("ldl_factor", A)
    A2, back = _low(A)
    LD, piv, info = _bunch_kaufman(A2, hermitian)
    if check_errors:
        from .decomp_ex import _raise_info
        _raise_info("ldl_factor", info, "D is singular")
    return _back(LD, back), piv, info


def ldl_factor_any(A: Any, hermitian: bool = False) -> tuple[Any, Any]:
    """(LD, pivots) of torch.linalg.ldl_factor (Bunch-Kaufman, LAPACK's format)."""
    LD, piv, _ = ldl_factor_ex_any(A, hermitian)
    return LD, piv


def solve_args(LD: Any, pivots: Any, B: Any) -> tuple[Any, Any, Any, tuple[int, ...], int]:
    """ldl_solve's checked operands (LD and B in their common dtype, B broadcast to the batch and
    fresh, int64 pivots broadcast), the batch shape and n (shared with the CPU kernel's dispatch)."""
    import numr as nr
    n = _square("ldl_solve", LD)
    p = plain(pivots)
    if tuple(p.shape) != tuple(LD.shape[:-1]) or not p.dtype.is_integer:
        raise ShapeError(f"ldl_solve: pivots must be integers of shape {tuple(LD.shape[:-1])}, got {p.dtype} "
                         f"{tuple(p.shape)}")
    if B.ndim < 2 or B.shape[-2] != n:
        raise ShapeError(f"ldl_solve: B must be (..., {n}, k), got shape {tuple(B.shape)}")
    ct = nr.promote_types(LD.dtype, B.dtype)
    LD, B = (t if t.dtype is ct else nr.cast(t, ct) for t in (LD, B))
    batch = tuple(nr.broadcast_shapes(tuple(LD.shape[:-2]), tuple(B.shape[:-2])))
    B = nr.broadcast_to(B, batch + tuple(B.shape[-2:])) + 0
    p = nr.cast(nr.broadcast_to(p, batch + (n,)), nr.int64)
    if n and (bool(nr.any(p == 0).item()) or bool(nr.any(nr.abs(p) > n).item())):
        raise ShapeError(f"ldl_solve: pivots must be in [-{n}, -1] or [1, {n}] (LAPACK's 1-based form)")
    return LD, p, B, batch, n


def ldl_solve_any(LD: Any, pivots: Any, B: Any, hermitian: bool = False) -> Any:
    """X with A X = B from ldl_factor's (LD, pivots) (torch.linalg.ldl_solve, LAPACK's sytrs):
    interchanges and unit-lower solves forward, the 1x1/2x2 blocks of D, then back."""
    import numr as nr
    LD, p, B, batch, n = solve_args(LD, pivots, B)
    r = nr.arange(n, dtype=nr.int64, device=LD.device).reshape(n, 1)
    ex = (lambda t: t.reshape(tuple(t.shape) + (1, 1)))
    second = nr.zeros(batch, dtype=nr.bool_, device=LD.device)
    firsts = []
    for k in range(n):  # forward: P, L and D
        pk = p[..., k]
        first2 = nr.logical_and(pk < 0, nr.logical_not(second))
        lk = nr.where(r > k, LD[..., :, k:k + 1], 0.0)
        B1 = _swap(B, nr.full(batch, k, dtype=nr.int64, device=LD.device), nr.where(pk > 0, pk - 1, k),
                   r.reshape(n), both=False)
        B1 = B1 - lk * B1[..., k:k + 1, :]
        dk = LD[..., k, k]  # a 2x2 block's d11 may be 0: never divide by it where unused (NaN gradients)
        B1 = nr.where(r == k, B1 / ex(nr.where(nr.logical_or(pk < 0, second), 1.0, dk)), B1)
        if k < n - 1:
            d11, d21, d22 = LD[..., k, k], LD[..., k + 1, k], LD[..., k + 1, k + 1]
            d12 = _cj(d21, hermitian)
            B2 = _swap(B, nr.full(batch, k + 1, dtype=nr.int64, device=LD.device), nr.where(pk < 0, -pk - 1, k + 1),
                       r.reshape(n), both=False)
            lk0 = nr.where(r >= k + 2, LD[..., :, k:k + 1], 0.0)
            lk1 = nr.where(r >= k + 2, LD[..., :, k + 1:k + 2], 0.0)
            b0, b1 = B2[..., k:k + 1, :], B2[..., k + 1:k + 2, :]
            B2 = B2 - lk0 * b0 - lk1 * b1
            det = ex(nr.where(first2, d11 * d22 - d12 * d21, 1.0))
            x0, x1 = (ex(d22) * b0 - ex(d12) * b1) / det, (ex(d11) * b1 - ex(d21) * b0) / det
            B2 = nr.where(r == k, x0, nr.where(r == k + 1, x1, B2))
            B1 = nr.where(ex(first2), B2, B1)
        B = nr.where(ex(second), B, B1)
        firsts.append(first2)
        second = first2
    for k in range(n - 1, -1, -1):  # backward: L^T (L^H) and P
        pk = p[..., k]
        sec = firsts[k - 1] if k else nr.zeros(batch, dtype=nr.bool_, device=LD.device)
        tail = B[..., k + 1:, :]
        lk = _cj(LD[..., k + 1:, k:k + 1], hermitian)
        Bk = B - nr.where(r == k, nr.sum(lk * tail, -2, keepdim=True), 0.0)
        if k:
            lm = _cj(LD[..., k + 1:, k - 1:k], hermitian)
            Bk = nr.where(ex(sec), Bk - nr.where(r == k - 1, nr.sum(lm * tail, -2, keepdim=True), 0.0), Bk)
        kp = nr.where(pk > 0, pk - 1, -pk - 1)
        Bk = _swap(Bk, nr.full(batch, k, dtype=nr.int64, device=LD.device), kp, r.reshape(n), both=False)
        B = nr.where(ex(firsts[k]), B, Bk)
    return B


#: op name -> composite (client methods through client_methods; autograd registers the same)
COMPOSITES = {"ldl_factor": ldl_factor_any, "ldl_factor_ex": ldl_factor_ex_any, "ldl_solve": ldl_solve_any}
