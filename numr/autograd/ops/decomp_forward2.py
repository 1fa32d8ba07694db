"""Forward mode (DualTensor) for svd, svdvals and qr: lstsq and pinv are composites over them
(and solve_triangular), and so polar, polyfit and numr.decomposition gain forward mode.

svd (distinct, nonzero singular values), with dP = U^H dA V and F_ij = 1 / (s_j^2 - s_i^2):
dS = re diag(dP), dU = U (F o (dP S + S dP^H) + i diag(im dP / S)) + (I - U U^H) dA V S^-1,
dV = V (F o (S dP + dP^H S)) + (I - V V^H) dA^H U S^-1.
qr (m >= n, full rank), with C = Q^H dA R^-1 and Om = tril(C, -1) - tril(C, -1)^H (Q^H dQ):
dR = (C - Om) R, dQ = dA R^-1 - Q (C - Om); a wide A = [X | Y] factors X and R = [R_X | Q^H Y].
Complex factors have free phases (numr does not pin them the way this tangent does: Im(Q^H dQ)
and Im(V^H dV) have a zero diagonal), so for complex A only phase-free results (S, U S V^H,
Q R, lstsq, pinv, polar) match central differences of the computed function.
"""

from __future__ import annotations

from typing import Any

import numr as nr

from ...errors import UnsupportedOperation
from ...ops.generic.decomp import COMPOSITES
from ...ops.generic.decomp import _mH as _h
from .decomp_forward import _dual, _like, _pt


def _svd_tangents(U: Any, S: Any, V: Any, tA: Any, need_vectors: bool) -> tuple[Any, Any, Any]:
    """(dU, dS, dV) of the thin SVD A = U diag(S) V^T along tA."""
    dP = _h(U) @ tA @ V
    dPd = dP.diagonal(0, -2, -1)
    cplx = dP.dtype.kind == "c"
    dS = nr.real(dPd) if cplx else dPd
    if not need_vectors:
        return None, dS, None
    k = S.shape[-1]
    eye = nr.eye(k, dtype=nr.bool, device=S.device)
    S2 = S * S
    E = S2.unsqueeze(-2) - S2.unsqueeze(-1)
    F = nr.where(eye, 0.0, 1 / nr.where(eye, 1.0, E))
    dPS = dP * S.unsqueeze(-2)  # dP diag(S)
    SdP = S.unsqueeze(-1) * dP  # diag(S) dP
    OmU = F * (dPS + _h(dPS))
    if cplx:  # the phase: Im(U^H dU)_ii = Im(dP_ii) / s_i, Im(V^H dV)_ii = 0
        OmU = OmU + nr.where(eye, (nr.imag(dPd) / S).unsqueeze(-1), 0.0) * 1j
    dU = U @ OmU
    dV = V @ (F * (SdP + _h(SdP)))
    m, n = U.shape[-2], V.shape[-2]
    if m > k:
        dU = dU + (tA @ V - U @ dP) / S.unsqueeze(-2)
    if n > k:
        dV = dV + (_h(tA) @ U - V @ _h(dP)) / S.unsqueeze(-2)
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
    dU, dS, dV = _svd_tangents(U, S, _h(Vh), _like(tA, pA), True)
    return _dual(U, dU), _dual(S, dS), _dual(Vh, _h(dV))


def jvp_svdvals(A: Any) -> Any:
    """dS = diag(U^T dA V)."""
    pA, tA = _pt(A)
    if tA is None:
        return _dual(nr.svdvals(pA), None)
    U, S, Vh = nr.svd(pA, full_matrices=False)
    return _dual(S, _svd_tangents(U, S, _h(Vh), _like(tA, pA), False)[1])


def _qr_tall(Q: Any, R: Any, tA: Any) -> tuple[Any, Any]:
    dAR = nr.solve_triangular(R, tA, upper=True, left=False)  # dA R^-1
    C = _h(Q) @ dAR
    low = nr.tril(C, -1)
    X = C - (low - _h(low))  # dR R^-1, upper triangular
    return dAR - Q @ X, nr.triu(X @ R)


def jvp_qr(A: Any, mode: str = "reduced") -> tuple:
    """(Q, R) with tangents for mode reduced/r, and complete when m <= n (complete with m > n has
    no unique tangent: it raises)."""
    pA, tA = _pt(A)
    Q, R = nr.qr(pA, mode)
    if tA is None:
        return _dual(Q, None), _dual(R, None)
    tA = _like(tA, pA)
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
        dR = nr.cat([dRx, _h(dQ) @ Y + _h(Qf) @ dY], -1)
    return _dual(Q, None if mode == "r" else dQ), _dual(R, dR)


#: forward-mode rules and composites (numr/autograd/forward.py's COMPOSITE takes them)
FORWARD = {"svd": jvp_svd, "svdvals": jvp_svdvals, "qr": jvp_qr, "lstsq": COMPOSITES["lstsq"],
           "pinv": COMPOSITES["pinv"]}
