"""CPU 2:4 sparse kernels (numr/ops/traits/sparse24.py) in C (kernels/sparse24.pyx): the product
(OpenMP over rows; float32/float64, float16/bfloat16 accumulated in float32) and the pruning
(one pass) for those dtypes; other dtypes (float8, integers) and autograd Vars take the
composites of GenericOps."""

from __future__ import annotations

from ... import dtypes as dt
from ...ops.generic import sparse24 as generic
from ...tensor import Tensor
from .. import storage
from ..kernels import sparse24 as _k

_KIND = {dt.float32: 0, dt.float64: 1, dt.float16: 2, dt.bfloat16: 3}


class Sparse24Cpu:
    """Mixin of CpuClient: sparse24_matmul and sparse24_prune."""

    def sparse24_prune(self, x: Tensor) -> tuple[Tensor, Tensor]:
        kind = _KIND.get(x.dtype)
        if kind is None or type(x) is not Tensor or x.ndim == 0 or x.shape[-1] % 4:
            return generic.sparse24_prune(self, x)
        x = x.contiguous()
        k = x.shape[-1]
        lead = tuple(x.shape[:-1])
        values = storage.empty(self.device, lead + (k // 2,), x.dtype)
        meta = storage.empty(self.device, lead + (k // 4,), dt.uint8)
        if x.size:
            _k.sparse24_prune(kind, x.dtype.itemsize, x._storage, x._layout.offset, values._storage,
                              values._layout.offset, meta._storage, meta._layout.offset, x.size // k, k)
        return values, meta

    def sparse24_matmul(self, values: Tensor, meta: Tensor, dense: Tensor) -> Tensor:
        m, k, n, d = generic.check(self, values, meta, dense)
        kind = _KIND.get(d)
        if kind is None or type(values) is not Tensor or type(dense) is not Tensor:
            return generic.sparse24_matmul(self, values, meta, dense)
        out = storage.empty(self.device, (m, n), d)
        if out.size == 0:
            return out
        values = (values if values.dtype == d else self.cast(values, d)).contiguous()
        dense = dense if dense.dtype == d else self.cast(dense, d)
        if n > 1 and dense.strides[1] != 1 or dense.strides[0] < 0:
            dense = dense.contiguous()  # rows ldb apart with unit stride inside a row
        meta = meta.contiguous()
        ldb = dense.strides[0] if k > 1 else n
        if _k.sparse24_matmul(kind, d.itemsize, values._storage, values._layout.offset, meta._storage,
                              meta._layout.offset, dense._storage, dense._layout.offset, ldb, out._storage,
                              out._layout.offset, m, k, n):
            raise MemoryError(f"sparse24_matmul: no memory for a float row of {n} elements")
        return out
