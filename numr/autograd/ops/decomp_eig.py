"""Reverse mode for the general eigendecomposition: eigvals has the eigenvalue gradient (distinct,
non-defective eigenvalues) g_A = V^-T diag(g_w) V^T in numr's complex convention (g = dL/dx -
i dL/dy, so the holomorphic eigenvalue map chains without conjugates; torch's V^-H diag(g_w) V^H
is its conjugate), the real part for a real A, written with public ops (eig, solve, mul). eig's
eigenvectors have no rule: eig of a Var that needs a gradient raises UnsupportedOperation (use
eigvals), and so does a second derivative of eigvals (its vjp calls eig). Forward mode (FORWARD,
taken by numr/autograd/forward.py's COMPOSITE): dw = diag(V^-1 dA V); eig with a tangent raises."""

from __future__ import annotations

from typing import Any

import numr as nr

from ...errors import UnsupportedOperation
from ..var import Var
from ._common import record, register, tensor_call, unwrap, wants_grad


def _eigvals_vjp(g: Any, args: tuple, out: Any, need: list, extra: Any) -> list:
    A = args[0]
    _, V = nr.eig(A)
    Vt = V.mT
    gA = nr.solve(Vt, g.unsqueeze(-1) * Vt)  # V^-T diag(g) V^T
    return [gA if unwrap(A).dtype.is_complex else nr.real(gA)]


@register("eigvals")
def var_eigvals(A: Any) -> Any:
    """The eigenvalues, recording V^-T diag(g) V^T (real part for a real A)."""
    return record("eigvals", (A,), tensor_call("eigvals", (A,)), _eigvals_vjp)


@register("eig")
def var_eig(A: Any) -> tuple:
    """(w, V) as constants; no gradient rule for the eigenvectors (raises when one is needed)."""
    if wants_grad((A,)):
        raise UnsupportedOperation("autograd", "eig", unwrap(A).dtype,
                                   "no gradient through eig's eigenvectors; nr.eigvals has the eigenvalues' gradient")
    w, V = tensor_call("eig", (A,))
    return Var.constant(w), Var.constant(V)


def _pt(x: Any) -> tuple[Any, Any]:
    from ..forward import DualTensor
    return (x.primal, x.tangent) if isinstance(x, DualTensor) else (x, None)


def jvp_eigvals(A: Any) -> Any:
    """dw = diag(V^-1 dA V) (distinct, non-defective eigenvalues)."""
    from ..forward import DualTensor
    pA, tA = _pt(A)
    if tA is None:
        return DualTensor(nr.eigvals(pA), None)
    w, V = nr.eig(pA)
    return DualTensor(w, nr.solve(V, nr.cast(tA, V.dtype) @ V).diagonal(0, -2, -1))


def jvp_eig(A: Any) -> tuple:
    from ..forward import DualTensor
    pA, tA = _pt(A)
    if tA is not None:
        raise UnsupportedOperation("forward-mode autograd", "eig", pA.dtype,
                                   "no jvp through eig's eigenvectors; nr.eigvals has the eigenvalues' jvp")
    w, V = nr.eig(pA)
    return DualTensor(w, None), DualTensor(V, None)


#: forward-mode rules (numr/autograd/forward.py's COMPOSITE takes them)
FORWARD = {"eigvals": jvp_eigvals, "eig": jvp_eig}
