"""CUDA random numbers (kernels/random.cu): Philox4x32-10 streams identical to every backend's."""

from __future__ import annotations

from typing import Any

from ...dtypes import DType
from ...ops import prepare_random as prand
from ...tensor import Tensor
from ..launch import BLOCK, i64, u64
from ._base import grid

_M64 = (1 << 64) - 1


def _launch(client: Any, name: str, shape: tuple[int, ...], d: DType, per_block: int, args: list) -> Tensor:
    out = client.empty(tuple(shape), d)
    n = out.size
    if n:
        client._st.run("random", d.code, f"{name}_{d.name}", grid(client, (n + per_block - 1) // per_block), BLOCK,
                       [u64(out._storage.ptr), i64(n), *args])
    return out


class RandomCuda:
    """Mixin of CudaClient: rand, randn, randint."""

    def rand(self, shape: tuple[int, ...], dtype: DType, seed: int, stream: int) -> Tensor:
        dtype = prand.float_dtype("rand", dtype)
        return _launch(self, "rand", shape, dtype, 2 if dtype.itemsize == 8 else 4, [u64(seed), u64(stream)])

    def randn(self, shape: tuple[int, ...], dtype: DType, seed: int, stream: int) -> Tensor:
        dtype = prand.float_dtype("randn", dtype)
        return _launch(self, "randn", shape, dtype, 2, [u64(seed), u64(stream)])

    def randint(self, low: int, high: int, shape: tuple[int, ...], dtype: DType, seed: int, stream: int) -> Tensor:
        dtype, span = prand.randint_args(low, high, dtype)
        return _launch(self, "randint", shape, dtype, 4 if span <= 1 << 32 else 2,
                       [u64(seed), u64(stream), u64(low & _M64), u64(span & _M64)])
