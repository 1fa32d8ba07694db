"""numr.decomposition: tensor decompositions in TensorLy's names and conventions (tensorly.base
unfold/fold, tensorly.tenalg mode_dot/multi_mode_dot, tensorly.decomposition tucker/parafac/
tensor_train and the *_to_tensor reconstructions). Composites of public numr ops: they run on
every backend, and autograd differentiates the reconstructions and mode products.

    import numr as nr
    core, factors = nr.decomposition.tucker(x, rank=[4, 4, 4])
    weights, factors = nr.decomposition.parafac(x, rank=8)
    approx = nr.decomposition.cp_to_tensor((weights, factors))
"""

from __future__ import annotations

from ._base import (
    CPTensor,
    TuckerTensor,
    cp_to_tensor,
    fold,
    mode_dot,
    multi_mode_dot,
    tt_to_tensor,
    tucker_to_tensor,
    unfold,
)
from ._cp import parafac
from ._tt import tensor_train
from ._tucker import hosvd, tucker

__all__ = ["CPTensor", "TuckerTensor", "cp_to_tensor", "fold", "hosvd", "mode_dot", "multi_mode_dot",
           "parafac", "tensor_train", "tt_to_tensor", "tucker", "tucker_to_tensor", "unfold"]
