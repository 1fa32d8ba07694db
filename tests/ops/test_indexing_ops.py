"""index_select, index_put_ and nonzero against NumPy: every dtype, views, negative indices,
out-of-range errors raised before any write, and the advanced indexing built on them."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_close

import numr as nr

ALL = [d.name for d in nr.ALL_DTYPES]


def make(a, device, dtype=None):
    try:
        return nr.tensor(a, dtype=dtype, device=device)
    except nr.UnsupportedOperation as e:
        pytest.skip(str(e))


def values(dtype, shape, seed=0):
    d = nr.dtype(dtype)
    rng = np.random.default_rng(seed)
    if d.kind == "b":
        return rng.random(shape) > 0.5
    return (rng.standard_normal(shape) * 20).astype(d.np)


@pytest.mark.parametrize("dtype", ALL)
def test_index_select_dtypes(device, dtype):
    a = values(dtype, (4, 5, 3))
    x = make(a, device)
    for dim in range(3):
        idx = np.array([0, -1, 1, 1], np.int64) % a.shape[dim] - (a.shape[dim] if dim == 1 else 0)
        got = x.client.index_select(x, dim, make(idx, device))
        assert_close(got, np.take(a, idx, axis=dim), dtype=dtype, rtol=0, atol=0)


@pytest.mark.parametrize("idx_dtype", ["int8", "int16", "int32", "int64", "uint8", "uint64"])
def test_index_select_index_dtypes_and_views(device, idx_dtype):
    a = np.arange(60.0).reshape(6, 10)
    x = make(a, device)
    ib = np.array([5, 0, 3, 3, 2, 9], dtype=idx_dtype)
    idx = make(ib, device)[::2]  # strided index
    got = x.client.index_select(x.T, 0, idx)
    assert_close(got, a.T[ib[::2].astype(np.int64)], rtol=0, atol=0)
    got = x.client.index_select(x[::-1, 1::2], 1, make(np.array([4, 0], idx_dtype), device))
    assert_close(got, a[::-1, 1::2][:, [4, 0]], rtol=0, atol=0)


def test_index_select_empty_and_large(device):
    x = make(np.arange(12).reshape(3, 4), device)
    e = x.client.index_select(x, 0, make(np.zeros(0, np.int64), device))
    assert e.shape == (0, 4) and e.dtype == nr.int64
    a = np.arange(200_000, dtype=np.float32)
    idx = np.random.default_rng(0).integers(-200_000, 200_000, 70_000)
    big = make(a, device)
    assert_close(big.client.index_select(big, 0, make(idx, device)), a[idx], rtol=0, atol=0)
    m = np.arange(40_000.0).reshape(200, 200)
    mx = make(m, device)
    rows = np.array([199, 0, 5])
    assert_close(mx.client.index_select(mx, 1, make(rows, device)), m[:, rows], rtol=0, atol=0)


def test_index_select_errors(device):
    x = make(np.arange(6).reshape(2, 3), device)
    with pytest.raises(nr.IndexOutOfRange, match="index_select.*3.*size 3"):
        x.client.index_select(x, 1, make(np.array([0, 3]), device))
    with pytest.raises(nr.IndexOutOfRange):
        x.client.index_select(x, 0, make(np.array([-3]), device))
    with pytest.raises(nr.IndexOutOfRange):
        x.client.index_select(x, 2, make(np.array([0]), device))
    with pytest.raises(nr.DTypeError, match="index_select"):
        x.client.index_select(x, 0, make(np.array([0.0]), device))


@pytest.mark.parametrize("dtype", ALL)
def test_index_put_dtypes(device, dtype):
    a = values(dtype, (4, 5))
    v = values(dtype, (4, 2), seed=1)
    x = make(a, device)
    x.client.index_put_(x, 1, make(np.array([3, -5]), device), make(v, device))
    ref = a.copy()
    ref[:, [3, 0]] = v
    assert_close(x, ref, dtype=dtype, rtol=0, atol=0)


def test_index_put_strided_target_cast_broadcast(device):
    a = np.zeros((6, 8))
    x = make(a, device)
    view = x[::2, ::-1]  # (3, 8) non-contiguous, flipped
    view.client.index_put_(view, 1, make(np.array([0, 7]), device), make(np.array([1, 2], np.int32), device))
    ref = a.copy()
    ref[::2, ::-1][:, [0, 7]] = np.array([1, 2])
    assert_close(x, ref, rtol=0, atol=0)
    x.client.index_put_(x, 0, make(np.array([5]), device), 3.5)
    ref[5] = 3.5
    assert_close(x, ref, rtol=0, atol=0)


def test_index_put_repeated_index_last_wins(device):
    x = make(np.zeros(4), device)
    x.client.index_put_(x, 0, make(np.array([1, 1, 1]), device), make(np.array([1.0, 2.0, 3.0]), device))
    assert_close(x, np.array([0.0, 3.0, 0.0, 0.0]))
    y = make(np.zeros((3, 50_000), np.float32), device)
    y.client.index_put_(y, 0, make(np.array([2, 0, 2]), device), make(np.arange(3, dtype=np.float32)[:, None]
                                                                       * np.ones(50_000, np.float32), device))
    ref = np.zeros((3, 50_000), np.float32)
    ref[0], ref[2] = 1.0, 2.0
    assert_close(y, ref, rtol=0, atol=0)


def test_inner_dim_gather_and_scatter_rows(device):
    """Indexing x's innermost dim (each row gathered/scattered along itself on the CPU): many
    rows (threads), negative and repeated indices (the last write wins in every row), a
    flipped x and a transposed x (whose indexed dim is not innermost)."""
    rng = np.random.default_rng(21)
    a = rng.standard_normal((300, 400)).astype(np.float32)
    idx = rng.integers(-400, 400, 200)
    idx[:3] = [7, 7, -393]  # 7 three times with -393 == 7
    x = make(a, device)
    for view, ref in ((x, a), (x[::-1, 1:], a[::-1, 1:]), (x.T[:, :300], a.T[:, :300])):
        i = idx % ref.shape[1]
        assert_close(view.client.index_select(view, 1, make(i, device)), ref[:, i], rtol=0, atol=0)
    y, ref = make(a.copy(), device), a.copy()
    v = rng.standard_normal((300, 200)).astype(np.float32)
    y.client.index_put_(y, 1, make(idx, device), make(v, device))
    for j, col in enumerate(idx % 400):  # NumPy's fancy assignment does not promise the order
        ref[:, col] = v[:, j]
    assert_close(y, ref, rtol=0, atol=0)


def test_index_put_overlapping_values(device):
    a = np.arange(10.0)
    x = make(a, device)
    x.client.index_put_(x, 0, make(np.array([0, 1, 2, 3]), device), x[1:5])
    ref = a.copy()
    ref[[0, 1, 2, 3]] = a[1:5].copy()
    assert_close(x, ref, rtol=0, atol=0)


def test_index_put_errors_before_write(device):
    a = np.arange(6.0).reshape(2, 3)
    x = make(a, device)
    with pytest.raises(nr.IndexOutOfRange, match="index_put_"):
        x.client.index_put_(x, 1, make(np.array([0, 3]), device), make(np.ones((2, 2)), device))
    assert_close(x, a)  # untouched
    with pytest.raises(nr.ShapeError, match="index_put_"):
        x.client.index_put_(x, 1, make(np.array([0, 1]), device), make(np.ones((3, 2)), device))
    assert_close(x, a)


@pytest.mark.parametrize("dtype", ALL)
def test_nonzero_dtypes(device, dtype):
    d = nr.dtype(dtype)
    a = np.zeros((3, 4), d.np)
    a[0, 1] = 1
    a[2, 0] = 1
    a[2, 3] = 1
    if d.kind == "f":
        a[1, 2] = np.nan  # NaN is non-zero
        a[1, 1] = -0.0  # -0 is zero
    x = make(a, device)
    got = x.client.nonzero(x)
    ref = np.argwhere(a != 0) if d.kind != "f" else np.argwhere(a.astype(np.float64) != 0)
    assert_close(got, ref, dtype=nr.int64)


def test_nonzero_shapes(device):
    for a in [np.array(3.0), np.array(0.0), np.zeros(0), np.zeros((2, 0, 3)), np.ones((1, 1, 1))]:
        x = make(a, device)
        got = x.client.nonzero(x)
        assert_close(got, np.argwhere(a), dtype=nr.int64)
    rng = np.random.default_rng(3)
    big = rng.random((300, 250)) > 0.7
    x = make(big, device)
    assert_close(x.client.nonzero(x.T), np.argwhere(big.T), dtype=nr.int64)
    assert_close(x.client.nonzero(x[::-1, ::3]), np.argwhere(big[::-1, ::3]), dtype=nr.int64)


def test_nonzero_threads_and_ranks(device):
    """Sizes split across threads (each thread writes its own rows), 1-d to 3-d, dense and sparse."""
    rng = np.random.default_rng(16)
    for shape, p in [((200_001,), 0.5), ((300, 701), 0.03), ((20, 30, 401), 0.97), ((70_000,), 0.0)]:
        a = rng.random(shape) < p
        flat = a.reshape(-1)
        for k in range(1, 9):  # zeros where a thread's range may end: its trailing writes go nowhere
            flat[max(len(flat) * k // 8 - 2, 0):len(flat) * k // 8] = False
        x = make(a, device)
        assert_close(x.client.nonzero(x), np.argwhere(a), dtype=nr.int64)


def test_boolean_masks_over_merged_and_strided_dims(device):
    """x[mask] over all, leading or trailing dims: one flat index where the dims merge, the
    per-dim coordinates where they do not (transposed, stepped); reads and writes."""
    rng = np.random.default_rng(17)
    a = rng.standard_normal((4, 5, 6))
    x = make(a, device)
    views = [(x, a), (x.permute(2, 0, 1), a.transpose(2, 0, 1)), (x[:, ::2], a[:, ::2])]
    for v, b in views:
        for m in (b > 0, (b > 0)[..., 0], (b > 0)[0]):
            tm = make(np.ascontiguousarray(m), device)
            if m.shape == b.shape[1:]:
                assert_close(v[:, tm], b[:, m])
            else:
                assert_close(v[tm], b[m])
    y, c = make(a.copy(), device), a.copy()
    y[y > 0.5] = 0.5
    c[c > 0.5] = 0.5
    y[:, make(c[0] < 0, device)] = -2.0
    c[:, c[0] < 0] = -2.0
    assert_close(y, c)


def test_advanced_indexing_uses_kernels(device):
    a = np.arange(24).reshape(2, 3, 4)
    x = make(a, device)
    assert_close(x[make(np.array([1, 0, 1]), device)], a[[1, 0, 1]])
    assert_close(x[:, make(np.array([2, -1]), device)], a[:, [2, -1]])
    assert_close(x[x > 10], a[a > 10])
    x[x > 20] = -1
    a[a > 20] = -1
    assert_close(x, a)
    x[:, make(np.array([0, 2]), device)] = make(np.array([[7, 8, 9, 10]]), device)
    a[:, [0, 2]] = np.array([[7, 8, 9, 10]])
    assert_close(x, a)
    with pytest.raises(nr.IndexOutOfRange):
        x[make(np.array([2]), device)]
