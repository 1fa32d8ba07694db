"""torch.linalg's remaining everyday functions, written once with numr's public functions (every
backend runs them; autograd differentiates through their parts): matrix_power by binary powering,
matrix_exp by scaling and squaring with the degree-13 Pade approximant (Higham 2005; one solve),
multi_dot in the optimal chain order, lu_solve/cholesky_solve/cholesky_inverse by triangular
solves, logdet from slogdet, cross/vecdot/vander/tensorsolve/tensorinv (NumPy's semantics)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ... import dtypes as dt
from ...errors import DTypeError, IndexOutOfRange, ShapeError
from ...shapes import broadcast_shapes, normalize_dim, numel
from ..prepare import plain
from .decomp import _back, _low, _mH, _square
from .methods import client_methods


def _eye_like(A: Any) -> Any:
    import numr as nr
    n = A.shape[-1]
    return nr.eye(n, dtype=A.dtype, device=A.device).broadcast_to(tuple(A.shape)).contiguous()


def matrix_power_any(A: Any, n: int) -> Any:
    """A^n by repeated squaring; n < 0 powers inv(A); n = 0 gives the identity (batched)."""
    import numr as nr
    if isinstance(n, bool) or not (isinstance(n, int) or hasattr(n, "__index__")):
        raise DTypeError(f"matrix_power: n must be an integer, got {n!r}")
    n = int(n)
    _square("matrix_power", A)
    if n == 0:
        return _eye_like(A)
    base = nr.inv(A) if n < 0 else A
    n = abs(n)
    out = None
    while n:
        if n & 1:
            out = base if out is None else out @ base
        n >>= 1
        if n:
            base = base @ base
    return out


_THETA13 = 5.371920351148152
_B13 = (64764752532480000., 32382376266240000., 7771770303897600., 1187353796428800., 129060195264000.,
        10559470521600., 670442572800., 33522128640., 1323241920., 40840800., 960960., 16380., 182., 1.)


def matrix_exp_any(A: Any) -> Any:
    """exp(A): each matrix scaled by 2^-s (s from its 1-norm against theta_13), the [13/13] Pade
    approximant r = (V - U)^-1 (V + U), then squared s times (a mask keeps the matrices with
    smaller s). Reads one scalar, the largest s, to size the squaring loop."""
    import numr as nr
    n = _square("matrix_exp", A)
    if A.dtype.kind not in "fc":
        raise DTypeError(f"matrix_exp: needs a floating-point or complex tensor, got {A.dtype}")
    if A.size == 0:
        return A * 1
    A, d = _low(A)
    raw = plain(A)
    norm = nr.amax(nr.sum(nr.abs(raw), dim=-2), dim=-1)
    s = nr.ceil(nr.log2(nr.where(norm > 0, norm, 1) / _THETA13))
    s = nr.where(nr.isfinite(s) & (s > 0), s, 0)
    s_max = int(nr.amax(s).item())
    s = s.reshape(tuple(s.shape) + (1, 1))
    X = A * nr.exp2(-s) if s_max else A
    b = _B13
    I_ = nr.eye(n, dtype=A.dtype, device=A.device)
    X2 = X @ X
    X4 = X2 @ X2
    X6 = X4 @ X2
    U = X @ (X6 @ (b[13] * X6 + b[11] * X4 + b[9] * X2) + b[7] * X6 + b[5] * X4 + b[3] * X2 + b[1] * I_)
    V = X6 @ (b[12] * X6 + b[10] * X4 + b[8] * X2) + b[6] * X6 + b[4] * X4 + b[2] * X2 + b[0] * I_
    R = nr.solve(V - U, V + U)
    for k in range(s_max):
        R2 = R @ R
        R = R2 if s.ndim == 2 else nr.where(s > k, R2, R)
    return _back(R, d)


def multi_dot_any(tensors: Sequence[Any]) -> Any:
    """The product of a chain of matrices in the cheapest order (the O(n^3) dynamic program); a
    1-d first (last) operand is a row (column) vector, dropped from the result as in NumPy."""
    ts = list(tensors)
    if len(ts) < 2:
        raise ShapeError(f"multi_dot: needs at least 2 tensors, got {len(ts)}")
    first, last = ts[0].ndim == 1, ts[-1].ndim == 1
    if first:
        ts[0] = ts[0].unsqueeze(0)
    if last:
        ts[-1] = ts[-1].unsqueeze(-1)
    shapes = [tuple(t.shape) for t in tensors]
    for i, t in enumerate(ts):
        if t.ndim != 2:
            raise ShapeError(f"multi_dot: tensor {i} must be 2-d (1-d only first or last), shapes {shapes}")
        if i and ts[i - 1].shape[1] != t.shape[0]:
            raise ShapeError(f"multi_dot: tensors {i - 1} and {i} cannot be multiplied, shapes {shapes}")
    p = [ts[0].shape[0]] + [t.shape[1] for t in ts]
    k = len(ts)
    cost = [[0] * k for _ in range(k)]
    split = [[0] * k for _ in range(k)]
    for length in range(1, k):
        for i in range(k - length):
            j = i + length
            cost[i][j] = math.inf
            for m in range(i, j):
                c = cost[i][m] + cost[m + 1][j] + p[i] * p[m + 1] * p[j + 1]
                if c < cost[i][j]:
                    cost[i][j], split[i][j] = c, m

    def prod(i: int, j: int) -> Any:
        return ts[i] if i == j else prod(i, split[i][j]) @ prod(split[i][j] + 1, j)

    out = prod(0, k - 1)
    if first:
        out = out.squeeze(0)
    if last:
        out = out.squeeze(-1)
    return out


def _perm_matrix(pivots: Any, n: int, dtype: Any) -> Any:
    """P (..., n, n) with P A = L U from LAPACK's sequential 1-based row swaps (on the device)."""
    import numr as nr
    ar = nr.arange(n, dtype=dt.int64, device=pivots.device)
    piv = nr.cast(pivots, dt.int64) - 1
    perm = ar.broadcast_to(tuple(piv.shape)).contiguous()
    for i in range(n):
        p = piv[..., i:i + 1]
        vi, vp = perm[..., i:i + 1], nr.gather(perm, -1, p)
        perm = nr.where(ar == i, vp, nr.where(ar == p, vi, perm))
    return nr.cast(perm.unsqueeze(-1) == ar, dtype)


def lu_solve_any(LU: Any, pivots: Any, B: Any, left: bool = True, adjoint: bool = False) -> Any:
    """X with A X = B from lu_factor's (LU, pivots) (A^H X = B when ``adjoint``; X A = B when not
    ``left``): X = U^-1 L^-1 P B, or P^T L^-H U^-H B."""
    import numr as nr
    n = _square("lu_solve", LU)
    if tuple(pivots.shape) != tuple(LU.shape[:-1]):
        raise ShapeError(f"lu_solve: pivots must have shape LU.shape[:-1] = {tuple(LU.shape[:-1])}, "
                         f"got {tuple(pivots.shape)} (LU {tuple(LU.shape)})")
    if pivots.dtype.kind not in "iu":
        raise DTypeError(f"lu_solve: pivots must be integers (int32), got {pivots.dtype}")
    if B.ndim < 2 or B.shape[-2 if left else -1] != n:
        raise ShapeError(f"lu_solve: LU {tuple(LU.shape)} and B {tuple(B.shape)}: B needs "
                         f"{n} {'rows' if left else 'columns'}")
    if pivots.size and bool(nr.any((plain(pivots) < 1) | (plain(pivots) > n)).item()):  # one host read
        raise IndexOutOfRange(f"lu_solve: pivots must lie in [1, {n}] (1-based, as lu_factor gives them)")
    if not left:  # X A = B  <=>  A^H X^H = B^H
        return _mH(lu_solve_any(LU, pivots, _mH(B), True, not adjoint))
    P = _perm_matrix(pivots, n, LU.dtype)
    if not adjoint:
        Y = nr.solve_triangular(LU, P @ B, upper=False, unitriangular=True)
        return nr.solve_triangular(LU, Y, upper=True)
    Y = nr.solve_triangular(_mH(LU), B, upper=False)
    return P.mT @ nr.solve_triangular(_mH(LU), Y, upper=True, unitriangular=True)


def cholesky_solve_any(B: Any, L: Any, upper: bool = False) -> Any:
    """X with A X = B for A = L L^H (A = U^H U when ``upper``): two triangular solves."""
    import numr as nr
    n = _square("cholesky_solve", L)
    if B.ndim < 2 or B.shape[-2] != n:
        raise ShapeError(f"cholesky_solve: B {tuple(B.shape)} needs {n} rows for L {tuple(L.shape)}")
    if upper:
        return nr.solve_triangular(L, nr.solve_triangular(_mH(L), B, upper=False), upper=True)
    return nr.solve_triangular(_mH(L), nr.solve_triangular(L, B, upper=False), upper=True)


def cholesky_inverse_any(L: Any, upper: bool = False) -> Any:
    """(L L^H)^-1 (or (U^H U)^-1) from the Cholesky factor."""
    _square("cholesky_inverse", L)
    return cholesky_solve_any(_eye_like(L), L, upper)


def logdet_any(A: Any) -> Any:
    """log(det A): NaN for a negative determinant, -inf for a singular matrix (log of the sign plus
    log|det| for complex)."""
    import numr as nr
    sign, logabs = nr.slogdet(A)
    if A.dtype.kind == "c":
        return nr.log(sign) + logabs
    return nr.where(sign < 0, math.nan, logabs)


def cross_any(a: Any, b: Any, dim: int = -1) -> Any:
    """The 3-vector cross product along ``dim`` of the broadcast a and b."""
    import numr as nr
    shape = broadcast_shapes(tuple(a.shape), tuple(b.shape), op="cross")
    d = normalize_dim(dim, len(shape), "cross")
    if shape[d] != 3 or a.shape[d - len(shape)] != 3 or b.shape[d - len(shape)] != 3:
        raise ShapeError(f"cross: dim {dim} must have size 3, shapes {tuple(a.shape)} and {tuple(b.shape)}")
    a, b = a.broadcast_to(shape), b.broadcast_to(shape)
    x = [a.narrow(d, i, 1) for i in range(3)]
    y = [b.narrow(d, i, 1) for i in range(3)]
    return nr.cat([x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0]], d)


def vecdot_any(x: Any, y: Any, dim: int = -1) -> Any:
    """sum(conj(x) * y) along ``dim`` after broadcasting."""
    import numr as nr
    shape = broadcast_shapes(tuple(x.shape), tuple(y.shape), op="vecdot")
    d = normalize_dim(dim, len(shape), "vecdot")
    if x.dtype.kind == "c":
        x = nr.conj(x)
    return nr.sum(x * y, dim=d)


def vander_any(x: Any, N: int | None = None) -> Any:
    """(..., n, N) with out[..., i, j] = x[..., i]^j (increasing powers; N defaults to n)."""
    import numr as nr
    if x.ndim == 0:
        raise ShapeError("vander: x needs at least 1 dim, got a 0-d tensor")
    N = x.shape[-1] if N is None else int(N)
    if N < 0:
        raise ShapeError(f"vander: N must be >= 0, got {N}")
    ones = nr.ones(tuple(x.shape) + (1,), dtype=x.dtype, device=x.device)
    if N <= 1:
        return ones.narrow(-1, 0, N) * 1
    xs = x.unsqueeze(-1).broadcast_to(tuple(x.shape) + (N - 1,))
    return nr.cat([ones, nr.cumprod(xs, dim=-1)], -1)


def tensorsolve_any(a: Any, b: Any, dims: Sequence[int] | None = None) -> Any:
    """x with tensordot(a, x, x.ndim) = b (numpy.linalg.tensorsolve): x.shape = a.shape[b.ndim:]."""
    import numr as nr
    if dims is not None:
        ds = [normalize_dim(d, a.ndim, "tensorsolve") for d in dims]
        a = a.permute(tuple([i for i in range(a.ndim) if i not in ds] + ds))
    xshape = tuple(a.shape[b.ndim:])
    m, k = numel(b.shape), numel(xshape)
    if tuple(a.shape[:b.ndim]) != tuple(b.shape) or m != k:
        raise ShapeError(f"tensorsolve: a {tuple(a.shape)} must start with b's shape {tuple(b.shape)} and "
                         f"the rest must have as many elements ({k} vs {m})")
    return nr.solve(a.reshape((m, k)), b.reshape((m, 1))).reshape(xshape)


def tensorinv_any(a: Any, ind: int = 2) -> Any:
    """The inverse of a under tensordot(., ., ind): shape a.shape[ind:] + a.shape[:ind]."""
    import numr as nr
    if int(ind) <= 0:
        raise ShapeError(f"tensorinv: ind must be positive, got {ind}")
    lead, rest = tuple(a.shape[:ind]), tuple(a.shape[ind:])
    if numel(lead) != numel(rest):
        raise ShapeError(f"tensorinv: a {tuple(a.shape)} is not 'square' for ind={ind}")
    return nr.inv(a.reshape((numel(lead), numel(rest)))).reshape(rest + lead)


#: public name -> the composite taking the public arguments (autograd registers these)
COMPOSITES = {"matrix_power": matrix_power_any, "matrix_exp": matrix_exp_any, "multi_dot": multi_dot_any,
              "lu_solve": lu_solve_any, "cholesky_solve": cholesky_solve_any,
              "cholesky_inverse": cholesky_inverse_any, "logdet": logdet_any, "cross": cross_any,
              "vecdot": vecdot_any, "vander": vander_any, "tensorsolve": tensorsolve_any,
              "tensorinv": tensorinv_any}

GENERIC = client_methods(COMPOSITES)
