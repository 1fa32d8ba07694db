"""CpuClient: the CPU device's ops, composed of one mixin per op family."""

from __future__ import annotations

from ..ops.generic import GenericOps
from ..runtime.protocols import Device
from .ops.activation import ActivationCpu
from .ops.binary import BinaryCpu
from .ops.cast import CastCpu
from .ops.compare import CompareCpu
from .ops.conditional import ConditionalCpu
from .ops.conv import ConvCpu
from .ops.creation import CreationCpu
from .ops.cumulative import CumulativeCpu
from .ops.decomp import DecompCpu
from .ops.decomp_ldl import LdlCpu
from .ops.fft import FftCpu
from .ops.indexing import IndexingCpu
from .ops.logical import LogicalCpu
from .ops.matfunc_banded import BandedCpu
from .ops.matmul import MatmulCpu
from .ops.normalization import NormalizationCpu
from .ops.optim import OptimCpu
from .ops.random import RandomCpu
from .ops.reduce import ReduceCpu
from .ops.schur import SchurCpu
from .ops.shape import ShapeCpu
from .ops.sorting import SortingCpu
from .ops.sparse import SparseCpu
from .ops.sparse24 import Sparse24Cpu
from .ops.special import SpecialCpu
from .ops.unary import UnaryCpu
from .ops.utility import UtilityCpu


class CpuClient(
    CreationCpu, RandomCpu, UnaryCpu, BinaryCpu, CompareCpu, LogicalCpu, ConditionalCpu, CastCpu,
    UtilityCpu, ReduceCpu, CumulativeCpu, MatmulCpu, IndexingCpu, ActivationCpu, NormalizationCpu, ShapeCpu,
    SortingCpu, FftCpu, DecompCpu, SchurCpu, SpecialCpu, ConvCpu, SparseCpu, Sparse24Cpu, LdlCpu,
    BandedCpu, OptimCpu,
    GenericOps,
):
    """Every CPU op; ``numr.runtime.get("cpu").client(device)`` or ``x.client``."""

    backend = "cpu"

    def __init__(self, device: Device):
        self.device = device

    def synchronize(self) -> None:
        return None
