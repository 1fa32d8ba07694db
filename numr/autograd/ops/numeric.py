"""Autograd of the polynomial and numeric families, for reverse mode (Var) and forward mode
(DualTensor) alike: every op is a composite of public functions (numr/ops/generic/polynomial.py,
numeric.py, numeric_hist.py), so the traced inputs flow through their parts' rules. Positions
(searchsorted in interp, histogram bins, digitize, bucketize) come from the plain tensors and
carry no gradient; roots differentiates through eigvals where that has a rule."""

from __future__ import annotations

from ...ops.generic.numeric import COMPOSITES as _NUMERIC
from ...ops.generic.numeric_hist import COMPOSITES as _HIST
from ...ops.generic.polynomial import COMPOSITES as _POLY
from ._common import register

#: op name -> its rule for any tracer (registered for Var here, for DualTensor in forward.py)
COMPOSITES = {**_POLY, **_NUMERIC, **_HIST}
for _name, _fn in COMPOSITES.items():
    register(_name)(_fn)
