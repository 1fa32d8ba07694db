"""The GPU sort and searchsorted kernels against NumPy: every dtype, NaN/-0.0/inf/ties (indices
equal np.argsort(kind="stable")), both directions, every dim, strided/offset/flipped inputs, empty
and 0-d, rows sorted by one workgroup and rows long enough for the global bitonic steps, many
short rows, searchsorted on both sides. The checks take a device string; tests/cuda/
test_sort_emulated.py runs the same checks on the emulated CUDA device."""

from __future__ import annotations

import numpy as np
import pytest
from wgpu_fixtures import wgpu_device_fixture  # noqa: F401  (the fixture)

import numr as nr

REAL = [d.name for d in nr.ALL_DTYPES if not d.is_complex]


def make(a: np.ndarray, dev: str, dtype: str | None = None) -> nr.Tensor:
    try:
        return nr.tensor(a, dtype=dtype, device=dev)
    except (nr.UnsupportedOperation, nr.UnsupportedDType) as e:
        pytest.skip(str(e))


def sample(dtype: str, shape, rng) -> np.ndarray:
    """Data with many ties; floats with NaN, -0.0, 0.0 and +-inf; integers with their extremes."""
    d = nr.dtype(dtype)
    if d.kind == "b":
        return rng.random(shape) > 0.5
    if d.is_integer:
        info = np.iinfo(d.np)
        pool = np.array([int(info.min), int(info.min) + 1, -2 if d.kind == "i" else 2, 0, 1, 3, int(info.max) - 1,
                         int(info.max)], dtype=d.np)
        return rng.choice(pool, shape)
    pool = np.array([np.nan, -np.nan, -0.0, 0.0, np.inf, -np.inf, 1.5, -1.5, 2.0, -3.0, 0.25])
    if dtype.startswith("float8_e4m3"):
        pool = pool[np.isfinite(pool) | np.isnan(pool)]  # e4m3fn has no inf
    return rng.choice(pool, shape).astype(d.np)


def rank(a: np.ndarray) -> np.ndarray:
    """Dense ranks along the last axis in numr's total order (NaN largest, -0.0 == 0.0)."""
    w = a if a.dtype.kind in "iu" and a.dtype.itemsize == 8 else a.astype(np.float64)
    out = np.empty(a.shape, np.int64)
    for idx in np.ndindex(*a.shape[:-1]):
        r = w[idx]
        order = np.argsort(r, kind="stable")
        s = r[order]
        same = (s[1:] == s[:-1]) | (np.isnan(s[1:]) & np.isnan(s[:-1])) if s.dtype == np.float64 else s[1:] == s[:-1]
        out[idx][order] = np.concatenate([[0], np.cumsum(~same)]) if r.size else []
    return out


def oracle_sort(a: np.ndarray, dim: int, descending: bool) -> tuple[np.ndarray, np.ndarray]:
    m = np.moveaxis(a, dim, -1)
    r = rank(m) if m.shape[-1] else np.zeros(m.shape, np.int64)
    i = np.argsort(-r if descending else r, axis=-1, kind="stable")
    return np.moveaxis(np.take_along_axis(m, i, -1), -1, dim), np.moveaxis(i, -1, dim)


def check_sort(x: nr.Tensor, a: np.ndarray, dim: int = -1, descending: bool = False) -> None:
    v, i = nr.sort(x, dim=dim, descending=descending)
    ev, ei = oracle_sort(a, dim, descending)
    assert v.dtype == x.dtype and i.dtype == nr.int64
    assert v.shape == a.shape and i.shape == a.shape
    assert v.is_contiguous() and i.is_contiguous()
    np.testing.assert_array_equal(i.numpy(), ei)
    got = v.numpy()
    if got.dtype.itemsize > 1 and got.dtype.kind == "f":
        np.testing.assert_array_equal(got.astype(np.float64), ev.astype(np.float64))
    assert got.tobytes() == np.ascontiguousarray(ev).tobytes(), "values are x's elements, bit for bit (-0.0, NaNs)"


def run_dtypes(dev: str, dtype: str) -> None:
    rng = np.random.default_rng(1)
    for shape in ((3, 37), (1, 300), (2, 1)):
        a = sample(dtype, shape, rng)
        x = make(a, dev, dtype)
        for desc in (False, True):
            check_sort(x, a, -1, desc)


def run_long_rows(dev: str, dtype: str, n: int) -> None:
    rng = np.random.default_rng(2)
    a = sample(dtype, (2, n), rng)
    x = make(a, dev, dtype)
    for desc in (False, True):
        check_sort(x, a, -1, desc)


def run_dims_and_views(dev: str) -> None:
    rng = np.random.default_rng(3)
    a = sample("float32", (4, 5, 6), rng)
    x = make(a, dev)
    for dim in (0, 1, 2, -1, -3):
        check_sort(x, a, dim)
        check_sort(x, a, dim, True)
    b = sample("int32", (6, 9), rng)
    y = make(b, dev)
    for v, e in ((y.T, b.T), (y[1:, 2:7], b[1:, 2:7]), (y.flip(0)[:, ::2], b[::-1, ::2]), (y.flip(1), b[:, ::-1])):
        for dim in (0, 1):
            check_sort(v, e, dim, dim == 1)
    row = b[2]
    bc = y[2].broadcast_to((4, 9))  # stride 0 along dim 0
    for dim in (0, 1):
        check_sort(bc, np.broadcast_to(row, (4, 9)), dim, dim == 0)
    seq = np.sort(row)
    got = nr.searchsorted(make(seq, dev), bc, right=True)
    np.testing.assert_array_equal(got.numpy(), np.searchsorted(seq, np.broadcast_to(row, (4, 9)), "right"))


def run_edges(dev: str) -> None:
    for shape in ((3, 0), (0, 4), (0,), (1,), (5,), (1, 1, 1)):
        a = np.arange(int(np.prod(shape)), dtype=np.float32)[::-1].reshape(shape)
        check_sort(make(np.ascontiguousarray(a), dev), a, -1)
    v, i = nr.sort(make(np.array(2.5, np.float32), dev))
    assert v.shape == () and i.shape == () and i.dtype == nr.int64 and v.item() == 2.5 and i.item() == 0
    many = np.random.default_rng(4).integers(0, 3, (2000, 3)).astype(np.int16)
    check_sort(make(many, dev), many, -1)
    check_sort(make(many, dev), many, 0, True)
    with pytest.raises(nr.errors.IndexOutOfRange, match="sort"):
        nr.sort(make(np.ones((2, 3), np.float32), dev), dim=2)


def run_complex_rejected(dev: str) -> None:
    c = make(np.ones(3, np.complex64), dev)
    with pytest.raises(nr.UnsupportedDType, match="sort"):
        nr.sort(c)
    with pytest.raises(nr.UnsupportedDType, match="searchsorted"):
        nr.searchsorted(c, c)


def run_searchsorted(dev: str, dtype: str) -> None:
    rng = np.random.default_rng(5)
    seq = np.sort(sample(dtype, (40,), rng).astype(np.float64) if nr.dtype(dtype).kind == "f"
                  else sample(dtype, (40,), rng))
    seq = seq.astype(nr.dtype(dtype).np)
    vals = sample(dtype, (3, 7), rng)
    s, v = make(seq, dev, dtype), make(vals, dev, dtype)
    for right in (False, True):
        got = nr.searchsorted(s, v, right=right)
        side = "right" if right else "left"
        w = seq.astype(np.float64) if nr.dtype(dtype).kind == "f" else seq
        exp = np.searchsorted(w, vals.astype(w.dtype), side=side)
        assert got.dtype == nr.int64 and got.shape == vals.shape
        np.testing.assert_array_equal(got.numpy(), exp)


def run_searchsorted_nd(dev: str) -> None:
    rng = np.random.default_rng(6)
    seq = np.sort(rng.integers(-4, 4, (2, 3, 9)), axis=-1).astype(np.float32)
    vals = rng.integers(-5, 5, (2, 3, 4)).astype(np.float32)
    s = make(seq, dev)
    for right in (False, True):
        got = nr.searchsorted(s, make(vals, dev), right=right).numpy()
        exp = np.array([[np.searchsorted(seq[i, j], vals[i, j], side="right" if right else "left")
                         for j in range(3)] for i in range(2)])
        np.testing.assert_array_equal(got, exp)
    one = make(np.array([0.0, 1.0, 1.0, np.nan], np.float32), dev)
    assert nr.searchsorted(one, 1.0).item() == 1 and nr.searchsorted(one, 1.0, right=True).item() == 3
    assert nr.searchsorted(one, float("nan")).item() == 3 and nr.searchsorted(one, float("inf")).item() == 3
    assert nr.searchsorted(one, -0.0).item() == 0 and nr.searchsorted(one, 0.0, right=True).item() == 1
    assert nr.searchsorted(make(np.array([1, 3, 5], np.int32), dev), make(np.array([2.5, 5.0]), dev)).tolist() \
        == [1, 2]  # promoted to float64
    empty = nr.searchsorted(make(np.zeros(0, np.float32), dev), make(np.ones(3, np.float32), dev))
    assert empty.tolist() == [0, 0, 0]
    with pytest.raises(nr.ShapeError):
        nr.searchsorted(s, make(vals[:1], dev))


@pytest.fixture(name="dev")
def dev_fixture(wgpu_device):  # noqa: F811
    return str(wgpu_device)


@pytest.mark.parametrize("dtype", REAL)
def test_sort_dtypes(dev, dtype):
    run_dtypes(dev, dtype)


@pytest.mark.parametrize("dtype,n", [("float32", 5000), ("float64", 2049), ("int8", 4097), ("uint64", 3000),
                                     ("float16", 9000), ("int64", 17000), ("float32", 40000)])
def test_sort_long_rows_take_the_global_path(dev, dtype, n):
    run_long_rows(dev, dtype, n)


def test_sort_dims_and_views(dev):
    run_dims_and_views(dev)


def test_sort_edges(dev):
    run_edges(dev)


def test_complex_rejected(dev):
    run_complex_rejected(dev)


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16", "int8", "uint16", "int64", "bool"])
def test_searchsorted(dev, dtype):
    run_searchsorted(dev, dtype)


def test_searchsorted_nd_scalars_and_errors(dev):
    run_searchsorted_nd(dev)


def test_rows_in_groups_that_fit_one_binding(dev, monkeypatch):
    """With a 64 KiB binding limit, rows are sorted in groups (local and global paths), values are
    searched in chunks, and a row or sequence past one binding raises UnsupportedOperation."""
    rng = np.random.default_rng(7)
    a = sample("float32", (40, 1000), rng)
    b = sample("int16", (5, 5000), rng)
    x, y = make(a, dev), make(b, dev, "int16")
    seq = np.sort(rng.integers(-50, 50, 3000)).astype(np.float32)
    vals = rng.integers(-60, 60, 20000).astype(np.float32)
    s, v = make(seq, dev), make(vals, dev)
    monkeypatch.setattr(x.client.gpu, "max_binding", 1 << 16)
    check_sort(x, a, -1, True)
    check_sort(x[:, 1:], a[:, 1:], -1)  # an offset view: copied, then sorted in groups
    check_sort(y, b, -1)
    np.testing.assert_array_equal(nr.searchsorted(s, v, right=True).numpy(), np.searchsorted(seq, vals, "right"))
    c = sample("float32", (3, 5000), rng)
    z = make(c, dev)
    monkeypatch.setattr(x.client.gpu, "max_binding", 40000)  # a row's int64 indices need two windows
    check_sort(z, c, -1)
    check_sort(z[1], c[1], -1, True)
    with pytest.raises(nr.UnsupportedOperation, match="sort"):
        nr.sort(make(np.zeros(20000, np.float32), dev))
    with pytest.raises(nr.UnsupportedOperation, match="searchsorted"):
        nr.searchsorted(make(np.zeros(20000, np.float32), dev), 1.0)


def test_two_dimensional_dispatch(dev, monkeypatch):
    """More workgroups than one dispatch dimension holds go 2-d (here past 7 instead of 65535)."""
    import math

    import numr._wgpu.ops.sorting as ws

    def small(groups: int) -> tuple[int, int, int]:
        y = math.ceil(groups / 7)
        return (math.ceil(groups / y), y, 1)

    monkeypatch.setattr(ws, "dispatch_shape", small)
    rng = np.random.default_rng(8)
    for shape in ((50, 300), (3, 9000)):
        a = sample("float32", shape, rng)
        check_sort(make(a, dev), a, -1, True)
    seq = np.sort(rng.integers(-50, 50, 300)).astype(np.float32)
    vals = rng.integers(-60, 60, 5000).astype(np.float32)
    got = nr.searchsorted(make(seq, dev), make(vals, dev)).numpy()
    np.testing.assert_array_equal(got, np.searchsorted(seq, vals))


def test_small_workgroup_memory(dev, monkeypatch):
    """An adapter with 4 KiB of workgroup memory: chunks of 512 pairs (256 for 64-bit keys), so
    rows of a few thousand take the global steps with three-stride runs."""
    rng = np.random.default_rng(10)
    a, b = sample("float32", (3, 3000), rng), sample("int64", (2, 2500), rng)
    x, y = make(a, dev), make(b, dev)
    monkeypatch.setattr(x.client.gpu, "wg_storage", 4096)
    check_sort(x, a, -1)
    check_sort(y, b, -1, True)
    check_sort(x[:, :300], a[:, :300], -1)
