"""Autograd of the loss functions, reverse (Var) and forward (DualTensor) mode alike: each loss is a
composite of public functions (numr/ops/generic/loss.py, loss_pointwise.py), so the traced values
flow through those ops' rules. Class-index targets, masks and clamps are not differentiable."""

from __future__ import annotations

from ...ops.generic.loss import COMPOSITES as _LOSS
from ...ops.generic.loss_ctc import COMPOSITES as _CTC
from ...ops.generic.loss_pointwise import COMPOSITES as _POINTWISE
from ._common import register

#: op name -> its rule for any tracer (registered for Var here, for DualTensor in forward.py)
COMPOSITES = {**_LOSS, **_POINTWISE, **_CTC}
for _name, _fn in COMPOSITES.items():
    register(_name)(_fn)
