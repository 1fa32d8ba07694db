"""CPU 2:4 sparse @ dense (numr/ops/traits/sparse24.py) in C (kernels/sparse24.pyx, OpenMP over
rows): float32/float64, float16/bfloat16 accumulated in float32; other floating dtypes (float8)
take the composite of GenericOps."""

from __future__ import annotations

from ... import dtypes as dt
from ...ops.generic import sparse24 as generic
from ...tensor import Tensor
from .. import storage
from ..kernels import sparse24 as _k

_KIND = {dt.float32: 0, dt.float64: 1, dt.float16: 2, dt.bfloat16: 3}


class Sparse24Cpu:
    """Mixin of CpuClient: sparse24_matmul."""

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
