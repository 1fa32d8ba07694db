"""Autograd of the statistics family, for reverse mode (Var) and forward mode (DualTensor) alike:
every op is a composite of public functions (numr/ops/generic/statistics*.py), so the traced input
flows through their rules. Order statistics and cummax/cummin gather their values from the traced
input at positions computed on the plain tensor (gather's derivative); their indices, and
count_nonzero, histc and bincount's counts, are plain tensors."""

from __future__ import annotations

from ...ops.generic.statistics import COMPOSITES as _REDUCTIONS
from ...ops.generic.statistics_nan import COMPOSITES as _NAN
from ...ops.generic.statistics_order import COMPOSITES as _ORDER
from ._common import register

#: op name -> its rule for any tracer (registered for Var here, for DualTensor in forward.py)
COMPOSITES = {**_REDUCTIONS, **_ORDER, **_NAN}
for _name, _fn in COMPOSITES.items():
    register(_name)(_fn)
