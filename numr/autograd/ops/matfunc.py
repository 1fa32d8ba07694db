"""Reverse mode for the matrix functions (sqrtm, logm, signm, fractional_matrix_power,
polar_decomposition, khatri_rao, solve_banded): composites of public ops, so the Var flows through
their iterations (inv, slogdet, matmul, svd, where) and those rules give the gradient."""

from __future__ import annotations

from ...ops.generic.matfunc import COMPOSITES
from ._common import register

for _name, _fn in COMPOSITES.items():
    register(_name)(_fn)
