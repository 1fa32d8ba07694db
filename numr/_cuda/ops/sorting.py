"""CUDA sort and searchsorted (kernels/sort.cu): a stable bitonic network on (order-preserving
key, index) pairs; rows up to LCAP pairs sorted whole in shared memory (several short rows per
block), longer rows through global compare-exchange launches and shared-memory merges."""

from __future__ import annotations

from math import prod
from typing import Any

from ... import dtypes as dt
from ...ops.prepare import as_tensor
from ...ops.prepare_sorting import searchsorted_operands, sort_dim
from ...tensor import Tensor
from ..launch import BLOCK, i32, i64, ptr, u64
from ._base import grid

#: most blocks one chunk launch starts (each loops over its chunks)
MAX_GRID = 65535 * 16
#: global strides one sort_step launch runs at once (2**STEPS pairs per thread, in registers)
STEPS = 3
#: slots one block sorts when rows are short (several rows each)
SHORT_CHUNK = 2048


def _lcap(d: dt.DType) -> int:
    """Pairs one block sorts in shared memory (sort.cu's LCAP)."""
    return 2048 if d.itemsize == 8 else 4096


def _sort_rows(client: Any, x: Tensor, y: Tensor, o: Tensor, rows: int, n: int, inner: int, desc: bool) -> None:
    """Sort x (contiguous) along a dim of size n with ``inner`` elements after it into y (values)
    and o (int64 indices), contiguous too: rows of n elements with stride inner."""
    d = x.dtype
    name = d.name
    lcap = _lcap(d)
    plen = 1 << max(n - 1, 0).bit_length()
    st = client._st

    def chunk(kk: Any, ii: Any, chunk: int, k0: int, k1: int, mode: int) -> None:
        nch = -(-rows * plen // chunk)
        st.run("sort", d.code, f"sort_chunk_{name}", min(nch, MAX_GRID), BLOCK,
               [ptr(y), ptr(o), ptr(x), kk, ii, i64(rows), i64(n), i64(inner), i64(plen), i64(chunk), i64(k0), i64(k1),
                i32(int(desc)), i32(mode)])

    if plen <= lcap:
        chunk(u64(0), u64(0), max(plen, min(lcap, SHORT_CHUNK)), 2, plen, 0)
        return
    keys = client.empty((rows * plen,), dt.uint64 if d.itemsize == 8 else dt.uint32)
    idx = client.empty((rows * plen,), dt.uint32)
    kk, ii = ptr(keys), ptr(idx)
    chunk(kk, ii, lcap, 2, lcap, 2)
    k = 2 * lcap
    while k <= plen:
        j = k // 2
        while j >= lcap:
            ns = min(STEPS, (j // lcap).bit_length())  # strides j .. j >> (ns - 1), all >= lcap
            st.run("sort", d.code, f"sort_step_{name}", grid(client, rows * plen >> ns), BLOCK,
                   [kk, ii, i64(rows), i64(plen), i64(j >> (ns - 1)), i64(k), i32(ns)])
            j >>= ns
        chunk(kk, ii, lcap, k, k, 1 if k == plen else 3)
        k *= 2


class SortingCuda:
    """Mixin of CudaClient: the sorting primitives (argsort, topk and unique build on sort)."""

    def sort(self, x: Tensor, dim: int = -1, descending: bool = False,
             stable: bool = False) -> tuple[Tensor, Tensor]:
        x = as_tensor("sort", self, x)
        d = sort_dim("sort", self, x, dim)
        if x.ndim == 0:
            return x.clone(), self.full((), 0, dt.int64)
        y, o = self.empty(x.shape, x.dtype), self.empty(x.shape, dt.int64)
        n = x.shape[d]
        if x.size:
            xc = x if x.is_contiguous() else x.contiguous()
            _sort_rows(self, xc, y, o, x.size // n, n, prod(x.shape[d + 1:]), bool(descending))
        return y, o

    def searchsorted(self, sorted_sequence: Tensor, values: Any, right: bool = False) -> Tensor:
        ss, vals = searchsorted_operands("searchsorted", self, sorted_sequence, values)
        d = ss.dtype
        out = self.empty(vals.shape, dt.int64)
        if out.size == 0:
            return out
        vlen = max(vals.shape[-1], 1) if vals.ndim else 1
        self._st.run("sort", d.code, f"searchsorted_{d.name}", grid(self, out.size), BLOCK,
                     [ptr(out), ptr(ss), ptr(vals), i64(out.size), i64(ss.shape[-1]), i64(vlen),
                      i32(int(ss.ndim > 1)), i32(int(bool(right)))])
        return out
