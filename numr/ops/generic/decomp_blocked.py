"""The decomposition primitives for backends without linalg kernels (wgpu, cuda), written once
with numr's public ops on the device: blocked triangular solves (substitution inside nb x nb
diagonal blocks, one matmul per off-diagonal block), LU with partial pivoting (per column an
argmax and a masked row swap, then one triangular solve and one matmul per panel of nb columns),
solve as the LU of [A | B] followed by one upper solve, and blocked right-looking Cholesky.
Results follow the CPU kernels: pivots int32 1-based, LinAlgError naming the batch element,
float16/bfloat16 computed in float32; complex (cuda) by the same code with conjugate transposes and
pivoting by |.|. Only an error check reads a scalar back to the host."""

from __future__ import annotations

from typing import Any

from ... import dtypes as dt
from ...errors import DTypeError, LinAlgError, UnsupportedDType, UnsupportedOperation
from ..prepare_decomp import batch_index, operand, solve_shapes, square, triangular_batch, triangular_rhs, work_dtype

NB = 32  # panel / diagonal block size


def check_dtype(op: str, client: Any, A: Any) -> dt.DType:
    """The work dtype; (wgpu without shader-f64) float64 raises UnsupportedDType. Complex runs where
    the backend holds it (cuda); wgpu has no complex tensors to pass."""
    d = work_dtype(op, A)
    backend = client.device.runtime_name
    feats = getattr(getattr(client, "gpu", None), "features", None)
    if d is dt.float64 and feats is not None and "shader-f64" not in feats:
        raise UnsupportedDType(backend, op, A.dtype, "the adapter lacks shader-f64")
    return d


def mH(x: Any) -> Any:
    """The conjugate transpose of the last two dims (the transpose for real x)."""
    import numr as nr
    return nr.conj(x.mT) if x.dtype.kind == "c" else x.mT


def work(client: Any, x: Any, shape: tuple[int, ...], d: dt.DType) -> Any:
    """A fresh contiguous tensor of ``shape`` holding x (broadcast, cast): the algorithms write in place."""
    out = client.empty(tuple(shape), d)
    if out.size:
        client.copy_(out, x)
    return out


def back(x: Any, d: dt.DType) -> Any:
    """The float32 result of a low-precision input, back in its dtype."""
    import numr as nr
    return x if x.dtype is d else nr.cast(x, d)


def raise_first(op: str, bad: Any, bshape: tuple[int, ...], msg: str) -> None:
    """LinAlgError for the first batch element with a True in ``bad`` (batch + (n,)); msg gets {i}, {k}.
    Reads one scalar when nothing failed (the error path reads two more)."""
    import numr as nr
    if bad.size == 0 or not bool(nr.any(bad).item()):
        return
    flat = bad.reshape((-1, bad.shape[-1]))
    b = int(nr.argmax(nr.cast(nr.any(flat, dim=-1), dt.int32)).item())
    i = int(nr.argmax(nr.cast(flat[b], dt.int32)).item())
    where = f" (batch element {batch_index(bshape, b)})" if bshape else ""
    raise LinAlgError(f"{op}: {msg.format(i=i, k=i + 1)}{where}")


def trsm_(A: Any, X: Any, upper: bool, unit: bool) -> None:
    """X <- A^-1 X in place for triangular A (..., n, n) and X (..., n, k), batch dims broadcast."""
    import numr as nr
    n = A.shape[-1]
    if n == 0 or X.shape[-1] == 0:
        return
    if not unit:
        diag = nr.diagonal(A, 0, -2, -1).unsqueeze(-1)
        A = A / diag  # unit diagonal now: rows of A and X scaled by 1 / a_ii
        X.copy_(X / diag)
    blocks = [(j0, min(j0 + NB, n)) for j0 in range(0, n, NB)]
    for j0, j1 in (reversed(blocks) if upper else blocks):
        rows = range(j1 - 2, j0 - 1, -1) if upper else range(j0 + 1, j1)
        for i in rows:  # substitution inside the diagonal block
            lo, hi = (i + 1, j1) if upper else (j0, i)
            xi = X[..., i:i + 1, :]
            xi.copy_(xi - A[..., i:i + 1, lo:hi] @ X[..., lo:hi, :])
        r0, r1 = (0, j0) if upper else (j1, n)
        if r1 > r0:  # the rest of X by one matmul
            rest = X[..., r0:r1, :]
            rest.copy_(rest - A[..., r0:r1, j0:j1] @ X[..., j0:j1, :])


def solve_triangular(self: Any, A: Any, B: Any, upper: bool, left: bool = True,
                     unitriangular: bool = False) -> Any:
    A, _, n = square("solve_triangular", self, A)
    d = check_dtype("solve_triangular", self, A)
    B = triangular_rhs("solve_triangular", self, A, B)
    if not left:
        return solve_triangular(self, A.mT, B.mT, upper=not upper, unitriangular=unitriangular).mT
    bshape = triangular_batch("solve_triangular", A, B, n)
    X = work(self, B, bshape + (n, B.shape[-1]), d)
    if X.size:
        trsm_(work(self, A, A.shape, d), X, bool(upper), bool(unitriangular))
    return back(X, A.dtype)


def lu_(W: Any, n: int, end: int) -> Any:
    """LU with partial pivoting of W[..., :, :n] in place, rows swapped over W's full width and the
    elimination carried to columns < ``end`` ([A | B] gives L^-1 P B beside U). Returns the pivots
    (..., n) int64, 0-based absolute (LAPACK's ipiv - 1). A zero pivot leaves its column unscaled."""
    import numr as nr
    bs = tuple(W.shape[:-2])
    ar = nr.arange(n, dtype=dt.int64, device=W.device).unsqueeze(-1)
    pivs = []
    for j0 in range(0, n, NB):
        j1 = min(j0 + NB, n)
        for j in range(j0, j1):
            R = W[..., j:, :]
            p = nr.argmax(nr.abs(W[..., j:, j]), dim=-1, keepdim=True)  # (..., 1), relative to row j
            pivs.append(p)
            if j + 1 == n:
                break
            mask = ar[: n - j] == p.unsqueeze(-1)  # (..., n - j, 1): row p
            rowp = nr.sum(nr.where(mask, R, 0), dim=-2, keepdim=True)  # exact (one term); no gather's host check
            R.copy_(nr.where(mask, R[..., :1, :], R))  # row p <- row j
            R[..., :1, :].copy_(rowp)
            piv = W[..., j:j + 1, j:j + 1]
            col = W[..., j + 1:, j:j + 1]
            col.copy_(col / nr.where(piv == 0, 1, piv))
            if j + 1 < j1:
                T = W[..., j + 1:, j + 1:j1]
                T.copy_(T - col @ W[..., j:j + 1, j + 1:j1])
        if j1 < end:  # U12 = L11^-1 A12, then A22 -= L21 U12 by one matmul
            U12 = W[..., j0:j1, j1:end]
            trsm_(W[..., j0:j1, j0:j1], U12, upper=False, unit=True)
            if j1 < n:
                A22 = W[..., j1:, j1:end]
                A22.copy_(A22 - W[..., j1:, j0:j1] @ U12)
    if not pivs:
        return nr.zeros(bs + (0,), dtype=dt.int64, device=W.device)
    return nr.cat(pivs, -1) + ar.squeeze(-1)  # relative -> absolute rows


def lu_factor(self: Any, A: Any) -> tuple[Any, Any]:
    """A singular matrix factors too (a zero on U's diagonal), as torch's lu_factor_ex."""
    import numr as nr
    A, _, n = square("lu_factor", self, A)
    d = check_dtype("lu_factor", self, A)
    W = work(self, A, A.shape, d)
    piv = lu_(W, n, n) if W.size else nr.zeros(A.shape[:-1], dtype=dt.int64, device=A.device)
    return back(W, A.dtype), nr.cast(piv + 1, dt.int32)


def lu(self: Any, A: Any, pivot: bool = True) -> tuple[Any, Any, Any]:
    """P from a row-index column carried through the swaps: row r of L U is row perm[r] of A."""
    import numr as nr
    A, _, n = square("lu", self, A)
    d = check_dtype("lu", self, A)
    if not pivot:
        raise UnsupportedOperation(self.device.runtime_name, "lu", A.dtype, "pivot=False (as torch on the CPU)")
    W = self.empty(tuple(A.shape[:-1]) + (n + 1,), d)
    if W.size:
        W[..., :n].copy_(A)
        W[..., n].copy_(nr.arange(n, dtype=d, device=A.device))
        lu_(W, n, n)
    LU = W[..., :n]
    perm = nr.cast(nr.real(W[..., n]) if d.kind == "c" else W[..., n], dt.int64)
    P = nr.cast(nr.arange(n, dtype=dt.int64, device=A.device).unsqueeze(-1) == perm.unsqueeze(-2), d)
    eye = nr.eye(n, dtype=d, device=A.device)
    return back(P, A.dtype), back(nr.tril(LU, -1) + eye, A.dtype), back(nr.triu(LU), A.dtype)


def solve(self: Any, A: Any, B: Any, left: bool = True) -> Any:
    """The LU of [A | B] (L^-1 P B rides along the elimination), then U X = that by substitution."""
    import numr as nr
    A, _, n = square("solve", self, A)
    d = check_dtype("solve", self, A)
    B = operand("solve", self, B)
    if B.dtype is not A.dtype:
        raise DTypeError(f"solve: A ({A.dtype}) and B ({B.dtype}) must have one dtype")
    if not left:  # X A = B  <=>  A^T X^T = B^T
        return solve(self, A.mT, B.mT).mT
    bshape, k, vec = solve_shapes("solve", A.shape, B.shape)
    W = self.empty(bshape + (n, n + k), d)
    if W.size:
        W[..., :n].copy_(A)
        W[..., n:].copy_(B.unsqueeze(-1) if vec else B)
        lu_(W, n, n + k)
        U = W[..., :n]
        raise_first("solve", nr.diagonal(U, 0, -2, -1) == 0, bshape, "the matrix is singular (U[{i}, {i}] is zero)")
        trsm_(U, W[..., n:], upper=True, unit=False)
    X = W[..., n:]
    return back(X.squeeze(-1) if vec else X, A.dtype)


def cholesky(self: Any, A: Any, upper: bool = False) -> Any:
    """Blocked right-looking: each panel's columns from the panel's earlier columns (one matrix-vector
    product each), then the trailing matrix by one matmul; only A's lower triangle is read."""
    import numr as nr
    A, _, n = square("cholesky", self, A)
    d = check_dtype("cholesky", self, A)
    W = work(self, A, A.shape, d)
    cx = d.kind == "c"
    if W.size:
        pivots = []
        for j0 in range(0, n, NB):
            j1 = min(j0 + NB, n)
            for j in range(j0, j1):
                c = W[..., j:, j:j + 1]
                cn = c - W[..., j:, j0:j] @ mH(W[..., j:j + 1, j0:j]) if j > j0 else c
                dj = nr.real(cn[..., :1, :]) if cx else cn[..., :1, :]  # a Hermitian diagonal's imag is ignored
                pivots.append(dj.squeeze(-1).contiguous())
                root = nr.sqrt(dj)
                c.copy_(cn / root)
                if cx:
                    c[..., :1, :].copy_(root)
            if j1 < n:
                A22, L21 = W[..., j1:, j1:], W[..., j1:, j0:j1]
                A22.copy_(A22 - L21 @ mH(L21))
        bad = nr.logical_not(nr.cat(pivots, -1) > 0)  # NaN fails too
        raise_first("cholesky", bad, tuple(A.shape[:-2]),
                    "the input is not positive-definite (the leading minor of order {k} is not positive)")
    L = back(nr.tril(W), A.dtype)
    return mH(L).contiguous() if upper else L


#: the primitives as client methods (the first argument is the client)
METHODS = {"solve_triangular": solve_triangular, "lu_factor": lu_factor, "lu": lu, "solve": solve,
           "cholesky": cholesky}
