"""scipy.sparse's structural functions: tril/triu (triangles, e.g. for Gauss-Seidel and SOR
preconditioners), hstack/vstack/block_diag, kron and basic indexing (ints and slices), written
with public ops on the COO parts (so values may be autograd Vars)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import dtypes as dt
from ..errors import DeviceError, IndexOutOfRange, ShapeError, UnsupportedOperation
from . import _structure as st
from ._base import SparseMatrix
from .coo import COOMatrix


def _keep(a: SparseMatrix, mask: Any, format: str | None) -> SparseMatrix:
    nr = st.nr_mod()
    row, col, values = a.coo_parts()
    pos = nr.nonzero(mask).reshape(-1)
    m = COOMatrix((nr.index_select(row, 0, pos), nr.index_select(col, 0, pos)), st.select(values, pos),
                  a.shape, check=False)
    return m.asformat(format or a.format)


def tril(a: SparseMatrix, k: int = 0, format: str | None = None) -> SparseMatrix:
    """The entries on and below the k-th diagonal (col - row <= k)."""
    row, col, _ = a.coo_parts()
    return _keep(a, (col - row) <= k, format)


def triu(a: SparseMatrix, k: int = 0, format: str | None = None) -> SparseMatrix:
    """The entries on and above the k-th diagonal (col - row >= k)."""
    row, col, _ = a.coo_parts()
    return _keep(a, (col - row) >= k, format)


def _stack(op: str, blocks: Sequence[SparseMatrix], along: int, format: str | None) -> SparseMatrix:
    nr = st.nr_mod()
    if not blocks:
        raise ShapeError(f"{op}: needs at least one matrix")
    other = 1 - along
    size = blocks[0].shape[other]
    dev = blocks[0].device
    for b in blocks:
        if b.shape[other] != size:
            raise ShapeError(f"{op}: shapes {[x.shape for x in blocks]} differ in dim {other}")
        if b.device != dev:
            raise DeviceError(f"{op}: matrices on {dev} and {b.device}")
    d = dt.result_type(*[b.dtype for b in blocks])
    rows, cols, vals, off = [], [], [], 0
    for b in blocks:
        r, c, v = b.coo_parts()
        rows.append(r + off if along == 0 else r)
        cols.append(c + off if along == 1 else c)
        vals.append(v if v.dtype == d else nr.cast(v, d))
        off += b.shape[along]
    shape = (off, size) if along == 0 else (size, off)
    m = COOMatrix((nr.cat(rows), nr.cat(cols)), nr.cat(vals), shape, check=False)
    return m.asformat(format or ("csc" if along == 1 and all(b.format == "csc" for b in blocks) else "csr"))


def vstack(blocks: Sequence[SparseMatrix], format: str | None = None) -> SparseMatrix:
    """The matrices one above the other (same number of columns)."""
    return _stack("vstack", list(blocks), 0, format)


def hstack(blocks: Sequence[SparseMatrix], format: str | None = None) -> SparseMatrix:
    """The matrices side by side (same number of rows)."""
    return _stack("hstack", list(blocks), 1, format)


def block_diag(blocks: Sequence[SparseMatrix], format: str = "csr") -> SparseMatrix:
    """The matrices along the diagonal of a block matrix."""
    nr = st.nr_mod()
    blocks = list(blocks)
    if not blocks:
        raise ShapeError("block_diag: needs at least one matrix")
    d = dt.result_type(*[b.dtype for b in blocks])
    rows, cols, vals, r0, c0 = [], [], [], 0, 0
    for b in blocks:
        r, c, v = b.coo_parts()
        rows.append(r + r0)
        cols.append(c + c0)
        vals.append(v if v.dtype == d else nr.cast(v, d))
        r0, c0 = r0 + b.shape[0], c0 + b.shape[1]
    return COOMatrix((nr.cat(rows), nr.cat(cols)), nr.cat(vals), (r0, c0), check=False).asformat(format)


def kron(a: SparseMatrix, b: SparseMatrix, format: str = "csr") -> SparseMatrix:
    """The Kronecker product: block (i, j) is a[i, j] * b."""
    if a.device != b.device:
        raise DeviceError(f"kron: matrices on {a.device} and {b.device}")
    ra, ca, va = a.coo_parts()
    rb, cb, vb = b.coo_parts()
    p, q = b.shape
    row = (ra.reshape(-1, 1) * p + rb.reshape(1, -1)).reshape(-1)
    col = (ca.reshape(-1, 1) * q + cb.reshape(1, -1)).reshape(-1)
    val = (va.reshape(-1, 1) * vb.reshape(1, -1)).reshape(-1)
    shape = (a.shape[0] * p, a.shape[1] * q)
    return COOMatrix((row, col), val, shape, check=False).asformat(format)


def _axis(key: Any, n: int, axis: int) -> tuple[int, int, int, bool]:
    """(start, step, count, drop) of an int or slice index along a dim of size n."""
    if isinstance(key, slice):
        start, stop, step = key.indices(n)
        return start, step, len(range(start, stop, step)), False
    if isinstance(key, bool) or not isinstance(key, int):
        raise UnsupportedOperation("sparse", "getitem", None,
                                   reason=f"index {key!r}: only ints and slices (use to_dense() for more)")
    if not -n <= key < n:
        raise IndexOutOfRange(f"getitem: index {key} is out of range for dim {axis} of size {n}")
    return key % n, 1, 1, True


def getitem(a: SparseMatrix, key: Any) -> Any:
    """a[i, j] (0-d tensor), a[i] / a[:, j] (dense 1-d) and slices with any step (a sparse
    matrix of a's format): the kept entries are renumbered with public ops."""
    nr = st.nr_mod()
    key = key if isinstance(key, tuple) else (key, slice(None))
    if len(key) != 2:
        raise ShapeError(f"getitem: a sparse matrix takes 2 indices, got {len(key)}")
    (r0, rs, rn, rdrop), (c0, cs, cn, cdrop) = _axis(key[0], a.shape[0], 0), _axis(key[1], a.shape[1], 1)
    row, col, values = a.coo_parts()
    dr, dc = row - r0, col - c0
    qr, qc = nr.floor_divide(dr, rs), nr.floor_divide(dc, cs)
    keep = (nr.remainder(dr, rs) == 0) & (qr >= 0) & (qr < rn) & (nr.remainder(dc, cs) == 0) & (qc >= 0) & (qc < cn)
    pos = nr.nonzero(keep).reshape(-1)
    sub = COOMatrix((nr.index_select(qr, 0, pos), nr.index_select(qc, 0, pos)), st.select(values, pos), (rn, cn),
                    check=False)
    if rdrop and cdrop:
        return sub.to_dense().reshape(())  # duplicates add up; 0 when nothing is stored there
    if rdrop or cdrop:
        return sub.to_dense().reshape(-1)
    return sub.asformat(a.format)
