"""zeros/ones/full/empty/arange/linspace/eye/tensor round trips against NumPy, on every backend."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_close

import numr as nr

ALL = [d.name for d in nr.ALL_DTYPES]


def skip_unsupported(fn, *args, **kwargs):
    try:
        return fn(*args, **kwargs)
    except nr.UnsupportedOperation as e:
        pytest.skip(str(e))


@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize("shape", [(), (0,), (1,), (3, 4), (2, 0, 3), (2, 3, 5)])
def test_zeros_ones_full(device, dtype, shape):
    d = nr.dtype(dtype)
    z = skip_unsupported(nr.zeros, shape, dtype=d, device=device)
    assert_close(z, np.zeros(shape, d.np), dtype=d)
    o = nr.ones(shape, dtype=d, device=device)
    assert_close(o, np.ones(shape, d.np), dtype=d)
    value = True if d.kind == "b" else (7 if d.is_integer else 2.5)
    f = nr.full(shape, value, dtype=d, device=device)
    assert_close(f, np.full(shape, value, d.np), dtype=d)
    e = nr.empty(shape, dtype=d, device=device)
    assert e.shape == shape and e.dtype == d and str(e.device).startswith(device)


def test_full_default_dtypes_and_values(device):
    assert nr.full((2,), 3, device=device).dtype == nr.int64
    assert nr.full((2,), 3.0, device=device).dtype == nr.float64
    assert nr.full((2,), True, device=device).dtype == nr.bool_
    assert nr.zeros(2, 3, device=device).dtype == nr.float64
    assert_close(nr.full((3,), np.nan, dtype=nr.float32, device=device), np.full(3, np.nan, np.float32))
    assert_close(nr.full((3,), -np.inf, dtype=nr.float16, device=device), np.full(3, -np.inf, np.float16))
    assert_close(nr.full((2,), 2 ** 64 - 1, dtype=nr.uint64, device=device), np.full(2, 2 ** 64 - 1, np.uint64))
    assert_close(nr.full((2,), -(2 ** 63), dtype=nr.int64, device=device), np.full(2, -(2 ** 63), np.int64))
    assert_close(nr.full((2,), 1e300, dtype=nr.float32, device=device), np.full(2, np.inf, np.float32))
    assert_close(nr.full((2,), 1.9, dtype=nr.int8, device=device), np.full(2, 1, np.int8))
    assert_close(nr.full((2,), np.nan, dtype=nr.int32, device=device), np.zeros(2, np.int32))


def test_full_complex(device):
    x = skip_unsupported(nr.full, (2, 2), 1 + 2j, device=device)
    assert_close(x, np.full((2, 2), 1 + 2j), dtype=nr.complex128)


def test_full_integer_out_of_range_raises(device):
    with pytest.raises(nr.DTypeError, match="full.*300.*int8"):
        nr.full((2,), 300, dtype=nr.int8, device=device)
    with pytest.raises(nr.DTypeError, match="uint8"):
        nr.full((2,), -1, dtype=nr.uint8, device=device)


def test_like_functions(device):
    x = nr.ones((2, 3), dtype=nr.int32, device=device)
    assert_close(nr.zeros_like(x), np.zeros((2, 3), np.int32), dtype=nr.int32)
    assert_close(nr.ones_like(x, dtype=nr.float32), np.ones((2, 3), np.float32), dtype=nr.float32)
    assert_close(nr.full_like(x, 5), np.full((2, 3), 5, np.int32), dtype=nr.int32)
    assert nr.empty_like(x).shape == (2, 3)


@pytest.mark.parametrize("args", [(10,), (2, 10), (2, 11, 3), (10, 2, -2), (-5, 5, 1), (0,), (5, 2), (3, 4, 5)])
def test_arange_int(device, args):
    x = nr.arange(*args, device=device)
    assert_close(x, np.arange(*args), dtype=nr.int64)


@pytest.mark.parametrize("args", [(0.0, 1.0, 0.1), (2.5,), (-1.0, 1.0, 0.25), (0.1, 20.3, 0.37), (1.0, 0.0, -0.3)])
def test_arange_float(device, args):
    x = nr.arange(*args, device=device)
    assert_close(x, np.arange(*args), dtype=nr.float64)


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int32", "float16", "bfloat16", "float32", "float64", "complex64"])
def test_arange_dtypes(device, dtype):
    d = nr.dtype(dtype)
    x = skip_unsupported(nr.arange, 0, 20, 3, dtype=d, device=device)
    assert_close(x, np.arange(0, 20, 3).astype(d.np), dtype=d)


def test_arange_large_uint64_and_errors(device):
    x = nr.arange(2 ** 64 - 5, 2 ** 64 - 1, dtype=nr.uint64, device=device)
    assert_close(x, np.arange(2 ** 64 - 5, 2 ** 64 - 1, dtype=np.uint64), dtype=nr.uint64)
    with pytest.raises(nr.ShapeError):
        nr.arange(0, 10, 0, device=device)


def test_arange_large_parallel(device):
    x = nr.arange(100_000, dtype=nr.float32, device=device)
    assert_close(x, np.arange(100_000, dtype=np.float32), dtype=nr.float32, rtol=0, atol=0)


@pytest.mark.parametrize("n,endpoint", [(0, True), (1, True), (1, False), (2, True), (5, False), (50, True),
                                        (1001, True)])
def test_linspace(device, n, endpoint):
    x = nr.linspace(-1.3, 7.9, n, endpoint=endpoint, device=device)
    ref = np.linspace(-1.3, 7.9, n, endpoint=endpoint)
    assert_close(x, ref, dtype=nr.float64)
    if n and device == "cpu":
        assert np.array_equal(x.numpy(), ref)  # same arithmetic as NumPy, bit for bit


@pytest.mark.parametrize("dtype", ["float32", "float16", "int32", "uint8", "complex128"])
def test_linspace_dtypes(device, dtype):
    d = nr.dtype(dtype)
    x = skip_unsupported(nr.linspace, 0.5, 9.5, 7, dtype=d, device=device)
    assert_close(x, np.linspace(0.5, 9.5, 7, dtype=d.np), dtype=d)


def test_linspace_complex(device):
    x = skip_unsupported(nr.linspace, 1 + 1j, 3 - 2j, 5, device=device)
    assert_close(x, np.linspace(1 + 1j, 3 - 2j, 5), dtype=nr.complex128)


@pytest.mark.parametrize("n,m,k", [(3, None, 0), (3, 5, 1), (4, 2, -1), (3, 3, 5), (3, 3, -7), (0, 3, 0), (1, 1, 0)])
@pytest.mark.parametrize("dtype", ["float64", "float32", "int8", "bool", "bfloat16"])
def test_eye(device, n, m, k, dtype):
    d = nr.dtype(dtype)
    x = nr.eye(n, m, k, dtype=d, device=device)
    assert_close(x, np.eye(n, m, k, dtype=d.np), dtype=d)


@pytest.mark.parametrize("data", [[1, 2, 3], [[1.5, 2.0], [3.0, -4.0]], 3.5, 7, True, [[True, False]], [],
                                  [[1 + 2j, 3]], np.arange(12, dtype=np.int16).reshape(3, 4)[:, ::2]])
def test_tensor_round_trip(device, data):
    x = skip_unsupported(nr.tensor, data, device=device)
    ref = np.asarray(data)
    assert x.shape == ref.shape
    assert x.dtype == nr.dtype(ref.dtype)
    np.testing.assert_array_equal(x.numpy(), ref)
    assert x.tolist() == ref.tolist()
    y = nr.tensor(x)  # a copy
    np.testing.assert_array_equal(y.numpy(), ref)


def test_tensor_with_dtype(device):
    x = nr.tensor([1.7, -2.2, 300.0], dtype=nr.float32, device=device)
    assert_close(x, np.array([1.7, -2.2, 300.0], np.float32), dtype=nr.float32)
    y = nr.tensor(x, dtype=nr.int32)
    assert_close(y, np.array([1, -2, 300], np.int32), dtype=nr.int32)


def test_creation_shape_errors(device):
    with pytest.raises(nr.ShapeError):
        nr.zeros((2, -1), device=device)
    with pytest.raises(nr.ShapeError):
        nr.linspace(0, 1, -1, device=device)
    with pytest.raises(nr.ShapeError):
        nr.eye(-1, device=device)
