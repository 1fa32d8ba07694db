"""matmul against NumPy (float64 oracle for floats, exact for integers): NumPy's shape rules
(1-d, 2-d, batched with broadcast batch dims), every dtype, transposed/offset/flipped operands,
sizes that exercise the packed kernel's edge tiles and blocking, size-0 dims, errors."""

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


def sample(dtype: str, shape, rng) -> np.ndarray:
    d = nr.dtype(dtype)
    if d.kind == "b":
        return rng.random(shape) > 0.6
    if d.is_integer:
        info = np.iinfo(d.np)
        return rng.integers(max(info.min, -9), min(info.max, 9), shape, endpoint=True).astype(d.np)
    if d.is_complex:
        return (rng.uniform(-1, 1, shape) + 1j * rng.uniform(-1, 1, shape)).astype(d.np)
    return rng.uniform(-1, 1, shape).astype(d.np)


def oracle(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    kind = a.dtype.kind
    if kind == "b":
        return np.matmul(a, b)
    if kind in "iu":
        return np.matmul(a, b)  # same-dtype integer matmul wraps in NumPy too
    if kind == "c":
        return np.matmul(a.astype(np.complex128), b.astype(np.complex128))
    return np.matmul(a.astype(np.float64), b.astype(np.float64))


def check(x, y, a, b, dtype=None):
    got = x.client.matmul(x, y)
    exp = oracle(a, b)
    d = nr.dtype(dtype or a.dtype)
    k = a.shape[-1]
    r, at = tolerance(d)
    # a dot product of k terms of size <= 1: absolute error grows with k
    assert_close(got, exp, dtype=d, rtol=r, atol=at + r * k if d.kind in "fc" else 0)


SHAPES = [
    ((4,), (4,)),
    ((3,), (3, 5)),
    ((2, 7), (7,)),
    ((4,), (2, 4, 3)),
    ((2, 3, 5), (5,)),
    ((3, 5), (5, 2)),
    ((1, 1), (1, 1)),
    ((2, 1, 3, 4), (5, 4, 6)),
    ((3, 1, 4), (2, 3, 4, 2)),
    ((5, 3, 4), (4, 6)),
    ((3, 4), (2, 4, 6)),
    ((2, 1, 2, 3), (1, 4, 3, 2)),
]


@pytest.mark.parametrize("dtype", ALL)
def test_shapes_every_dtype(device, dtype):
    rng = np.random.default_rng(1)
    for sa, sb in SHAPES:
        a, b = sample(dtype, sa, rng), sample(dtype, sb, rng)
        check(make(a, device), make(b, device), a, b)


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
@pytest.mark.parametrize("mkn", [(1, 1, 1), (13, 17, 33), (12, 64, 32), (37, 300, 70), (130, 257, 65), (2, 600, 3),
                                 (5, 3000, 7), (24, 100, 64)])
def test_blocking_and_edges(device, dtype, mkn):
    m, k, n = mkn
    rng = np.random.default_rng(m * 1000 + n)
    a, b = sample(dtype, (m, k), rng), sample(dtype, (k, n), rng)
    check(make(a, device), make(b, device), a, b)


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16", "int32", "complex64", "complex128",
                                   "bool"])
def test_transposed_and_strided(device, dtype):
    """Transposed, sliced (offset), stepped, flipped and broadcast operands, read without a copy."""
    rng = np.random.default_rng(4)
    A = sample(dtype, (40, 30), rng)
    B = sample(dtype, (30, 50), rng)
    x, y = make(A, device), make(B, device)
    xt, yt = make(np.ascontiguousarray(A.T), device), make(np.ascontiguousarray(B.T), device)
    cases = [
        (xt.T, y, A, B),
        (x, yt.T, A, B),
        (xt.T, yt.T, A, B),
        (x[3:20, 2:27], y[2:27, 5:], A[3:20, 2:27], B[2:27, 5:]),
        (x[::2, ::3], y[::3, ::-2], A[::2, ::3], B[::3, ::-2]),
        (x.flip(0), y.flip(1), A[::-1], B[:, ::-1]),
        (x[0].broadcast_to((3, 30)), y, np.broadcast_to(A[0], (3, 30)), B),
        (x.broadcast_to((2, 40, 30)), y, np.broadcast_to(A, (2, 40, 30)), B),
    ]
    # rows of 8k elements whose views start one element in: vector loads must notice the misalignment
    A2, B2 = sample(dtype, (40, 40), rng), sample(dtype, (40, 56), rng)
    x2, y2 = make(A2, device), make(B2, device)
    cases.append((x2[:, 1:31], y2[3:33, 1:51], A2[:, 1:31], B2[3:33, 1:51]))
    for xv, yv, a, b in cases:
        check(xv, yv, a, b, dtype)


def test_batched_views(device):
    rng = np.random.default_rng(6)
    a = sample("float32", (3, 4, 5, 6), rng)
    b = sample("float32", (4, 3, 6, 2), rng)
    x, y = make(a, device), make(b, device)
    check(x.permute(1, 0, 2, 3), y, a.transpose(1, 0, 2, 3), b)
    check(x[:, 1:3], y.permute(1, 0, 2, 3)[:, 1:3], a[:, 1:3], b.transpose(1, 0, 2, 3)[:, 1:3])
    check(x.mT.mT[::-1], y.permute(1, 0, 2, 3), a[::-1], b.transpose(1, 0, 2, 3))
    c = sample("float64", (64, 9, 11), rng)
    d = sample("float64", (64, 11, 7), rng)
    check(make(c, device), make(d, device), c, d)  # many small products: batch-parallel path


def test_size_zero(device):
    for sa, sb in [((0, 3), (3, 4)), ((3, 0), (0, 4)), ((2, 3), (3, 0)), ((0, 2, 3), (3, 4)), ((0,), (0,)),
                   ((2, 0, 5), (2, 5, 0))]:
        a = np.ones(sa, np.float32)
        b = np.ones(sb, np.float32)
        check(make(a, device), make(b, device), a, b)
    i = np.ones((3, 0), np.int64)
    check(make(i, device), make(np.ones((0, 2), np.int64), device), i, np.ones((0, 2), np.int64))


def test_integer_wrapping(device):
    a = np.full((2, 3), 100, np.int8)
    b = np.full((3, 2), 100, np.int8)
    x, y = make(a, device), make(b, device)
    got = x.client.matmul(x, y)
    assert got.dtype == nr.int8
    assert_close(got, np.matmul(a, b))  # 30000 wraps modulo 256 as in NumPy
    u = np.array([[2**32 - 1, 2]], np.uint32)
    v = np.array([[3], [5]], np.uint32)
    assert_close(make(u, device) @ make(v, device), np.matmul(u, v))
    big = np.array([[2**62, 3]], np.int64)
    assert_close(make(big, device) @ make(np.array([[4], [1]], np.int64), device),
                 np.matmul(big, np.array([[4], [1]], np.int64)))


def test_nan_inf(device):
    a = np.array([[1.0, np.nan], [np.inf, 1.0], [0.0, 2.0]], np.float32)
    b = np.array([[1.0, 0.0], [2.0, -np.inf]], np.float32)
    got = make(a, device) @ make(b, device)
    with np.errstate(invalid="ignore"):
        exp = a.astype(np.float64) @ b.astype(np.float64)
    assert_close(got, exp)


def test_mixed_dtypes_and_operator(device):
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.arange(6, dtype=np.float64).reshape(3, 2)
    got = make(a, device) @ make(b, device)
    assert got.dtype == nr.float64
    assert_close(got, a.astype(np.float64) @ b)
    assert_close(nr.matmul(make(a, device), make(b.astype(np.float32), device)), a @ b.astype(np.float32))


@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16"])
@pytest.mark.parametrize("mkn", [(5, 7, 3), (130, 40, 136)])
def test_matmul_bias(device, dtype, mkn):
    """The bias (broadcast row, and a strided full matrix) added in the product's epilogue."""
    m, k, n = mkn
    rng = np.random.default_rng(8)
    a, b, c = sample(dtype, (m, k), rng), sample(dtype, (k, n), rng), sample(dtype, (n,), rng)
    full = sample(dtype, (n, m), rng).T
    x = make(a, device)
    r, at = tolerance(nr.dtype(dtype))
    for bias in (c, full):
        got = x.client.matmul_bias(x, make(b, device), make(np.ascontiguousarray(bias.T), device).T
                                   if bias is full else make(bias, device))
        exp = a.astype(np.float64) @ b.astype(np.float64) + bias.astype(np.float64)
        assert_close(got, exp, dtype=nr.dtype(dtype), rtol=r, atol=at + r * k)


def test_large_float(device):
    """Above one KC/MC block in every dim, with the threads' split of rows."""
    rng = np.random.default_rng(12)
    for dtype in ("float32", "float64"):
        a, b = sample(dtype, (300, 520), rng), sample(dtype, (520, 290), rng)
        check(make(a, device), make(b, device), a, b)
        check(make(np.ascontiguousarray(a.T), device).T, make(b, device), a, b)


@pytest.mark.parametrize("dtype", ["float32", "float64", "bfloat16"])
@pytest.mark.parametrize("mkn", [(1030, 300, 70), (8, 520, 2100), (301, 1100, 1050), (97, 7, 4099)])
def test_gemm_thread_bands_cpu(dtype, mkn):
    """The CPU GEMM's task split: row bands of whole panels (a partial last panel), column
    blocks past NC, several KC steps, few rows (columns split instead), and a transposed A."""
    m, k, n = mkn
    rng = np.random.default_rng(m + k + n)
    a, b = sample(dtype, (m, k), rng), sample(dtype, (k, n), rng)
    check(make(a, "cpu"), make(b, "cpu"), a, b)
    check(make(np.ascontiguousarray(a.T), "cpu").T, make(b, "cpu"), a, b)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("mkn", [(2, 3, 2), (32, 16, 32), (7, 9, 13), (16, 40, 24), (3, 0, 5), (9, 1, 2)])
def test_small_products_with_strided_b_rows_cpu(dtype, mkn):
    """Tiny products whose B has no contiguous rows (w.T, stepped or flipped columns) copy B
    into contiguous rows for the unpacked kernel: alone, batched and with an offset."""
    m, k, n = mkn
    rng = np.random.default_rng(m * 5 + k)
    a, b = sample(dtype, (m, k), rng), sample(dtype, (k, n), rng)
    bt = make(np.ascontiguousarray(b.T), "cpu").T
    check(make(a, "cpu"), bt, a, b)
    wide = sample(dtype, (k + 1, 2 * n + 1), rng)
    w = make(wide, "cpu")
    check(make(a, "cpu"), w[1:, 1::2], a, wide[1:, 1::2])
    check(make(a, "cpu"), w[1:, ::-2], a, wide[1:, ::-2])
    a3, b3 = sample(dtype, (4, m, k), rng), sample(dtype, (4, k, n), rng)
    check(make(a3, "cpu"), make(np.ascontiguousarray(b3.transpose(0, 2, 1)), "cpu").mT, a3, b3)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("mkn", [(13, 70, 45), (24, 64, 32), (2, 3, 2), (37, 0, 33), (25, 300, 97)])
def test_small_batched_products_cpu(dtype, mkn):
    """Many small products run one per thread through the unpacked kernel (gemm_direct.h):
    edge rows and columns, a transposed A read in place, k = 0, a strided batch."""
    m, k, n = mkn
    rng = np.random.default_rng(m * 7 + n)
    a, b = sample(dtype, (8, m, k), rng), sample(dtype, (8, k, n), rng)
    check(make(a, "cpu"), make(b, "cpu"), a, b)
    at = make(np.ascontiguousarray(a.transpose(0, 2, 1)), "cpu").mT
    check(at, make(b, "cpu"), a, b)
    big = make(sample(dtype, (16, k, n), rng), "cpu")
    check(make(a, "cpu"), big[::2], a, big[::2].numpy())


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
def test_matrix_vector(device, dtype):
    """n == 1 and m == 1 take the dot-product / row-streaming kernels (complex ones on the real
    and imaginary parts); strided operands too."""
    rng = np.random.default_rng(13)
    a, v, w = sample(dtype, (300, 700), rng), sample(dtype, (700,), rng), sample(dtype, (300,), rng)
    x, xv, xw = make(a, device), make(v, device), make(w, device)
    check(x, xv, a, v)
    check(xw, x, w, a)
    check(x[::2, ::-3], xv[::3], a[::2, ::-3], v[::3])
    check(x.T, xw, a.T, w)
    check(x[1:], xv, a[1:], v)  # 299 rows: the four-row blocks and a remainder row
    check(x[:6, :693], xv[:693], a[:6, :693], v[:693])  # k not a multiple of the lanes
    check(xv[::2][:300], x, v[::2][:300], a)
    check(x.unsqueeze(0).broadcast_to((3, 300, 700)), xv.unsqueeze(1), np.broadcast_to(a, (3, 300, 700)), v[:, None])


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "complex64", "complex128"])
def test_dot_products(device, dtype):
    """vector @ vector (a 0-d result; the CPU splits a long one between threads and adds the
    partial sums in order), strided, flipped and offset vectors, k = 0, and batched dots."""
    rng = np.random.default_rng(17)
    for k in (1, 5, 17, 1000, 70001):
        u, v = sample(dtype, (k,), rng), sample(dtype, (k,), rng)
        got = make(u, device) @ make(v, device)
        assert got.shape == () and got.dtype == nr.dtype(dtype)
        check(make(u, device), make(v, device), u, v)
    w = sample(dtype, (3000,), rng)
    x = make(w, device)
    check(x[::3], x[1::3], w[::3], w[1::3])
    check(x[::-1], x, w[::-1], w)
    check(x[1:], x[:-1], w[1:], w[:-1])
    check(x[:0], x[:0], w[:0], w[:0])
    b = sample(dtype, (6, 1, 40), rng), sample(dtype, (6, 40, 1), rng)
    check(make(b[0], device), make(b[1], device), *b)


def test_errors(device):
    x = make(np.zeros((2, 3), np.float32), device)
    with pytest.raises(nr.ShapeError, match=r"matmul.*\(2, 3\).*\(4, 5\)"):
        x.client.matmul(x, make(np.zeros((4, 5), np.float32), device))
    with pytest.raises(nr.ShapeError, match=r"matmul.*\(2, 3, 4\).*\(5, 4, 2\)"):
        x.client.matmul(make(np.zeros((2, 3, 4)), device), make(np.zeros((5, 4, 2)), device))
    with pytest.raises(nr.ShapeError, match="matmul"):
        x.client.matmul(make(np.float32(1.0), device), x)
    with pytest.raises((nr.DTypeError, nr.ShapeError), match="matmul"):
        x.client.matmul(x, 2.0)
