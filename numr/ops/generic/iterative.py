"""Krylov solvers for A x = b written once with public numr ops (scipy.sparse.linalg's cg,
bicgstab, cgs, minres), so they run on every backend. Vectors and the recurrence scalars (0-d
tensors) stay on the device; each iteration reads ONE small vector of scalars to the host (the
residual norm and the breakdown indicators) for the convergence test. A recurrence that claims
convergence is confirmed with the true residual b - A x (one more product); if that misses the
tolerance the method restarts from x until maxiter is spent. Returns (x, info): 0 converged,
maxiter (> 0) not converged, < 0 breakdown (-10: rho ~ 0, -11: omega or r~.v = 0; -1 otherwise).
Complex systems (complex64/complex128) run the same recurrences with conjugated inner products
(vdot) and real norms, as scipy; a real system runs the real products unchanged."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ...errors import DomainError
from ...tensor import Tensor
from .iterative_operator import System, call_back, norm2, rdot, read, vdot

Run = Callable[[System, Tensor, int, Any], tuple[Tensor, int, int]]


def _norm(r: Tensor) -> Tensor:
    import numr as nr
    return nr.sqrt(norm2(r))


def drive(s: System, run: Run, callback: Any) -> tuple[Tensor, int]:
    """Run the method from s.x; confirm a claimed convergence on the true residual, restart
    from the current x when it fails, stop at maxiter iterations (info = maxiter)."""
    import numr as nr
    if s.bnorm == 0:
        return nr.zeros((s.n,), dtype=s.dtype, device=s.device), 0
    x, left = s.x, s.maxiter
    while True:
        x, code, used = run(s, x, left, callback)
        left -= used
        if code < 0:
            return x, code
        if code == 0:
            (rn,) = read(_norm(s.residual(x)))
            if rn <= s.tol:
                return x, 0
            if used == 0:  # the run's own first test agreed with the true one: cannot happen twice
                return x, max(s.maxiter, 1)
        if left <= 0:
            return x, max(s.maxiter, 1)


def _first(s: System, x: Tensor) -> tuple[Tensor, float]:
    r = s.residual(x)
    (rn,) = read(_norm(r))
    return r, rn


def _cg_run(s: System, x: Tensor, budget: int, cb: Any) -> tuple[Tensor, int, int]:
    r, rn = _first(s, x)
    if rn <= s.tol or budget <= 0:
        return x, (0 if rn <= s.tol else 1), 0
    z = s.psolve(r)
    p, rho = z, vdot(r, z)
    for it in range(1, budget + 1):
        q = s.matvec(p)
        alpha = rho / vdot(p, q)
        x_old, x = x, x + alpha * p
        r = r - alpha * q
        rr = norm2(r)
        (rrv,) = read(rr)
        if not math.isfinite(rrv):  # p.Ap = 0 (A or M not definite) or a NaN in A
            return x_old, -1, it
        call_back(cb, x)
        if math.sqrt(rrv) <= s.tol:
            return x, 0, it
        z = s.psolve(r)
        rho_new = rr if s.M is None else vdot(r, z)
        p = z + (rho_new / rho) * p
        rho = rho_new
    return x, 1, budget


def cg(A: Any, b: Tensor, x0: Tensor | None = None, *, rtol: float = 1e-5, atol: float = 0.0,
       maxiter: int | None = None, M: Any = None, callback: Any = None) -> tuple[Tensor, int]:
    """Conjugate gradients for symmetric (real) or Hermitian (complex) positive definite A; M
    approximates A^-1 (SPD / HPD). float32, float64, complex64, complex128 (a real A with a
    complex b promotes, as scipy). Stops when ||b - A x|| <= max(atol, rtol ||b||); maxiter defaults to 10 n. One scalar
    (||r||^2) is read to the host per iteration; a non-finite one (p.Ap = 0, NaN) is a breakdown
    (info -1, the previous x). callback(xk) after each iteration."""
    s = System("cg", A, b, x0, M, rtol, atol, maxiter, 10)
    return drive(s, _cg_run, callback)


def _bicgstab_run(s: System, x: Tensor, budget: int, cb: Any) -> tuple[Tensor, int, int]:
    r, rn = _first(s, x)
    if rn <= s.tol or budget <= 0:
        return x, (0 if rn <= s.tol else 1), 0
    rtol2 = (s.eps * s.bnorm) ** 2
    tiny = s.tiny
    rt = r
    rho = vdot(rt, r)
    p = r
    for it in range(1, budget + 1):
        phat = s.psolve(p)
        v = s.matvec(phat)
        rv = vdot(rt, v)
        alpha = rho / rv
        sv = r - alpha * v
        shat = s.psolve(sv)
        t = s.matvec(shat)
        omega = vdot(t, sv) / (norm2(t) + tiny)  # t = 0 only when s = 0: omega 0, r = s = 0
        x_old, x = x, x + alpha * phat + omega * shat
        r = sv - omega * t
        rho_new = vdot(rt, r)
        rn, rhov, om, rvv = read(_norm(r), rho_new, omega, rv)
        if rvv == 0:
            return x_old, -11, it
        call_back(cb, x)
        if rn <= s.tol:
            return x, 0, it
        if om == 0:
            return x, -11, it
        if abs(rhov) < rtol2 or not math.isfinite(rn):
            return x, -10, it
        beta = (rho_new / rho) * (alpha / omega)
        p = r + beta * (p - omega * v)
        rho = rho_new
    return x, 1, budget


def bicgstab(A: Any, b: Tensor, x0: Tensor | None = None, *, rtol: float = 1e-5, atol: float = 0.0,
             maxiter: int | None = None, M: Any = None, callback: Any = None) -> tuple[Tensor, int]:
    """BiCGSTAB (van der Vorst) for general square real or complex A, right-preconditioned by M. One read of
    (||r||, rho, omega, r~.v) per iteration; info -10 when rho ~ 0, -11 when omega or r~.v = 0."""
    s = System("bicgstab", A, b, x0, M, rtol, atol, maxiter, 10)
    return drive(s, _bicgstab_run, callback)


def _cgs_run(s: System, x: Tensor, budget: int, cb: Any) -> tuple[Tensor, int, int]:
    r, rn = _first(s, x)
    if rn <= s.tol or budget <= 0:
        return x, (0 if rn <= s.tol else 1), 0
    rtol2 = (s.eps * s.bnorm) ** 2
    rt = r
    rho = vdot(rt, r)
    u = p = r
    q, rho_prev = None, rho
    for it in range(1, budget + 1):
        if q is not None:
            beta = rho / rho_prev
            u = r + beta * q
            p = u + beta * (q + beta * p)
        phat = s.psolve(p)
        vhat = s.matvec(phat)
        rv = vdot(rt, vhat)
        alpha = rho / rv
        q = u - alpha * vhat
        uhat = s.psolve(u + q)
        x_old, x = x, x + alpha * uhat
        r = r - alpha * s.matvec(uhat)
        rho_prev, rho = rho, vdot(rt, r)
        rn, rhov, rvv = read(_norm(r), rho, rv)
        if rvv == 0:
            return x_old, -11, it
        call_back(cb, x)
        if rn <= s.tol:
            return x, 0, it
        if abs(rhov) < rtol2 or not math.isfinite(rn):
            return x, -10, it
    return x, 1, budget


def cgs(A: Any, b: Tensor, x0: Tensor | None = None, *, rtol: float = 1e-5, atol: float = 0.0,
        maxiter: int | None = None, M: Any = None, callback: Any = None) -> tuple[Tensor, int]:
    """Conjugate gradients squared (Sonneveld) for general square real or complex A,
    preconditioned by M. One
    read of (||r||, rho, r~.v) per iteration; info -10 when rho ~ 0, -11 when r~.v = 0."""
    s = System("cgs", A, b, x0, M, rtol, atol, maxiter, 10)
    return drive(s, _cgs_run, callback)


def _minres_run(s: System, x: Tensor, budget: int, cb: Any, shift: float = 0.0) -> tuple[Tensor, int, int]:
    import numr as nr
    r1 = s.residual(x)
    y = s.psolve(r1)
    ry = rdot(r1, y)
    rn, ryv = read(_norm(r1), ry)
    if rn <= s.tol or budget <= 0:
        return x, (0 if rn <= s.tol else 1), 0
    if ryv <= 0:
        raise DomainError(f"minres: the preconditioner M is not positive definite (r.Mr = {ryv:g})")
    zero = nr.zeros((), dtype=s.real_dtype, device=s.device)  # the Lanczos scalars are real
    beta = nr.sqrt(ry)
    oldb, dbar, epsln, phibar, cs, sn = zero, zero, zero, beta, zero - 1, zero
    w = w2 = nr.zeros((s.n,), dtype=s.dtype, device=s.device)
    r2 = r1
    for it in range(1, budget + 1):
        v = y / beta  # beta > 0: a zero beta ended the previous iteration
        y = s.matvec(v)
        if shift:
            y = y - shift * v
        if it >= 2:
            y = y - (beta / oldb) * r1
        alfa = rdot(v, y)  # v^H A v: real for Hermitian A
        y = y - (alfa / beta) * r2
        r1, r2 = r2, y
        y = s.psolve(r2)
        oldb = beta
        beta = nr.sqrt(nr.maximum(rdot(r2, y), 0))
        oldeps = epsln
        delta = cs * dbar + sn * alfa
        gbar = sn * dbar - cs * alfa
        epsln = sn * beta
        dbar = -cs * beta
        gamma = nr.maximum(nr.hypot(gbar, beta), s.eps)
        cs, sn = gbar / gamma, beta / gamma
        phi = cs * phibar
        phibar = sn * phibar
        w1, w2 = w2, w
        w = (v - oldeps * w1 - delta * w2) / gamma
        x = x + phi * w
        pb, bt = read(nr.abs(phibar), beta)
        call_back(cb, x)
        if pb <= s.tol or bt == 0:
            return x, 0, it
        if not math.isfinite(pb):
            return x, -1, it
    return x, 1, budget


def minres(A: Any, b: Tensor, x0: Tensor | None = None, *, shift: float = 0.0, rtol: float = 1e-5,
           atol: float = 0.0, maxiter: int | None = None, M: Any = None,
           callback: Any = None) -> tuple[Tensor, int]:
    """MINRES (Paige-Saunders) for symmetric (real) or Hermitian (complex), possibly indefinite A
    (solving (A - shift I) x = b); M must be symmetric / Hermitian positive definite. The Lanczos
    scalars are real (v^H A v), so a complex system differs only in its inner products (scipy's
    minres takes unconjugated ones and cannot solve complex Hermitian systems). maxiter defaults
    to 5 n. One read of (|phibar|, beta) per iteration; the recurrence's residual estimate is
    confirmed on the true residual."""
    s = System("minres", A, b, x0, M, rtol, atol, maxiter, 5)
    sh = float(shift)

    def run(s: System, x: Tensor, budget: int, cb: Any) -> tuple[Tensor, int, int]:
        return _minres_run(s, x, budget, cb, sh)

    if sh:  # the true residual is that of the shifted system
        A0 = s.A
        s.residual = lambda x: s.b - (A0.matvec(x) - sh * x)  # type: ignore[method-assign]
    return drive(s, run, callback)
