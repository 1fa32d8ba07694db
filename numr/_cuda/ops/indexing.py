"""CUDA gathers/scatters/scatter-adds along a dim and nonzero (kernels/indexing.cu).

Indices are validated on the device before anything is written (one flag read back, so these
ops synchronise and cannot be captured in a CUDA graph); nonzero needs its count on the host.
"""

from __future__ import annotations

from typing import Any

from ... import dtypes as dt
from ...errors import ShapeError
from ...layout import coalesce
from ...ops import prepare
from ...ops import prepare_indexing as pi
from ...tensor import Tensor
from ..launch import BLOCK, MAXD, i32, i64, ptr, shp, strs
from ._base import grid


def _check(client: Any, op: str, idx: Tensor, size: int, dim: int, shape: tuple[int, ...]) -> None:
    k = idx.size
    if not k:
        return
    flag = client.full((), 0, dt.int32)
    stride = idx.strides[0] if idx.ndim else 0
    client._st.run("indexing", dt.int64.code, "check_index_int64", grid(client, k), BLOCK,
                   [ptr(idx), i64(stride), i64(k), i64(size), ptr(flag)])
    if int(flag.item()):
        flat = idx.reshape(-1)
        bad = client.logical_or(client.lt(flat, -size), client.ge(flat, size))
        first = int(client.argmax(bad).item())
        raise pi.out_of_range(op, int(flat[first].item()), dim, size, shape)


def _view(shape: tuple[int, ...], dim: int, a: tuple[int, ...], b: tuple[int, ...]):
    """[outer..., L, inner...] with outer and inner coalesced: (shape, strides a, strides b, pos)."""
    oshape, (oa, ob) = coalesce(shape[:dim], a[:dim], b[:dim])
    ishape, (ia, ib) = coalesce(shape[dim + 1:], a[dim + 1:], b[dim + 1:])
    return oshape + (shape[dim],) + ishape, oa + (a[dim],) + ia, ob + (b[dim],) + ib, len(oshape)


class IndexingCuda:
    """Mixin of CudaClient: index_select, index_put_, index_add_, nonzero."""

    def index_select(self, x: Tensor, dim: int, index: Any) -> Tensor:
        dim = pi.target_dim("index_select", self, x, dim)
        idx = pi.index_vector("index_select", self, index)
        size = x.shape[dim]
        _check(self, "index_select", idx, size, dim, x.shape)
        k = idx.size
        out = self.empty(x.shape[:dim] + (k,) + x.shape[dim + 1:], x.dtype)
        if out.size == 0:
            return out
        vshape, so, sx, pos = _view(out.shape, dim, out.strides, x.strides)
        self._st.run("indexing", x.dtype.code, f"index_select_{x.dtype.name}", grid(self, out.size), BLOCK,
                     [ptr(out), strs(so), ptr(x), strs(sx), shp(vshape), i64(out.size), i32(pos), ptr(idx),
                      i64(idx.strides[0] if idx.ndim else 0), i64(size)])
        return out

    def index_put_(self, x: Tensor, dim: int, index: Any, values: Any) -> Tensor:
        """x[..., index[i], ...] = values[..., i, ...] along dim (values broadcast and cast to x's dtype)."""
        dim = pi.target_dim("index_put_", self, x, dim)
        idx = pi.index_vector("index_put_", self, index)
        k = idx.size
        target, v = pi.put_values(self, x, dim, k, values)
        size = x.shape[dim]
        _check(self, "index_put_", idx, size, dim, x.shape)
        if k == 0 or 0 in target:
            return x
        if v.dtype is not x.dtype or v._storage is x._storage:
            v = self.cast(v, x.dtype)
        v = v.broadcast_to(target) if v.shape != target else v
        vshape, sv, sx, pos = _view(target, dim, v.strides, x.strides)
        n = v.size
        sidx = idx.strides[0] if idx.ndim else 0
        win = self.full((size,), -1, dt.int64)  # last position of each index: the last value wins
        self._st.run("indexing", dt.int64.code, "index_winner_int64", grid(self, k), BLOCK,
                     [ptr(win), ptr(idx), i64(sidx), i64(k), i64(size)])
        self._st.run("indexing", x.dtype.code, f"index_put_{x.dtype.name}", grid(self, n), BLOCK,
                     [ptr(x), strs(sx), ptr(v), strs(sv), shp(vshape), i64(n), i32(pos), ptr(idx),
                      i64(sidx), i64(size), ptr(win)])
        return x

    def index_add_(self, x: Tensor, dim: int, index: Any, source: Any, alpha: Any = 1) -> Tensor:
        """x[..., index[i], ...] += alpha * source[..., i, ...] along dim; returns x. One thread per
        source element adds with an atomic (kernels/atomic.cuh), so a repeated index accumulates in
        parallel and floating-point sums come in a nondeterministic order (as PyTorch's CUDA index_add_)."""
        dim = pi.target_dim("index_add_", self, x, dim)
        idx = pi.index_vector("index_add_", self, index)
        k = idx.size
        target, v = pi.add_source(self, x, dim, k, source, alpha)
        size = x.shape[dim]
        _check(self, "index_add_", idx, size, dim, x.shape)
        if k == 0 or 0 in target:
            return x
        if v._storage is x._storage:  # the sums use x's values from before the call
            v = v.clone()
        v = v.broadcast_to(target) if v.shape != target else v
        vshape, sv, sx, pos = _view(target, dim, v.strides, x.strides)
        n = v.size
        self._st.run("indexing", x.dtype.code, f"index_add_{x.dtype.name}", grid(self, n), BLOCK,
                     [ptr(x), strs(sx), ptr(v), strs(sv), shp(vshape), i64(n), i32(pos), ptr(idx),
                      i64(idx.strides[0] if idx.ndim else 0), i64(size)])
        return x

    def nonzero(self, x: Tensor) -> Tensor:
        """int64 (count, ndim) coordinates of the non-zero elements, row-major order."""
        prepare.check_device("nonzero", self, x)
        if x.ndim > MAXD:
            raise ShapeError(f"nonzero: cuda supports up to {MAXD} dims, got shape {x.shape}")
        n = x.size
        if n == 0:
            return self.empty((0, x.ndim), dt.int64)
        sh, (sx,) = coalesce(x.shape, x.strides)
        sh, sx = (sh or (1,)), (sx or (0,))
        nb = (n + BLOCK - 1) // BLOCK
        counts = self.empty((nb,), dt.int64)
        name = x.dtype.name
        self._st.run("indexing", x.dtype.code, f"nz_count_{name}", nb, BLOCK,
                     [ptr(counts), ptr(x), shp(sh), strs(sx), i64(n)])
        incl = self.cumsum(counts)
        count = int(incl[-1].item())
        out = self.empty((count, x.ndim), dt.int64)
        if count and x.ndim:
            self._st.run("indexing", x.dtype.code, f"nz_write_{name}", nb, BLOCK,
                         [ptr(out), ptr(incl), ptr(x), shp(sh), strs(sx), i64(n), shp(x.shape)])
        return out
