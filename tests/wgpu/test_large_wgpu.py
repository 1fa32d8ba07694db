"""Tensors larger than the adapter's max storage binding (128 MiB on lavapipe) run in chunks:
the results equal the CPU backend's (sampled positions; the tensors are just over one binding)."""

from __future__ import annotations

import numpy as np
import pytest
from wgpu_fixtures import wgpu_device_fixture  # noqa: F401  (provides the wgpu_device fixture)

import numr as nr


def _big(wgpu_device, itemsize: int) -> int:
    """An element count whose bytes just exceed one storage binding."""
    limit = nr.runtime.get("wgpu").client(wgpu_device).gpu.max_binding
    if limit > 256 << 20:
        pytest.skip(f"the adapter's binding limit {limit} would need a huge tensor")
    return limit // itemsize + 123_457


def _sample(n: int, k: int = 4096) -> np.ndarray:
    """Positions spread over [0, n), both ends and the chunk borders' neighbourhoods included."""
    rng = np.random.default_rng(0)
    return np.unique(np.concatenate([np.arange(64), n - 1 - np.arange(64), rng.integers(0, n, k)]))


def test_rand_past_one_binding(wgpu_device):
    n = _big(wgpu_device, 4)
    g = nr.rand(n, dtype="float32", device="wgpu", seed=11).numpy()
    c = nr.rand(n, dtype="float32", seed=11).numpy()
    assert g.shape == (n,) and g.dtype == np.float32
    np.testing.assert_array_equal(g.view(np.uint32), c.view(np.uint32))


def test_randint_past_one_binding(wgpu_device):
    n = _big(wgpu_device, 8)
    g = nr.randint(-5, 1000, (n,), dtype="int64", device="wgpu", seed=4).numpy()
    c = nr.randint(-5, 1000, (n,), dtype="int64", seed=4).numpy()
    assert g.dtype == np.int64
    idx = _sample(n)
    np.testing.assert_array_equal(g[idx], c[idx])
    np.testing.assert_array_equal(g[-200_000:], c[-200_000:])


def test_randn_past_one_binding(wgpu_device):
    n = _big(wgpu_device, 4)
    g = nr.randn(n, dtype="float32", device="wgpu", seed=8).numpy()
    c = nr.randn(n, dtype="float32", seed=8).numpy()
    idx = _sample(n)
    np.testing.assert_allclose(g[idx], c[idx], rtol=2e-6, atol=2e-6)
    np.testing.assert_allclose(g[-200_000:], c[-200_000:], rtol=2e-6, atol=2e-6)


def test_index_select_past_one_binding(wgpu_device):
    n = _big(wgpu_device, 4)
    src = np.random.default_rng(1).standard_normal(n, dtype=np.float32)
    x = nr.tensor(src, device="wgpu")
    idx = np.concatenate([_sample(n), [-1, -n, 0, n - 1]]).astype(np.int64)
    np.testing.assert_array_equal(nr.index_select(x, 0, nr.tensor(idx, device="wgpu")).numpy(), src[idx])
    x2 = x[: n // 64 * 64].reshape(n // 64, 64)  # a 2-d view past one binding: split along the other dim
    cols = np.array([63, 0, 5, 5, -2], np.int64)
    g = nr.index_select(x2, 1, nr.tensor(cols, device="wgpu")).numpy()
    rows = _sample(n // 64)
    np.testing.assert_array_equal(g[rows], src[: n // 64 * 64].reshape(-1, 64)[rows][:, cols])


def test_index_put_past_one_binding(wgpu_device):
    n = _big(wgpu_device, 4)
    src = np.random.default_rng(2).standard_normal(n, dtype=np.float32)
    x = nr.tensor(src, device="wgpu")
    idx = np.array([0, 7, n // 2, n - 1, -3, 7], np.int64)  # 7 twice: the last value wins
    vals = np.arange(6, dtype=np.float32) + 100
    x.index_put_(0, nr.tensor(idx, device="wgpu"), nr.tensor(vals, device="wgpu"))
    want = src.copy()
    want[idx] = vals
    pos = np.concatenate([_sample(n), idx % n, idx % n + 1 - (idx % n == n - 1)])
    np.testing.assert_array_equal(x.numpy()[pos], want[pos])


def test_cumsum_past_one_binding(wgpu_device):
    n = _big(wgpu_device, 4)
    src = np.random.default_rng(3).integers(-3, 4, n, dtype=np.int32)
    g = nr.cumsum(nr.tensor(src, device="wgpu"), 0).numpy()  # the scanned dim itself is split
    assert g.dtype == np.int64 and g.shape == (n,)
    want = np.cumsum(src, dtype=np.int64)
    idx = _sample(n)
    np.testing.assert_array_equal(g[idx], want[idx])
    np.testing.assert_array_equal(g[n // 2 - 1000: n // 2 + 1000], want[n // 2 - 1000: n // 2 + 1000])


def test_cumprod_past_one_binding(wgpu_device):
    n = _big(wgpu_device, 4) // 32 * 32
    src = np.random.default_rng(4).uniform(0.9, 1.1, n).astype(np.float32).reshape(-1, 32)
    g = nr.cumprod(nr.tensor(src, device="wgpu"), 1).numpy()  # split along the rows
    rows = _sample(src.shape[0])
    np.testing.assert_allclose(g[rows], np.cumprod(src[rows].astype(np.float64), axis=1), rtol=1e-5)
    flat = nr.cumprod(nr.tensor(src[:, :1].copy(), device="wgpu")[:64], None).numpy()
    np.testing.assert_allclose(flat, np.cumprod(src[:64, 0].astype(np.float64)), rtol=1e-5)


def test_matmul_past_one_binding(wgpu_device, monkeypatch):
    n = (_big(wgpu_device, 4) - 123_457) // 8192 + 1
    rng = np.random.default_rng(5)
    a = rng.standard_normal((8192, 3), dtype=np.float32)
    b = rng.standard_normal((3, n), dtype=np.float32)
    g = nr.matmul(nr.tensor(a, device="wgpu"), nr.tensor(b, device="wgpu")).numpy()  # the result is past one
    assert g.shape == (8192, n) and g.dtype == np.float32
    rows, cols = _sample(8192, 256), _sample(n, 256)
    np.testing.assert_allclose(g[np.ix_(rows, cols)], a[rows].astype(np.float64) @ b[:, cols], rtol=1e-5, atol=1e-5)
    # the operand splits (m, k, n, batch) on small operands, under a lowered binding limit
    gpu = nr.runtime.get("wgpu").client(wgpu_device).gpu
    monkeypatch.setattr(gpu, "max_binding", 1 << 16)
    x = rng.standard_normal((3, 130, 200), dtype=np.float32)
    y = rng.standard_normal((200, 70), dtype=np.float32)
    q = rng.standard_normal((130, 70), dtype=np.float32)
    xt = nr.tensor(np.ascontiguousarray(x.transpose(0, 2, 1)), device="wgpu").transpose(1, 2)  # k has the stride
    yt = nr.tensor(np.ascontiguousarray(y.T), device="wgpu").transpose(0, 1)
    want = x.astype(np.float64) @ y
    for xx in (nr.tensor(x, device="wgpu"), xt):
        for yy in (nr.tensor(y, device="wgpu"), yt):
            np.testing.assert_allclose(nr.matmul(xx, yy).numpy(), want, rtol=1e-4, atol=1e-4)
    got = nr.matmul_bias(xt, yt, nr.tensor(q, device="wgpu")).numpy()
    np.testing.assert_allclose(got, want + q, rtol=1e-4, atol=1e-4)


def test_nonzero_past_one_binding(wgpu_device):
    rows = _big(wgpu_device, 16) // 2  # a (count, 2) int64 result just past one binding
    src = np.ones((rows, 2), dtype=bool)
    src[_sample(rows, 64), 1] = False
    g = nr.nonzero(nr.tensor(src, device="wgpu")).numpy()
    want = np.argwhere(src)
    assert g.shape == want.shape and g.dtype == np.int64
    idx = _sample(want.shape[0])
    np.testing.assert_array_equal(g[idx], want[idx])
    np.testing.assert_array_equal(g[-1000:], want[-1000:])


def test_chunked_paths_under_a_lowered_limit(wgpu_device, monkeypatch):
    """The same splits on small tensors of every storage kind (packed, widened, views), with the
    binding limit lowered to 64 KiB."""
    gpu = nr.runtime.get("wgpu").client(wgpu_device).gpu
    monkeypatch.setattr(gpu, "max_binding", 1 << 16)
    for d in ["int8", "uint8", "int16", "int32", "int64", "uint64"]:
        g = nr.randint(0, 100, (100_003,), dtype=d, device="wgpu", seed=2).numpy()
        np.testing.assert_array_equal(g, nr.randint(0, 100, (100_003,), dtype=d, seed=2).numpy())
    for d in ["float16", "bfloat16", "float32", "float64"]:
        g = nr.rand(100_003, dtype=d, device="wgpu", seed=2).numpy()
        np.testing.assert_array_equal(g.view(np.uint8), nr.rand(100_003, dtype=d, seed=2).numpy().view(np.uint8))
    x = np.arange(300_000, dtype=np.int16).reshape(3000, 100)
    t = nr.tensor(x, device="wgpu")
    i = np.array([5, -1, 2999, 0, 5])
    it = nr.tensor(i, device="wgpu")
    np.testing.assert_array_equal(nr.index_select(t, 0, it).numpy(), x[i])
    np.testing.assert_array_equal(nr.index_select(t.transpose(0, 1), 1, it).numpy(), x.T[:, i])
    y = x.copy()
    ty = nr.tensor(y, device="wgpu")
    v = np.arange(500, dtype=np.int16).reshape(5, 100)
    ty.index_put_(0, it, nr.tensor(v, device="wgpu"))
    y[i] = v  # NumPy keeps the last of a repeated index too
    np.testing.assert_array_equal(ty.numpy(), y)
    b = np.random.default_rng(0).random((400, 300)) > 0.5
    np.testing.assert_array_equal(nr.nonzero(nr.tensor(b, device="wgpu")).numpy(), np.argwhere(b))
    f = np.random.default_rng(0).random((40, 3000)).astype(np.float32)
    tf = nr.tensor(f, device="wgpu")
    np.testing.assert_allclose(nr.cumsum(tf.transpose(0, 1), 0).numpy(), np.cumsum(f.T, 0), rtol=1e-4)
    np.testing.assert_allclose(nr.cumsum(tf[:, ::-1], None).numpy(), np.cumsum(f[:, ::-1]), rtol=1e-4)
    g = (f[:, ::-1] / 100 + 0.995).astype(np.float32)  # no underflow to subnormals (flushed on lavapipe)
    tg = nr.tensor(np.ascontiguousarray(g[:, ::-1]), device="wgpu")[:, ::-1]  # a flipped view of g
    np.testing.assert_allclose(nr.cumprod(tg, 1).numpy(), np.cumprod(g, 1), rtol=1e-4)


def test_softmax_past_one_binding(wgpu_device, monkeypatch):
    """Operands past one binding run as the composite of chunked ops (still on the GPU)."""
    gpu = nr.runtime.get("wgpu").client(wgpu_device).gpu
    monkeypatch.setattr(gpu, "max_binding", 1 << 12)
    x = np.random.default_rng(5).standard_normal((40, 50)).astype(np.float32)
    x[3] = -np.inf  # an all -inf row stays NaN-free
    t = nr.tensor(x, device="wgpu")
    e = np.exp(x.astype(np.float64) - np.max(np.where(np.isinf(x), 0, x), axis=1, keepdims=True))
    s = e.sum(axis=1, keepdims=True)
    want = np.where(s == 0, 0, e / np.where(s == 0, 1, s))
    got = nr.softmax(t, -1)
    assert got.shape == (40, 50) and got.dtype == nr.float32
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-5, atol=1e-6)
    logs = nr.log_softmax(t.T, 0).numpy().T  # a transposed operand, past the (lowered) limit too
    finite = ~np.isinf(x)
    np.testing.assert_allclose(logs[finite], np.log(want[finite]), rtol=1e-5, atol=1e-5)
    assert np.all(logs[3] == -np.inf)
    g = nr.tensor(np.ones((40, 50), np.float32), device="wgpu")
    back = nr.softmax_bwd(g, got, -1).numpy()
    np.testing.assert_allclose(back, want * (1 - want.sum(axis=1, keepdims=True)), atol=1e-5)


def test_index_vector_past_one_binding(wgpu_device, monkeypatch):
    """A long index vector is processed range by range; errors still come before any write."""
    gpu = nr.runtime.get("wgpu").client(wgpu_device).gpu
    monkeypatch.setattr(gpu, "max_binding", 1 << 12)
    rng = np.random.default_rng(9)
    src = rng.standard_normal((3, 40)).astype(np.float32)
    idx = rng.integers(-40, 40, 2000)
    x = nr.tensor(src, device="wgpu")
    got = nr.index_select(x, 1, nr.tensor(idx, device="wgpu"))
    assert got.shape == (3, 2000)
    np.testing.assert_array_equal(got.numpy(), src[:, idx])
    dst = np.zeros(40, np.float32)
    vals = np.arange(2000, dtype=np.float32)
    t = nr.tensor(dst, device="wgpu")
    t.client.index_put_(t, 0, nr.tensor(idx, device="wgpu"), nr.tensor(vals, device="wgpu"))
    want = dst.copy()
    for i, v in zip(idx, vals, strict=True):  # a repeated index keeps the last value
        want[i] = v
    np.testing.assert_array_equal(t.numpy(), want)
    bad = idx.copy()
    bad[-1] = 40  # out of range in the last range: nothing may be written
    with pytest.raises(nr.IndexOutOfRange):
        t.client.index_put_(t, 0, nr.tensor(bad, device="wgpu"), 0.0)
    np.testing.assert_array_equal(t.numpy(), want)
