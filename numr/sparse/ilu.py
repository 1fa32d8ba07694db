"""Incomplete LU with fill: spilu (scipy.sparse.linalg.spilu's signature, Saad's ILUT) and iluk
(level-of-fill ILU(k), a symbolic then a numeric phase), by the CPU kernels of
numr/_cpu/kernels/sparse_ilut.h; the GPU backends raise UnsupportedOperation. Both return a
SparseILU (L, U, solve, usable as M in the Krylov solvers).

How scipy's SuperLU ILU options map onto ILUT (row-wise, no pivoting, so not scipy's exact
factors): ``drop_tol`` (default 1e-4, scipy's) is relative: an entry of row i below
drop_tol * ||a_i||_2 is dropped; ``fill_factor`` (default 10, scipy's) caps the fill row by
row: each of the L part and the strict U part of row i keeps at most
ceil(fill_factor * nnz(a_i) / 2) entries, the largest in magnitude (so nnz(L + U) <= about
fill_factor * nnz(A), scipy's bound); ``drop_rule`` takes scipy's names and only "basic"
and "area" act (both as above); "prows", "column", "secondary", "dynamic", "interp" are
accepted and have no effect. drop_tol=0 with a large fill_factor is a complete LU without
pivoting; ``ilu0`` (numr/sparse/solve.py) is the ILU(0) of numr before ILUT."""

from __future__ import annotations

from typing import Any

from .solve import SparseILU

_RULES = {"basic", "prows", "column", "area", "secondary", "dynamic", "interp"}


def spilu(A: Any, drop_tol: float | None = None, fill_factor: float | None = None, drop_rule: str | None = None,
          permc_spec: Any = None, diag_pivot_thresh: Any = None, relax: Any = None, panel_size: Any = None,
          options: Any = None) -> SparseILU:
    """ILUT preconditioner of a square sparse A (see the module docstring for how drop_tol,
    fill_factor and drop_rule act; the column ordering and pivoting options are accepted and
    ignored: rows are factored in order without pivoting). A zero pivot raises LinAlgError."""
    tol = 1e-4 if drop_tol is None else float(drop_tol)
    fill = 10.0 if fill_factor is None else float(fill_factor)
    if drop_rule is not None:
        bad = {r.strip() for r in str(drop_rule).split(",")} - _RULES
        if bad:
            raise ValueError(f"spilu: unknown drop_rule {sorted(bad)}; scipy's names are {sorted(_RULES)}")
    return SparseILU(A, lambda cl, ip, ix, v: cl.csr_ilut(ip, ix, v, tol, fill))


def iluk(A: Any, k: int = 1) -> SparseILU:
    """ILU(k) of a square sparse A: the pattern of L + U holds every entry whose level of fill
    is at most k (A's entries and the diagonal are level 0, a fill entry from rows i and j
    through pivot m has level lev(i, m) + lev(m, j) + 1), then the exact incomplete
    elimination on it. iluk(A, 0) is ilu0. A zero pivot raises LinAlgError."""
    return SparseILU(A, lambda cl, ip, ix, v: cl.csr_iluk(ip, ix, v, k), "iluk")


__all__ = ["iluk", "spilu"]
