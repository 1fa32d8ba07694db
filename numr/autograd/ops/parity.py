"""Autograd of the parity composites (gather_nd, index_put, the *_scatter ops, unique_consecutive,
instance_norm, normalize, the linalg *_ex ops, ldl, householder_product, stft/istft), for reverse
mode (Var) and forward mode (DualTensor) alike: each is a composite of public functions, so the
traced values flow through those ops' rules."""

from __future__ import annotations

from ...ops.generic.decomp_ex import COMPOSITES as _DECOMP_EX
from ...ops.generic.decomp_ldl import COMPOSITES as _LDL
from ...ops.generic.fft_stft import COMPOSITES as _STFT
from ...ops.generic.indexing_nd import COMPOSITES as _ND
from ...ops.generic.normalization_instance import COMPOSITES as _NORM
from ...ops.generic.sorting_consecutive import COMPOSITES as _CONSECUTIVE
from ._common import register

#: op name -> its rule for any tracer (registered for Var here, for DualTensor in forward.py)
COMPOSITES = {**_ND, **_CONSECUTIVE, **_NORM, **_DECOMP_EX, **_LDL, **_STFT}
for _name, _fn in COMPOSITES.items():
    register(_name)(_fn)
