"""CPU implementation of the random op family (see numr/ops/traits/random.py): the
Philox4x32-10 streams of docs/architecture.md, kernels in numr/_cpu/kernels/random.pyx."""

from __future__ import annotations

from ...dtypes import DType
from ...ops import prepare_random as prand
from ...tensor import Tensor
from .. import storage
from ..kernels import random as _k

_MASK64 = (1 << 64) - 1


class RandomCpu:
    """Mixin of CpuClient: seeded random tensors."""

    def rand(self, shape: tuple[int, ...], dtype: DType, seed: int, stream: int) -> Tensor:
        d = prand.float_dtype("rand", dtype)
        out = storage.empty(self.device, tuple(shape), d)
        if out.size:
            _k.rand(out._storage, d.code, out.size, seed & _MASK64, stream & _MASK64)
        return out

    def randn(self, shape: tuple[int, ...], dtype: DType, seed: int, stream: int) -> Tensor:
        d = prand.float_dtype("randn", dtype)
        out = storage.empty(self.device, tuple(shape), d)
        if out.size:
            _k.randn(out._storage, d.code, out.size, seed & _MASK64, stream & _MASK64)
        return out

    def randint(self, low: int, high: int, shape: tuple[int, ...], dtype: DType, seed: int,
                stream: int) -> Tensor:
        d, span = prand.randint_args(low, high, dtype)
        out = storage.empty(self.device, tuple(shape), d)
        if out.size:
            _k.randint(out._storage, d.code, out.size, seed & _MASK64, stream & _MASK64, low & _MASK64,
                       span & _MASK64)
        return out
