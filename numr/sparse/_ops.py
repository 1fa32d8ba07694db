"""Arithmetic on sparse matrices (scipy.sparse semantics): products with dense operands and
with sparse ones (SpGEMM by expand-sort-compress), sums, element-wise products, reductions.
Values flow through public numr ops only, so autograd Vars and DualTensors pass through."""

from __future__ import annotations

from typing import Any

from .. import dtypes as dt
from ..errors import DeviceError, ShapeError, UnsupportedOperation
from ..ops import prepare
from ..tensor import Tensor
from . import _structure as st
from ._base import SparseMatrix, is_sparse


def _dense(op: str, a: SparseMatrix, x: Any) -> Any:
    """x as a dense operand on a's device (lists and NumPy arrays become tensors)."""
    nr = st.nr_mod()
    if isinstance(x, prepare.SCALAR_TYPES):
        return x
    if not st.is_tensor_like(x):  # lists, NumPy arrays and scalars
        x = nr.tensor(x, device=a.device)
    if st.plain(x).device != a.device:
        raise DeviceError(f"{op}: sparse matrix on {a.device}, dense operand on {st.plain(x).device}")
    return x


def _same_device(op: str, a: SparseMatrix, b: SparseMatrix) -> None:
    if a.device != b.device:
        raise DeviceError(f"{op}: operands on {a.device} and {b.device}")


def matmul(a: SparseMatrix, x: Any) -> Any:
    """a @ x: x dense 1-d (n,) or 2-d (n, k) -> dense; x sparse -> sparse (CSR, CSC for CSC @ CSC)."""
    if is_sparse(x):
        return spgemm(a, x)
    x = _dense("matmul", a, x)
    if isinstance(x, prepare.SCALAR_TYPES) or x.ndim not in (1, 2):
        shape = () if isinstance(x, prepare.SCALAR_TYPES) else tuple(x.shape)
        raise ShapeError(f"matmul: sparse {a.shape} @ dense needs a 1-d or 2-d operand, got shape {shape}")
    if x.shape[0] != a.shape[1]:
        raise ShapeError(f"matmul: shapes {a.shape} and {tuple(x.shape)} do not align "
                         f"({a.shape[1]} != {x.shape[0]}); dtypes {a.dtype}, {x.dtype}")
    from ..autograd.ops.sparse import csr_matmul
    if a.dtype == dt.bool_ and x.dtype == dt.bool_:  # scipy: or of ands, through int64 counts
        return matmul(a.astype(dt.int64), nr_cast(x, dt.int64)) != 0
    x2 = x.reshape(-1, 1) if x.ndim == 1 else x
    indptr, indices, perm = a.csr_plan()  # COO/CSC: row order cached once, then the CSR kernel
    values = a.values if perm is None else _permuted_values(a, perm)
    out = csr_matmul(indptr, indices, values, x2, a.shape[0])
    return out.reshape(-1) if x.ndim == 1 else out


def nr_cast(x: Any, d: Any) -> Any:
    return st.nr_mod().cast(x, d)


def _permuted_values(a: SparseMatrix, perm: Any) -> Any:
    """a's values in its CSR plan's order; for a plain Tensor cached until it is written in
    place (its version counter) or replaced (autograd Vars are gathered every time)."""
    v = a.values
    if type(v) is not Tensor:
        return st.select(v, perm)
    key = ("values", a._flip)
    hit = a._plans.get(key)
    if hit is not None and hit[0] is v and hit[1] == v._version[0] and hit[2] is perm:
        return hit[3]
    out = st.select(v, perm)
    a._plans[key] = (v, v._version[0], perm, out)
    return out


def rmatmul(x: Any, a: SparseMatrix) -> Any:
    """x @ a for dense x (1-d or 2-d): (a.T @ x.T).T."""
    x = _dense("matmul", a, x)
    if isinstance(x, prepare.SCALAR_TYPES) or x.ndim not in (1, 2):
        raise ShapeError(f"matmul: dense @ sparse {a.shape} needs a 1-d or 2-d operand")
    if x.shape[-1] != a.shape[0]:
        raise ShapeError(f"matmul: shapes {tuple(x.shape)} and {a.shape} do not align "
                         f"({x.shape[-1]} != {a.shape[0]}); dtypes {x.dtype}, {a.dtype}")
    if x.ndim == 1:
        return matmul(a.transpose(), x)
    return matmul(a.transpose(), x.transpose(0, 1)).transpose(0, 1)


def _native(op: str, a: SparseMatrix, b: SparseMatrix) -> SparseMatrix | None:
    """a @ b, a + b, a - b or a .* b by the client's csr_combine kernel (the CPU's) when the
    values are plain Tensors (no Var or DualTensor flows) of a dtype it has; else None and the
    composite runs. CSC with CSC works on the transposes (the CSC arrays read as CSR) and
    returns CSC, as the composite; other mixes are converted to CSR."""
    fn = getattr(a.device.client, "csr_combine", None)
    if fn is None or type(a.values) is not Tensor or type(b.values) is not Tensor:
        return None
    from .compressed import CSCMatrix, CSRMatrix
    d = dt.result_type(a.dtype, b.dtype)
    flip = a.format == "csc" and b.format == "csc"
    if flip:  # C^T = B^T A^T, or A^T op B^T
        x, y, shape = (b, a, (b.shape[1], b.shape[0], a.shape[0])) if op == "matmul" else \
            (a, b, (a.shape[1], a.shape[0], a.shape[0]))
    else:
        x, y, shape = a.tocsr(), b.tocsr(), (a.shape[0], a.shape[1], b.shape[1])
    parts = [(m.indptr, m.indices, m.values if m.dtype == d else nr_cast(m.values, d)) for m in (x, y)]
    out = fn(op, parts[0], parts[1], *shape)
    if out is None:
        return None
    cls = CSCMatrix if flip else CSRMatrix
    return cls(*out, (a.shape[0], b.shape[1]), check=False, canonical=True)


def spgemm(a: SparseMatrix, b: SparseMatrix) -> SparseMatrix:
    """Sparse @ sparse by expand-sort-compress: every a[i, k] meets row k of b, the products
    (i, j, a[i, k] * b[k, j]) are formed, then sorted and summed per (i, j)."""
    nr = st.nr_mod()
    from .compressed import CSRMatrix
    if a.shape[1] != b.shape[0]:
        raise ShapeError(f"matmul: shapes {a.shape} and {b.shape} do not align; dtypes {a.dtype}, {b.dtype}")
    _same_device("matmul", a, b)
    fast = _native("matmul", a, b)
    if fast is not None:
        return fast
    shape = (a.shape[0], b.shape[1])
    ra, ca, va = a.coo_parts()
    both_csc = a.format == "csc" and b.format == "csc"
    b = b.tocsr()
    dev = a.device
    counts = nr.index_select(b.indptr, 0, ca + 1) - nr.index_select(b.indptr, 0, ca)
    total = int(nr.sum(counts).item()) if a.nnz else 0
    out_dtype = dt.result_type(a.dtype, b.dtype)
    if total == 0:
        out = CSRMatrix(nr.zeros(shape[0] + 1, dtype=nr.int64, device=dev), nr.zeros(0, dtype=nr.int64, device=dev),
                        nr.zeros(0, dtype=out_dtype, device=dev), shape, check=False)
    else:
        ent = nr.repeat_interleave(nr.arange(a.nnz, dtype=nr.int64, device=dev), counts)
        starts = nr.cumsum(counts, 0) - counts
        offset = nr.arange(total, dtype=nr.int64, device=dev) - nr.index_select(starts, 0, ent)
        bpos = nr.index_select(nr.index_select(b.indptr, 0, ca), 0, ent) + offset
        row = nr.index_select(ra, 0, ent)
        col = nr.index_select(b.indices, 0, bpos)
        val = st.select(va, ent) * st.select(b.values, bpos)
        r, c, v = st.coalesce("matmul", row, col, val, shape[0], shape[1])
        out = CSRMatrix(st.compress(r, shape[0]), c, v, shape, check=False, canonical=True)
    return out.tocsc() if both_csc else out


def _result_format(a: SparseMatrix, b: SparseMatrix, m: SparseMatrix) -> SparseMatrix:
    return m.tocsc() if a.format == "csc" and b.format == "csc" else m


def add(a: SparseMatrix, other: Any, alpha: int = 1) -> Any:
    """a + alpha * other: sparse + sparse -> sparse (CSR; CSC for CSC + CSC), sparse + dense ->
    dense; a non-zero scalar would fill every zero, so it raises (as scipy)."""
    nr = st.nr_mod()
    from .compressed import CSCMatrix, CSRMatrix
    name = "add" if alpha == 1 else "sub"
    if is_sparse(other):
        if a.shape != other.shape:
            raise ShapeError(f"{name}: sparse shapes {a.shape} and {other.shape} differ; "
                             f"dtypes {a.dtype}, {other.dtype}")
        _same_device(name, a, other)
        fast = _native(name, a, other)
        if fast is not None:
            return fast
        d = dt.result_type(a.dtype, other.dtype)
        ra, ca, va = a.coo_parts()
        rb, cb, vb = other.coo_parts()
        vb = -vb if alpha == -1 else vb
        va = va if va.dtype == d else nr.cast(va, d)
        vb = vb if vb.dtype == d else nr.cast(vb, d)
        # concatenate, then one stable sort of the keys and the runs of equal keys summed
        rows, cols, vals = nr.cat([ra, rb]), nr.cat([ca, cb]), nr.cat([va, vb])
        if a.format == "csc" and other.format == "csc":
            c, r, v = st.coalesce(name, cols, rows, vals, a.shape[1], a.shape[0])
            return CSCMatrix(st.compress(c, a.shape[1]), r, v, a.shape, check=False, canonical=True)
        r, c, v = st.coalesce(name, rows, cols, vals, a.shape[0], a.shape[1])
        return CSRMatrix(st.compress(r, a.shape[0]), c, v, a.shape, check=False, canonical=True)
    other = _dense(name, a, other)
    if isinstance(other, prepare.SCALAR_TYPES):
        if other == 0:
            return a
        raise UnsupportedOperation("sparse", name, a.dtype, reason="adding a non-zero scalar would densify; "
                                   "use A.to_dense() + c")
    return a.to_dense() + other if alpha == 1 else a.to_dense() - other


def multiply(a: SparseMatrix, other: Any) -> SparseMatrix:
    """Element-wise a * other keeping a's zeros: a scalar scales the values, a dense operand
    (broadcast to a's shape) is read at the stored positions, a sparse one intersects."""
    nr = st.nr_mod()
    if is_sparse(other):
        return _intersect(a, other)
    other = _dense("multiply", a, other)
    if isinstance(other, prepare.SCALAR_TYPES):
        return a.with_values(a.values * other)
    if other.ndim > 2 or nr.broadcast_shapes(tuple(other.shape), a.shape) != a.shape:
        raise ShapeError(f"multiply: dense shape {tuple(other.shape)} does not broadcast to the sparse shape {a.shape}")
    if other.ndim == 0:
        return a.with_values(a.values * other)
    row, col, values = a.coo_parts()
    full = other.broadcast_to(a.shape).reshape(-1) if tuple(other.shape) != a.shape else other.reshape(-1)
    picked = nr.index_select(full, 0, st.linear_keys("multiply", row, col, a.shape[1], a.shape[0]))
    return a.with_values(values * picked)


def _intersect(a: SparseMatrix, b: SparseMatrix) -> SparseMatrix:
    """Sparse * sparse: the product at positions stored in both (after summing duplicates)."""
    nr = st.nr_mod()
    from .compressed import CSRMatrix
    if a.shape != b.shape:
        raise ShapeError(f"multiply: sparse shapes {a.shape} and {b.shape} differ; dtypes {a.dtype}, {b.dtype}")
    _same_device("multiply", a, b)
    fast = _native("multiply", a, b)
    if fast is not None:
        return fast
    n, m = a.shape
    ra, ca, va = a.tocoo().coalesce().coo_parts()
    rb, cb, vb = b.tocoo().coalesce().coo_parts()
    keys = nr.cat([st.linear_keys("multiply", ra, ca, m, n), st.linear_keys("multiply", rb, cb, m, n)])
    d = dt.result_type(a.dtype, b.dtype)
    vals = nr.cat([nr.cast(va, d) if va.dtype != d else va, nr.cast(vb, d) if vb.dtype != d else vb])
    dev = a.device
    pos = nr.zeros(0, dtype=nr.int64, device=dev)
    if keys.shape[0] >= 2:  # each side is coalesced: an equal pair is one entry of a and one of b
        ks, perm = nr.sort(keys, stable=True)
        pos = nr.nonzero(ks[1:] == ks[:-1]).reshape(-1)
    if pos.shape[0] == 0:
        out = CSRMatrix(nr.zeros(n + 1, dtype=nr.int64, device=dev), nr.zeros(0, dtype=nr.int64, device=dev),
                        nr.zeros(0, dtype=d, device=dev), a.shape, check=False)
        return _result_format(a, b, out)
    first, second = nr.index_select(perm, 0, pos), nr.index_select(perm, 0, pos + 1)
    k = nr.index_select(keys, 0, first)
    v = st.select(vals, first) * st.select(vals, second)
    row, col = k // m, k % m
    out = CSRMatrix(st.compress(row, n), col, v, a.shape, check=False, canonical=True)
    return _result_format(a, b, out)


def divide(a: SparseMatrix, other: Any) -> SparseMatrix:
    """a / scalar, or a / dense read at the stored positions (zeros stay zeros)."""
    if is_sparse(other):
        raise UnsupportedOperation("sparse", "div", a.dtype, reason="sparse / sparse divides by the zeros; "
                                   "use a.to_dense() / b.to_dense()")
    other = _dense("div", a, other)
    if isinstance(other, prepare.SCALAR_TYPES):
        return a.with_values(a.values / other)
    nr = st.nr_mod()
    return multiply(a, nr.reciprocal(nr.cast(other, nr.float64) if other.dtype.kind not in "fc" else other))


def sparse_sum(a: SparseMatrix, dim: int | None) -> Any:
    """Sum of every entry (0-d) or along a dim (1-d dense); bool/int values sum to int64/uint64."""
    nr = st.nr_mod()
    from ..ops.dtype_rules import sum_dtype
    d = sum_dtype(a.dtype)
    values = a.values if a.dtype == d else nr.cast(a.values, d)
    if dim is None:
        return nr.sum(values) if a.nnz else nr.zeros((), dtype=d, device=a.device)
    if dim not in (0, 1, -1, -2):
        raise ShapeError(f"sum: dim {dim} is out of range for a 2-d sparse matrix")
    dim %= 2
    row, col, _ = a.coo_parts()
    return st.add_at(a.shape[1 - dim], col if dim == 0 else row, values)


def diagonal(a: SparseMatrix, k: int = 0) -> Any:
    """The k-th diagonal (1-d dense; duplicates add up): off-diagonal entries go to a spare slot."""
    nr = st.nr_mod()
    n, m = a.shape
    length = max(0, min(n, m - k)) if k >= 0 else max(0, min(n + k, m))
    if not a.nnz:
        return nr.zeros(length, dtype=a.dtype, device=a.device)
    row, col, values = a.coo_parts()
    at = row if k >= 0 else col
    return st.add_at(length + 1, nr.where(col - row == k, at, length), values)[:length]


def getnnz(a: SparseMatrix, axis: int | None) -> Any:
    """Stored entries: all (int), per column (axis 0) or per row (axis 1) as int64 tensors."""
    nr = st.nr_mod()
    if axis is None:
        return a.nnz
    if axis not in (0, 1, -1, -2):
        raise ShapeError(f"getnnz: axis {axis} is out of range for a 2-d sparse matrix")
    axis %= 2
    if a.format == ("csr" if axis == 1 else "csc"):
        return nr.diff(a.indptr)
    row, col, _ = a.coo_parts()
    return nr.bincount(col if axis == 0 else row, minlength=a.shape[1 - axis])


def eliminate_zeros(a: SparseMatrix) -> SparseMatrix:
    """a without its stored zeros, in a's format."""
    nr = st.nr_mod()
    from .coo import COOMatrix
    if a.nnz == 0:
        return a
    row, col, values = a.coo_parts()
    keep = nr.nonzero(st.plain(values) != 0).reshape(-1)
    if keep.shape[0] == a.nnz:
        return a
    m = COOMatrix((nr.index_select(row, 0, keep), nr.index_select(col, 0, keep)), st.select(values, keep),
                  a.shape, check=False, coalesced=a.format == "coo" and a.is_coalesced())
    return m.asformat(a.format)
