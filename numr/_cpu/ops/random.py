"""CPU implementation of the random op family (see numr/ops/traits/random.py): the
Philox4x32-10 streams of docs/architecture.md, kernels in numr/_cpu/kernels/random.pyx."""

from __future__ import annotations

from ... import dtypes as dt
from ...dtypes import DType
from ...errors import DTypeError, ShapeError
from ...tensor import Tensor
from .. import storage
from ..kernels import random as _k

_MASK64 = (1 << 64) - 1


def _float_dtype(op: str, dtype: DType) -> DType:
    d = dt.dtype(dtype)
    if d.kind != "f":
        raise DTypeError(f"{op}: needs a float dtype, got {d}")
    return d


class RandomCpu:
    """Mixin of CpuClient: seeded random tensors."""

    def rand(self, shape: tuple[int, ...], dtype: DType, seed: int, stream: int) -> Tensor:
        d = _float_dtype("rand", dtype)
        out = storage.empty(self.device, tuple(shape), d)
        if out.size:
            _k.rand(out._storage, d.code, out.size, seed & _MASK64, stream & _MASK64)
        return out

    def randn(self, shape: tuple[int, ...], dtype: DType, seed: int, stream: int) -> Tensor:
        d = _float_dtype("randn", dtype)
        out = storage.empty(self.device, tuple(shape), d)
        if out.size:
            _k.randn(out._storage, d.code, out.size, seed & _MASK64, stream & _MASK64)
        return out

    def randint(self, low: int, high: int, shape: tuple[int, ...], dtype: DType, seed: int,
                stream: int) -> Tensor:
        d = dt.dtype(dtype)
        if not d.is_integer:
            raise DTypeError(f"randint: needs an integer dtype, got {d}")
        span = high - low
        if span <= 0 or span > 1 << 64:
            raise ShapeError(f"randint: empty or too wide range [{low}, {high})")
        out = storage.empty(self.device, tuple(shape), d)
        if out.size:
            _k.randint(out._storage, d.code, out.size, seed & _MASK64, stream & _MASK64, low & _MASK64,
                       span & _MASK64)
        return out
