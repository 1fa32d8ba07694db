"""Reverse mode for the general eigendecomposition: eigvals has the eigenvalue gradient (distinct,
non-defective eigenvalues) g_A = V^-T diag(g_w) V^T in numr's complex convention (g = dL/dx -
i dL/dy, so the holomorphic eigenvalue map chains without conjugates; torch's V^-H diag(g_w) V^H
is its conjugate), the real part for a real A, written with public ops (eig, solve, mul). eig's
eigenvectors have torch's linalg_eig_backward formula (conjugated the same way; valid for losses
that ignore the eigenvectors' free phases), so eigvals differentiates twice. Forward mode (FORWARD,
taken by numr/autograd/forward.py's COMPOSITE): dw = diag(V^-1 dA V) and the unit-norm dV."""

from __future__ import annotations

from typing import Any

import numr as nr

from ._common import record, register, tensor_call, unwrap


def _eigvals_vjp(g: Any, args: tuple, out: Any, need: list, extra: Any) -> list:
    A = args[0]
    w, V = nr.eig(A)
    gA = _eig_core(g, None, w, V)  # V^-T diag(g) V^T
    return [gA if unwrap(A).dtype.is_complex else nr.real(gA)]


@register("eigvals")
def var_eigvals(A: Any, B: Any = None, homogeneous_eigvals: bool = False) -> Any:
    """The eigenvalues, recording V^-T diag(g) V^T (real part for a real A); the generalized
    problem (B) and the homogeneous form give values without a gradient."""
    if B is not None or homogeneous_eigvals:
        return tensor_call("eigvals", (A, B, homogeneous_eigvals))
    return record("eigvals", (A,), tensor_call("eigvals", (A,)), _eigvals_vjp)


def _eig_core(gw: Any, gV: Any, w: Any, V: Any) -> Any:
    """V^-T X V^T, X = (V^T gV - V^T conj(V) diag(re(V^T gV))) / E off the diagonal, gw on it,
    E_ij = w_j - w_i (torch's linalg_eig_backward, conjugated into numr's convention)."""
    n = w.shape[-1]
    eye = nr.eye(n, dtype=nr.bool, device=w.device)
    X = nr.zeros(V.shape, dtype=V.dtype, device=V.device)
    if gV is not None:
        VtgV = V.mT @ gV
        re = nr.cast(nr.real(VtgV.diagonal(0, -2, -1)), V.dtype)
        E = w.unsqueeze(-2) - w.unsqueeze(-1)
        X = (VtgV - V.mT @ (nr.conj(V) * re.unsqueeze(-2))) / nr.where(eye, 1.0, E)
        X = nr.where(eye, 0.0, X)
    if gw is not None:
        X = X + nr.where(eye, gw.unsqueeze(-1), 0.0)
    Vt = V.mT
    return nr.solve(Vt, X @ Vt)


def _eig_vjp(g: list, args: tuple, out: list, need: list, extra: Any) -> list:
    gA = _eig_core(g[0], g[1], out[0], out[1])
    return [gA if unwrap(args[0]).dtype.is_complex else nr.real(gA)]


@register("eig")
def var_eig(A: Any, B: Any = None, homogeneous_eigvals: bool = False) -> tuple:
    """(w, V) recording torch's eig backward (distinct eigenvalues; the loss must not depend on
    the eigenvectors' phases, which eig does not pin: abs(V), V diag(w) V^-1, ...); with B or
    homogeneous_eigvals: values without a gradient."""
    from .decomp import _record_many
    if B is not None or homogeneous_eigvals:
        return tuple(tensor_call("eig", (A, B, homogeneous_eigvals)))
    return _record_many("eig", (A,), tuple(tensor_call("eig", (A,))), _eig_vjp)


def _pt(x: Any) -> tuple[Any, Any]:
    from ..forward import DualTensor
    return (x.primal, x.tangent) if isinstance(x, DualTensor) else (x, None)


def jvp_eigvals(A: Any, B: Any = None, homogeneous_eigvals: bool = False) -> Any:
    """dw = diag(V^-1 dA V) (distinct, non-defective eigenvalues); B/homogeneous: no tangent."""
    from ..forward import DualTensor
    pA, tA = _pt(A)
    if B is not None or homogeneous_eigvals:
        return DualTensor(nr.eigvals(pA, _pt(B)[0], homogeneous_eigvals), None)
    if tA is None:
        return DualTensor(nr.eigvals(pA), None)
    w, V = nr.eig(pA)
    return DualTensor(w, nr.solve(V, nr.cast(tA, V.dtype) @ V).diagonal(0, -2, -1))


def jvp_eig(A: Any, B: Any = None, homogeneous_eigvals: bool = False) -> tuple:
    """dw = diag(P), dV = V (P / E off the diagonal) - V diag(re(V^H V (P / E))), P = V^-1 dA V:
    the tangent keeping the columns of unit norm (torch's gauge: re(v^H dv) = 0)."""
    from ..forward import DualTensor
    pA, tA = _pt(A)
    if B is not None or homogeneous_eigvals:
        return tuple(DualTensor(x, None) for x in nr.eig(pA, _pt(B)[0], homogeneous_eigvals))
    w, V = nr.eig(pA)
    if tA is None:
        return DualTensor(w, None), DualTensor(V, None)
    P = nr.solve(V, nr.cast(tA, V.dtype) @ V)
    eye = nr.eye(w.shape[-1], dtype=nr.bool, device=w.device)
    E = w.unsqueeze(-2) - w.unsqueeze(-1)
    dV = V @ nr.where(eye, 0.0, P / nr.where(eye, 1.0, E))
    re = nr.cast(nr.real((nr.conj(V) * dV).sum(-2)), V.dtype)
    return DualTensor(w, P.diagonal(0, -2, -1)), DualTensor(V, dV - V * re.unsqueeze(-2))


#: forward-mode rules (numr/autograd/forward.py's COMPOSITE takes them)
FORWARD = {"eigvals": jvp_eigvals, "eig": jvp_eig}
