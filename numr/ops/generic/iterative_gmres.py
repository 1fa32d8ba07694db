"""Restarted GMRES written once with public numr ops: Arnoldi with modified Gram-Schmidt, the
Hessenberg least-squares problem reduced by Givens rotations as columns arrive (their product
is kept as a small matrix Q, so a new column takes all earlier rotations in one product), and
the small triangular solve by back substitution, all on the device (0-d tensors). Right preconditioning
(A M^-1 u = r, x += M^-1 V y), so the rotated residual |g_{j+1}| is the true residual's norm in
exact arithmetic; each inner iteration reads that one value (with the breakdown test's two
norms) to the host. Each restart cycle begins with the true residual. Complex systems use
conjugated inner products (Gram-Schmidt h_ij = v_i^H w), real norms and complex Givens
rotations [conj(c) conj(s); -s c] (LAPACK's lartg up to the phase of r, which here is real)."""

from __future__ import annotations

from typing import Any

from ...errors import ShapeError
from ...tensor import Tensor
from .iterative import drive
from .iterative_operator import System, norm2, read, safe_div, vdot


def _givens(a: Tensor, b: Tensor, tiny: float) -> tuple[Tensor, Tensor]:
    """(G, r): the 2 x 2 unitary G with G [a; b] = [r; 0], r = sqrt(|a|^2 + |b|^2) >= 0; for real
    a, b G = [c s; -s c] with c = a/r, s = b/r, for complex [conj(c) conj(s); -s c] (c = s = 0
    when a = b = 0: a singular column, whose zero pivot the back substitution skips)."""
    import numr as nr
    if a.dtype.is_complex:
        r = nr.hypot(nr.abs(a), nr.abs(b))
        d = r + tiny
        c, sn = a / d, b / d
        G = nr.stack([nr.stack([nr.conj(c), nr.conj(sn)]), nr.stack([-sn, c])])
        return G, r.astype(a.dtype)
    r = nr.hypot(a, b)
    d = r + tiny
    c, sn = a / d, b / d
    return nr.stack([nr.stack([c, sn]), nr.stack([-sn, c])]), r


def _cycle(s: System, x: Tensor, m: int, V: Tensor, rows: list[Tensor], cb_norm: Any,
           aug: list[Tensor] = ()) -> tuple[Tensor, int, Tensor | None]:
    """One restart cycle from x: m inner iterations, then one per augmentation vector (LGMRES's
    earlier corrections; the search direction is M^-1 v_j, then aug[i]). Returns (x + dx, code,
    dx): code 0 when the estimate meets the tolerance or the Krylov space became invariant (the
    caller confirms on the true residual), 1 otherwise. ``rows`` are the views V[i], made once
    (V, of m + len(aug) + 1 rows at least, is written in place)."""
    import numr as nr
    r = s.residual(x)
    beta = nr.sqrt(norm2(r))  # real
    (bv,) = read(beta)
    if bv <= s.tol:
        return x, 0, None
    V[0] = r / beta
    total = m + len(aug)
    Q = nr.eye(total + 1, dtype=s.dtype, device=s.device)  # the rotations so far: Q H = R, g = beta Q e1
    cols: list[Tensor] = []
    code = 1
    for j in range(total):
        w = s.matvec(s.psolve(rows[j]) if j < m else aug[j - m])
        h0 = nr.sqrt(norm2(w))
        h = []
        for i in range(j + 1):  # modified Gram-Schmidt
            hij = vdot(rows[i], w)
            w = w - hij * rows[i]
            h.append(hij)
        h1 = nr.sqrt(norm2(w))
        V[j + 1] = w / (h1 + s.tiny)  # h1 = 0 (w = 0): the loop stops below, the row stays 0
        h.append(h1 if not s.complex else h1.astype(s.dtype))
        col = Q[:j + 2, :j + 2] @ nr.stack(h)  # the earlier rotations on the new column, at once
        rot, rr = _givens(col[j], col[j + 1], s.tiny)
        Q[j:j + 2, :j + 2] = rot @ Q[j:j + 2, :j + 2]
        cols.append(nr.cat([col[:j], rr.reshape((1,))]))
        presid, h1v, h0v = read(nr.abs(beta * Q[j + 1, 0]), h1, h0)
        if cb_norm is not None:
            cb_norm(presid / s.bnorm)
        if presid <= s.tol or h1v <= s.eps * h0v:
            code = 0
            break
    k = len(cols)
    t = beta * Q[:k, 0]
    rdiag = safe_div(nr.ones((k,), dtype=s.dtype, device=s.device), nr.stack([cols[i][i] for i in range(k)]))
    ys: list[Tensor] = [t[0]] * k
    for i in range(k - 1, -1, -1):  # back substitution R y = g (a zero pivot gives y_i = 0)
        yi = t[i] * rdiag[i]
        ys[i] = yi
        if i:
            t[:i] = t[:i] - yi * cols[i][:i]
    y = nr.stack(ys)
    dx = s.psolve(V[:min(k, m)].T @ y[:m])
    if k > m:
        dx = dx + nr.stack(aug[:k - m], 1) @ y[m:]
    return x + dx, code, dx


def gmres(A: Any, b: Tensor, x0: Tensor | None = None, *, rtol: float = 1e-5, atol: float = 0.0,
          restart: int | None = None, maxiter: int | None = None, M: Any = None, callback: Any = None,
          callback_type: str | None = None) -> tuple[Tensor, int]:
    """Restarted GMRES(restart) for general square real or complex A (restart defaults to 20, at most n);
    maxiter counts restart cycles (default 10 n) and is info when not converged. M is a right
    preconditioner (approximating A^-1). callback_type "pr_norm" (the default) calls
    callback(||r|| / ||b||) after each inner iteration, "x" calls callback(xk) after each cycle.
    One scalar triple is read to the host per inner iteration for the convergence test."""
    import numr as nr
    s = System("gmres", A, b, x0, M, rtol, atol, maxiter, 10)
    m = 20 if restart is None else int(restart)
    if m < 1:
        raise ShapeError(f"gmres: restart must be >= 1, got {restart}")
    m = max(1, min(m, s.n))
    ctype = "pr_norm" if callback_type in (None, "legacy") else callback_type
    if ctype not in ("pr_norm", "x"):
        raise ValueError(f"gmres: callback_type must be 'x', 'pr_norm' or 'legacy', got {callback_type!r}")
    V = nr.zeros((m + 1, s.n), dtype=s.dtype, device=s.device)
    rows = [V[i] for i in range(m + 1)]
    cb_norm = callback if ctype == "pr_norm" else None

    def run(s: System, x: Tensor, budget: int, cb: Any) -> tuple[Tensor, int, int]:
        if budget <= 0:
            return x, 1, 0
        x, code, _ = _cycle(s, x, m, V, rows, cb_norm)
        if ctype == "x" and callback is not None:
            callback(x)
        return x, code, 1

    return drive(s, run, None)


def lgmres(A: Any, b: Tensor, x0: Tensor | None = None, *, rtol: float = 1e-5, atol: float = 0.0,
           maxiter: int = 1000, M: Any = None, callback: Any = None, inner_m: int = 30,
           outer_k: int = 3) -> tuple[Tensor, int]:
    """LGMRES (Baker, Jessup, Manteuffel) for real or complex A: GMRES(inner_m) cycles augmented
    with the last outer_k corrections, which keeps restarted GMRES from stalling. maxiter counts cycles (scipy's
    default 1000) and is info when not converged; M is a right preconditioner; callback(xk)
    after each cycle. One scalar triple is read to the host per inner iteration."""
    import numr as nr
    s = System("lgmres", A, b, x0, M, rtol, atol, maxiter, 0)
    m = max(1, min(int(inner_m), s.n))
    k_out = max(0, int(outer_k))
    V = nr.zeros((m + k_out + 1, s.n), dtype=s.dtype, device=s.device)
    rows = [V[i] for i in range(m + k_out + 1)]
    aug: list[Tensor] = []

    def run(s: System, x: Tensor, budget: int, cb: Any) -> tuple[Tensor, int, int]:
        if budget <= 0:
            return x, 1, 0
        x, code, dx = _cycle(s, x, m, V, rows, None, aug)
        if dx is not None and k_out:
            aug.append(dx / (nr.sqrt(norm2(dx)) + s.tiny))
            del aug[:-k_out]
        if callback is not None and dx is not None:
            callback(x)
        return x, code, 1

    return drive(s, run, None)
