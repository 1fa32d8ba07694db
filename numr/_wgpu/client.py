"""WgpuClient: one wgpu device's ops, composed of one mixin per op family."""

from __future__ import annotations

from typing import Any

from ..ops.generic import GenericOps
from ..runtime.protocols import Device
from .ops.activation import ActivationWgpu
from .ops.binary import BinaryWgpu
from .ops.cast import CastWgpu
from .ops.compare import CompareWgpu
from .ops.conditional import ConditionalWgpu
from .ops.creation import CreationWgpu
from .ops.cumulative import CumulativeWgpu
from .ops.indexing import IndexingWgpu
from .ops.logical import LogicalWgpu
from .ops.matmul import MatmulWgpu
from .ops.optim import OptimWgpu
from .ops.random import RandomWgpu
from .ops.reduce import ReduceWgpu
from .ops.sorting import SortingWgpu
from .ops.sparse24 import Sparse24Wgpu
from .ops.unary import UnaryWgpu
from .ops.utility import UtilityWgpu


class WgpuClient(
    CreationWgpu, RandomWgpu, UnaryWgpu, BinaryWgpu, CompareWgpu, LogicalWgpu, ConditionalWgpu, CastWgpu,
    UtilityWgpu, ReduceWgpu, CumulativeWgpu, MatmulWgpu, IndexingWgpu, ActivationWgpu, SortingWgpu,
    Sparse24Wgpu, OptimWgpu, GenericOps,
):
    """Every WebGPU op of one device; ``numr.runtime.get("wgpu").client(device)`` or ``x.client``."""

    backend = "wgpu"

    def __init__(self, device: Device, gpu: Any):
        self.device = device
        self.gpu = gpu

    def synchronize(self) -> None:
        self.gpu.synchronize()
