"""CUDA-only behaviour beyond the shared parity suite: graphs, DLPack with CuPy/PyTorch, the
allocator on a real device, tensor-core matmul, multi-chunk reductions, seeded parity with the
CPU. Skips (with the runtime's reason) where no GPU is present; NUMR_CUDA_EMULATE=1 runs the
parts that do not need real hardware."""

from __future__ import annotations

import os

import numpy as np
import pytest

import numr as nr

EMULATED = os.environ.get("NUMR_CUDA_EMULATE") == "1"
CHECKING = EMULATED and os.environ.get("NUMR_CUDA_EMULATE_CHECK") == "1"  # the emulator caches nothing


@pytest.fixture(scope="module")
def rt():
    r = nr.runtime.get("cuda")
    if not r.is_available():
        if "cuda" in os.environ.get("NUMR_REQUIRE_BACKENDS", ""):
            pytest.fail(f"cuda required but unavailable: {r.unavailable_reason()}")
        pytest.skip(f"cuda unavailable: {r.unavailable_reason()}")
    return r


@pytest.fixture(scope="module")
def gpu(rt):
    if EMULATED:
        pytest.skip("needs real CUDA hardware (host emulator active)")
    return rt


def test_device_info(rt):
    info = rt.device_info(rt.default_device())
    assert info["arch"].startswith("sm_") and info["multiprocessors"] > 0


def test_random_matches_cpu(rt):
    for d in (nr.float32, nr.float64, nr.float16, nr.bfloat16):
        a = nr.rand(1001, dtype=d, device="cuda", seed=123).numpy()
        b = nr.rand(1001, dtype=d, device="cpu", seed=123).numpy()
        np.testing.assert_array_equal(a, b)
    for lo, hi in ((0, 10), (-5, 2**40), (-(2**62), 2**62)):
        a = nr.randint(lo, hi, (777,), device="cuda", seed=9).numpy()
        b = nr.randint(lo, hi, (777,), device="cpu", seed=9).numpy()
        np.testing.assert_array_equal(a, b)
    a = nr.randn(1001, dtype=nr.float64, device="cuda", seed=5).numpy()
    b = nr.randn(1001, dtype=nr.float64, device="cpu", seed=5).numpy()
    np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("shape,dim", [((300000,), None), ((3, 70001), 1), ((70001, 3), 0), ((5, 7, 9), (0, 2))])
def test_chunked_reductions(rt, shape, dim):
    x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    t = nr.tensor(x, device="cuda")
    np.testing.assert_allclose(t.sum(dim).numpy(), x.astype(np.float64).sum(axis=dim), rtol=1e-4, atol=1e-3)
    np.testing.assert_array_equal(t.max(dim).numpy(), x.max(axis=dim))
    if not isinstance(dim, tuple):
        np.testing.assert_array_equal(t.argmin(dim).numpy(), x.argmin(axis=dim))


def test_long_cumsum(rt):
    x = np.arange(5000, dtype=np.int64) % 7 - 3
    np.testing.assert_array_equal(nr.tensor(x, device="cuda").cumsum(0).numpy(), np.cumsum(x))


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("m,k,n", [(1, 1, 1), (17, 33, 9), (130, 70, 257), (256, 256, 256)])
def test_tensor_core_matmul(gpu, dtype, m, k, n):
    rng = np.random.default_rng(m * k + n)
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    ta, tb = nr.tensor(a, device="cuda").astype(dtype), nr.tensor(b, device="cuda").astype(dtype)
    ref = ta.numpy().astype(np.float64) @ tb.numpy().astype(np.float64)
    got = (ta @ tb).numpy().astype(np.float64)
    np.testing.assert_allclose(got, ref, rtol=2e-2, atol=2e-2 * np.sqrt(k))
    # transposed (strided) operands take the scalar-load path
    got_t = (tb.mT @ ta.mT).numpy().astype(np.float64)
    np.testing.assert_allclose(got_t, ref.T, rtol=2e-2, atol=2e-2 * np.sqrt(k))


def test_matmul_bias_fused(rt):
    a = np.random.default_rng(1).standard_normal((2, 3, 40, 30)).astype(np.float32)
    b = np.random.default_rng(2).standard_normal((3, 30, 20)).astype(np.float32)
    bias = np.random.default_rng(3).standard_normal((20,)).astype(np.float32)
    got = nr.matmul_bias(nr.tensor(a, device="cuda"), nr.tensor(b, device="cuda"), nr.tensor(bias, device="cuda"))
    np.testing.assert_allclose(got.numpy(), a @ b + bias, rtol=1e-4, atol=1e-4)


def test_allocator_stats_and_empty_cache(rt):
    rt.synchronize()
    base = rt.allocated_bytes()
    x = nr.empty(1 << 20, dtype=nr.float32, device="cuda")
    assert rt.allocated_bytes() >= base + (4 << 20)
    del x
    assert rt.allocated_bytes() == base
    if CHECKING:  # every buffer is unmapped when freed
        assert rt.cached_bytes() == 0
    else:
        assert rt.cached_bytes() >= 4 << 20
    rt.empty_cache()
    assert rt.cached_bytes() == 0
    assert set(rt.memory_stats()) >= {"allocated_bytes", "cached_bytes"}


def test_out_of_memory_is_clear(gpu):
    with pytest.raises(nr.OutOfMemoryError, match="out of memory allocating"):
        nr.empty(1 << 50, dtype=nr.uint8, device="cuda")
    x = nr.ones(10, device="cuda")  # the device still works
    assert float(x.sum().item()) == 10.0


def test_graph_capture_and_replay(rt):
    x = nr.tensor(np.arange(6, dtype=np.float32), device="cuda")
    w = nr.tensor(np.full((6, 6), 0.5, np.float32), device="cuda")
    g = rt.capture_graph("cuda")
    with g:
        y = (x @ w).exp().sum()
    assert g.captured
    g.replay()
    rt.synchronize()
    ref = np.exp(np.arange(6, dtype=np.float64) @ np.full((6, 6), 0.5)).sum()
    np.testing.assert_allclose(y.item(), ref, rtol=1e-5)
    x.copy_(nr.tensor(np.ones(6, np.float32), device="cuda"))  # same buffer, new values
    g.replay()
    np.testing.assert_allclose(y.item(), np.exp(np.ones(6) @ np.full((6, 6), 0.5)).sum(), rtol=1e-5)
    g.release()
    assert not nr.runtime.get("cpu").supports_graph_capture()
    with pytest.raises(nr.UnsupportedOperation):
        nr.runtime.get("cpu").capture_graph()


def test_graph_buffers_stay_reserved(rt):
    """Intermediates freed during the capture keep their addresses for every replay: tensors made
    between replays never reuse them. Releasing the graph gives the memory back."""
    rt.synchronize()
    base = rt.allocated_bytes()
    a = np.linspace(-1, 1, 3000).astype(np.float32)
    x = nr.tensor(a, device="cuda")
    g = rt.capture_graph("cuda")
    with g:
        y = ((x * 2.0 + 1.0).tanh() - x).abs()  # three intermediates, freed inside the capture
        z = y[::3].clone()  # a device-to-device strided copy
    junk = [nr.full((3000,), 7.0, dtype=nr.float32, device="cuda") for _ in range(8)]  # would take freed blocks
    for scale in (1.0, -0.5):
        x.copy_(nr.tensor(a * scale, device="cuda"))
        g.replay()
        ref = np.abs(np.tanh(a * scale * 2.0 + 1.0) - a * scale)
        np.testing.assert_allclose(y.numpy(), ref, rtol=1e-6, atol=1e-6)
        np.testing.assert_allclose(z.numpy(), ref[::3], rtol=1e-6, atol=1e-6)
    assert all(float(j.max().item()) == 7.0 for j in junk)
    del junk, y, z
    g.release()
    del x, g
    rt.synchronize()
    assert rt.allocated_bytes() == base


def test_graph_misuse_is_clear(rt):
    x = nr.ones(10, device="cuda")
    g = rt.capture_graph("cuda")
    with pytest.raises(nr.DeviceError, match="nothing captured"):
        g.replay()
    with pytest.raises(nr.DeviceError):  # a host read cannot be captured
        with g:
            (x + 1).sum().item()
    assert not g.captured
    assert float(x.sum().item()) == 10.0  # the device still works and can capture again
    g2 = rt.capture_graph("cuda")
    with g2:
        y = x + 1
    with pytest.raises(nr.DeviceError, match="already captured"):
        with g2:
            pass
    g2.replay()
    np.testing.assert_array_equal(y.numpy(), np.full(10, 2.0, np.float32))
    g2.release()


EXACT_INT = {"float8_e5m2": 8, "float8_e4m3fn": 16, "bfloat16": 256, "float16": 2048}  # integers exact up to


@pytest.mark.parametrize("dtype", [d.name for d in nr.ALL_DTYPES if d.kind != "b"])
def test_index_add_atomics_under_contention(rt, dtype):
    """index_add_'s atomics with thousands of updates to 7 neighbouring elements (so 8/16-bit
    values share the 32-bit words their compare-and-swap loops update): integers wrap from their
    edge values exactly; float sums stay exact in any order (each target gets at most as many
    +-1s as its dtype holds integers exactly)."""
    d = nr.dtype(dtype)
    rng = np.random.default_rng(11)
    n = 4000
    idx = rng.integers(0, 7, n)
    if d.kind in "iu":
        info = np.iinfo(d.np)
        a = np.array([info.max, info.min, 0, 1, info.max - 1, info.min + 1, 5], dtype=d.np)
        src = rng.integers(0 if d.kind == "u" else -3, 4, n)
        exp = a.astype(np.int64) if d.kind == "i" else a.astype(np.uint64)
        np.add.at(exp, idx, src.astype(exp.dtype))
        exp = exp.astype(d.np)  # wraps modulo 2^bits
    else:
        lim = EXACT_INT.get(dtype, n)
        src = rng.choice([-1.0, 1.0], n)
        seen = np.zeros(7, np.int64)
        for i, j in enumerate(idx):  # at most `lim` non-zero updates per target
            src[i] = src[i] if seen[j] < lim else 0.0
            seen[j] += src[i] != 0
        if d.kind == "c":
            src = src + 1j * src[::-1]
        a = np.zeros(7, d.np)
        exp = np.zeros(7, np.complex128 if d.kind == "c" else np.float64)
        np.add.at(exp, idx, src)
        exp = exp.astype(d.np)
    x = nr.tensor(a, device="cuda")
    x.index_add_(0, nr.tensor(idx, device="cuda"), nr.tensor(src.astype(d.np), device="cuda"))
    np.testing.assert_array_equal(x.numpy(), exp)


@pytest.mark.parametrize("dtype", ["float32", "float64", "bfloat16", "float8_e5m2", "bool", "uint8", "int64",
                                   "complex64"])
def test_dlpack_numr_roundtrip(rt, dtype):
    """numr consumes its own CUDA capsules: dtype codes, strides (negative too), offsets, zero copy,
    and lifetimes (the export keeps the producer's memory alive until the consumer lets go)."""
    d = nr.dtype(dtype)
    a = (np.arange(24) % 5).reshape(4, 6).astype(d.np)
    rt.synchronize()
    base = rt.allocated_bytes()
    t = nr.tensor(a, device="cuda")
    for view, ref in ((t, a), (t.T, a.T), (t[1:, ::2], a[1:, ::2]), (t[::-1, 3:], a[::-1, 3:]), (t[2, 4], a[2, 4]),
                      (t[:0], a[:0])):
        n = nr.from_dlpack(view)
        assert (n.device, n.dtype, n.shape, n.strides) == (view.device, d, ref.shape, view.strides)
        np.testing.assert_array_equal(n.numpy(), ref)
    assert nr.from_dlpack(t, device="cpu").device == nr.device("cpu")
    n = nr.from_dlpack(t[1:])
    del t
    np.testing.assert_array_equal(n.numpy(), a[1:])  # the capsule keeps the producer's buffer
    n.copy_(nr.zeros(n.shape, dtype=d, device="cuda"))
    assert not n.numpy().any()
    cap = nr.ones(5, device="cuda").__dlpack__()  # never consumed: the capsule's destructor releases it
    del n, cap, view
    rt.synchronize()
    assert rt.allocated_bytes() == base


def test_dlpack_torch_roundtrip(gpu):
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("torch without CUDA")
    t = torch.arange(12, dtype=torch.float32, device="cuda").reshape(3, 4)
    n = nr.from_dlpack(t)
    assert n.device == "cuda:0" and n.shape == (3, 4) and n.dtype == nr.float32
    n2 = n * 2
    back = torch.from_dlpack(n2)
    assert back.data_ptr() == n2._storage.ptr  # zero copy
    torch.testing.assert_close(back, t * 2)
    t.add_(1)  # shared memory: numr sees torch's write
    np.testing.assert_array_equal(n.numpy(), (np.arange(12) + 1).reshape(3, 4))
    tb = torch.ones(5, dtype=torch.bfloat16, device="cuda")
    assert nr.from_dlpack(tb).dtype == nr.bfloat16
    v = nr.from_dlpack(t.t())  # strided
    np.testing.assert_array_equal(v.numpy(), t.t().cpu().numpy())


def test_dlpack_cupy_roundtrip(gpu):
    cp = pytest.importorskip("cupy")
    a = cp.arange(10, dtype=cp.float64)[::-1]  # negative strides
    n = nr.from_dlpack(a)
    np.testing.assert_array_equal(n.numpy(), np.arange(10, dtype=np.float64)[::-1])
    b = cp.from_dlpack(n + 1)
    np.testing.assert_array_equal(cp.asnumpy(b), np.arange(10)[::-1] + 1)


def test_kernel_cache_on_disk(gpu, tmp_path, monkeypatch):
    from numr._cuda import compiler
    monkeypatch.setenv("NUMR_CUDA_CACHE_DIR", str(tmp_path))
    compiler.clear_memory_cache()
    compiler.compile_program("conditional", nr.int8.code, gpu.state(gpu.default_device()).arch)
    assert list(tmp_path.glob("conditional-*.cubin"))
