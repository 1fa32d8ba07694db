"""Constructors with scipy.sparse's names: coo/csr/csc_matrix from index arrays, a dense
tensor or array, a scipy.sparse matrix or another numr sparse matrix; from_dense; eye,
diags, spdiags and seeded random matrices built on the device."""

from __future__ import annotations

from typing import Any

from ..errors import DTypeError, ShapeError
from . import _structure as st
from ._base import SparseMatrix, is_sparse
from .compressed import CSCMatrix, CSRMatrix
from .coo import COOMatrix

FORMATS = ("coo", "csr", "csc")


def _check_format(format: str) -> str:
    if format not in FORMATS:
        raise ValueError(f"sparse: unknown format {format!r}; expected one of {FORMATS}")
    return format


def _is_scipy(x: Any) -> bool:
    return type(x).__module__.startswith("scipy.sparse")


def from_scipy(m: Any, format: str | None = None, device: Any = None, dtype: Any = None) -> SparseMatrix:
    """A numr sparse matrix from a scipy.sparse matrix or array (its format, or ``format``)."""
    nr = st.nr_mod()
    fmt = format or (m.format if m.format in FORMATS else "csr")
    m = m.asformat(fmt)
    t = lambda a: nr.tensor(a, device=device)  # noqa: E731
    if fmt == "coo":
        return COOMatrix((t(m.row), t(m.col)), t(m.data), m.shape, dtype=dtype)
    cls = CSRMatrix if fmt == "csr" else CSCMatrix
    return cls(t(m.indptr), t(m.indices), t(m.data), m.shape, dtype=dtype, canonical=bool(m.has_canonical_format))


def from_dense(x: Any, format: str = "csr", device: Any = None, dtype: Any = None) -> SparseMatrix:
    """The non-zero entries of a 2-d dense tensor (or array-like) in ``format``."""
    nr = st.nr_mod()
    _check_format(format)
    if not st.is_tensor_like(x):
        x = nr.tensor(x, dtype=dtype, device=device)
    elif device is not None:
        x = x.to(device)
    if dtype is not None and x.dtype != nr.dtype(dtype):
        x = nr.cast(x, nr.dtype(dtype))
    if x.ndim != 2:
        raise ShapeError(f"from_dense: sparse matrices are 2-d, got shape {tuple(x.shape)}")
    n, m = x.shape
    coords = nr.nonzero(st.plain(x))  # row-major: already CSR order
    row, col = coords[:, 0].contiguous(), coords[:, 1].contiguous()
    values = nr.index_select(x.reshape(-1), 0, row * m + col)
    a = COOMatrix((row, col), values, (n, m), check=False, coalesced=True)
    return a.asformat(format)


def _sparse_from(op: str, arg: Any, shape: Any, dtype: Any, device: Any, format: str) -> SparseMatrix:
    """Everything the *_matrix constructors accept except index arrays."""
    if is_sparse(arg):
        out = arg.asformat(format)
        return out.to(device, dtype) if device is not None or dtype is not None else out
    if _is_scipy(arg):
        return from_scipy(arg, format, device, dtype)
    if isinstance(arg, tuple) and len(arg) == 2 and all(isinstance(n, int) for n in arg):
        return empty(arg, format=format, dtype=dtype, device=device)
    out = from_dense(arg, format, device, dtype)
    if shape is not None and st.as_shape(op, shape) != out.shape:
        raise ShapeError(f"{op}: shape {tuple(shape)} does not match the dense operand's {out.shape}")
    return out


def _infer_shape(op: str, row: Any, col: Any) -> tuple[int, int]:
    nr = st.nr_mod()
    if row.shape[0] == 0:
        raise ShapeError(f"{op}: cannot infer the shape of an empty matrix; pass shape=")
    return int(nr.max(row).item()) + 1, int(nr.max(col).item()) + 1


def coo_matrix(arg: Any, shape: Any = None, dtype: Any = None, device: Any = None) -> COOMatrix:
    """scipy's forms: ``(values, (row, col))``, a dense 2-d tensor/array, a scipy or numr
    sparse matrix, or ``(M, N)`` for an empty matrix; shape is inferred when omitted."""
    op = "coo_matrix"
    if isinstance(arg, tuple) and len(arg) == 2 and isinstance(arg[1], (tuple, list)) and len(arg[1]) == 2:
        values, (row, col) = arg
        values = st.as_values(op, values, device, dtype)
        dev = st.plain(values).device
        row, col = st.as_index(op, "row", row, dev), st.as_index(op, "col", col, dev)
        shape = _infer_shape(op, row, col) if shape is None else shape
        return COOMatrix((row, col), values, shape)
    return _sparse_from(op, arg, shape, dtype, device, "coo")


def _compressed(op: str, cls: type, fmt: str, arg: Any, shape: Any, dtype: Any, device: Any) -> Any:
    if isinstance(arg, tuple) and len(arg) == 3:
        values, indices, indptr = arg
        values = st.as_values(op, values, device, dtype)
        dev = st.plain(values).device
        indices, indptr = st.as_index(op, "indices", indices, dev), st.as_index(op, "indptr", indptr, dev)
        if shape is None:
            n_minor = int(st.nr_mod().max(indices).item()) + 1 if indices.shape[0] else 0
            shape = (indptr.shape[0] - 1, n_minor) if fmt == "csr" else (n_minor, indptr.shape[0] - 1)
        return cls(indptr, indices, values, shape)
    if isinstance(arg, tuple) and len(arg) == 2 and isinstance(arg[1], (tuple, list)) and len(arg[1]) == 2:
        return coo_matrix(arg, shape, dtype, device).asformat(fmt)
    return _sparse_from(op, arg, shape, dtype, device, fmt)


def csr_matrix(arg: Any, shape: Any = None, dtype: Any = None, device: Any = None) -> CSRMatrix:
    """scipy's forms: ``(values, indices, indptr)``, ``(values, (row, col))``, dense, sparse or ``(M, N)``."""
    return _compressed("csr_matrix", CSRMatrix, "csr", arg, shape, dtype, device)


def csc_matrix(arg: Any, shape: Any = None, dtype: Any = None, device: Any = None) -> CSCMatrix:
    """scipy's forms: ``(values, indices, indptr)``, ``(values, (row, col))``, dense, sparse or ``(M, N)``."""
    return _compressed("csc_matrix", CSCMatrix, "csc", arg, shape, dtype, device)


def empty(shape: Any, format: str = "csr", dtype: Any = None, device: Any = None) -> SparseMatrix:
    """An all-zero matrix with no stored entries."""
    nr = st.nr_mod()
    shape = st.as_shape("sparse.empty", shape)
    i = nr.zeros(0, dtype=nr.int64, device=device)
    v = nr.zeros(0, dtype=dtype or nr.float64, device=device)
    return COOMatrix((i, i), v, shape, check=False, coalesced=True).asformat(_check_format(format))


def eye(m: int, n: int | None = None, k: int = 0, dtype: Any = None, format: str = "csr",
        device: Any = None) -> SparseMatrix:
    """Ones on the k-th diagonal of an m x n matrix."""
    nr = st.nr_mod()
    n = m if n is None else n
    length = max(0, min(m, n - k)) if k >= 0 else max(0, min(m + k, n))
    return diags([nr.ones(length, dtype=dtype or nr.float64, device=device)], [k], shape=(m, n),
                 format=format, device=device)


identity = eye


def diags(diagonals: Any, offsets: Any = 0, shape: Any = None, format: str = "csr", dtype: Any = None,
          device: Any = None) -> SparseMatrix:
    """A matrix from diagonals (scipy.sparse.diags_array): ``diagonals[i]`` (a 1-d tensor or
    a scalar broadcast along it) on diagonal ``offsets[i]``; shape defaults to square."""
    nr = st.nr_mod()
    single = isinstance(offsets, int)
    offs = [int(offsets)] if single else [int(o) for o in offsets]
    scalar = (int, float, complex)
    if single and (isinstance(diagonals, scalar) or getattr(diagonals, "ndim", 2) == 1
                   or (isinstance(diagonals, (list, tuple)) and diagonals and isinstance(diagonals[0], scalar))):
        diagonals = [diagonals]  # one diagonal given bare
    if len(diagonals) != len(offs):
        raise ShapeError(f"diags: {len(diagonals)} diagonals but {len(offs)} offsets")
    if len(set(offs)) != len(offs):
        raise ShapeError(f"diags: repeated offset in {offs}")
    ds = [d if isinstance(d, (int, float, complex)) else st.as_values("diags", d, device) for d in diagonals]
    if shape is None:
        lens = [d.shape[0] + abs(o) for d, o in zip(ds, offs, strict=True) if not isinstance(d, (int, float, complex))]
        if not lens:
            raise ShapeError("diags: pass shape= when every diagonal is a scalar")
        size = max(lens)
        shape = (size, size)
    n, m = st.as_shape("diags", shape)
    rows, cols, vals = [], [], []
    dev = next((st.plain(d).device for d in ds if not isinstance(d, (int, float, complex))), nr.device(device))
    for d, k in zip(ds, offs, strict=True):
        length = max(0, min(n, m - k)) if k >= 0 else max(0, min(n + k, m))
        if isinstance(d, (int, float, complex)):
            d = nr.full((length,), d, dtype=dtype, device=dev)
        elif d.shape[0] < length:
            raise ShapeError(f"diags: diagonal {k} has {d.shape[0]} entries, shape {(n, m)} needs {length}")
        d = d[:length]
        i = nr.arange(length, dtype=nr.int64, device=dev)
        rows.append(i + max(0, -k))
        cols.append(i + max(0, k))
        vals.append(d)
    d_out = nr.dtype(dtype) if dtype is not None else nr.result_type(*[v.dtype for v in vals])
    vals = [v if v.dtype == d_out else nr.cast(v, d_out) for v in vals]
    a = COOMatrix((nr.cat(rows), nr.cat(cols)), nr.cat(vals), (n, m), check=False)
    return a.asformat(_check_format(format))


def spdiags(data: Any, diags_: Any, m: int, n: int | None = None, format: str = "csr",
            device: Any = None) -> SparseMatrix:
    """scipy.sparse.spdiags: row i of ``data`` (k, L) on diagonal ``diags_[i]``, column j of
    the matrix taking data[i, j]."""
    nr = st.nr_mod()
    n = m if n is None else n
    if not st.is_tensor_like(data):
        data = nr.tensor(data, device=device)
    if data.ndim == 1:
        data = data.reshape(1, -1)
    offs = [int(diags_)] if isinstance(diags_, int) else [int(o) for o in diags_]
    if data.shape[0] != len(offs):
        raise ShapeError(f"spdiags: data has {data.shape[0]} rows but {len(offs)} offsets")
    parts = []
    for i, k in enumerate(offs):
        lo, hi = max(0, k), min(n, m + k, data.shape[1])
        parts.append(data[i, lo:hi] if hi > lo else data[i, :0])
    return diags(parts, offs, shape=(m, n), format=format, device=device)


def random(m: int, n: int, density: float = 0.01, format: str = "coo", dtype: Any = None,
           seed: int | None = None, device: Any = None) -> SparseMatrix:
    """round(density * m * n) distinct positions drawn uniformly, values uniform in [0, 1)
    (scipy.sparse.random); ``seed`` makes it reproducible on every backend."""
    nr = st.nr_mod()
    if not 0 <= density <= 1:
        raise ShapeError(f"random: density must lie in [0, 1], got {density}")
    m, n = st.as_shape("random", (m, n))
    total = m * n
    k = int(round(density * total))
    dtype = nr.dtype(dtype) if dtype is not None else nr.float64
    if dtype.kind not in "fc":
        raise DTypeError(f"random: values are uniform floats, got dtype {dtype}")
    base = 0 if seed is None else int(seed)
    keys = nr.zeros(0, dtype=nr.int64, device=device)
    draw = 0
    while keys.shape[0] < k:  # distinct keys: top up until there are enough
        want = max(16, int((k - keys.shape[0]) * 1.1))
        new = nr.randint(0, total, (want,), dtype=nr.int64, device=device,
                         seed=None if seed is None else base + 7919 * draw)
        keys = nr.unique(nr.cat([keys, new]))
        draw += 1
    if keys.shape[0] > k:  # keep a uniform subset of the distinct keys
        pick = nr.randperm(keys.shape[0], device=device, seed=None if seed is None else base + 104729)
        keys = nr.sort(nr.index_select(keys, 0, pick[:k]))[0]
    values = nr.rand(k, dtype=dtype, device=device, seed=None if seed is None else base + 1299709)
    a = COOMatrix((keys // n if n else keys, keys % n if n else keys), values, (m, n), check=False, coalesced=True)
    return a.asformat(_check_format(format))
