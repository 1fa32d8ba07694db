"""The per-invocation loop budget (lavapipe caps the loop iterations one shader invocation runs
at 65535 in all, then exits every loop silently): the probe measures it, NUMR_WGPU_LOOP_BUDGET
overrides it, and every kernel whose loops grow with the data splits its work below it. Each
case is past the size where main went wrong (real budget) or runs the splitting path under a
small simulated budget (the device's loop_budget monkeypatched), checked against NumPy."""

from __future__ import annotations

import numpy as np
import pytest
from wgpu_fixtures import wgpu_device_fixture  # noqa: F401  (provides the wgpu_device fixture)

import numr as nr
from numr._wgpu import device as wdev
from numr._wgpu.ops import activation as wact
from numr._wgpu.ops import cumulative as wcum
from numr._wgpu.ops import matmul as wmm
from numr.errors import DeviceError


@pytest.fixture(name="client")
def client_fixture(wgpu_device):
    return nr.runtime.get("wgpu").client(wgpu_device)


@pytest.fixture(name="gpu")
def gpu_fixture(client):
    return client.gpu


def _counting(monkeypatch, module, name):
    """Wrap module.name to count its calls (how many dispatches a split made)."""
    calls = []
    orig = getattr(module, name)

    def wrapped(*a, **k):
        calls.append(1)
        return orig(*a, **k)

    monkeypatch.setattr(module, name, wrapped)
    return calls


# ---- the probe ---------------------------------------------------------------------------
def test_probe_measures_the_budget(gpu, monkeypatch):
    measured = gpu._probe_loop_budget()
    assert measured is None or 0 < measured < wdev.PROBE_ITERS
    monkeypatch.delenv("NUMR_WGPU_LOOP_BUDGET", raising=False)
    assert wdev.WgpuDevice(gpu.adapter).loop_budget == measured
    if "llvmpipe" in str(gpu.adapter.info.get("device", "")).lower():
        assert measured == 65535  # gallivm's loop limiter


def test_override_is_honoured(gpu, monkeypatch):
    monkeypatch.setenv("NUMR_WGPU_LOOP_BUDGET", "4096")
    assert wdev.WgpuDevice(gpu.adapter).loop_budget == 4096
    assert wdev.budget_override() == (True, 4096)
    monkeypatch.setenv("NUMR_WGPU_LOOP_BUDGET", "none")
    assert wdev.budget_override() == (True, None)
    monkeypatch.setenv("NUMR_WGPU_LOOP_BUDGET", "lots")
    with pytest.raises(DeviceError, match="NUMR_WGPU_LOOP_BUDGET"):
        wdev.budget_override()
    monkeypatch.delenv("NUMR_WGPU_LOOP_BUDGET")
    assert wdev.budget_override() == (False, None)


def test_loop_room(gpu, monkeypatch):
    monkeypatch.setattr(gpu, "loop_budget", 1000)
    assert gpu.loop_room(100) == 900 and gpu.loop_room(2000) == 0
    monkeypatch.setattr(gpu, "loop_budget", None)
    assert gpu.loop_room(100) is None
    assert wmm.k_limit(gpu) is None


# ---- matmul: k ---------------------------------------------------------------------------
def test_dot_past_the_old_limit(gpu):
    """(1, k) @ (k, 1) of ones gave 58252 for every k >= 58253 on main (now a multiply and a
    reduction); (2, k) @ (k, 3) runs the tiled kernel in two k pieces."""
    k = 65534
    r = nr.ones((1, k), dtype=nr.float32, device="wgpu") @ nr.ones((k, 1), dtype=nr.float32, device="wgpu")
    assert r.shape == (1, 1) and r.dtype == nr.float32
    assert r.numpy()[0, 0] == k
    rng = np.random.default_rng(0)
    a = rng.integers(-3, 4, (3, 70001)).astype(np.float64)
    b = rng.integers(-3, 4, (70001, 2)).astype(np.float64)
    bias = rng.integers(-3, 4, (3, 2)).astype(np.float64)
    ta, tb = nr.tensor(a, device="wgpu"), nr.tensor(b, device="wgpu")
    np.testing.assert_array_equal((ta @ tb).numpy(), a @ b)
    got = nr.matmul_bias(ta, tb, nr.tensor(bias, device="wgpu")).numpy()
    np.testing.assert_array_equal(got, a @ b + bias)
    sq = nr.ones((2, k), dtype=nr.float32, device="wgpu") @ nr.ones((k, 3), dtype=nr.float32, device="wgpu")
    np.testing.assert_array_equal(sq.numpy(), np.full((2, 3), k, np.float32))  # the tiled kernel, k split
    ai = a.astype(np.int32)
    got = nr.tensor(ai[0], device="wgpu") @ nr.tensor(b[:, 1].astype(np.int32), device="wgpu")
    assert got.shape == () and got.dtype == nr.int32 and got.item() == int(ai[0] @ b[:, 1].astype(np.int64))


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "uint8", "bool", "float16", "bfloat16"])
def test_vector_products_with_long_k(dtype):
    """m == 1 or n == 1 with k >= THIN_K: multiply and reduce over k, batched and broadcast,
    flipped and transposed views, the fused bias."""
    rng = np.random.default_rng(7)
    k = wmm.THIN_K * 3 + 5
    hi = 2 if dtype in ("bool", "float16", "bfloat16") else 4
    def mk(shape):
        v = rng.integers(0, hi, shape)
        return v.astype(dtype) if dtype != "bfloat16" else v.astype(np.float32)
    def t(x):
        return nr.tensor(x, device="wgpu") if dtype != "bfloat16" else nr.tensor(x, device="wgpu").to(nr.bfloat16)
    A, v, M = mk((3, 2, k)), mk((k,)), mk((k, 4))
    cases = [(t(A) @ t(v), A.astype(np.float64) @ v), (t(v) @ t(M), v.astype(np.float64) @ M),
             (t(v)[::-1] @ t(M.T.copy()).T, v[::-1].astype(np.float64) @ M),
             (t(A)[:, :1] @ t(A[0, 0].copy()), A[:, :1].astype(np.float64) @ A[0, 0])]
    for got, want in cases:
        want = want != 0 if dtype == "bool" else want
        if dtype == "uint8":  # NumPy's uint8 matmul wraps: so does numr's
            want = np.mod(want, 256)
        assert got.shape == want.shape and got.dtype == nr.dtype(dtype)
        g = got.numpy() if dtype != "bfloat16" else got.to(nr.float32).numpy()
        rtol = {"float16": 2.0 ** -11, "bfloat16": 2.0 ** -8}.get(dtype, 0)  # one rounding of the exact sum
        np.testing.assert_allclose(g.astype(np.float64), want.astype(np.float64), rtol=rtol, atol=0)
    if dtype in ("float32", "int32"):
        q = mk((2, 1))
        got = nr.matmul_bias(t(A[0]), t(v.reshape(k, 1).copy()), t(q))
        np.testing.assert_array_equal(got.numpy(), A[0].astype(np.float64) @ v.reshape(k, 1) + q)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "bool", "float16"])
def test_matmul_k_split_under_a_small_budget(gpu, monkeypatch, dtype):
    """Budget 4096: k_limit 3408, so k = 9000 runs in 4 dispatches; transposed, offset and
    batched-broadcast operands, and the fused bias, all still exact."""
    monkeypatch.setattr(gpu, "loop_budget", 4096)
    assert wmm.k_limit(gpu) == (4096 - wmm.K_RESERVE) // wmm.K_STEP_COST * 16
    calls = _counting(monkeypatch, wmm, "_launch")
    rng = np.random.default_rng(1)
    k = 9000
    hi = 2 if dtype in ("bool", "float16") else 4
    a = rng.integers(0, hi, (2, 5, k + 1)).astype(dtype)
    b = rng.integers(0, hi, (k, 3)).astype(dtype)
    ta = nr.tensor(a, device="wgpu")[:, :, 1:]  # offset by one element
    tb = nr.tensor(np.ascontiguousarray(b.T), device="wgpu").T  # transposed in place
    got = (ta @ tb).numpy()
    want = np.matmul(a[:, :, 1:].astype(np.float64), b.astype(np.float64))
    if dtype == "bool":
        want = want != 0
    assert got.shape == (2, 5, 3) and got.dtype == np.dtype(dtype)
    if dtype == "float16":  # float32 accumulation, rounded to float16 once per piece
        np.testing.assert_allclose(got.astype(np.float64), want, rtol=4e-3)
    else:
        np.testing.assert_array_equal(got, want.astype(dtype))
    assert len(calls) >= 4


def test_matmul_bias_k_split_under_a_small_budget(gpu, monkeypatch):
    monkeypatch.setattr(gpu, "loop_budget", 2048)
    rng = np.random.default_rng(2)
    a = rng.integers(-5, 5, (4, 6000)).astype(np.int32)
    b = rng.integers(-5, 5, (6000, 7)).astype(np.int32)
    c = rng.integers(-5, 5, (7,)).astype(np.int32)
    got = nr.matmul_bias(nr.tensor(a, device="wgpu"), nr.tensor(b, device="wgpu"), nr.tensor(c, device="wgpu"))
    np.testing.assert_array_equal(got.numpy(), a.astype(np.int64) @ b + c)


# ---- cumsum / cumprod: row length --------------------------------------------------------
def test_flattened_8_dim_scan_past_the_old_limit(gpu):
    """A flattened cumsum of a view with 8 non-mergeable dims walks 8 dims per element: on main
    (rows up to 2**20 in one dispatch) it went wrong from element 931872 on (3640 tiles * 18)."""
    base = np.ones((2,) * 7 + (7300,), np.float32)
    x = nr.tensor(base, device="wgpu").permute(*reversed(range(8)))
    assert x.size == 934400
    y = nr.cumsum(x)
    assert y.shape == (934400,) and y.dtype == nr.float32
    np.testing.assert_array_equal(y.numpy(), np.arange(1, 934401, dtype=np.float32))


@pytest.mark.parametrize("dtype", ["int32", "float64"])
def test_scan_segments_under_a_small_budget(client, gpu, monkeypatch, dtype):
    """Budget 1024: no dispatch scans a row longer than (1024 - 64) // 12 * 256 = 20480 (long
    rows run as segments side by side, then carries); contiguous, flipped and flattened rows."""
    monkeypatch.setattr(gpu, "loop_budget", 1024)
    assert wcum.max_row(client, 1) == 20480
    lens = []
    orig = wcum._launch

    def spy(client_, op, x, y, d, kinds):
        lens.append(x.size if d is None else x.shape[d])
        return orig(client_, op, x, y, d, kinds)

    monkeypatch.setattr(wcum, "_launch", spy)
    rng = np.random.default_rng(3)
    a = rng.integers(-3, 4, (3, 50001)).astype(dtype)
    x = nr.tensor(a, device="wgpu")
    got = nr.cumsum(x, 1)
    assert got.shape == a.shape and got.dtype == (nr.int64 if dtype == "int32" else nr.float64)
    np.testing.assert_array_equal(got.numpy(), np.cumsum(a, 1))
    flip = x[:, ::-1]  # a flipped view, scanned along dim 1 and flattened
    np.testing.assert_array_equal(nr.cumsum(flip, 1).numpy(), np.cumsum(a[:, ::-1], 1))
    np.testing.assert_array_equal(nr.cumsum(flip).numpy(), np.cumsum(a[:, ::-1]))
    col = x.T  # scanned along a strided dim 0 of 50001
    np.testing.assert_array_equal(nr.cumsum(col, 0).numpy(), np.cumsum(a.T, 0))
    sg = rng.choice(np.array([1, -1], dtype), 50001)
    np.testing.assert_array_equal(nr.cumprod(nr.tensor(sg, device="wgpu"), 0).numpy(), np.cumprod(sg))
    assert lens and max(lens) <= 20480 and len(lens) >= 5


def test_segmented_scan_of_a_long_row(client):
    """One long row (past 4 * SEG) runs as segments in one dispatch, then the carries: exact for
    integers, including a remainder that is not a whole segment."""
    n = 4 * wcum.SEG + 777
    a = np.random.default_rng(8).integers(-9, 10, (2, n)).astype(np.int64)
    got = nr.cumsum(nr.tensor(a, device="wgpu"), 1)
    np.testing.assert_array_equal(got.numpy(), np.cumsum(a, 1))


# ---- softmax rows ------------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["softmax", "log_softmax"])
def test_long_softmax_rows_under_a_small_budget(gpu, monkeypatch, mode):
    """Budget 256: a row past 3 * ceil(n / 256) <= 192 (n > 16384) takes the generic composite
    (on lavapipe's 65535 a row of 8M gave zeros from element 771328 on, main)."""
    monkeypatch.setattr(gpu, "loop_budget", 256)
    calls = _counting(monkeypatch, wact, "_rows")
    rng = np.random.default_rng(4)
    a = rng.standard_normal((2, 20000)) * 5
    x = nr.tensor(a, device="wgpu")
    m = a - a.max(1, keepdims=True)
    want = m - np.log(np.exp(m).sum(1, keepdims=True))
    want = want if mode == "log_softmax" else np.exp(want)
    for t, w in ((x, want), (x.T, want.T)):
        got = getattr(nr, mode)(t, 0 if t is not x else 1)
        assert got.shape == t.shape and got.dtype == nr.float64
        np.testing.assert_allclose(got.numpy(), w, rtol=1e-10, atol=1e-300)
    assert calls == []
    short = nr.tensor(a[:, :300], device="wgpu")  # still the row kernel: 3 * 2 <= 192
    getattr(nr, mode)(short, 1)
    assert len(calls) == 1


def test_long_softmax_bwd_under_a_small_budget(gpu, monkeypatch):
    monkeypatch.setattr(gpu, "loop_budget", 256)
    calls = _counting(monkeypatch, wact, "_rows")
    rng = np.random.default_rng(5)
    out = rng.random((2, 30000)).astype(np.float32)
    g = rng.standard_normal((2, 30000)).astype(np.float32)
    got = nr.softmax_bwd(nr.tensor(g, device="wgpu"), nr.tensor(out, device="wgpu"), -1)
    o64, g64 = out.astype(np.float64), g.astype(np.float64)
    want = o64 * (g64 - (o64 * g64).sum(1, keepdims=True))
    assert got.shape == (2, 30000) and got.dtype == nr.float32
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-4, atol=1e-3)
    assert calls == []


# ---- index_add_: indices per dispatch ----------------------------------------------------
def test_index_add_steps_under_a_small_budget(client, gpu, monkeypatch):
    """Budget 64: 32 indices per dispatch, so 500 indices run in 16 dispatches, in order."""
    monkeypatch.setattr(gpu, "loop_budget", 64)
    from numr._wgpu.ops import indexing as wi
    assert wi._kstep(client) == 64 - wi.ACC_RESERVE
    rng = np.random.default_rng(6)
    a = rng.integers(0, 5, (7, 3)).astype(np.float32)
    idx = rng.integers(-7, 7, 500)
    src = rng.integers(0, 4, (500, 3)).astype(np.float32)
    x = nr.tensor(a, device="wgpu")
    x.index_add_(0, nr.tensor(idx, device="wgpu"), nr.tensor(src, device="wgpu"))
    want = a.astype(np.float64)
    np.add.at(want, idx, src)
    np.testing.assert_array_equal(x.numpy(), want.astype(np.float32))
