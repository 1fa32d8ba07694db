"""CudaClient: one CUDA device's ops, composed of one mixin per op family."""

from __future__ import annotations

from typing import Any

from ..ops.generic import GenericOps
from ..runtime.protocols import Device
from .ops.activation import ActivationCuda
from .ops.binary import BinaryCuda
from .ops.cast import CastCuda
from .ops.compare import CompareCuda
from .ops.conditional import ConditionalCuda
from .ops.creation import CreationCuda
from .ops.cumulative import CumulativeCuda
from .ops.indexing import IndexingCuda
from .ops.logical import LogicalCuda
from .ops.matmul import MatmulCuda
from .ops.optim import OptimCuda
from .ops.random import RandomCuda
from .ops.reduce import ReduceCuda
from .ops.sorting import SortingCuda
from .ops.sparse import SparseCuda
from .ops.sparse24 import Sparse24Cuda
from .ops.unary import UnaryCuda
from .ops.utility import UtilityCuda


class CudaClient(
    CreationCuda, RandomCuda, UnaryCuda, BinaryCuda, CompareCuda, LogicalCuda, ConditionalCuda, CastCuda,
    UtilityCuda, ReduceCuda, CumulativeCuda, MatmulCuda, IndexingCuda, ActivationCuda, SortingCuda, SparseCuda,
    Sparse24Cuda, OptimCuda,
    GenericOps,
):
    """Every CUDA op of one device; ``numr.runtime.get("cuda").client(device)`` or ``x.client``."""

    backend = "cuda"

    def __init__(self, device: Device, state: Any):
        self.device = device
        self._st = state

    def synchronize(self) -> None:
        self._st.synchronize()
