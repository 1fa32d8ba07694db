"""Autograd of the masked/scatter/take composites of the indexing family and of the distances, for
reverse mode (Var) and forward mode (DualTensor) alike: each is a composite of public functions
(numr/ops/generic/indexing_masked.py, indexing_scatter.py, distance.py), so the traced values flow
through those ops' rules. Indices and masks are not differentiable; the in-place forms
(masked_fill_, scatter_, ...) take tensors only."""

from __future__ import annotations

from ...ops.generic.distance import COMPOSITES as _DISTANCE
from ...ops.generic.indexing_masked import COMPOSITES as _MASKED
from ...ops.generic.indexing_scatter import COMPOSITES as _SCATTER
from ._common import register

#: op name -> its rule for any tracer (registered for Var here, for DualTensor in forward.py)
COMPOSITES = {**_MASKED, **_SCATTER, **_DISTANCE}
for _name, _fn in COMPOSITES.items():
    register(_name)(_fn)
