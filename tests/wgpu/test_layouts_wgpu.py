"""Views with element offsets that are not multiples of the 256-byte binding alignment,
packed 8/16-bit storage, and a tensor larger than one storage binding."""

from __future__ import annotations

import numpy as np
import pytest
from wgpu_fixtures import wgpu_device_fixture  # noqa: F401  (provides the wgpu_device fixture)

import numr as nr


def test_odd_offsets(wgpu_device):
    a = np.arange(1000, dtype=np.float32)
    x = nr.tensor(a, device="wgpu")
    v, w = x[3:603:2], x[7:307]            # offsets of 12 and 28 bytes
    np.testing.assert_array_equal((v + 1).numpy(), a[3:603:2] + 1)
    np.testing.assert_array_equal(v.numpy(), a[3:603:2])
    assert float(w.sum().item()) == float(a[7:307].sum())
    m = x[65:65 + 64].reshape(8, 8)
    np.testing.assert_allclose((m @ m.T).numpy(), a[65:129].reshape(8, 8) @ a[65:129].reshape(8, 8).T, rtol=1e-6)
    y = nr.zeros(1000, dtype=nr.float32, device="wgpu")
    y[13:113] = x[500:600]                  # strided copy into an offset view
    ref = np.zeros(1000, np.float32)
    ref[13:113] = a[500:600]
    np.testing.assert_array_equal(y.numpy(), ref)


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int16", "uint16", "bfloat16"])
def test_packed_dtypes_at_odd_offsets(wgpu_device, dtype):
    rng = np.random.default_rng(0)
    d = nr.dtype(dtype)
    a = (rng.random(101) > 0.5) if dtype == "bool" else rng.integers(-100, 100, 101).astype(d.np)
    x = nr.tensor(a, device="wgpu")
    np.testing.assert_array_equal(x[5:98:3].numpy(), a[5:98:3])
    np.testing.assert_array_equal(x.flip(0)[1:].contiguous().numpy(), a[::-1][1:])
    y = nr.zeros(101, dtype=dtype, device="wgpu")
    y[1::2] = x[:50]                         # many threads writing neighbouring bytes of one word
    ref = np.zeros(101, d.np)
    ref[1::2] = a[:50]
    np.testing.assert_array_equal(y.numpy(), ref)
    np.testing.assert_array_equal(nr.eq(x[1:], x[:-1]).numpy(), a[1:] == a[:-1])


def test_argmax_int64_and_nonzero(wgpu_device):
    a = np.array([[1.0, 5.0, np.nan, 5.0], [0.0, -1.0, 2.0, 2.0]], np.float32)
    x = nr.tensor(a, device="wgpu")
    r = x.client.argmax(x, 1)
    assert r.dtype == nr.int64
    np.testing.assert_array_equal(r.numpy(), np.argmax(a, 1))
    nz = x.client.nonzero(x)
    assert nz.dtype == nr.int64
    np.testing.assert_array_equal(nz.numpy(), np.argwhere(a))


@pytest.mark.slow
def test_tensor_larger_than_one_binding(wgpu_device):
    """36M float32 = 144 MiB > the 128 MiB binding limit: the element-wise kernel runs in
    chunks (and each chunk past 65535 workgroups dispatches in 2-d); reductions split too."""
    gpu = nr.runtime.get("wgpu").client(wgpu_device).gpu
    n = gpu.max_binding // 4 + (4 << 20)
    x = nr.full((n,), 1.5, dtype=nr.float32, device="wgpu")
    x[n - 3:] = nr.tensor([7.0, 8.0, 9.0], dtype=nr.float32, device="wgpu")
    y = x + x
    for i in (0, n // 2, gpu.max_binding // 4 - 1, gpu.max_binding // 4, n - 4):
        assert y[i].item() == 3.0, i
    np.testing.assert_array_equal(y[n - 3:].numpy(), [14.0, 16.0, 18.0])
    # reductions over more than one binding: pieces reduced, partials combined
    assert x.sum().item() == pytest.approx(1.5 * (n - 3) + 24.0, rel=1e-6)
    assert x.argmax().item() == n - 1 and x.reshape(-1, 1024).max(1)[-1].item() == 9.0
