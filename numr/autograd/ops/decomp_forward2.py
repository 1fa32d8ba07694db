"""Forward mode (DualTensor) for svd, svdvals and qr (real dtypes; complex tangents raise, as the
gauge of numr's complex factors is not pinned): lstsq and pinv are composites over them (and
solve_triangular), and so polar, polyfit and numr.decomposition gain forward mode.

svd (distinct, nonzero singular values), with dP = U^T dA V and F_ij = 1 / (s_j^2 - s_i^2):
dS = diag(dP), dU = U (F o (dP S + S dP^T)) + (I - U U^T) dA V S^-1,
dV = V (F o (S dP + dP^T S)) + (I - V V^T) dA^T U S^-1.
qr (m >= n, full rank), with C = Q^T dA R^-1 and Om = tril(C, -1) - tril(C, -1)^T (Q^T dQ):
dR = (C - Om) R, dQ = dA R^-1 - Q (C - Om); a wide A = [X | Y] factors X and R = [R_X | Q^T Y].
"""

from __future__ import annotations

from typing import Any

import numr as nr

from ...errors import UnsupportedOperation
from ...ops.generic.decomp import COMPOSITES
from .decomp_forward import _dual, _forward_real, _pt


def _svd_tangents(U: Any, S: Any, V: Any, tA: Any, need_vectors: bool) -> tuple[Any, Any, Any]:
    """(dU, dS, dV) of the thin SVD A = U diag(S) V^T along tA."""
    dP = U.mT @ tA @ V
    dS = dP.diagonal(0, -2, -1)
    if not need_vectors:
        return None, dS, None
    k = S.shape[-1]
    eye = nr.eye(k, dtype=nr.bool, device=S.device)
    S2 = S * S
    E = S2.unsqueeze(-2) - S2.unsqueeze(-1)
    F = nr.where(eye, 0.0, 1 / nr.where(eye, 1.0, E))
    dPS = dP * S.unsqueeze(-2)  # dP diag(S)
    SdP = S.unsqueeze(-1) * dP  # diag(S) dP
    dU = U @ (F * (dPS + dPS.mT))
    dV = V @ (F * (SdP + SdP.mT))
    m, n = U.shape[-2], V.shape[-2]
    if m > k:
        dU = dU + (tA @ V - U @ dP) / S.unsqueeze(-2)
    if n > k:
        dV = dV + (tA.mT @ U - V @ dP.mT) / S.unsqueeze(-2)
    return dU, dS, dV


def jvp_svd(A: Any, full_matrices: bool = True) -> tuple:
    """(U, S, Vh) with tangents; full_matrices of a non-square A has no unique tangent (raises)."""
    pA, tA = _pt(A)
    U, S, Vh = nr.svd(pA, full_matrices=full_matrices)
    if tA is None:
        return _dual(U, None), _dual(S, None), _dual(Vh, None)
    m, n = pA.shape[-2:]
    if full_matrices and m != n:
        raise UnsupportedOperation("forward-mode autograd", "svd", pA.dtype,
                                   f"full_matrices=True of a non-square ({m}, {n}) matrix has no unique "
                                   f"tangent; use full_matrices=False")
    dU, dS, dV = _svd_tangents(U, S, Vh.mT, tA, True)
    return _dual(U, dU), _dual(S, dS), _dual(Vh, dV.mT)


def jvp_svdvals(A: Any) -> Any:
    """dS = diag(U^T dA V)."""
    pA, tA = _pt(A)
    if tA is None:
        return _dual(nr.svdvals(pA), None)
    U, S, Vh = nr.svd(pA, full_matrices=False)
    return _dual(S, _svd_tangents(U, S, Vh.mT, tA, False)[1])


def _qr_tall(Q: Any, R: Any, tA: Any) -> tuple[Any, Any]:
    dAR = nr.solve_triangular(R, tA, upper=True, left=False)  # dA R^-1
    C = Q.mT @ dAR
    low = nr.tril(C, -1)
    X = C - (low - low.mT)  # dR R^-1, upper triangular
    return dAR - Q @ X, nr.triu(X @ R)


def jvp_qr(A: Any, mode: str = "reduced") -> tuple:
    """(Q, R) with tangents for mode reduced/r, and complete when m <= n (complete with m > n has
    no unique tangent: it raises)."""
    pA, tA = _pt(A)
    Q, R = nr.qr(pA, mode)
    if tA is None:
        return _dual(Q, None), _dual(R, None)
    m, n = pA.shape[-2:]
    if mode == "complete" and m > n:
        raise UnsupportedOperation("forward-mode autograd", "qr", pA.dtype,
                                   f"mode='complete' of a tall ({m}, {n}) matrix has no unique tangent")
    Qf = nr.qr(pA, "reduced")[0] if mode == "r" else Q
    if m >= n:
        dQ, dR = _qr_tall(Qf, R, tA)
    else:
        dQ, dRx = _qr_tall(Qf, R.narrow(-1, 0, m), tA.narrow(-1, 0, m))
        Y, dY = pA.narrow(-1, m, n - m), tA.narrow(-1, m, n - m)
        dR = nr.cat([dRx, dQ.mT @ Y + Qf.mT @ dY], -1)
    return _dual(Q, None if mode == "r" else dQ), _dual(R, dR)


#: forward-mode rules and composites (numr/autograd/forward.py's COMPOSITE takes them)
FORWARD = {n: _forward_real(f, n) for n, f in (("svd", jvp_svd), ("svdvals", jvp_svdvals), ("qr", jvp_qr))}
FORWARD.update({n: _forward_real(COMPOSITES[n], n) for n in ("lstsq", "pinv")})
