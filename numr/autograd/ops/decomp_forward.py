"""Forward mode (DualTensor) for the decompositions: jvp rules for solve, solve_triangular and det
(holomorphic), slogdet, cholesky and eigh, real or complex; inv, eigvalsh, logdet, the norms and
cond (p != 2 and not None) are composites over them. cholesky and eigh see the Hermitian matrix
read from one triangle (the imaginary diagonal ignored), so the tangent is read the same way.
svd, svdvals, qr, lstsq and pinv: decomp_forward2.py."""

from __future__ import annotations

from typing import Any

import numr as nr

from ...ops.generic.decomp import COMPOSITES, _mH


def _pt(x: Any) -> tuple[Any, Any]:
    from ..forward import DualTensor
    return (x.primal, x.tangent) if isinstance(x, DualTensor) else (x, None)


def _dual(p: Any, t: Any) -> Any:
    from ..forward import DualTensor
    return DualTensor(p, t)


def _like(t: Any, p: Any) -> Any:
    """The tangent t in the primal p's dtype (a real tangent of a complex primal)."""
    return nr.cast(t, p.dtype) if t is not None and t.dtype is not p.dtype else t


def _read_sym(tA: Any, pA: Any, upper: bool) -> Any:
    """The Hermitian matrix a triangle-reading op sees for the tangent: the triangle, its
    conjugate transpose, the real part of the diagonal."""
    tA = _like(tA, pA)
    off = nr.triu(tA, 1) if upper else nr.tril(tA, -1)
    d = nr.tril(nr.triu(tA))
    if tA.dtype.kind == "c":
        d = nr.cast(nr.real(d), tA.dtype)
    return off + _mH(off) + d


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
    """c = tr(A^-1 dA): d log|det| = re(c), d sign = i im(c) sign (complex; a real sign is constant)."""
    pA, tA = _pt(A)
    s, la = nr.slogdet(pA)
    if tA is None:
        return _dual(s, None), _dual(la, None)
    c = _trace_solve(pA, _like(tA, pA))
    if s.dtype.kind != "c":
        return _dual(s, None), _dual(la, c)
    return _dual(s, 1j * nr.imag(c) * s), _dual(la, nr.real(c))


def jvp_cholesky(A: Any, upper: bool = False) -> Any:
    """dL = L Phi(L^-1 dA L^-H), Phi: the lower triangle with the diagonal halved."""
    pA, tA = _pt(A)
    L = nr.cholesky(pA)
    t = None
    if tA is not None:
        Y = nr.solve_triangular(L, _read_sym(tA, pA, False), upper=False)
        M = nr.solve_triangular(L, _mH(Y), upper=False)  # L^-1 dA L^-H (dA Hermitian)
        t = L @ (nr.tril(M) - 0.5 * nr.tril(nr.triu(M)))
    return _dual(_mH(L), None if t is None else _mH(t)) if upper else _dual(L, t)


def jvp_eigh(A: Any, UPLO: str = "L") -> tuple:
    """M = V^H dA V: dw = re(diag(M)), dV = V (F o M), F_ij = 1 / (w_j - w_i); torch's gauge for a
    complex V (V^H dV has a zero diagonal)."""
    pA, tA = _pt(A)
    w, V = nr.eigh(pA, UPLO)
    if tA is None:
        return _dual(w, None), _dual(V, None)
    M = _mH(V) @ _read_sym(tA, pA, UPLO == "U") @ V
    n = w.shape[-1]
    eye = nr.eye(n, dtype=nr.bool, device=pA.device)
    E = w.unsqueeze(-2) - w.unsqueeze(-1)
    F = nr.where(eye, 0.0, 1 / nr.where(eye, 1.0, E))
    dw = M.diagonal(0, -2, -1)
    return _dual(w, nr.real(dw) if dw.dtype.kind == "c" else dw), _dual(V, V @ (F * M))


#: forward-mode rules and composites (numr/autograd/forward.py's COMPOSITE takes them)
FORWARD = {"solve": jvp_solve, "solve_triangular": jvp_solve_triangular, "det": jvp_det, "slogdet": jvp_slogdet,
           "cholesky": jvp_cholesky, "eigh": jvp_eigh}
FORWARD.update({n: COMPOSITES[n] for n in ("inv", "eigvalsh", "matrix_norm", "cond")})
