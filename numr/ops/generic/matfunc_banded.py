"""scipy.linalg.solve_banded as a block banded LU with partial pivoting, written with numr's public
functions (every backend; autograd through its parts). The band is cut into b x b blocks (b >= l, u):
A is then block tridiagonal, and the LU of each (2b x b) block column panel with partial pivoting over
its 2b rows is exactly LAPACK gbsv's row choice (a pivot of column c comes from rows c..c+l); the row
exchanges fill a second block superdiagonal of U. Work O(n b^2), memory O(n b), n/b sequential steps
of ~10 small dense ops (lu of the values for the row order, a solve with the pivot block, a matmul
for the Schur update) each, then n/b matmul back-substitution steps.
One host read: whether a pivot is exactly zero (LinAlgError, as gbsv)."""

from __future__ import annotations

from typing import Any

from ...dtypes import result_type
from ...errors import DTypeError, LinAlgError, ShapeError
from ..prepare import plain

_MIN_BLOCK = 32  # fewer, larger steps: each costs a few op calls whatever its size


def _blocks(ab: Any, lo: int, up: int, b: int, nb: int) -> Any:
    """(nb, b, 3b) W: block row J of A (then of the identity past n) over block columns J-1, J, J+1.
    Row r = J b + i holds A[r, r - lo + t] (t < lo + up + 1) at column i + b - lo + t: the rows of the
    band are laid side by side, then skewed by the reshape trick (flatten rows of 3b + 1, read 3b)."""
    import numr as nr
    w, n = ab.shape
    abp = nr.pad(ab, (lo, up))
    R = nr.stack([abp[up + lo - t, t:t + n] for t in range(w)], dim=-1)  # R[r, t] = A[r, r - lo + t]
    eye_rows = nr.cast(nr.arange(w, device=ab.device) == lo, ab.dtype).unsqueeze(0).expand((nb * b - n, w))
    R = nr.cat([R, eye_rows], 0).reshape((nb, b, w))
    Z = nr.pad(R, (b - lo, 3 * b + 1 - (b - lo) - w))
    return Z.reshape((nb, b * (3 * b + 1)))[:, :3 * b * b].reshape((nb, b, 3 * b))


def _factor(W: Any, Y: Any, nb: int, b: int) -> tuple[list, list, list]:
    """Per block column J, with the panel's rows in partial-pivoting order (lu of the values: no
    gradient through the choice) and A11 their top b x b block: (A11^-1 [U_J,J+1 | U_J,J+2],
    A11^-1 y_J, the pivots of U_JJ); the bottom rows get the Schur update A22 - A21 A11^-1 A12."""
    import numr as nr
    zeros = nr.zeros((b, b), dtype=W.dtype, device=W.device)
    C, yc = W[0, :, b:], Y[0]
    Gs, gys, pivots = [], [], []
    for J in range(nb - 1):
        nxt = W[J + 1]
        M = nr.cat([nr.cat([C[:, :b], nxt[:, :b]], 0), nr.cat([nr.cat([C[:, b:], zeros], 1), nxt[:, b:]], 0),
                    nr.cat([yc, Y[J + 1]], 0)], 1)
        P, _, U = nr.lu(plain(M[:, :2 * b]))
        pivots.append(U.diagonal(0, -2, -1)[:b])
        M = P.mT @ M
        try:
            G = nr.solve(M[:b, :b], M[:b, b:])
        except LinAlgError:
            G = None  # A11 singular: so is A (reported from the pivots)
            break
        bottom = M[b:, b:] - M[b:, :b] @ G
        Gs.append(G[:, :2 * b])
        gys.append(G[:, 2 * b:])
        C, yc = bottom[:, :2 * b], bottom[:, 2 * b:]
    return Gs, gys, pivots


def _back_substitute(Gs: list, gys: list) -> Any:
    """x_J = A11^-1 y_J - A11^-1 [U_J,J+1 | U_J,J+2] [x_J+1; x_J+2], J descending (x past the end: 0)."""
    import numr as nr
    x1 = x2 = nr.zeros(tuple(gys[0].shape), dtype=gys[0].dtype, device=gys[0].device)
    xs = []
    for J in range(len(Gs) - 1, -1, -1):
        x1, x2 = gys[J] - Gs[J] @ nr.cat([x1, x2], 0), x1
        xs.append(x1)
    return nr.cat(xs[::-1], 0)


def check_banded(l_and_u: tuple[int, int], ab: Any, b: Any) -> tuple[int, int, Any]:
    """(l, u, the result dtype) of solve_banded's arguments, or numr's errors (shared with the CPU
    kernel's dispatch, numr/_cpu/ops/matfunc_banded.py)."""
    try:
        lo, up = (int(v) for v in l_and_u)
    except (TypeError, ValueError):
        raise ShapeError(f"solve_banded: l_and_u must be a pair of ints, got {l_and_u!r}") from None
    if lo < 0 or up < 0:
        raise ShapeError(f"solve_banded: l and u must be >= 0, got ({lo}, {up})")
    if ab.ndim != 2 or ab.shape[0] != lo + up + 1:
        raise ShapeError(f"solve_banded: invalid values for the number of lower and upper diagonals: "
                         f"l+u+1 ({lo + up + 1}) does not equal ab.shape[0] (ab shape {tuple(ab.shape)})")
    n = ab.shape[1]
    if b.ndim not in (1, 2) or b.shape[0] != n:
        raise ShapeError(f"solve_banded: shapes of ab {tuple(ab.shape)} and b {tuple(b.shape)} are not compatible")
    if ab.dtype.kind not in "fc" or b.dtype.kind not in "fc":
        raise DTypeError(f"solve_banded: needs floating-point or complex tensors, got {ab.dtype} and {b.dtype}")
    return lo, up, result_type(ab.dtype, b.dtype)


def singular(j: int) -> LinAlgError:
    return LinAlgError(f"solve_banded: singular matrix (U[{j}, {j}] is zero)")


def solve_banded_any(l_and_u: tuple[int, int], ab: Any, b: Any) -> Any:
    """x with A x = b for A in LAPACK band storage ab (l + u + 1, n), ab[u + i - j, j] = A[i, j]; b (n,)
    or (n, k) (scipy.linalg.solve_banded); LinAlgError for a singular matrix."""
    import numr as nr
    lo, up, dtype = check_banded(l_and_u, ab, b)
    n = ab.shape[1]
    ab, B = nr.cast(ab, dtype), nr.cast(b if b.ndim == 2 else b.unsqueeze(-1), dtype)
    if n == 0 or B.shape[1] == 0:
        return nr.zeros(tuple(b.shape), dtype=dtype, device=ab.device)
    bs = max(lo, up, min(n, _MIN_BLOCK), 1)
    nb = -(-n // bs) + 1  # the block rows of A, then one of the identity (the last panel's lower half)
    W = _blocks(ab, lo, up, bs, nb)
    Y = nr.cat([B, nr.zeros((nb * bs - n, B.shape[1]), dtype=dtype, device=B.device)], 0)
    Gs, gys, pivots = _factor(W, Y.reshape((nb, bs, B.shape[1])), nb, bs)
    zero = nr.nonzero(nr.cat(pivots)[:n] == 0)
    if zero.shape[0] or len(Gs) < nb - 1:
        j = int(zero[0, 0].item()) if zero.shape[0] else len(Gs) * bs
        raise singular(j)
    X = _back_substitute(Gs, gys)[:n]
    return X if b.ndim == 2 else X.squeeze(-1)
