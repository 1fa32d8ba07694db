"""scipy.linalg.solve_banded as a banded LU with partial pivoting written with numr's public
functions (every backend; autograd through its parts). The elimination keeps a dense (lo + 1, lo + up + 1)
window (rows j..j+lo, columns j..j+lo+up: the fill-in of pivoting stays inside it), so the work is
O(n lo (lo + up)) and the memory O(n (lo + up)); the price is O(n) small op calls in sequence. One host read:
whether a pivot was exactly zero (LinAlgError, as LAPACK's gbsv)."""

from __future__ import annotations

from typing import Any

from ...dtypes import result_type
from ...errors import DTypeError, LinAlgError, ShapeError
from ..prepare import plain


def _rows(ab: Any, lo: int, up: int) -> Any:
    """(n + lo + 1, lo + up + 1) R with R[r, t] = A[r, r - lo + t] (zero outside A), then lo + 1 rows of
    the identity's band, so that the window always has lo + 1 rows to take in."""
    import numr as nr
    w, n = ab.shape
    abp = nr.pad(ab, (lo, up))
    R = nr.stack([abp[up + lo - t, t:t + n] for t in range(w)], dim=-1)
    E = nr.cast(nr.arange(w, device=ab.device) == lo, ab.dtype).unsqueeze(0).expand((lo + 1, w))
    return nr.cat([R, E], 0)


def _swap_first(sel: Any, blk: Any) -> tuple[Any, Any]:
    """(the selected row, blk with that row and row 0 exchanged, row 0 dropped)."""
    import numr as nr
    row = nr.sum(nr.where(sel, blk, 0), dim=0)
    rest = nr.where(sel, blk[0:1], blk)[1:]
    return row, rest


def _factor(R: Any, B: Any, n: int, lo: int, up: int) -> tuple[Any, Any]:
    """Forward elimination: (U rows (n, lo + up + 1), the transformed right-hand sides (n, k))."""
    import numr as nr
    w = lo + up + 1
    if lo == 0:
        return R[:n], B[:n]
    z = nr.zeros((lo,), dtype=R.dtype, device=R.device)
    blk = nr.stack([nr.cat([R[r, lo - r:], z[:lo - r]]) for r in range(lo + 1)])  # rows 0..lo from column 0
    rhs = B[:lo + 1]
    zcol = nr.zeros((lo, 1), dtype=R.dtype, device=R.device)
    ar = nr.arange(lo + 1, device=R.device).reshape((lo + 1, 1))
    urows, ys = [], []
    for j in range(n):
        p = nr.argmax(nr.abs(plain(blk[:, 0])))
        sel = ar == p
        prow, rest = _swap_first(sel, blk)
        yrow, rrest = _swap_first(sel, rhs)
        m = (rest[:, 0] / prow[0]).unsqueeze(-1)
        rest = rest - m * prow.unsqueeze(0)
        rrest = rrest - m * yrow.unsqueeze(0)
        urows.append(prow)
        ys.append(yrow)
        if j + 1 < n:
            blk = nr.cat([nr.cat([rest[:, 1:w], zcol], 1), R[j + lo + 1:j + lo + 2]], 0)
            rhs = nr.cat([rrest, B[j + lo + 1:j + lo + 2]], 0)
    return nr.stack(urows), nr.stack(ys)


def _back_substitute(U: Any, Y: Any, n: int) -> Any:
    """x_j = (y_j - sum_t U[j, t] x_{j+t}) / U[j, 0], from j = n - 1 down."""
    import numr as nr
    w = U.shape[1]
    if w == 1:
        return Y / U[:, 0:1]
    win = nr.zeros((w - 1, Y.shape[1]), dtype=Y.dtype, device=Y.device)
    xs = []
    for j in range(n - 1, -1, -1):
        xj = (Y[j] - nr.sum(U[j, 1:].unsqueeze(-1) * win, dim=0)) / U[j, 0]
        xs.append(xj)
        win = nr.cat([xj.unsqueeze(0), win[:w - 2]], 0)
    return nr.stack(xs[::-1])


def solve_banded_any(l_and_u: tuple[int, int], ab: Any, b: Any) -> Any:
    """x with A x = b for A in LAPACK band storage ab (l + u + 1, n), ab[u + i - j, j] = A[i, j]; b (n,)
    or (n, k) (scipy.linalg.solve_banded); LinAlgError for a singular matrix."""
    import numr as nr
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
    dtype = result_type(ab.dtype, b.dtype)
    ab, B = nr.cast(ab, dtype), nr.cast(b if b.ndim == 2 else b.unsqueeze(-1), dtype)
    if n == 0 or B.shape[1] == 0:
        return nr.zeros(tuple(b.shape), dtype=dtype, device=ab.device)
    R = _rows(ab, lo, up)
    B = nr.cat([B, nr.zeros((lo + 1, B.shape[1]), dtype=dtype, device=B.device)], 0)
    U, Y = _factor(R, B, n, lo, up)
    zero = nr.nonzero(plain(U[:, 0]) == 0)
    if zero.shape[0]:
        j = int(zero[0, 0].item())
        raise LinAlgError(f"solve_banded: singular matrix (U[{j}, {j}] is zero)")
    X = _back_substitute(U, Y, n)
    return X if b.ndim == 2 else X.squeeze(-1)
