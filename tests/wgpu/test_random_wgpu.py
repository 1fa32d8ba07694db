"""Random numbers on wgpu are the CPU's streams: rand and randint bit for bit,
randn to rounding (the GPU's log/cos differ from libm's in the last bits)."""

from __future__ import annotations

import numpy as np
import pytest
from wgpu_fixtures import wgpu_device_fixture  # noqa: F401  (provides the wgpu_device fixture)

import numr as nr


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
@pytest.mark.parametrize("seed", [0, 12345, 2**40 + 7])
def test_rand_matches_cpu(wgpu_device, dtype, seed):
    g = nr.rand(37, 3, dtype=dtype, device="wgpu", seed=seed).numpy()
    c = nr.rand(37, 3, dtype=dtype, seed=seed).numpy()
    np.testing.assert_array_equal(g.view(np.uint8), c.view(np.uint8))


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "int32", "uint32", "int64", "uint64"])
def test_randint_matches_cpu(wgpu_device, dtype):
    info = np.iinfo(nr.dtype(dtype).np)
    for low, high in [(0, 7), (max(info.min, -1000), min(info.max, 1000) + 1), (int(info.min), int(info.max))]:
        g = nr.randint(low, high, (101,), dtype=dtype, device="wgpu", seed=9).numpy()
        c = nr.randint(low, high, (101,), dtype=dtype, seed=9).numpy()
        np.testing.assert_array_equal(g, c)


def test_randint_wide_span_matches_cpu(wgpu_device):
    g = nr.randint(-2**62, 2**62, (33,), device="wgpu", seed=3).numpy()
    np.testing.assert_array_equal(g, nr.randint(-2**62, 2**62, (33,), seed=3).numpy())


@pytest.mark.parametrize("dtype, rtol", [("float32", 2e-6), ("float64", 1e-13)])
def test_randn_close_to_cpu(wgpu_device, dtype, rtol):
    g = nr.randn(1001, dtype=dtype, device="wgpu", seed=5).numpy()
    c = nr.randn(1001, dtype=dtype, seed=5).numpy()
    np.testing.assert_allclose(g, c, rtol=rtol, atol=rtol)


def test_global_stream_matches_cpu(wgpu_device):
    nr.manual_seed(77)
    g = [nr.rand(5, dtype=nr.float32, device="wgpu").numpy() for _ in range(3)]
    nr.manual_seed(77)
    c = [nr.rand(5, dtype=nr.float32).numpy() for _ in range(3)]
    for a, b in zip(g, c, strict=False):
        np.testing.assert_array_equal(a, b)
    assert not np.array_equal(g[0], g[1])


def test_empty_and_odd_sizes(wgpu_device):
    assert nr.rand(0, device="wgpu", seed=1).shape == (0,)
    for n in (1, 2, 3, 5, 257):
        np.testing.assert_array_equal(nr.rand(n, dtype=nr.float32, device="wgpu", seed=n).numpy(),
                                      nr.rand(n, dtype=nr.float32, seed=n).numpy())
