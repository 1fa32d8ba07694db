"""2:4 structured sparsity written with public ops, for every backend (and for autograd Vars,
which flow through them): pruning a tensor to its compressed form, decompressing it, and the
product composite (decompress, then matmul) that backends without a kernel inherit.

The compressed form of x (..., k), k a multiple of 4: ``values`` (..., k/2), the two kept
entries of every group of 4 in column order, and uint8 ``meta`` (..., k/4), c0 + 4 * c1 with
c0 < c1 the kept columns within the group. The kept two are the largest in magnitude; ties go
to the lower index and NaN counts as the largest (so it is kept and propagates)."""

from __future__ import annotations

from typing import Any

from ... import dtypes as dt
from ...errors import DTypeError, ShapeError
from .. import prepare
from ..prepare import plain


def _nr() -> Any:
    import numr
    return numr


def check(client: Any, values: Any, meta: Any, dense: Any) -> tuple[int, int, int, Any]:
    """Validate the operands of ``sparse24_matmul``; (m, k, n, result dtype)."""
    op = "sparse24_matmul"
    values, meta, dense = plain(values), plain(meta), plain(dense)
    prepare.check_device(op, client, values, meta, dense)
    if meta.dtype != dt.uint8:
        raise DTypeError(f"{op}: meta must be uint8, got {meta.dtype}")
    if values.ndim != 2 or meta.ndim != 2 or dense.ndim != 2:
        raise ShapeError(f"{op}: values, meta and dense must be 2-d, got shapes {tuple(values.shape)}, "
                         f"{tuple(meta.shape)}, {tuple(dense.shape)}")
    m, k = values.shape[0], 2 * values.shape[1]
    if tuple(meta.shape) != (m, k // 4) or k % 4 or dense.shape[0] != k:
        raise ShapeError(f"{op}: values {tuple(values.shape)} need meta ({m}, {k // 4}) and dense ({k}, n) with "
                         f"k = {k} a multiple of 4; got meta {tuple(meta.shape)}, dense {tuple(dense.shape)}")
    d = dt.result_type(values.dtype, dense.dtype)
    if not d.is_floating_point:
        raise DTypeError(f"{op}: needs floating values and dense, got {values.dtype} and {dense.dtype}")
    return m, k, dense.shape[1], d


def prune(x: Any) -> tuple[Any, Any]:
    """(values, meta) of x (..., k): the 2 largest-magnitude entries of every group of 4."""
    nr = _nr()
    k = x.shape[-1]
    g = x.reshape(tuple(x.shape[:-1]) + (k // 4, 4))
    key = nr.abs(plain(g))
    if key.dtype.is_floating_point:
        key = nr.where(nr.isnan(key), float("inf"), key)
    a, b = key.unsqueeze(-1), key.unsqueeze(-2)  # [..., i, j]: entry i against entry j
    idx = nr.arange(4, device=key.device)
    lower = idx.reshape(4, 1) < idx.reshape(1, 4)
    beats = (a > b) | ((a == b) & lower)  # i ranks before j
    keep = nr.sum(nr.cast(beats, nr.int32), -2) < 2  # [..., j]: fewer than 2 entries rank before j
    k0, k1, k2, k3 = (keep[..., j] for j in range(4))
    c0 = nr.where(k0, 0, nr.where(k1, 1, 2))
    c1 = nr.where(k3, 3, nr.where(k2, 2, 1))
    cols = [g[..., j] for j in range(4)]
    v0 = nr.where(c0 == 0, cols[0], nr.where(c0 == 1, cols[1], cols[2]))
    v1 = nr.where(c1 == 3, cols[3], nr.where(c1 == 2, cols[2], cols[1]))
    values = nr.stack([v0, v1], -1).reshape(tuple(x.shape[:-1]) + (k // 2,))
    return values, nr.cast(c0 + 4 * c1, nr.uint8)


def decompress(values: Any, meta: Any) -> Any:
    """The dense (..., k) tensor of a compressed (values, meta): zeros off the kept columns."""
    nr = _nr()
    code = nr.cast(meta, nr.int32).unsqueeze(-1)
    c0, c1 = nr.remainder(code, 4), nr.floor_divide(code, 4)
    pair = values.reshape(tuple(values.shape[:-1]) + (values.shape[-1] // 2, 2))
    v0, v1 = pair[..., 0:1], pair[..., 1:2]
    pos = nr.arange(4, dtype=nr.int32, device=code.device)
    zero = nr.zeros((), dtype=values.dtype, device=code.device)
    out = nr.where(pos == c0, v0, nr.where(pos == c1, v1, zero))
    return out.reshape(tuple(values.shape[:-1]) + (2 * values.shape[-1],))


def sparse24_prune(client: Any, x: Any) -> tuple[Any, Any]:
    return prune(x)


def sparse24_matmul(client: Any, values: Any, meta: Any, dense: Any) -> Any:
    check(client, values, meta, dense)
    return _nr().matmul(decompress(values, meta), dense)


__all__ = ["check", "decompress", "prune", "sparse24_matmul", "sparse24_prune"]
