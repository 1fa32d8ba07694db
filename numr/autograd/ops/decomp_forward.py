"""Forward mode (DualTensor) for the decompositions: jvp rules for solve, solve_triangular and det
(complex too: holomorphic), slogdet, cholesky and eigh (real dtypes); inv, eigvalsh, the norms and
cond (p != 2 and not None) are composites over them. svd, svdvals, qr, lstsq and pinv: decomp_forward2.py."""

from __future__ import annotations

from typing import Any

import numr as nr

from ...errors import UnsupportedOperation
from ...ops.generic.decomp import COMPOSITES


def _pt(x: Any) -> tuple[Any, Any]:
    from ..forward import DualTensor
    return (x.primal, x.tangent) if isinstance(x, DualTensor) else (x, None)


def _dual(p: Any, t: Any) -> Any:
    from ..forward import DualTensor
    return DualTensor(p, t)


def _read_sym(tA: Any, upper: bool) -> Any:
    """The Hermitian matrix a triangle-reading op sees for the tangent."""
    if upper:
        return nr.triu(tA) + nr.triu(tA, 1).mT
    return nr.tril(tA) + nr.tril(tA, -1).mT


def jvp_solve(A: Any, B: Any, left: bool = True) -> Any:
    """dX = A^-1 (dB - dA X)."""
    (pA, tA), (pB, tB) = _pt(A), _pt(B)
    if not left:
        return jvp_solve(_dual(pA.mT, None if tA is None else tA.mT), _dual(pB.mT, None if tB is None else tB.mT)).mT
    X = nr.solve(pA, pB)
    vec = X.ndim == pB.ndim and pB.ndim == pA.ndim - 1 or pB.ndim == 1
    rhs = None if tB is None else tB
    if tA is not None:
        dAX = (tA @ X.unsqueeze(-1)).squeeze(-1) if vec else tA @ X
        rhs = -dAX if rhs is None else rhs - dAX
    return _dual(X, None if rhs is None else nr.solve(pA, rhs))


def jvp_solve_triangular(A: Any, B: Any, upper: bool, left: bool = True, unitriangular: bool = False) -> Any:
    (pA, tA), (pB, tB) = _pt(A), _pt(B)
    if not left:
        return jvp_solve_triangular(_dual(pA.mT, None if tA is None else tA.mT),
                                    _dual(pB.mT, None if tB is None else tB.mT), upper=not upper,
                                    unitriangular=unitriangular).mT
    X = nr.solve_triangular(pA, pB, upper=upper, unitriangular=unitriangular)
    rhs = tB
    if tA is not None:
        k = (1 if upper else -1) if unitriangular else 0
        dAX = (nr.triu(tA, k) if upper else nr.tril(tA, k)) @ X
        rhs = -dAX if rhs is None else rhs - dAX
    t = None if rhs is None else nr.solve_triangular(pA, rhs, upper=upper, unitriangular=unitriangular)
    return _dual(X, t)


def _trace_solve(pA: Any, tA: Any) -> Any:
    return nr.sum(nr.solve(pA, tA).diagonal(0, -2, -1), dim=-1)


def jvp_det(A: Any) -> Any:
    """d det = det tr(A^-1 dA)."""
    pA, tA = _pt(A)
    d = nr.det(pA)
    return _dual(d, None if tA is None else d * _trace_solve(pA, tA))


def jvp_slogdet(A: Any) -> tuple:
    pA, tA = _pt(A)
    s, la = nr.slogdet(pA)
    return _dual(s, None), _dual(la, None if tA is None else _trace_solve(pA, tA))


def jvp_cholesky(A: Any, upper: bool = False) -> Any:
    """dL = L Phi(L^-1 dA L^-T), Phi: the lower triangle with the diagonal halved."""
    pA, tA = _pt(A)
    L = nr.cholesky(pA)
    t = None
    if tA is not None:
        Y = nr.solve_triangular(L, _read_sym(tA, False), upper=False)
        M = nr.solve_triangular(L, Y.mT, upper=False).mT  # L^-1 dA L^-T
        t = L @ (nr.tril(M) - 0.5 * nr.tril(nr.triu(M)))
    return _dual(L.mT, None if t is None else t.mT) if upper else _dual(L, t)


def jvp_eigh(A: Any, UPLO: str = "L") -> tuple:
    """M = V^T dA V: dw = diag(M), dV = V (F o M), F_ij = 1 / (w_j - w_i)."""
    pA, tA = _pt(A)
    w, V = nr.eigh(pA, UPLO)
    if tA is None:
        return _dual(w, None), _dual(V, None)
    M = V.mT @ _read_sym(tA, UPLO == "U") @ V
    n = w.shape[-1]
    eye = nr.eye(n, dtype=nr.bool, device=pA.device)
    E = w.unsqueeze(-2) - w.unsqueeze(-1)
    F = nr.where(eye, 0.0, 1 / nr.where(eye, 1.0, E))
    return _dual(w, M.diagonal(0, -2, -1)), _dual(V, V @ (F * M))


def _forward_real(fn: Any, name: str) -> Any:
    def f(*args: Any, **kwargs: Any) -> Any:
        for a in args:
            p, t = _pt(a)
            if t is not None and p.dtype.kind == "c":
                raise UnsupportedOperation("forward-mode autograd", name, p.dtype, "complex tangents")
        return fn(*args, **kwargs)
    return f


#: forward-mode rules and composites (numr/autograd/forward.py's COMPOSITE takes them)
FORWARD = {"solve": jvp_solve, "solve_triangular": jvp_solve_triangular, "det": jvp_det, "slogdet": jvp_slogdet,
           "cholesky": jvp_cholesky, "eigh": jvp_eigh}
FORWARD = {n: f if n in ("solve", "solve_triangular", "det") else _forward_real(f, n) for n, f in FORWARD.items()}
FORWARD.update({n: COMPOSITES[n] for n in ("inv", "eigvalsh", "matrix_norm", "cond")})
