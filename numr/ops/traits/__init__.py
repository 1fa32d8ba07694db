"""One runtime-checkable Protocol per op family.

A backend client implements the families it supports; ``isinstance(client,
BinaryOps)`` tells. The public functions ``numr.<op>`` take their signatures
and docstrings from these protocols.
"""

from .activation import ActivationOps
from .binary import BinaryOps
from .cast import TypeConversionOps
from .compare import CompareOps
from .complex import ComplexOps
from .conditional import ConditionalOps
from .conv import ConvOps
from .creation import CreationOps
from .cumulative import CumulativeOps
from .decomp import DecompOps
from .distance import DistanceOps
from .einsum import EinsumOps
from .fft import FftOps
from .indexing import IndexingOps
from .linalg import LinalgOps
from .logical import LogicalOps
from .loss import LossOps
from .matfunc import MatfuncOps
from .matmul import MatmulOps
from .normalization import NormalizationOps
from .numeric import NumericOps
from .polynomial import PolynomialOps
from .random import RandomOps
from .reduce import ReduceOps
from .schur import SchurOps
from .shape import ShapeOps
from .sorting import SortingOps
from .sparse import SparseOps  # not in FAMILIES: numr.sparse's kernel, not an nr.<name> op
from .sparse24 import Sparse24Ops  # not in FAMILIES: the kernels under nr.prune_to_24 / nr.sparse_24_matmul
from .special import SpecialOps
from .statistics import StatisticsOps
from .unary import UnaryOps
from .utility import UtilityOps


def protocol_methods(family: type) -> list[str]:
    """The op names a family declares, in definition order."""
    return [n for n, v in vars(family).items() if callable(v) and not n.startswith("_")]


#: every family, in the order the docs list them
FAMILIES = (
    CreationOps, RandomOps, UnaryOps, BinaryOps, CompareOps, LogicalOps, ConditionalOps,
    TypeConversionOps, UtilityOps, ReduceOps, CumulativeOps, MatmulOps, IndexingOps, ShapeOps,
    SortingOps, ActivationOps, EinsumOps, LinalgOps, DecompOps, SchurOps, MatfuncOps, NormalizationOps,
    StatisticsOps, FftOps, ConvOps, SpecialOps, ComplexOps, DistanceOps, PolynomialOps, NumericOps,
    LossOps,
)

__all__ = [f.__name__ for f in FAMILIES] + ["FAMILIES", "SparseOps", "Sparse24Ops", "protocol_methods"]
