"""Reductions (sum prod max min amax amin argmax argmin any all mean var std) against a
NumPy float64 oracle: every dtype, dim None/int/negative/tuple/(), keepdim, 0-d, empty,
size-1, strided/offset/flipped/broadcast inputs, NaN/inf, integer wrapping, float32 accuracy."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from conftest import assert_close, tolerance
from hypothesis import given, settings
from hypothesis import strategies as st

import numr as nr

ALL = [d.name for d in nr.ALL_DTYPES]
REAL = [d.name for d in nr.ALL_DTYPES if not d.is_complex]
FLOATS = ["float16", "bfloat16", "float32", "float64", "float8_e4m3fn", "float8_e5m2"]
DIMS = [None, 0, 1, -1, 2, (0, 2), (-1, -2), (0, 1, 2), ()]


def make(a, device, dtype=None):
    try:
        return nr.tensor(a, dtype=dtype, device=device)
    except nr.UnsupportedOperation as e:
        pytest.skip(str(e))


def sample(dtype: str, shape, rng, lo=-2.0, hi=2.0) -> np.ndarray:
    """Random values exactly representable in ``dtype``."""
    d = nr.dtype(dtype)
    if d.kind == "b":
        return rng.random(shape) > 0.5
    if d.is_integer:
        info = np.iinfo(d.np)
        return rng.integers(max(info.min, -50), min(info.max, 50), shape, endpoint=True).astype(d.np)
    if d.is_complex:
        return (rng.uniform(lo, hi, shape) + 1j * rng.uniform(lo, hi, shape)).astype(d.np)
    return rng.uniform(lo, hi, shape).astype(d.np)


def wide(a: np.ndarray) -> np.ndarray:
    """The oracle's input: float64/complex128 for floats, exact for integers."""
    if a.dtype.kind == "c":
        return a.astype(np.complex128)
    if a.dtype.kind in "biu":
        return a
    return a.astype(np.float64)


def sum_dtype(d: nr.DType) -> nr.DType:
    return nr.int64 if d.kind in "bi" else nr.uint64 if d.kind == "u" else d


def run(x, op, dim, keepdim):
    fn = getattr(x.client, op)
    return fn(x, dim, keepdim=keepdim) if dim != "absent" else fn(x)


def expected(op, a, dim, keepdim):
    w = wide(a)
    axis = dim
    if op == "sum":
        dt = np.int64 if a.dtype.kind in "bi" else np.uint64 if a.dtype.kind == "u" else None
        return np.sum(w, axis=axis, keepdims=keepdim, dtype=dt)
    if op == "prod":
        dt = np.int64 if a.dtype.kind in "bi" else np.uint64 if a.dtype.kind == "u" else None
        return np.prod(w, axis=axis, keepdims=keepdim, dtype=dt)
    return getattr(np, {"max": "max", "min": "min", "amax": "max", "amin": "min", "any": "any",
                        "all": "all"}[op])(w, axis=axis, keepdims=keepdim)


def sum_tol(a, dim, dtype):
    """Absolute tolerance of a sum: the dtype's relative error times sum(|x|)."""
    r, at = tolerance(dtype)
    if nr.dtype(dtype).kind in "biu":
        return 0.0
    return at + 4 * r * float(np.max(np.sum(np.abs(wide(a)), axis=dim), initial=0.0))


@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize("op", ["sum", "prod", "max", "min", "amax", "amin", "any", "all"])
def test_reduce_dims(device, op, dtype):
    d = nr.dtype(dtype)
    if d.is_complex and op in ("max", "min", "amax", "amin"):
        pytest.skip("complex is not ordered (tested in test_errors)")
    rng = np.random.default_rng(abs(hash((op, dtype))) % 2**32)
    lo, hi = (0.8, 1.25) if op == "prod" else (-2.0, 2.0)
    a = sample(dtype, (3, 4, 5), rng, lo, hi)
    if op == "prod" and d.is_integer:
        a = (a % 3).astype(d.np)
    x = make(a, device)
    for dim in DIMS:
        for keepdim in (False, True):
            got = run(x, op, dim, keepdim)
            exp = expected(op, a, dim, keepdim)
            out_dtype = sum_dtype(d) if op in ("sum", "prod") else nr.bool_ if op in ("any", "all") else d
            if op == "sum":
                assert_close(got, exp, dtype=out_dtype, atol=sum_tol(a, dim, dtype))
            else:
                assert_close(got, exp, dtype=out_dtype)


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("op", ["argmax", "argmin"])
def test_arg_reduce(device, op, dtype):
    rng = np.random.default_rng(7)
    a = sample(dtype, (4, 5, 6), rng)
    if nr.dtype(dtype).kind in "iu":
        a = (a % 3).astype(a.dtype)  # many ties: the first occurrence must win
    x = make(a, device)
    for dim in (None, 0, 1, 2, -1):
        for keepdim in (False, True):
            got = getattr(x.client, op)(x, dim, keepdim=keepdim)
            exp = getattr(np, op)(wide(a), axis=dim, keepdims=keepdim)
            assert_close(got, exp, dtype=nr.int64)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32"])
def test_arg_reduce_long_rows(device, dtype):
    """Rows across the 64-element search chunks and the 2048 block: ties (first wins), a NaN
    (first NaN wins), the winner in the last chunk."""
    rng = np.random.default_rng(15)
    a = rng.integers(-1000, 1000, (6, 5000)).astype(dtype)
    a[0, [700, 63, 64, 4999]] = 5000  # ties inside and across chunks
    a[1, 4999] = 5000
    a[2, [2047, 2048]] = -5000
    a[5, [128, 2048 + 64]] = [5000, -5000]  # winners at a chunk's first element
    if dtype != "int32":
        a[3, [3000, 3100]] = np.nan
        a[4, 10] = -np.inf
    x = make(a, device)
    for n in (1000, 5000):
        for op in ("argmax", "argmin"):
            assert_close(getattr(x[:, :n].client, op)(x[:, :n], 1), getattr(np, op)(a[:, :n], axis=1), dtype=nr.int64)


def test_settled_totals_stop_early_with_the_same_results(device):
    """any/all stop a row at the block after a True/False, max/min after a NaN: the result
    is what the whole row gives (values after the stop point differ per row)."""
    rng = np.random.default_rng(17)
    b = np.zeros((4, 9000), bool)
    b[0, 0] = True          # any settles in the first block
    b[1, 8999] = True       # ... in the last
    b[3] = True
    b[3, 5000] = False      # all settles mid-row
    f = rng.standard_normal((3, 9000)).astype(np.float32)
    f[0, 3] = np.nan        # NaN early, a larger value later
    f[0, 7000] = 1e30
    f[1, 8999] = np.nan
    bt, ft = make(b, device), make(f, device)
    for dim in (1, None):
        assert_close(bt.client.any(bt, dim), np.any(b, axis=dim), dtype=nr.bool_)
        assert_close(bt.client.all(bt, dim), np.all(b, axis=dim), dtype=nr.bool_)
        assert_close(ft.client.max(ft, dim), np.max(f, axis=dim), dtype=nr.float32)
        assert_close(ft.client.min(ft, dim), np.min(f, axis=dim), dtype=nr.float32)
        assert_close(ft.client.sum(ft, dim), np.sum(f.astype(np.float64), axis=dim), dtype=nr.float32)


ROW_LENGTHS = [*range(1, 70), *range(120, 137), *range(250, 262), 1000, 4099]


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64", "uint32", "uint64", "int8"])
def test_arg_reduce_every_row_length(device, dtype):
    """The one-pass lane search (32/64-bit types) and its edges: rows shorter than the
    unrolled vectors, single-vector and scalar tails, equal extremes in different lanes (the
    smaller index wins), NaN in the first vectors / the main loop / the tails, unsigned
    values above the signed range."""
    rng = np.random.default_rng(21)
    width = ROW_LENGTHS[-1]
    d = np.dtype(dtype)
    if d.kind == "f":
        a = rng.integers(-4, 5, (8, width)).astype(dtype)
        a[3] = -0.0
        a[3, 1::7] = 0.0                                   # -0.0 == 0.0: the first wins
        a[4, [5, 200]] = np.nan                             # in the first vectors
        a[5, [130, 900]] = np.nan                           # main loop
        a[6, [width - 1, 61, 66]] = np.nan                  # tails of several lengths
        a[7, [0, 3, 4000]] = [np.inf, -np.inf, np.inf]
    elif d.kind == "u":
        a = rng.integers(0, 5, (8, width)).astype(dtype)
        a[:, 1::9] = np.iinfo(d).max - rng.integers(0, 3, (8, len(range(1, width, 9)))).astype(dtype)
    else:
        info = np.iinfo(d)
        a = rng.integers(-3, 4, (8, width)).astype(dtype)
        a[2, ::5], a[3, 2::11] = info.max, info.min
    x = make(a, device)
    for n in ROW_LENGTHS:
        for op in ("argmax", "argmin"):
            got = getattr(x.client, op)(x[:, :n], 1)
            assert_close(got, getattr(np, op)(a[:, :n], axis=1), dtype=nr.int64)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "uint8", "float16"])
def test_max_min_every_row_length_and_position(device, dtype):
    """Contiguous max/min runs: lane blocks, the last partial block re-read as a whole block,
    lane folds. The extreme (or a NaN) at every position of rows of many lengths, also across
    the 2048-element block; a row holding only the identity (-inf/inf, integer limits)."""
    d = np.dtype(nr.dtype(dtype).np)
    rng = np.random.default_rng(5)
    for n in (1, 7, 8, 9, 31, 32, 33, 50, 63, 64, 65, 100, 2047, 2049, 2100):
        positions = range(n) if n <= 100 else [p for p in (0, 1, 1000, 2046, 2047, 2048, n - 1) if p < n]
        a = (rng.integers(0, 50, (len(positions) + 1, n)) + 20).astype(d)
        for r, p in enumerate(positions):
            a[r, p] = 100
        a[-1] = -np.inf if d.kind == "f" else np.iinfo(d).min
        x = make(a, device, dtype)
        assert_close(x.client.max(x, 1), np.max(a, axis=1), dtype=dtype)
        assert_close(x.client.min(x, 1), np.min(a, axis=1), dtype=dtype)
        if d.kind != "u":  # the extreme as a minimum
            assert_close(x.client.min(-x, 1), np.min(-a, axis=1), dtype=dtype)
        if d.kind == "f":
            nan = a.copy()
            for r, p in enumerate(positions):
                nan[r, p] = np.nan
            y = make(nan, device, dtype)
            for op in ("max", "min"):
                got = getattr(y.client, op)(y, 1)
                assert got.shape == (len(positions) + 1,)
                assert_close(got, getattr(np, op)(nan, axis=1), dtype=dtype)


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
def test_nan_inf(device, dtype):
    d = nr.dtype(dtype)
    a = np.array([[1.0, np.nan, 3.0, np.nan], [np.inf, -np.inf, 2.0, 0.0], [-0.0, 5.0, 5.0, -1.0]]).astype(d.np)
    x = make(a, device)
    w = wide(a)
    for dim in (None, 0, 1):
        assert_close(x.client.max(x, dim), np.max(w, axis=dim), dtype=d)
        assert_close(x.client.min(x, dim), np.min(w, axis=dim), dtype=d)
        assert_close(x.client.argmax(x, dim), np.argmax(w, axis=dim), dtype=nr.int64)
        assert_close(x.client.argmin(x, dim), np.argmin(w, axis=dim), dtype=nr.int64)
        assert_close(x.client.sum(x, dim), np.sum(w, axis=dim), dtype=d)
        assert_close(x.client.any(x, dim), np.any(w, axis=dim), dtype=nr.bool_)
        assert_close(x.client.all(x, dim), np.all(w, axis=dim), dtype=nr.bool_)
    z = make(np.array([-0.0, 0.0]).astype(d.np), device)
    assert not z.client.any(z).item()
    assert z.client.all(make(np.array([np.nan, -1.0]).astype(d.np), device)).item()


def test_views(device):
    """Transposed, offset, strided, flipped and broadcast inputs are read in place."""
    rng = np.random.default_rng(3)
    base = rng.standard_normal((6, 7, 8)).astype(np.float32)
    x = make(base, device)
    cases = [
        (x.permute(2, 0, 1), base.transpose(2, 0, 1)),
        (x[1:, ::2, 3:], base[1:, ::2, 3:]),
        (x.flip(0).flip(2)[:, 2], base[::-1, :, ::-1][:, 2]),
        (x.T[::-3], base.T[::-3]),
        (x[2, 1].broadcast_to((5, 8)), np.broadcast_to(base[2, 1], (5, 8))),
        (x[:, :1, :].transpose(0, 2), base[:, :1, :].transpose(2, 1, 0)),
    ]
    for v, a in cases:
        assert v.shape == a.shape
        for dim in [None] + list(range(a.ndim)) + [(0, a.ndim - 1)]:
            assert_close(v.client.sum(v, dim), np.sum(wide(a), axis=dim), atol=sum_tol(a, dim, "float32"))
            assert_close(v.client.max(v, dim), np.max(a, axis=dim))
            assert_close(v.client.min(v, dim), np.min(a, axis=dim))
            assert_close(v.client.prod(v, dim), np.prod(wide(a), axis=dim), rtol=1e-5, atol=1e-6)
        for dim in [None] + list(range(a.ndim)):
            assert_close(v.client.argmax(v, dim), np.argmax(a, axis=dim), dtype=nr.int64)
            assert_close(v.client.argmin(v, dim), np.argmin(a, axis=dim), dtype=nr.int64)


def test_large_strided_and_vertical(device):
    """Sizes above the parallel threshold: rows split, columns (vertical driver), one long row."""
    rng = np.random.default_rng(11)
    a = rng.standard_normal((300, 517)).astype(np.float32)
    x = make(a, device)
    for v, b in ((x, a), (x.T, a.T), (x[::-1, 3:], a[::-1, 3:])):
        for dim in (None, 0, 1):
            assert_close(v.client.sum(v, dim), np.sum(wide(b), axis=dim), atol=sum_tol(b, dim, "float32"))
            assert_close(v.client.max(v, dim), np.max(b, axis=dim))
            assert_close(v.client.argmin(v, dim), np.argmin(b, axis=dim))
    w = rng.standard_normal((3, 40, 5000)).astype(np.float32)  # wide rows: heap accumulators
    xw = make(w, device)
    for dim in (0, 1, (0, 1)):
        assert_close(xw.client.sum(xw, dim), np.sum(wide(w), axis=dim), atol=sum_tol(w, dim, "float32"))
        assert_close(xw.client.min(xw, dim), np.min(w, axis=dim))
    i = rng.integers(-5, 5, (200, 300)).astype(np.int32)
    xi = make(i, device)
    for dim in (None, 0, 1):
        assert_close(xi.client.sum(xi, dim), np.sum(i, axis=dim, dtype=np.int64), dtype=nr.int64)
        assert_close(xi.client.argmax(xi, dim), np.argmax(i, axis=dim))


@pytest.mark.parametrize("dtype", ["float32", "int32"])
def test_row_lengths(device, dtype):
    """Every lane path of the row kernels: lengths around 8, 32, 64 lanes and the 2048 block,
    contiguous and strided rows (values whose products are exact)."""
    rng = np.random.default_rng(12)
    for n in (*range(1, 20), 31, 32, 33, 63, 64, 65, 127, 129, 2047, 2048, 2049, 4100):
        a = rng.choice(np.array([-1.0, 1.0, 0.5, 2.0] if dtype == "float32" else [-1, 1, 3, 0]), (3, 2 * n))
        a = a.astype(dtype)
        x = make(a, device)
        for v, b in ((x[:, :n], a[:, :n]), (x[:, ::2], a[:, ::2])):
            for op in ("sum", "prod", "max", "any", "all"):
                if op == "prod" and dtype == "int32" and n > 30:
                    continue  # 3**n wraps differently in int64 and NumPy's float oracle
                assert_close(run(v, op, 1, False), expected(op, b, 1, False), atol=sum_tol(b, 1, dtype))


def test_empty_and_size1(device):
    e = make(np.zeros((0, 3), np.float32), device)
    assert_close(e.client.sum(e), np.float32(0.0), dtype=nr.float32)
    assert_close(e.client.prod(e), np.float32(1.0), dtype=nr.float32)
    assert_close(e.client.sum(e, 0), np.zeros(3), dtype=nr.float32)
    assert_close(e.client.prod(e, 0, keepdim=True), np.ones((1, 3)))
    assert_close(e.client.sum(e, 1), np.zeros(0))
    assert_close(e.client.max(e, 1), np.zeros(0))  # reduces a non-empty dim of an empty tensor
    assert_close(e.client.any(e), np.bool_(False), dtype=nr.bool_)
    assert_close(e.client.all(e), np.bool_(True), dtype=nr.bool_)
    for op in ("max", "min", "argmax", "argmin"):
        with pytest.raises(nr.ShapeError, match=op):
            getattr(e.client, op)(e)
        with pytest.raises(nr.ShapeError, match=r"\(0, 3\)"):
            getattr(e.client, op)(e, 0)
    ei = make(np.zeros((2, 0), np.int8), device)
    assert_close(ei.client.sum(ei, 1), np.zeros(2, np.int64), dtype=nr.int64)
    s = make(np.full((1, 1, 1), 2.5), device)
    assert_close(s.client.sum(s), np.float64(2.5))
    assert_close(s.client.max(s, (0, 2), keepdim=True), np.full((1, 1, 1), 2.5))
    assert_close(s.client.argmax(s), np.int64(0))


@pytest.mark.filterwarnings("ignore:Mean of empty slice:RuntimeWarning")
@pytest.mark.parametrize("dtype", ALL)
def test_empty_reductions_every_dtype(device, dtype):
    """sum/prod/any/all/mean of empty ranges give the identity (NaN for mean) in every dtype,
    also through flipped and transposed empty views (WebGPU once bound the empty input's
    storage as 64-bit elements and failed validation)."""
    d = nr.dtype(dtype)
    a = np.zeros((3, 0, 2), d.np)
    x = make(a, device)
    for v, ref in ((x, a), (x.flip(0), a[::-1]), (x.T, a.T), (x[::2], a[::2])):
        for dim in (None, 1, (0, 1), -1):
            for op in ("sum", "prod", "any", "all", "mean"):
                try:
                    got = getattr(nr, op)(v, dim=dim)
                except (nr.UnsupportedOperation, nr.DTypeError):
                    continue
                with np.errstate(all="ignore"):
                    w = ref.astype(np.complex128 if d.is_complex else np.float64) if op == "mean" else ref
                    exp = getattr(np, op)(w, axis=dim)
                assert_close(got, exp, rtol=0, atol=0)


def test_zero_dim(device):
    x = make(np.array(3.5, np.float32), device)
    for op in ("sum", "prod", "max", "min"):
        r = getattr(x.client, op)(x)
        assert r.shape == () and r.item() == 3.5
        assert getattr(x.client, op)(x, 0).shape == ()
        assert getattr(x.client, op)(x, -1, keepdim=True).shape == ()
    assert x.client.argmax(x).item() == 0
    assert x.client.argmin(x, 0).shape == ()
    assert x.client.any(x).item() is True
    b = make(np.array(False), device)
    assert b.client.sum(b).dtype == nr.int64


def test_integer_wrapping(device):
    big = np.iinfo(np.int64).max
    x = make(np.array([big, 1, 2], np.int64), device)
    assert x.client.sum(x).item() == np.array([big, 1, 2], np.int64).sum()  # wraps as NumPy
    u8 = make(np.full(1000, 255, np.uint8), device)
    assert u8.client.sum(u8).dtype == nr.uint64 and u8.client.sum(u8).item() == 255000
    i8 = make(np.full(100, -128, np.int8), device)
    assert i8.client.sum(i8).item() == -12800
    p = make(np.full(70, 2, np.int32), device)
    assert p.client.prod(p).item() == int(np.prod(np.full(70, 2, np.int64)))  # 2**70 wraps to 0
    i32 = np.array([np.iinfo(np.int32).min, 5, np.iinfo(np.int32).max], np.int32)
    xi = make(i32, device)
    assert xi.client.max(xi).item() == i32.max() and xi.client.min(xi).item() == i32.min()
    u64 = np.array([0, 2**64 - 1, 7], np.uint64)
    xu = make(u64, device)
    assert xu.client.max(xu).item() == 2**64 - 1 and xu.client.argmax(xu).item() == 1
    assert xu.client.sum(xu).item() == int(u64.sum())


def test_float32_accuracy(device):
    ones = nr.ones((10_000_000,), dtype=nr.float32, device=device)
    assert ones.client.sum(ones).item() == 10_000_000.0
    rng = np.random.default_rng(5)
    a = rng.random(3_000_001, dtype=np.float32)
    x = make(a, device)
    ref = np.sum(a.astype(np.float64))
    got = x.client.sum(x).item()
    assert abs(got - ref) <= 2e-7 * ref  # pairwise-or-better (naive float32 is ~1e-4 off here)
    m = x[:3_000_000].reshape(3000, 1000)
    w = a[:3_000_000].reshape(3000, 1000).astype(np.float64)
    np.testing.assert_allclose(m.client.sum(m, 0).numpy(), w.sum(0), rtol=1e-6)
    np.testing.assert_allclose(m.client.sum(m, 1).numpy(), w.sum(1), rtol=1e-6)
    h = make(np.ones(5000, np.float16), device)
    assert h.client.sum(h).item() == 5000.0  # float16 alone would stop at 2048


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex(device, dtype):
    rng = np.random.default_rng(2)
    a = sample(dtype, (5, 6), rng, 0.5, 1.2)
    x = make(a, device)
    for dim in (None, 0, 1):
        assert_close(x.client.sum(x, dim), np.sum(wide(a), axis=dim), dtype=dtype)
        assert_close(x.client.prod(x, dim), np.prod(wide(a), axis=dim), dtype=dtype, rtol=1e-5)
        assert_close(x.client.mean(x, dim), np.mean(wide(a), axis=dim), dtype=dtype)
    z = make(np.array([0j, 1j]).astype(a.dtype), device)
    assert z.client.any(z).item() and not z.client.all(z).item()


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "int32", "uint8", "bool"])
def test_mean_var_std(device, dtype):
    rng = np.random.default_rng(9)
    a = sample(dtype, (4, 6, 5), rng)
    x = make(a, device)
    fdt = np.float64 if nr.dtype(dtype).kind in "biu" else None
    for dim in (None, 1, (0, 2), -1):
        for keepdim in (False, True):
            w = wide(a).astype(np.float64)
            exp_dt = nr.float64 if fdt else nr.dtype(dtype)
            assert_close(x.client.mean(x, dim, keepdim=keepdim), np.mean(w, axis=dim, keepdims=keepdim), dtype=exp_dt)
            for corr in (0, 1):
                assert_close(x.client.var(x, dim, correction=corr, keepdim=keepdim),
                             np.var(w, axis=dim, ddof=corr, keepdims=keepdim), dtype=exp_dt)
                assert_close(x.client.std(x, dim, correction=corr, keepdim=keepdim),
                             np.std(w, axis=dim, ddof=corr, keepdims=keepdim), dtype=exp_dt)


def test_var_std_correction_at_and_past_the_count(device):
    """correction >= n: the sum over max(n - correction, 0) (inf, or NaN for a zero sum), as
    NumPy's ddof and PyTorch's correction; an empty reduction is NaN."""
    a = np.array([[1.0, 2.0, 4.0], [3.0, 3.0, 3.0]], np.float32)
    x = make(a, device)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy's "Degrees of freedom <= 0"
        for corr in (3, 4, 7.5):
            assert_close(x.client.var(x, 1, correction=corr), np.var(a.astype(np.float64), axis=1, ddof=corr),
                         dtype="float32")
            assert_close(x.client.std(x, 1, correction=corr), np.std(a.astype(np.float64), axis=1, ddof=corr),
                         dtype="float32")
    e = make(np.zeros((2, 0), np.float32), device)
    assert np.isnan(e.client.var(e, 1, correction=1).numpy()).all()


def test_public_api_and_methods(device):
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    x = make(a, device)
    assert_close(nr.sum(x, 1), a.sum(1))
    assert_close(x.sum(dim=0, keepdim=True), a.sum(0, keepdims=True))
    assert_close(x.max(), np.float32(11))
    assert_close(nr.argmax(x, 1), a.argmax(1))
    assert nr.amax(x, (0, 1)).shape == ()


def test_errors(device):
    x = make(np.zeros((2, 3), np.float32), device)
    with pytest.raises(nr.errors.IndexOutOfRange, match="sum"):
        x.client.sum(x, 2)
    with pytest.raises(nr.ShapeError, match="repeated"):
        x.client.max(x, (0, -2))
    with pytest.raises((nr.DTypeError, nr.ShapeError), match="argmax"):
        x.client.argmax(x, (0, 1))
    with pytest.raises(nr.DTypeError, match="sum"):
        x.client.sum(x, "a")
    assert_close(x.client.sum(x, np.int64(1)), np.zeros(2))  # NumPy integers and lists work as dims
    assert_close(x.client.max(x, [0, 1]), np.float32(0))
    assert_close(x.client.argmax(x, np.int32(-1)), np.zeros(2, np.int64))
    c = make(np.zeros(3, np.complex64), device)
    for op in ("max", "min", "argmax", "argmin"):
        with pytest.raises(nr.DTypeError, match=f"{op}.*complex64"):
            getattr(c.client, op)(c)


def test_low_precision_bits(device):
    """float16/bfloat16/float8 results are rounded once from a float32-or-better accumulation."""
    for name in ("float16", "bfloat16", "float8_e4m3fn", "float8_e5m2"):
        npd = nr.dtype(name).np
        a = np.array([1.0, 2.0, 0.5, 0.25, 3.0], dtype=npd)
        x = make(a, device)
        exp = np.array(np.sum(a.astype(np.float64))).astype(npd)
        assert x.client.sum(x).numpy().reshape(1).view(np.uint8).tobytes() == exp.reshape(1).view(np.uint8).tobytes()
        assert x.client.max(x).numpy().astype(np.float64) == 3.0


@st.composite
def strided_case(draw):
    """A random shape, a view of it (permuted, sliced with any step, maybe broadcast) and dims."""
    ndim = draw(st.integers(1, 4))
    shape = tuple(draw(st.lists(st.integers(1, 6), min_size=ndim, max_size=ndim)))
    perm = draw(st.permutations(range(ndim)))
    steps = tuple(draw(st.lists(st.sampled_from([1, 2, -1, -2]), min_size=ndim, max_size=ndim)))
    dims = draw(st.one_of(st.none(), st.integers(-ndim, ndim - 1),
                          st.lists(st.integers(0, ndim - 1), unique=True, max_size=ndim).map(tuple)))
    return shape, perm, steps, dims, draw(st.booleans())


@settings(max_examples=60, deadline=None)
@given(case=strided_case())
def test_hypothesis_views(case):
    """sum/max/argmax/any of random strided views equal NumPy's (CPU)."""
    shape, perm, steps, dims, keepdim = case
    a = np.random.default_rng(len(shape)).integers(-20, 20, shape).astype(np.int32)
    x = nr.tensor(a)
    idx = tuple(slice(None, None, s) for s in steps)
    v, b = x.permute(perm)[idx], a.transpose(perm)[idx]
    assert_close(v.client.sum(v, dims, keepdim=keepdim), np.sum(b, axis=dims, keepdims=keepdim, dtype=np.int64))
    assert_close(v.client.max(v, dims, keepdim=keepdim), np.max(b, axis=dims, keepdims=keepdim))
    assert_close(v.client.any(v, dims, keepdim=keepdim), np.any(b, axis=dims, keepdims=keepdim))
    if v.size <= 60:  # |values| <= 3: a product of up to 60 of them stays inside float32's range
        f = nr.clamp(v, -3, 3).astype(nr.float32)
        expect = np.prod(np.clip(b, -3, 3).astype(np.float64), axis=dims, keepdims=keepdim)
        assert_close(f.client.prod(f, dims, keepdim=keepdim), expect, rtol=1e-5)
    if dims is None or isinstance(dims, int):
        assert_close(v.client.argmax(v, dims, keepdim=keepdim), np.argmax(b, axis=dims, keepdims=keepdim))
