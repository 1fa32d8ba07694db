"""Successive over-relaxation for a square sparse A = L + D + U (strict lower, diagonal, strict
upper): ``sor`` the stationary solver x <- x + (D/omega + L)^-1 (b - A x) (Gauss-Seidel at
omega = 1), and ``ssor`` the symmetric SOR preconditioner
M = omega/(2 - omega) (D/omega + L) (D/omega)^-1 (D/omega + U), usable as M in cg, gmres, ...
Both keep one CSR matrix holding A with its diagonal divided by omega and run the sparse
triangular solve of numr/ops/traits/sparse.py on its lower (or upper) triangle: CPU kernels;
the GPU backends raise UnsupportedOperation. A zero or missing diagonal raises LinAlgError."""

from __future__ import annotations

import math
from typing import Any

from ..ops.generic.iterative import _norm
from ..ops.generic.iterative_operator import System, call_back, read
from ..tensor import Tensor
from . import _structure as st
from .solve import _as, _dtypes, _Factor, _matrix, _values


def _check_omega(op: str, omega: float) -> float:
    if not 0 < float(omega) < 2:
        raise ValueError(f"{op}: omega must lie in (0, 2), got {omega!r}")
    return float(omega)


class SSOR(_Factor):
    """The SSOR preconditioner of a square sparse A (see the module): solve(r) = M^-1 r."""

    def __init__(self, A: Any, omega: float = 1.0, op: str = "ssor", dtype: Any = None) -> None:
        nr = st.nr_mod()
        self.omega = _check_omega(op, omega)
        A = _matrix(op, A)
        d = dtype or _dtypes(A)[0]
        C = A.tocsr().coalesce()
        v = _values(C, d)
        self.shape, self.dtype = A.shape, d
        self._ip, self._ix = C.indptr, C.indices
        self._v = nr.where(C.major() == C.indices, v / self.omega, v)  # D/omega + L + U
        self._d = _as(C.diagonal(), d) / self.omega

    def lower_solve(self, r: Tensor) -> Tensor:
        """(D/omega + L)^-1 r for r (n, m)."""
        return self._trsv(self._v, r, True, False, False)

    def _solve(self, r: Tensor, trans: str) -> Tensor:
        c = (2 - self.omega) / self.omega
        d = self._d.reshape(-1, 1)
        if self._d.dtype != r.dtype:
            d = st.nr_mod().cast(d, r.dtype)
        t = trans != "N"
        y = self._trsv(self._v, r, not t, False, t)
        return self._trsv(self._v, (c * d) * y, t, False, t)


def ssor(A: Any, omega: float = 1.0) -> SSOR:
    """The symmetric SOR preconditioner of a square sparse A (omega in (0, 2); 1 is symmetric
    Gauss-Seidel). Pass it as M (it has solve, matvec, shape, dtype)."""
    return SSOR(A, omega)


def sor(A: Any, b: Tensor, x0: Tensor | None = None, *, omega: float = 1.0, rtol: float = 1e-5, atol: float = 0.0,
        maxiter: int | None = None, callback: Any = None) -> tuple[Tensor, int]:
    """Solve A x = b for a square sparse A by SOR sweeps x <- x + (D/omega + L)^-1 (b - A x)
    (converges for SPD A with omega in (0, 2), and for strictly diagonally dominant A at
    omega = 1). Stops when ||b - A x|| <= max(atol, rtol ||b||); maxiter defaults to 10 n.
    Returns (x, info): 0 converged, maxiter not converged, -1 a non-finite residual.
    callback(xk) after each sweep."""
    _check_omega("sor", omega)
    s = System("sor", _matrix("sor", A), b, x0, None, rtol, atol, maxiter, 10)
    M = SSOR(A, omega, "sor", s.dtype)
    x = s.x
    for it in range(s.maxiter + 1):
        r = s.residual(x)
        (rn,) = read(_norm(r))
        if rn <= s.tol:
            return x, 0
        if not math.isfinite(rn):
            return x, -1
        if it == s.maxiter:
            break
        x = x + M.lower_solve(r.reshape(-1, 1)).reshape(-1)
        call_back(callback, x)
    return x, max(s.maxiter, 1)


__all__ = ["SSOR", "sor", "ssor"]
