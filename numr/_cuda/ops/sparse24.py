"""CUDA 2:4 sparse @ dense (kernels/sparse24.cu: one thread per output element) for every
floating dtype (float16/bfloat16/float8 accumulate in float32)."""

from __future__ import annotations

from ...ops.generic import sparse24 as generic
from ...tensor import Tensor
from ..launch import BLOCK, i64, ptr
from ._base import grid


class Sparse24Cuda:
    """Mixin of CudaClient: sparse24_matmul."""

    def sparse24_matmul(self, values: Tensor, meta: Tensor, dense: Tensor) -> Tensor:
        m, k, n, d = generic.check(self, values, meta, dense)
        if type(values) is not Tensor or type(dense) is not Tensor:
            return generic.sparse24_matmul(self, values, meta, dense)
        out = self.empty((m, n), d)
        if out.size == 0:
            return out
        values = (values if values.dtype == d else self.cast(values, d)).contiguous()
        dense = dense if dense.dtype == d else self.cast(dense, d)
        meta = meta.contiguous()
        self._st.run("sparse24", d.code, f"sparse24_matmul_{d.name}", grid(self, m * n), BLOCK,
                     [ptr(out), ptr(values), ptr(meta), ptr(dense), i64(dense.strides[0]), i64(dense.strides[1]),
                      i64(m), i64(k), i64(n)])
        return out
