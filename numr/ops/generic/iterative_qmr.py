"""QMR (quasi-minimal residual, Freund & Nachtigal, without look-ahead) for real or complex
square A, scipy.sparse.linalg.qmr's recurrence (conjugated inner products and scalars for a
complex A) written with public numr ops so it runs on every backend (complex where the backend
has complex dtypes: cpu, cuda). It needs A^H x (rmatvec) as well as A x; M1 and M2 are the
left and right preconditioners (their matvec and rmatvec are used). Each iteration reads ONE
vector of scalars to the host: the residual norm and the breakdown indicators. Returns
(x, info): 0 converged, maxiter not converged, < 0 a breakdown (scipy's codes: -10 rho,
-11 beta, -12 gamma, -13 delta, -14 epsilon, -15 xi; -1 a non-finite residual)."""

from __future__ import annotations

import math
from typing import Any

from ...tensor import Tensor
from .iterative import _norm, drive
from .iterative_operator import LinearOperator, System, _checked, call_back, read


def _identity(n: int) -> LinearOperator:
    return LinearOperator((n, n), lambda x: x, lambda x: x)


def _qmr_run(s: System, x: Tensor, budget: int, cb: Any, M1: LinearOperator,
             M2: LinearOperator) -> tuple[Tensor, int, int]:
    import numr as nr
    cj = nr.conj if s.complex else (lambda a: a)  # scipy's vdot and conjugated scalars for complex A
    r = s.residual(x)
    vt = wt = r
    y, z = M1.matvec(vt), M2.rmatvec(wt)
    rho, xi = _norm(y), _norm(z)
    rn, rhov, xiv = read(_norm(r), rho, xi)
    tol = s.eps  # scipy's absolute breakdown tolerances
    if rn <= s.tol or budget <= 0:
        return x, (0 if rn <= s.tol else 1), 0
    if rhov < tol or xiv < tol:
        return x, (-10 if rhov < tol else -15), 0
    gamma: Any = 1.0
    eta: Any = -1.0
    theta: Any = 0.0
    p = q = d = sv = epsilon = None
    for it in range(1, budget + 1):
        v, y, w, z = vt / rho, y / rho, wt / xi, z / xi
        delta = cj(z) @ y
        yt, zt = M2.matvec(y), M1.rmatvec(z)
        if p is None:
            p, q = yt, zt
        else:
            p = yt - (xi * delta / epsilon) * p
            q = zt - (rho * cj(delta / epsilon)) * q
        pt = s.matvec(p)
        epsilon = cj(q) @ pt
        beta = epsilon / delta
        vt = pt - beta * v
        y = M1.matvec(vt)
        rho_prev, rho = rho, _norm(y)
        wt = s.A.rmatvec(q) - cj(beta) * w
        z = M2.rmatvec(wt)
        xi = _norm(z)
        gamma_prev, theta_prev = gamma, theta
        theta = rho / (gamma_prev * nr.abs(beta))
        gamma = 1 / nr.sqrt(1 + theta * theta)
        eta = -eta * (rho_prev / beta) * (gamma / gamma_prev) ** 2
        if d is None:
            d, sv = eta * p, eta * pt
        else:
            c = (theta_prev * gamma) ** 2
            d, sv = c * d + eta * p, c * sv + eta * pt
        x_old, x = x, x + d
        r = r - sv
        rn, dl, ep, be, ga, rhov, xiv = read(_norm(r), delta, epsilon, beta, gamma, rho, xi)
        for val, code in ((dl, -13), (ep, -14), (be, -11), (ga, -12)):
            if abs(val) < tol:
                return x_old, code, it
        if not math.isfinite(rn):
            return x_old, -1, it
        call_back(cb, x)
        if rn <= s.tol:
            return x, 0, it
        if rhov < tol or xiv < tol:
            return x, (-10 if rhov < tol else -15), it
    return x, 1, budget


def qmr(A: Any, b: Tensor, x0: Tensor | None = None, *, rtol: float = 1e-5, atol: float = 0.0,
        maxiter: int | None = None, M1: Any = None, M2: Any = None, callback: Any = None) -> tuple[Tensor, int]:
    """Quasi-minimal residual for a general square A (float32/float64/complex64/complex128; A
    needs rmatvec (A^H x): a Tensor, a numr sparse matrix or a LinearOperator made with one). Stops when
    ||b - A x|| <= max(atol, rtol ||b||); maxiter defaults to 10 n. M1 (left) and M2 (right)
    preconditioners approximate inverses of the factors of A (scipy's convention); either may
    be None (the identity). callback(xk) after each iteration."""
    s = System("qmr", A, b, x0, None, rtol, atol, maxiter, 10)
    m1 = _identity(s.n) if M1 is None else _checked("qmr", M1, s.n)
    m2 = _identity(s.n) if M2 is None else _checked("qmr", M2, s.n)
    return drive(s, lambda s_, x, left, cb: _qmr_run(s_, x, left, cb, m1, m2), callback)


__all__ = ["qmr"]
