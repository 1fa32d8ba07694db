"""Philox4x32-10 known answers, and rand/randn/randint against a pure-Python reference of the
streams in docs/architecture.md "Random numbers" (so every backend must give these numbers)."""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest
from conftest import assert_close

import numr as nr

M32 = 0xFFFFFFFF

# Random123 kat_vectors: philox4x32 10 <counter x4> <key x2> -> <output x4>
KAT = [
    ((0, 0, 0, 0), (0, 0), (0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8)),
    ((M32, M32, M32, M32), (M32, M32), (0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD)),
    ((0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344), (0xA4093822, 0x299F31D0),
     (0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1)),
]


def philox_ref(ctr, key):
    """Philox4x32-10 in plain Python (the published algorithm)."""
    c, k = list(ctr), list(key)
    for r in range(10):
        if r:
            k = [(k[0] + 0x9E3779B9) & M32, (k[1] + 0xBB67AE85) & M32]
        p0, p1 = 0xD2511F53 * c[0], 0xCD9E8D57 * c[2]
        c = [(p1 >> 32) ^ c[1] ^ k[0], p1 & M32, (p0 >> 32) ^ c[3] ^ k[1], p0 & M32]
    return tuple(c)


def words(seed, stream, block):
    return philox_ref((block & M32, block >> 32, stream & M32, stream >> 32), (seed & M32, seed >> 32))


def ref_rand(n, dtype, seed, stream=0):
    if dtype == "float64":
        out = []
        for i in range(n):
            w = words(seed, stream, i // 2)
            k = i % 2
            out.append((((w[2 * k] << 32) | w[2 * k + 1]) >> 11) * 2.0 ** -53)
        return np.array(out)
    f = np.array([(words(seed, stream, i // 4)[i % 4] >> 8) for i in range(n)], np.float32) * np.float32(2.0 ** -24)
    return f.astype(nr.dtype(dtype).np)


def ref_randn(n, dtype, seed, stream=0):
    w = [words(seed, stream, i // 2)[2 * (i % 2): 2 * (i % 2) + 2] for i in range(n)]
    a = np.array([x[0] for x in w], np.uint64)
    b = np.array([x[1] for x in w], np.uint64)
    if dtype == "float64":
        u1 = (a + 1).astype(np.float64) * 2.0 ** -32
        u2 = b.astype(np.float64) * 2.0 ** -32
        return np.sqrt(-2.0 * np.log(u1)) * np.cos(6.283185307179586 * u2)
    u1 = (a + 1).astype(np.float32) * np.float32(2.0 ** -32)
    u2 = b.astype(np.float32) * np.float32(2.0 ** -32)
    z = np.sqrt(np.float32(-2.0) * np.log(u1)) * np.cos(np.float32(6.2831855) * u2)
    return z.astype(nr.dtype(dtype).np)


def ref_randint(n, low, high, dtype, seed, stream=0):
    span = high - low
    out = []
    for i in range(n):
        if span <= 2 ** 32:
            out.append(low + words(seed, stream, i // 4)[i % 4] % span)
        else:
            w = words(seed, stream, i // 2)
            k = i % 2
            out.append(low + ((w[2 * k] << 32) | w[2 * k + 1]) % span)
    return np.array(out, dtype=nr.dtype(dtype).np)


@pytest.mark.parametrize("ctr,key,expected", KAT)
def test_philox_known_answers(ctr, key, expected):
    from numr._cpu.kernels import random as k
    assert k.philox4x32_10(ctr, key) == expected
    assert philox_ref(ctr, key) == expected


def skip_unsupported(fn, *args, **kwargs):
    try:
        return fn(*args, **kwargs)
    except nr.UnsupportedOperation as e:
        pytest.skip(str(e))


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16", "float8_e4m3fn", "float8_e5m2"])
@pytest.mark.parametrize("n", [0, 1, 3, 7, 13])
def test_rand_matches_stream_definition(device, dtype, n):
    seed = 0x1234_5678_9ABC_DEF0
    x = skip_unsupported(nr.rand, n, dtype=dtype, device=device, seed=seed)
    assert x.shape == (n,) and x.dtype == nr.dtype(dtype)
    ref = ref_rand(n, dtype, seed)
    np.testing.assert_array_equal(x.numpy().astype(np.float64), ref.astype(np.float64))


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
def test_randn_matches_stream_definition(device, dtype):
    x = skip_unsupported(nr.randn, 3, 5, dtype=dtype, device=device, seed=42)
    assert x.shape == (3, 5) and x.dtype == nr.dtype(dtype)
    ref = ref_randn(15, dtype, 42).reshape(3, 5)
    rtol = {"float64": 1e-13, "float32": 2e-6}.get(dtype, 1e-2)  # libm log/cos differ by ulps
    np.testing.assert_allclose(x.numpy().astype(np.float64), ref.astype(np.float64), rtol=rtol, atol=rtol)


@pytest.mark.parametrize("low,high,dtype", [(0, 10, "int64"), (-5, 5, "int8"), (0, 256, "uint8"),
                                            (-(2 ** 31), 2 ** 31, "int32"), (0, 2 ** 32, "uint32"),
                                            (-(2 ** 40), 2 ** 40 + 3, "int64"), (0, 2 ** 64, "uint64"),
                                            (-(2 ** 63), 2 ** 63, "int64"), (7, 8, "int16"), (1, 1000, "uint16")])
def test_randint_matches_stream_definition(device, low, high, dtype):
    x = skip_unsupported(nr.randint, low, high, (9,), dtype=dtype, device=device, seed=7)
    assert x.dtype == nr.dtype(dtype) and x.shape == (9,)
    np.testing.assert_array_equal(x.numpy(), ref_randint(9, low, high, dtype, 7))


def test_seed_and_global_stream(device):
    a = nr.rand(6, device=device, seed=5)
    b = nr.rand(6, device=device, seed=5)
    np.testing.assert_array_equal(a.numpy(), b.numpy())
    nr.manual_seed(123)
    c1, c2 = nr.rand(6, device=device), nr.rand(6, device=device)
    nr.manual_seed(123)
    d1, d2 = nr.rand(6, device=device), nr.rand(6, device=device)
    np.testing.assert_array_equal(c1.numpy(), d1.numpy())
    np.testing.assert_array_equal(c2.numpy(), d2.numpy())
    assert not np.array_equal(c1.numpy(), c2.numpy())
    np.testing.assert_array_equal(c1.numpy(), ref_rand(6, "float64", 123, stream=1))
    np.testing.assert_array_equal(c2.numpy(), ref_rand(6, "float64", 123, stream=2))


def test_element_depends_only_on_flat_index(device):
    a = nr.rand(24, dtype=nr.float32, device=device, seed=9).numpy()
    b = nr.rand((2, 3, 4), dtype=nr.float32, device=device, seed=9).numpy()
    np.testing.assert_array_equal(a.reshape(2, 3, 4), b)
    c = nr.rand(10, dtype=nr.float32, device=device, seed=9).numpy()
    np.testing.assert_array_equal(a[:10], c)


def test_distributions_large(device):
    n = 200_000  # above the parallel threshold
    u = nr.rand(n, dtype=nr.float32, device=device, seed=1).numpy()
    assert 0.0 <= u.min() and u.max() < 1.0 and abs(u.mean() - 0.5) < 0.005
    z = nr.randn(n, device=device, seed=2).numpy()
    assert abs(z.mean()) < 0.01 and abs(z.std() - 1.0) < 0.01 and np.isfinite(z).all()
    r = nr.randint(-3, 4, (n,), dtype=nr.int8, device=device, seed=3).numpy()
    assert r.min() == -3 and r.max() == 3
    counts = np.bincount(r.astype(np.int64) + 3)
    assert np.all(np.abs(counts / n - 1 / 7) < 0.01)
    # the tail of a large call follows the definition too
    tail = np.array([(words(1, 0, i // 4)[i % 4] >> 8) for i in range(n - 5, n)], np.float32) * np.float32(2.0 ** -24)
    np.testing.assert_array_equal(u[-5:], tail)


def test_random_shapes_0d_and_empty(device):
    assert nr.rand((), device=device, seed=0).shape == ()
    assert_close(nr.rand((), device=device, seed=0), ref_rand(1, "float64", 0).reshape(()))
    assert nr.randn((0, 3), device=device, seed=0).shape == (0, 3)
    assert nr.randint(0, 5, (2, 0), device=device, seed=0).shape == (2, 0)


def test_random_errors(device):
    with pytest.raises(nr.DTypeError, match="rand"):
        nr.rand(3, dtype=nr.int32, device=device)
    with pytest.raises(nr.DTypeError, match="randn"):
        nr.randn(3, dtype=nr.complex64, device=device)
    with pytest.raises(nr.DTypeError, match="randint"):
        nr.randint(0, 5, (3,), dtype=nr.float32, device=device)
    with pytest.raises(nr.ShapeError, match="randint"):
        nr.randint(5, 5, (3,), device=device)
    with pytest.raises(nr.DTypeError, match="randint"):
        nr.randint(0, 300, (3,), dtype=nr.uint8, device=device)


def test_low_precision_rand_is_rounded_float32():
    """float16/bfloat16 rand is the float32 value rounded once (documented: may reach 1.0)."""
    x = nr.rand(64, dtype=nr.bfloat16, seed=11).numpy()
    f = ref_rand(64, "float32", 11)
    np.testing.assert_array_equal(x, f.astype(ml_dtypes.bfloat16))
    assert math.isclose(float(x.astype(np.float32).mean()), float(f.mean()), rel_tol=0.05)
