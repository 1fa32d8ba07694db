"""CPU implementation of the sorting family's kernels, sort and searchsorted (see
numr/ops/traits/sorting.py); argsort, topk and unique are composites (numr/ops/generic/sorting.py)."""

from __future__ import annotations

from typing import Any

from ... import dtypes as dt
from ...errors import UnsupportedDType
from ...layout import coalesce
from ...ops import prepare
from ...ops.generic import sorting as generic_sorting
from ...ops.prepare_sorting import searchsorted_operands, sort_dim
from ...tensor import Tensor
from .. import storage
from . import lazy_kernels

_k = lazy_kernels("sort")
#: topk selects (a heap of k per row) when k <= SELECT_MAX_K and k * SELECT_MIN_RATIO <= the
#: dim's size; otherwise it takes the first k of a sort
SELECT_MAX_K = 256
SELECT_MIN_RATIO = 32


class SortingCpu:
    """Mixin of CpuClient: the sorting kernels."""

    def sort(self, x: Tensor, dim: int = -1, descending: bool = False,
             stable: bool = False) -> tuple[Tensor, Tensor]:
        x = prepare.as_tensor("sort", self, x)
        d = sort_dim("sort", self, x, dim)
        if x.ndim == 0:
            v, i = self.sort(x.reshape((1,)), 0, descending)
            return v.reshape(()), i.reshape(())
        return self._sort_rows(x, d, descending, -1)

    def topk(self, x: Tensor, k: int, dim: int = -1, largest: bool = True,
             sorted: bool = True) -> tuple[Tensor, Tensor]:
        """Small k of long rows: the selection kernel; otherwise the first k of a sort."""
        x = prepare.as_tensor("topk", self, x)
        d, k = generic_sorting.topk_args(self, x, k, dim)
        if x.ndim == 0 or k == 0 or k > SELECT_MAX_K or k * SELECT_MIN_RATIO > x.shape[d]:
            return generic_sorting.topk(self, x, k, d, largest, sorted)
        return self._sort_rows(x, d, largest, k)

    def _sort_rows(self, x: Tensor, d: int, descending: bool, k: int) -> tuple[Tensor, Tensor]:
        """Sort x (>= 1 dim) along d; with k >= 1 only the first k, by selection."""
        shape = x.shape if k < 0 else x.shape[:d] + (k,) + x.shape[d + 1:]
        values = storage.empty(self.device, shape, x.dtype)
        indices = storage.empty(self.device, shape, dt.int64)
        if values.size == 0:
            return values, indices
        keep = [i for i in range(x.ndim) if i != d]
        kshape, (kxs, kvs, kis) = coalesce([x.shape[i] for i in keep], [x.strides[i] for i in keep],
                                           [values.strides[i] for i in keep], [indices.strides[i] for i in keep])
        ok = _k().sort(x.dtype.code, x._storage, x._layout.offset, values._storage, values._layout.offset,
                       indices._storage, indices._layout.offset, kshape, kxs, kvs, kis, x.shape[d],
                       x.strides[d], values.strides[d], indices.strides[d], bool(descending), k)
        if not ok:
            raise UnsupportedDType("cpu", "sort" if k < 0 else "topk", x.dtype)
        return values, indices

    def searchsorted(self, sorted_sequence: Tensor, values: Any, right: bool = False) -> Tensor:
        op = "searchsorted"
        seq, vals = searchsorted_operands(op, self, sorted_sequence, values, contiguous=False)
        common = seq.dtype
        out = storage.empty(self.device, vals.shape, dt.int64)
        if out.size == 0:
            return out
        if vals.ndim == 0:
            lead, m, vs, os = (), 1, 1, 1
            kss = kvs = kos = ()
        else:
            lead, m, vs, os = vals.shape[:-1], vals.shape[-1], vals.strides[-1], out.strides[-1]
            kss = seq.strides[:-1] if seq.ndim > 1 else (0,) * len(lead)
            kvs, kos = vals.strides[:-1], out.strides[:-1]
        kshape, (kss, kvs, kos) = coalesce(lead, kss, kvs, kos)
        ok = _k().searchsorted(common.code, seq._storage, seq._layout.offset, vals._storage, vals._layout.offset,
                               out._storage, out._layout.offset, kshape, kss, kvs, kos, seq.shape[-1],
                               seq.strides[-1], m, vs, os, bool(right))
        if not ok:
            raise UnsupportedDType("cpu", op, common)
        return out
