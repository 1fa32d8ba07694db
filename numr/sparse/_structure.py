"""Index arithmetic shared by the sparse formats, written with public numr ops so that it
runs on every backend (sort/unique/searchsorted/index_add on the device; at most a scalar
read back to check or size something) and lets autograd Vars flow through the values."""

from __future__ import annotations

from typing import Any

from .. import dtypes as dt
from ..errors import DeviceError, DTypeError, IndexOutOfRange, ShapeError
from ..ops.prepare import plain  # noqa: F401  (numr.sparse imports it from here)
from ..tensor import Tensor


def nr_mod() -> Any:
    import numr
    return numr


def is_tensor_like(x: Any) -> bool:
    """A numr Tensor, or a Var / DualTensor wrapping one."""
    return isinstance(plain(x), Tensor)


def as_values(op: str, values: Any, device: Any = None, dtype: Any = None) -> Any:
    """A 1-d values tensor (Tensors, Vars and DualTensors pass through; lists and arrays
    become tensors on ``device``)."""
    nr = nr_mod()
    if not is_tensor_like(values):
        values = nr.tensor(values, dtype=dtype, device=device)
    elif dtype is not None and values.dtype != nr.dtype(dtype):
        values = nr.cast(values, nr.dtype(dtype))
    if device is not None and plain(values).device != nr.device(device):
        values = values.to(device)
    if values.ndim != 1:
        raise ShapeError(f"{op}: values must be 1-d, got shape {tuple(values.shape)}")
    return values


def as_index(op: str, name: str, x: Any, device: Any) -> Tensor:
    """An int64 1-d index tensor on ``device`` (lists, NumPy arrays and other integer
    dtypes accepted; anything else raises DTypeError)."""
    nr = nr_mod()
    if not isinstance(x, Tensor):
        x = nr.tensor(x, device=device)
        if x.size == 0:
            x = nr.cast(x, nr.int64)
    if not x.dtype.is_integer:
        raise DTypeError(f"{op}: {name} must be an integer tensor, got {x.dtype}")
    if x.ndim != 1:
        raise ShapeError(f"{op}: {name} must be 1-d, got shape {x.shape}")
    if x.device != nr.device(device):
        raise DeviceError(f"{op}: {name} is on {x.device}, values on {device}")
    return x if x.dtype == dt.int64 else nr.cast(x, nr.int64)


def as_shape(op: str, shape: Any) -> tuple[int, int]:
    try:
        s = tuple(int(n) for n in shape)
    except TypeError:
        raise ShapeError(f"{op}: shape must be a pair of ints, got {shape!r}") from None
    if len(s) != 2:
        raise ShapeError(f"{op}: sparse matrices are 2-d, got shape {s}")
    if min(s) < 0:
        raise ShapeError(f"{op}: negative dimension in shape {s}")
    return s  # type: ignore[return-value]


def check_bounds(op: str, name: str, idx: Tensor, size: int) -> Any:
    """A bool 0-d tensor: some entry of idx is outside [0, size)."""
    nr = nr_mod()
    return nr.any((idx < 0) | (idx >= size))


def raise_if(op: str, bad: Any, msg: str) -> None:
    if bool(bad.item()):
        raise IndexOutOfRange(f"{op}: {msg}")


def indptr_bad(indptr: Tensor, nnz: int) -> Any:
    """A bool 0-d tensor: indptr does not start at 0, decreases somewhere or does not end at nnz."""
    nr = nr_mod()
    return nr.any(nr.diff(indptr) < 0) | (indptr[0] != 0) | (indptr[-1] != nnz)


def expand(indptr: Tensor, nnz: int) -> Tensor:
    """The major index (row of CSR, column of CSC) of each stored entry."""
    from ..ops.generic.sparse import csr_row_ids
    return csr_row_ids(indptr, nnz)


def compress(major: Tensor, n: int) -> Tensor:
    """indptr (n + 1,) of entries sorted by their major index."""
    nr = nr_mod()
    if major.shape[0] == 0:  # (wgpu's searchsorted fails to bind an empty sequence)
        return nr.zeros(n + 1, dtype=nr.int64, device=major.device)
    return nr.searchsorted(major, nr.arange(n + 1, dtype=nr.int64, device=major.device))


def linear_keys(op: str, major: Tensor, minor: Tensor, n_minor: int, n_major: int) -> Tensor:
    """major * n_minor + minor: one int64 key per entry, ordered like (major, minor)."""
    if n_major * n_minor >= 2 ** 62:
        raise ShapeError(f"{op}: a {n_major} x {n_minor} matrix is too large for int64 linear keys")
    return major * n_minor + minor


def is_strictly_sorted(keys: Tensor) -> bool:
    """keys strictly increase (sorted, no duplicates): one scalar read."""
    nr = nr_mod()
    if keys.shape[0] < 2:
        return True
    return bool(nr.all(keys[1:] > keys[:-1]).item())


def coalesce(op: str, major: Tensor, minor: Tensor, values: Any, n_major: int, n_minor: int,
             known: bool = False) -> tuple[Tensor, Tensor, Any]:
    """Entries sorted by (major, minor) with duplicates summed: one stable sort of the linear
    keys, then the runs of equal keys summed (``sum_runs``); a cheap check skips the sort
    when already canonical."""
    nr = nr_mod()
    if known or major.shape[0] == 0:
        return major, minor, values
    keys = linear_keys(op, major, minor, n_minor, n_major)
    if is_strictly_sorted(keys):
        return major, minor, values
    ks, perm = nr.sort(keys, stable=True)
    uniq, summed = sum_runs(ks, select(values, perm))
    return uniq // n_minor, uniq % n_minor, summed


def sum_runs(keys: Tensor, values: Any) -> tuple[Tensor, Any]:
    """For sorted keys: the distinct keys and the values of each run of equal keys added up."""
    nr = nr_mod()
    n = keys.shape[0]
    first = nr.cat([nr.ones(1, dtype=nr.bool_, device=keys.device), keys[1:] != keys[:-1]]) if n > 1 else \
        nr.ones(n, dtype=nr.bool_, device=keys.device)
    starts = nr.nonzero(first).reshape(-1)  # one count read back sizes the result
    if starts.shape[0] == n:
        return keys, values
    seg = nr.cumsum(nr.cast(first, nr.int64), 0) - 1
    return nr.index_select(keys, 0, starts), add_at(starts.shape[0], seg, values)


def row_plan(row: Tensor, col: Tensor, shape: tuple[int, int]) -> tuple[Tensor, Tensor, Any]:
    """CSR structure (indptr, column indices, perm) of entries given in any order, duplicates
    kept: perm (None when already row-sorted) maps CSR positions to the given positions."""
    nr = nr_mod()
    n, m = shape
    if row.shape[0] == 0:
        return nr.zeros(n + 1, dtype=nr.int64, device=row.device), col, None
    keys = linear_keys("matmul", row, col, m, n)
    if is_strictly_sorted(keys):
        return compress(row, n), col, None
    ks, perm = nr.sort(keys, stable=True)
    return compress(ks // m, n), ks % m, perm


def add_at(n: int, index: Tensor, values: Any) -> Any:
    """(n,) zeros of values' dtype with values added at index (repeats accumulate); bool
    values combine with logical or (scipy's rule for bool sums)."""
    nr = nr_mod()
    dev = plain(values).device
    if values.dtype == dt.bool_:
        counts = nr.index_add(nr.zeros(n, dtype=nr.int64, device=dev), 0, index, nr.cast(values, nr.int64))
        return counts != 0
    return nr.index_add(nr.zeros(n, dtype=values.dtype, device=dev), 0, index, values)


def select(values: Any, positions: Tensor) -> Any:
    return nr_mod().index_select(values, 0, positions)
