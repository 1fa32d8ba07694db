"""Normalization ops (layer_norm, rms_norm, group_norm, batch_norm and the fused residual forms)
are composites of mean, rsqrt, mul and add: the Var flows through their public functions, so their
gradients come from those ops' rules (higher orders included)."""

from __future__ import annotations

from ...ops.generic.normalization import ANY
from ._common import register

for _name, _fn in ANY.items():
    register(_name)(_fn)
