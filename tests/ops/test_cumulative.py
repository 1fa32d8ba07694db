"""cumsum / cumprod against NumPy (float64 oracle, exact integers): every dtype, dim
None/int/negative, 0-d, empty, size-1, strided/offset/flipped/broadcast inputs, both the
row and the column (vertical) kernels, NaN/inf, integer wrapping, errors."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_close, tolerance

import numr as nr

ALL = [d.name for d in nr.ALL_DTYPES]


def make(a, device, dtype=None):
    try:
        return nr.tensor(a, dtype=dtype, device=device)
    except nr.UnsupportedOperation as e:
        pytest.skip(str(e))


def sample(dtype: str, shape, rng, lo, hi) -> np.ndarray:
    d = nr.dtype(dtype)
    if d.kind == "b":
        return rng.random(shape) > 0.5
    if d.is_integer:
        info = np.iinfo(d.np)
        return rng.integers(max(info.min, -3), min(info.max, 3), shape, endpoint=True).astype(d.np)
    if d.is_complex:
        return (rng.uniform(lo, hi, shape) + 1j * rng.uniform(-0.2, 0.2, shape)).astype(d.np)
    return rng.uniform(lo, hi, shape).astype(d.np)


def out_dtype(d: nr.DType) -> nr.DType:
    return nr.int64 if d.kind in "bi" else nr.uint64 if d.kind == "u" else d


def oracle(op: str, a: np.ndarray, dim) -> np.ndarray:
    if a.dtype.kind in "bi":
        return getattr(np, op)(a, axis=dim, dtype=np.int64)
    if a.dtype.kind == "u":
        return getattr(np, op)(a, axis=dim, dtype=np.uint64)
    w = a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)
    return getattr(np, op)(w, axis=dim)


def check(op, x, a, dim):
    got = getattr(x.client, op)(x, dim)
    exp = oracle(op, a, dim)
    d = out_dtype(nr.dtype(a.dtype))
    r, at = tolerance(d)
    scale = float(np.sum(np.abs(a.astype(np.complex128)))) if a.size else 0.0  # bounds every partial sum
    assert_close(got, exp, dtype=d, atol=at + (r * scale if op == "cumsum" and d.kind in "fc" else 0))


@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize("op", ["cumsum", "cumprod"])
def test_dims_every_dtype(device, op, dtype):
    rng = np.random.default_rng(3)
    lo, hi = (0.9, 1.1) if op == "cumprod" else (-2.0, 2.0)
    a = sample(dtype, (3, 4, 5), rng, lo, hi)
    x = make(a, device)
    for dim in (None, 0, 1, 2, -1, -3):
        check(op, x, a, dim)


@pytest.mark.parametrize("op", ["cumsum", "cumprod"])
def test_views(device, op):
    rng = np.random.default_rng(5)
    base = rng.uniform(0.9, 1.1, (6, 7, 8))
    x = make(base, device)
    cases = [
        (x.permute(2, 0, 1), base.transpose(2, 0, 1)),
        (x[1:, ::2, 3:], base[1:, ::2, 3:]),
        (x.flip(0)[:, 2], base[::-1, 2]),
        (x[2, 1].broadcast_to((5, 8)), np.broadcast_to(base[2, 1], (5, 8))),
        (x[:, :1], base[:, :1]),
    ]
    for v, a in cases:
        for dim in [None] + list(range(a.ndim)):
            check(op, v, a, dim)


def test_large_rows_and_columns(device):
    """Sizes above the parallel threshold; dim 0 of a C-contiguous matrix uses the column kernel."""
    rng = np.random.default_rng(8)
    a = rng.uniform(-1, 1, (300, 270)).astype(np.float32)
    x = make(a, device)
    for v, b in ((x, a), (x.T, a.T), (x[::-1, 5:], a[::-1, 5:])):
        for dim in (None, 0, 1):
            check("cumsum", v, b, dim)
    i = rng.integers(-9, 9, (400, 300)).astype(np.int16)
    xi = make(i, device)
    for dim in (0, 1):
        check("cumsum", xi, i, dim)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "int8", "uint16", "float32"])
def test_rows_across_chunks_and_transposed(device, dtype):
    """Rows around the CPU's 256-element chunks (16- and 8-bit types convert per chunk),
    strided rows, and a transposed input: values as NumPy's (the CPU returns the transposed
    case in the input's memory order, so it scans columns in place)."""
    d = nr.dtype(dtype)
    rng = np.random.default_rng(12)
    a = sample(dtype, (7, 1000), rng, -1, 1)
    x = make(a, device, dtype)
    for n in (255, 256, 257, 1000):
        for op in ("cumsum", "cumprod"):
            check(op, x[:, :n], a[:, :n], 1)
            check(op, x[:, :n:3], a[:, :n:3], 1)
    t = x.T                                   # (1000, 7), strides (1, 1000)
    for dim in (0, 1):
        check("cumsum", t, a.T, dim)
    got = t.client.cumsum(t, 0)
    assert got.shape == (1000, 7) and got.dtype == out_dtype(d)
    if device == "cpu":
        assert got.strides == (1, 1000)


def test_zero_dim_empty_size1(device):
    s = make(np.array(2.5), device)
    assert_close(s.client.cumsum(s), np.array([2.5]))  # None flattens: (1,)
    assert s.client.cumprod(s, 0).shape == ()
    e = make(np.zeros((0, 3), np.float32), device)
    assert_close(e.client.cumsum(e, 0), np.zeros((0, 3)), dtype=nr.float32)
    assert_close(e.client.cumprod(e), np.zeros(0), dtype=nr.float32)
    b = make(np.zeros((2, 0), bool), device)
    assert_close(b.client.cumsum(b, 1), np.zeros((2, 0), np.int64), dtype=nr.int64)
    one = make(np.full((1, 1), 3, np.uint8), device)
    assert_close(one.client.cumprod(one, 1), np.full((1, 1), 3, np.uint64), dtype=nr.uint64)


def test_nan_inf_and_wrapping(device):
    a = np.array([1.0, np.nan, 2.0, np.inf, -np.inf], np.float32)
    x = make(a, device)
    with np.errstate(invalid="ignore"):
        assert_close(x.client.cumsum(x), np.cumsum(a.astype(np.float64)))
        assert_close(x.client.cumprod(x), np.cumprod(a.astype(np.float64)))
    i = np.array([np.iinfo(np.int64).max, 1, 1], np.int64)
    assert_close(make(i, device).client.cumsum(make(i, device)), np.cumsum(i))
    u = np.full(40, 7, np.uint32)
    assert_close(make(u, device).client.cumprod(make(u, device)), np.cumprod(u, dtype=np.uint64))


def test_public_api_and_errors(device):
    a = np.arange(1, 7, dtype=np.float64).reshape(2, 3)
    x = make(a, device)
    assert_close(nr.cumsum(x, 1), np.cumsum(a, 1))
    assert_close(x.cumprod(0), np.cumprod(a, 0))
    assert_close(x.client.cumsum(x, np.int64(-1)), np.cumsum(a, -1))
    with pytest.raises(nr.errors.IndexOutOfRange, match="cumsum"):
        x.client.cumsum(x, 2)
    with pytest.raises(nr.ShapeError, match="cumprod"):
        x.client.cumprod(x, (0, 1))


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("shape,dim", [((3, 5), 1), ((2, 700), 1), ((700, 3), 0), ((5,), None)])
def test_first_element_is_kept_as_is(device, dtype, shape, dim):
    """A scan starts from the first element itself, not from identity (op) x0: an all -0.0 line
    sums to -0.0 (0.0 + -0.0 would be +0.0), and a complex product starting at (-inf+0j) or
    (inf+infj) keeps it (1 * (-inf+0j) is (-inf+nanj)), as in NumPy; row, tiled and column kernels."""
    a = np.full(shape, -0.0, nr.dtype(dtype).np)
    x = make(a, device, dtype)
    got = x.client.cumsum(x, dim).numpy()
    assert got.shape == (a.size,) if dim is None else shape
    assert np.all(got == 0) and np.all(np.signbit(got.real)), got
    if nr.dtype(dtype).is_complex:
        first = (slice(0, 1),) if dim is None else tuple(slice(0, 1) if i == dim else slice(None)
                                                         for i in range(len(shape)))
        for v in (complex(-np.inf, 0.0), complex(np.inf, np.inf)):
            b = np.ones(shape, a.dtype)
            b[first] = v
            y = make(b, device, dtype)
            lead = y.client.cumprod(y, dim).numpy().reshape(-1 if dim is None else shape)[first]
            assert np.array_equal(lead, np.full(lead.shape, v, a.dtype)), (v, lead)
