"""Algebraic multigrid for sparse symmetric positive definite systems, with pyamg's API shape:

    ml = nr.sparse.amg.smoothed_aggregation_solver(A)      # A: numr CSR/CSC/COO on the CPU
    x = ml.solve(b, tol=1e-8, accel="cg")                   # or: cg(A, b, M=ml.aspreconditioner())
    ml_gpu = ml.to("cuda")                                  # the cycle with numr ops on a GPU

Setup (numr/sparse/amg_setup.py): symmetric strength (theta), standard aggregation, tentative
prolongator for the constant vector, Jacobi-smoothed prolongator, R = P^T and Galerkin coarse
operators R A P by numr.sparse's SpGEMM, down to max_coarse unknowns, whose operator's
pseudo-inverse (dense) is the coarse solve. Aggregation walks the strength graph on the CPU backend, so a
matrix on a GPU raises UnsupportedOperation: build the hierarchy on the CPU and move it with
``.to(device)``. The cycle (smoothing, residual, restriction, prolongation, coarse solve) runs
with numr ops on the hierarchy's device: symmetric Gauss-Seidel (forward before, backward
after: a symmetric preconditioner) on the CPU, weighted Jacobi (omega = 4/3 / rho(D^-1 A))
on every backend."""

from __future__ import annotations

from typing import Any

from ..errors import DeviceError, DTypeError, ShapeError, UnsupportedOperation
from ..ops.generic.iterative_operator import LinearOperator
from . import _structure as st
from . import amg_classical as classical
from . import amg_setup as setup
from ._base import is_sparse
from .solve import spsolve_triangular

_SMOOTHERS = ("gauss_seidel", "jacobi")


class Level:
    """One level: the operator A (CSR) and, above the coarsest, P (fine <- coarse) and R = P^T;
    ``dinv``, ``rho``: 1 / diag(A) and rho(D^-1 A) for Jacobi."""

    def __init__(self, A: Any) -> None:
        self.A = A
        self.P: Any = None
        self.R: Any = None
        self.dinv = setup.inv_diagonal(A)
        self.rho: float | None = None

    def spectral_radius(self) -> float:
        if self.rho is None:
            self.rho = setup.spectral_radius(self.A, self.dinv)
        return self.rho

    def jacobi_weight(self) -> float:
        return (4.0 / 3.0) / self.spectral_radius()


class MultilevelSolver:
    """The hierarchy: ``levels`` (fine to coarse), ``coarse_pinv`` (the pseudo-inverse of the
    coarsest operator, as pyamg's default coarse solver: a singular one, e.g. a Neumann
    problem's constants, is fine), ``solve``, ``aspreconditioner``, ``operator_complexity``, ``to``."""

    def __init__(self, levels: list[Level], smoother: str | None, sweeps: int, coarse_pinv: Any = None) -> None:
        self.levels = levels
        if coarse_pinv is None:
            coarse_pinv = st.nr_mod().linalg.pinv(levels[-1].A.to_dense())
        self.coarse_pinv = coarse_pinv
        self.smoother = smoother
        self.sweeps = sweeps

    def __repr__(self) -> str:
        sizes = ", ".join(f"{lv.A.shape[0]} ({lv.A.nnz} nnz)" for lv in self.levels)
        return f"<MultilevelSolver {len(self.levels)} levels: {sizes}; OC {self.operator_complexity():.2f}>"

    @property
    def device(self) -> Any:
        return self.levels[0].A.device

    def operator_complexity(self) -> float:
        """Stored entries of every level's A over those of the finest."""
        return sum(lv.A.nnz for lv in self.levels) / max(self.levels[0].A.nnz, 1)

    def grid_complexity(self) -> float:
        """Unknowns of every level over those of the finest."""
        return sum(lv.A.shape[0] for lv in self.levels) / max(self.levels[0].A.shape[0], 1)

    def to(self, device: Any) -> MultilevelSolver:
        """The same hierarchy with every operator on ``device`` (rho estimates kept)."""
        out = []
        for lv in self.levels:
            new = Level(lv.A.to(device))
            new.P = None if lv.P is None else lv.P.to(device)
            new.R = None if lv.R is None else lv.R.to(device)
            new.rho = lv.rho
            out.append(new)
        return MultilevelSolver(out, self.smoother, self.sweeps, self.coarse_pinv.to(device))

    # ---- the cycle ---------------------------------------------------------------------
    def _smoother(self) -> str:
        if self.smoother is not None:
            return self.smoother
        return "gauss_seidel" if self.device.type == "cpu" else "jacobi"

    def _smooth(self, lv: Level, x: Any, b: Any, forward: bool) -> Any:
        kind = self._smoother()
        for _ in range(self.sweeps):
            r = b - lv.A @ x
            if kind == "jacobi":
                x = x + lv.jacobi_weight() * (lv.dinv * r)
            else:  # (D + L)^-1 or (D + U)^-1: the triangular solve reads one triangle of A
                if self.device.type != "cpu":
                    raise UnsupportedOperation(self.device.type, "amg gauss_seidel", lv.A.dtype,
                                               reason="the triangular solve runs on the CPU only; "
                                                      "use smoother='jacobi'")
                x = x + spsolve_triangular(lv.A, r, lower=forward)
        return x

    def _cycle(self, k: int, x: Any, b: Any, cycle: str) -> Any:
        nr = st.nr_mod()
        lv = self.levels[k]
        if k == len(self.levels) - 1:
            return self.coarse_pinv @ b
        x = self._smooth(lv, x, b, True)
        rc = lv.R @ (b - lv.A @ x)
        ec = nr.zeros(rc.shape, dtype=rc.dtype, device=rc.device)
        for _ in range(2 if cycle == "W" and k + 2 < len(self.levels) else 1):
            ec = self._cycle(k + 1, ec, rc, cycle)
        x = x + lv.P @ ec
        return self._smooth(lv, x, b, False)

    def _vector(self, b: Any) -> Any:
        nr = st.nr_mod()
        n = self.levels[0].A.shape[0]
        b = b if st.is_tensor_like(b) else nr.tensor(b, device=self.device)
        if b.ndim != 1 or b.shape[0] != n:
            raise ShapeError(f"amg solve: b must have shape ({n},), got {tuple(b.shape)}")
        if b.device != self.device:
            raise DeviceError(f"amg solve: b is on {b.device}, the hierarchy on {self.device}; move it with .to()")
        return b if b.dtype == self.levels[0].A.dtype else nr.cast(b, self.levels[0].A.dtype)

    def aspreconditioner(self, cycle: str = "V") -> LinearOperator:
        """One cycle from a zero guess as a LinearOperator, M ~ A^-1 (symmetric: usable in cg)."""
        nr = st.nr_mod()
        _check_cycle(cycle)
        n = self.levels[0].A.shape[0]

        def apply(r: Any) -> Any:
            return self._cycle(0, nr.zeros(n, dtype=r.dtype, device=r.device), r, cycle)

        return LinearOperator((n, n), apply, apply, self.levels[0].A.dtype, self.device)

    def solve(self, b: Any, x0: Any = None, tol: float = 1e-5, maxiter: int = 100, cycle: str = "V",
              accel: str | None = None, callback: Any = None, residuals: list | None = None,
              return_info: bool = False) -> Any:
        """x with A x ~ b: cycles until ||b - A x|| <= tol ||b|| (accel None), or cg preconditioned
        by one cycle (accel 'cg'). ``residuals`` (a list) gets ||b - A x|| after each step;
        with return_info, (x, info): 0 converged, else the steps spent."""
        nr = st.nr_mod()
        _check_cycle(cycle)
        b = self._vector(b)
        A = self.levels[0].A
        x = nr.zeros(b.shape, dtype=b.dtype, device=b.device) if x0 is None else self._vector(x0)
        bnorm = float(nr.linalg.norm(b).item()) or 1.0
        if residuals is not None:
            residuals.append(float(nr.linalg.norm(b - A @ x).item()))
        if accel == "cg":
            from ..ops.generic.iterative import cg

            def record(xk: Any) -> None:
                if residuals is not None:
                    residuals.append(float(nr.linalg.norm(b - A @ xk).item()))
                if callback is not None:
                    callback(xk)

            x, info = cg(A, b, x, rtol=tol, maxiter=maxiter, M=self.aspreconditioner(cycle), callback=record)
            return (x, info) if return_info else x
        if accel is not None:
            raise UnsupportedOperation("amg", "solve", A.dtype, reason=f"accel {accel!r}: None or 'cg'")
        info = maxiter
        for _ in range(maxiter):
            x = self._cycle(0, x, b, cycle)
            res = float(nr.linalg.norm(b - A @ x).item())
            if residuals is not None:
                residuals.append(res)
            if callback is not None:
                callback(x)
            if res <= tol * bnorm:
                info = 0
                break
        return (x, info) if return_info else x


def _check_cycle(cycle: str) -> None:
    if cycle not in ("V", "W"):
        raise ValueError(f"amg: cycle must be 'V' or 'W', got {cycle!r}")


def _matrix(name: str, A: Any) -> Any:
    nr = st.nr_mod()
    if not is_sparse(A):
        if not st.is_tensor_like(A):
            raise ShapeError(f"{name}: A must be a numr sparse matrix, got {type(A).__name__}")
        from .construct import from_dense
        A = from_dense(A)
    if A.shape[0] != A.shape[1]:
        raise ShapeError(f"{name}: A must be square, got shape {A.shape}")
    if A.dtype not in (nr.float32, nr.float64):
        raise DTypeError(f"{name}: A must be float32 or float64, got {A.dtype}")
    if A.device.type != "cpu":
        raise UnsupportedOperation(A.device.type, name, A.dtype,
                                   reason="the coarsening walks the strength graph on the CPU; build the "
                                          "hierarchy from A.cpu() and move it with .to(device)")
    return A.tocsr().coalesce()


def _hierarchy(name: str, A: Any, coarsen: Any, theta: float, max_levels: int, max_coarse: int,
               smoother: str | None, sweeps: int) -> MultilevelSolver:
    """Levels from A down: ``coarsen(level)`` gives P (fine <- coarse) or None when nothing
    coarsens (e.g. a diagonal matrix): the current level is then the coarsest."""
    if smoother is not None and smoother not in _SMOOTHERS:
        raise ValueError(f"{name}: smoother must be one of {_SMOOTHERS} or None, got {smoother!r}")
    if not 0 <= theta <= 1 or max_levels < 1 or max_coarse < 1 or sweeps < 1:
        raise ValueError(f"{name}: needs 0 <= theta <= 1, max_levels, max_coarse and sweeps >= 1; "
                         f"got {theta}, {max_levels}, {max_coarse}, {sweeps}")
    levels = [Level(_matrix(name, A))]
    while len(levels) < max_levels and levels[-1].A.shape[0] > max_coarse:
        lv = levels[-1]
        P = coarsen(lv)
        if P is None or P.shape[1] in (0, lv.A.shape[0]):
            break
        lv.P, lv.R = P, P.T.tocsr()
        levels.append(Level(setup.galerkin(lv.R, lv.A, lv.P)))
    return MultilevelSolver(levels, smoother, sweeps)


def smoothed_aggregation_solver(A: Any, theta: float = 0.0, max_levels: int = 10, max_coarse: int = 10,
                                omega: float = 4.0 / 3.0, smoother: str | None = None,
                                sweeps: int = 1, keep: bool = False) -> MultilevelSolver:
    """The smoothed aggregation hierarchy of the SPD matrix A (pyamg's defaults: theta 0,
    prolongator smoothing weight omega / rho(D^-1 A), coarsening to max_coarse unknowns or
    max_levels levels). smoother: None (symmetric Gauss-Seidel on the CPU, Jacobi on GPUs),
    'gauss_seidel' or 'jacobi'; sweeps: smoothing steps before and after the coarse correction.
    keep stores each level's strength matrix S, aggregates AggOp and tentative prolongator T."""

    def coarsen(lv: Level) -> Any:
        S = setup.strength(lv.A, theta)
        agg, count = setup.standard_aggregation(S)
        if count == 0:
            return None
        T = setup.tentative(agg, count, lv.A.shape[0], lv.A.dtype, lv.A.device)
        if keep:
            lv.S, lv.AggOp, lv.T = S, agg, T
        return setup.smoothed_prolongator(lv.A, T, lv.dinv, lv.spectral_radius(), omega)

    return _hierarchy("smoothed_aggregation_solver", A, coarsen, theta, max_levels, max_coarse, smoother, sweeps)


def ruge_stuben_solver(A: Any, theta: float = 0.25, max_levels: int = 10, max_coarse: int = 10,
                       smoother: str | None = None, sweeps: int = 1, keep: bool = False) -> MultilevelSolver:
    """The classical (Ruge-Stuben) hierarchy of A (an M-matrix-like SPD matrix works best):
    classical strength (theta), the first Ruge-Stuben C/F splitting pass and direct
    interpolation (numr/sparse/amg_classical.py). keep stores S and the splitting (1 = C)."""

    def coarsen(lv: Level) -> Any:
        S, mask = classical.classical_strength(lv.A, theta)
        split = classical.rs_splitting(S)
        if keep:
            lv.S, lv.splitting = S, split
        return classical.direct_interpolation(lv.A, mask, split) if 1 in split else None

    return _hierarchy("ruge_stuben_solver", A, coarsen, theta, max_levels, max_coarse, smoother, sweeps)
