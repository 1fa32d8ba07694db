"""Iterative solvers and eigensolvers for large (sparse or matrix-free) operators, modelled on
scipy.sparse.linalg: cg, bicgstab, cgs, gmres, lgmres, minres, qmr (real or complex systems)
and sor return (x, info) (0 converged, > 0 the iterations spent without converging, < 0
breakdown); eigs returns complex (w, V) by implicitly restarted Arnoldi (CPU only), eigsh
(w, V) by thick-restart Lanczos (real symmetric only), both with a shift-invert mode (sigma:
shift_invert.py, CPU), svds (u, s, vh) through eigsh of A^T A.
The direct side (spsolve, spsolve_triangular, ilu0, ic0: numr/sparse/solve.py; splu,
factorized: splu.py; spilu (ILUT), iluk: ilu.py; sor, ssor: sor.py) runs native CPU kernels;
the GPU backends raise UnsupportedOperation for it.
The Krylov solvers take a dense 2-d numr Tensor, any object with ``.matvec`` or ``@`` and ``.shape``
(numr's sparse matrices) or a LinearOperator, and are written once with public numr ops, so they
run on every backend: each iteration reads one small vector of scalars to the host for the
convergence test, everything else stays on the device."""

from __future__ import annotations

from ..ops.generic.iterative import bicgstab, cg, cgs, minres
from ..ops.generic.iterative_arnoldi import eigs
from ..ops.generic.iterative_eigen import eigsh, svds
from ..ops.generic.iterative_gmres import gmres, lgmres
from ..ops.generic.iterative_operator import LinearOperator, aslinearoperator, jacobi
from ..ops.generic.iterative_qmr import qmr
from .ilu import iluk, spilu
from .solve import SparseIC, SparseILU, ic0, ilu0, spsolve, spsolve_triangular
from .sor import SSOR, sor, ssor
from .splu import SuperLU, factorized, splu

__all__ = ["LinearOperator", "SSOR", "SparseIC", "SparseILU", "SuperLU", "aslinearoperator", "bicgstab", "cg", "cgs",
           "eigs", "eigsh", "factorized", "gmres", "ic0", "ilu0", "iluk", "jacobi", "lgmres", "minres", "qmr", "sor",
           "spilu", "splu", "spsolve", "spsolve_triangular", "ssor", "svds"]
