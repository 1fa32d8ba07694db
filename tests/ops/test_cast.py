"""cast / astype / copy_ between every ordered pair of dtypes, against NumPy (ml_dtypes for
bfloat16/float8) with numr's rule for NaN/inf/out-of-range floats to integers."""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import numr as nr

ALL = [d.name for d in nr.ALL_DTYPES]
LOWP = {"float16", "bfloat16", "float8_e4m3fn", "float8_e5m2"}

FLOAT_VALUES = [0.0, -0.0, 1.0, -1.0, 0.5, -0.7, 1.5, -2.5, 2.5, 3.49, 100.25, 127.9, 128.0, -128.0, -129.5,
                255.5, 256.0, 448.0, 464.0, 465.0, 1000.0, 32767.5, -32768.75, 57344.0, 65504.0, 65519.0, 65520.0,
                1e6, 2.0 ** 31, -(2.0 ** 31) - 4096, 4294967295.0, 4294967296.0, 1e10, -1e10, 2.0 ** 63,
                -(2.0 ** 63), 2.0 ** 64, 1e19, -1e19, 3e38, 1e-3, 1e-8, 2.0 ** -20, 1e-30, 1e-45,
                math.nan, -math.nan, math.inf, -math.inf, 1.0 + 2.0 ** -11, 1.0 + 2.0 ** -12 + 2.0 ** -40]


def source_values(name: str) -> np.ndarray:
    """Edge values representable in dtype ``name`` (NumPy/ml_dtypes conversion)."""
    d = nr.dtype(name)
    if d.kind == "b":
        return np.array([True, False, True, True, False], dtype=bool)
    if d.is_integer:
        info = np.iinfo(d.np)
        cand = [0, 1, -1, 2, 7, 100, 127, 128, -128, -129, 255, 256, 32767, 32768, -32769, 65535, 65536,
                2 ** 24 + 1, 2 ** 31 - 1, 2 ** 31, -(2 ** 31), 2 ** 32 - 1, 2 ** 32, 2 ** 53 + 1,
                2 ** 63 - 1, -(2 ** 63), 2 ** 63, 2 ** 64 - 1, int(info.min), int(info.max)]
        return np.array([v for v in cand if info.min <= v <= info.max], dtype=d.np)
    with np.errstate(all="ignore"):
        if d.is_complex:
            re = np.array(FLOAT_VALUES, dtype=np.float64)
            im = np.roll(re, 3)
            return (re + 1j * im).astype(d.np)
        return np.array(FLOAT_VALUES, dtype=np.float64).astype(d.np)


def expected_cast(a: np.ndarray, dst: str) -> np.ndarray:
    """The oracle: NumPy's astype, with the rule for NaN/inf/out-of-range floats to integers."""
    d = nr.dtype(dst)
    src_kind = a.dtype.kind if a.dtype.kind in "biufc" else "f"  # ml_dtypes types are kind 'V'
    if d.is_integer and src_kind in "fc":
        info = np.iinfo(d.np)
        vals = np.real(a).astype(np.float64) if src_kind == "c" else a.astype(np.float64)
        out = []
        for v in vals.reshape(-1):
            if math.isnan(v):
                out.append(0)
            elif v >= info.max:
                out.append(int(info.max))
            elif v <= info.min:
                out.append(int(info.min))
            else:
                out.append(int(v))
        return np.array(out, dtype=d.np).reshape(a.shape)
    with np.errstate(all="ignore"):
        if src_kind == "c" and d.kind != "c" and d.kind != "b":
            a = np.real(a)
        if d.name in ("bfloat16", "float8_e4m3fn", "float8_e5m2") and src_kind == "f" and a.dtype == np.float64:
            return a.astype(d.np)  # ml_dtypes goes through float32 itself
        return a.astype(d.np)


def assert_same(got: nr.Tensor, expected: np.ndarray, dst: str) -> None:
    assert got.dtype == nr.dtype(dst)
    assert got.shape == expected.shape
    g = got.numpy()
    if nr.dtype(dst).kind in "biu":
        np.testing.assert_array_equal(g, expected)
        return
    wide = np.complex128 if nr.dtype(dst).is_complex else np.float64
    gw, ew = g.astype(wide), expected.astype(wide)
    np.testing.assert_array_equal(gw, ew)  # NaN == NaN here
    for part in ((np.real, np.imag) if nr.dtype(dst).is_complex else (lambda x: x,)):
        np.testing.assert_array_equal(np.signbit(part(gw)), np.signbit(part(ew)))


def make(a: np.ndarray, device: str) -> nr.Tensor:
    try:
        return nr.tensor(a, device=device)
    except nr.UnsupportedOperation as e:
        pytest.skip(str(e))


def cast(x: nr.Tensor, dst: str) -> nr.Tensor:
    try:
        return x.astype(dst)
    except nr.UnsupportedOperation as e:
        pytest.skip(str(e))


@pytest.mark.parametrize("dst", ALL)
@pytest.mark.parametrize("src", ALL)
def test_cast_every_pair(device, src, dst):
    a = source_values(src)
    x = make(a, device)
    assert_same(cast(x, dst), expected_cast(a, dst), dst)


@pytest.mark.parametrize("dst", ALL)
@pytest.mark.parametrize("src", ALL)
def test_cast_strided_views(device, src, dst):
    """0-d, empty, non-contiguous, offset, flipped, transposed and broadcast sources."""
    base = np.resize(source_values(src), 24).reshape(4, 6)
    x = make(base, device)
    views = [
        (x[1, 2], base[1, 2]),
        (x[:, :0], base[:, :0]),
        (x[:, ::2], base[:, ::2]),
        (x[1:, 3:], base[1:, 3:]),
        (x.flip(0), base[::-1]),
        (x[::-1, ::-3], base[::-1, ::-3]),
        (x.T, base.T),
        (x[2].broadcast_to((3, 6)), np.broadcast_to(base[2], (3, 6))),
    ]
    for v, ref in views:
        assert_same(cast(v, dst), expected_cast(np.array(ref), dst), dst)


def test_cast_dense_float32_sweep_lowp(device):
    """A dense sweep of float32 bit patterns into each low-precision type, bit for bit, with
    every float32 that lies exactly halfway between two float16 neighbours (ties to even)."""
    ties = (np.arange(2 ** 19, dtype=np.uint64) << 13 | 0x1000).astype(np.uint32)
    bits = np.concatenate([np.arange(0, 2 ** 32, 4099, dtype=np.uint64).astype(np.uint32), ties])
    a = bits.view(np.float32)
    x = make(a, device)
    for name in ("float16", "bfloat16", "float8_e4m3fn", "float8_e5m2"):
        d = nr.dtype(name)
        got = cast(x, name).numpy()
        with np.errstate(all="ignore"):
            ref = a.astype(d.np)
        ib = np.uint8 if d.itemsize == 1 else np.uint16
        gb, rb = got.view(ib), ref.view(ib)
        nan = np.isnan(a)
        assert np.array_equal(gb[~nan], rb[~nan]), name
        g = got.astype(np.float32)
        assert np.isnan(g[nan]).all() and np.array_equal(np.signbit(g[nan]), np.signbit(a[nan])), name


@pytest.mark.parametrize("name", ["float16", "bfloat16", "float8_e4m3fn", "float8_e5m2"])
def test_lowp_every_code_round_trips(device, name):
    d = nr.dtype(name)
    ib = np.uint8 if d.itemsize == 1 else np.uint16
    codes = np.arange(2 ** (8 * d.itemsize), dtype=np.uint32).astype(ib).view(d.np)
    x = make(codes, device)
    with np.errstate(all="ignore"):
        ref = codes.astype(np.float32)
    got = cast(x, "float32").numpy()
    nan = np.isnan(ref)
    assert np.array_equal(got.view(np.uint32)[~nan], ref.view(np.uint32)[~nan])
    assert np.isnan(got[nan]).all() and np.array_equal(np.signbit(got[nan]), np.signbit(ref[nan]))
    back = cast(make(got, device), name).numpy().view(ib)
    assert np.array_equal(back[~nan], codes.view(ib)[~nan])


def test_float64_to_float16_rounds_once(device):
    """float64 -> float16 is one correct rounding (NumPy's), not via float32."""
    rng = np.random.default_rng(1)
    a = np.concatenate([rng.standard_normal(4000) * 10.0 ** rng.integers(-8, 5, 4000),
                        np.array([1 + 2 ** -11 + 2 ** -40, 2049 + 2 ** -30, 65519.99999, 2 ** -25 * (1 + 2 ** -40)])])
    h = np.arange(0, 0x7C00, 7, dtype=np.uint16).view(np.float16).astype(np.float64)
    mids = (h[:-1] + h[1:]) / 2  # exact ties of float16, and a hair either side of them
    a = np.concatenate([a, mids, np.nextafter(mids, np.inf), np.nextafter(mids, -np.inf), [1e300, 1e-300]])
    a = np.concatenate([a, -a])
    got = cast(make(a, device), "float16").numpy()
    with np.errstate(over="ignore"):
        assert np.array_equal(got.view(np.uint16), a.astype(np.float16).view(np.uint16))


def test_float64_to_bfloat16_matches_ml_dtypes(device):
    """float64 -> bfloat16/float8 go through float32, as ml_dtypes does (documented)."""
    a = np.array([1 + 2 ** -8 + 2 ** -30, 1 + 2 ** -4 + 2 ** -30, 3.0e38 * 10, -1e-40])
    x = make(a, device)
    for d in (ml_dtypes.bfloat16, ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2):
        with np.errstate(all="ignore"):
            ref = a.astype(d)
        got = cast(x, np.dtype(d).name).numpy()
        ib = np.uint8 if np.dtype(d).itemsize == 1 else np.uint16
        assert np.array_equal(got.view(ib), ref.view(ib))


def test_cast_large_parallel(device):
    """Above the OpenMP threshold, with a non-contiguous source."""
    a = np.arange(300_000, dtype=np.int64).reshape(500, 600) * 37 - 5_000_000
    x = make(a, device)
    for dst in ("int8", "float32", "float16", "uint16", "complex64", "bool"):
        assert_same(cast(x.T, dst), expected_cast(np.ascontiguousarray(a.T), dst), dst)
        assert_same(cast(x[::-1, 1::3], dst), expected_cast(np.ascontiguousarray(a[::-1, 1::3]), dst), dst)


def test_cast_same_dtype_is_a_copy(device):
    x = make(np.arange(6.0), device)
    y = x.astype("float64")
    y[0] = 100.0
    assert x.numpy()[0] == 0.0
    assert x.astype("float64", copy=False) is x


def test_astype_keeps_memory_order(device):
    """astype / to(dtype) of a permuted dense tensor is laid out the same way (NumPy's
    order="K", PyTorch's preserve_format); other layouts give contiguous results. nr.cast
    itself always returns a contiguous tensor."""
    a = np.arange(120.0).reshape(2, 3, 4, 5) - 60.5
    x = make(a, device)

    def order(t):  # dims from outermost to innermost in memory
        return sorted(range(t.ndim), key=lambda d: -t.strides[d])

    for view, ref in ((x.T, a.T), (x.permute(2, 0, 3, 1), a.transpose(2, 0, 3, 1)), (x.mT, a.swapaxes(-1, -2))):
        for y in (view.astype(nr.float32), view.to(nr.float32), view.to(nr.float32, copy=True)):
            assert_same(y, ref.astype(np.float32), "float32")
            assert sorted(y.strides) == sorted(x.astype(nr.float32).strides)  # dense
            assert order(y) == order(view)
        y.fill_(7.0)  # the result owns its memory
        np.testing.assert_array_equal(x.numpy(), a)
        assert nr.cast(view, nr.float32).is_contiguous()
    u = make(a[:, :1].copy(), device).permute(3, 1, 0, 2)  # a size-1 dim among permuted ones
    assert_same(u.astype(nr.int32), a[:, :1].transpose(3, 1, 0, 2).astype(np.int32), "int32")
    for view, ref in ((x[:, 1:], a[:, 1:]), (x.T[::2], a.T[::2]), (x.flip(0), a[::-1]),
                      (x[:1, :1].expand(2, 3, 4, 5), np.broadcast_to(a[:1, :1], (2, 3, 4, 5))),
                      (x[0, 0, 0, 0], a[0, 0, 0, 0])):
        y = view.astype(nr.float32)
        assert_same(y, np.asarray(ref).astype(np.float32), "float32")
        assert y.is_contiguous()


def test_nr_cast_function(device):
    x = make(np.array([1.7, -1.7]), device)
    assert_same(nr.cast(x, nr.int32), np.array([1, -1], np.int32), "int32")
    assert_same(x.to(nr.float32), np.array([1.7, -1.7], np.float32), "float32")


# ---- copy_ -------------------------------------------------------------------------------

def test_copy_into_strided_destinations(device):
    base = np.arange(48, dtype=np.float64).reshape(6, 8)
    src = np.arange(100, 124, dtype=np.int32).reshape(6, 4)
    for sl in [(slice(None), slice(None, None, 2)), (slice(None, None, -1), slice(4, 8)),
               (slice(None), slice(7, None, -2))]:
        x = make(base, device)
        ref = base.copy()
        ref[sl] = src
        x.client.copy_(x[sl], make(src, device))
        assert_same(x, ref, "float64")


def test_copy_transposed_destination_and_broadcast_source(device):
    x = make(np.zeros((3, 4), np.int16), device)
    x.client.copy_(x.T, make(np.array([1.9, -2.9, 3.1], np.float32), device))
    ref = np.zeros((3, 4), np.int16)
    ref.T[...] = np.array([1, -2, 3])
    assert_same(x, ref, "int16")
    y = make(np.zeros((2, 3), np.complex64), device)
    y.client.copy_(y, make(np.array(2.5), device))
    assert_same(y, np.full((2, 3), 2.5, np.complex64), "complex64")


OTHER = {"uint8": "int16", "int16": "float32", "float32": "float64", "float64": "float32",
         "complex128": "complex64"}


@pytest.mark.parametrize("dtype", ["uint8", "int16", "float32", "float64", "complex128"])
def test_transposing_copies(device, dtype):
    """Copies that read (or write) across the other side's rows, walked in tiles: sizes around
    the tile, batches, flipped and offset views, cast copies, and writes into a transposed view."""
    rng = np.random.default_rng(13)
    for shape in ((31, 33), (32, 32), (65, 97), (3, 40, 70)):
        a = (rng.standard_normal(shape) * 20).astype(dtype)
        x = make(a, device)
        swap = (lambda t: t.transpose(-2, -1))
        views = ((swap(x), a.swapaxes(-2, -1)), (swap(x)[..., ::-1, 1:], a.swapaxes(-2, -1)[..., ::-1, 1:]))
        other = OTHER[dtype]
        for v, b in views:
            assert_same(v.contiguous(), np.ascontiguousarray(b), dtype)
            assert_same(cast(v, other), b.astype(other), other)  # a cast through a tile buffer
        y = make(np.zeros(a.swapaxes(-2, -1).shape, dtype), device)
        y.client.copy_(swap(y), x)  # destination transposed, source contiguous
        assert_same(y, np.ascontiguousarray(a.swapaxes(-2, -1)), dtype)
        w = make(np.zeros(a.swapaxes(-2, -1).shape, other), device)
        w.client.copy_(swap(w), x)  # ... with a cast
        assert_same(w, np.ascontiguousarray(a.swapaxes(-2, -1)).astype(other), other)


def test_copy_overlapping_memory(device):
    a = np.arange(10, dtype=np.int64)
    x = make(a, device)
    x[2:8] = x[0:6]
    ref = a.copy()
    ref[2:8] = a[0:6].copy()
    assert_same(x, ref, "int64")
    x = make(a, device)
    x[0:6] = x[2:8]
    ref = a.copy()
    ref[0:6] = a[2:8].copy()
    assert_same(x, ref, "int64")
    x = make(a, device)
    x.client.copy_(x, x.flip(0))
    assert_same(x, a[::-1].copy(), "int64")
    m = np.arange(16.0).reshape(4, 4)
    y = make(m, device)
    y.client.copy_(y, y.T)
    assert_same(y, m.T.copy(), "float64")


def test_copy_errors(device):
    x = make(np.zeros((2, 3)), device)
    with pytest.raises(nr.ShapeError, match="copy_"):
        x.client.copy_(x, make(np.zeros(4), device))
    with pytest.raises(nr.ShapeError, match="copy_"):
        x.client.copy_(x[0:1].broadcast_to((2, 3)), make(np.zeros((2, 3)), device))


def test_copy_empty_and_0d(device):
    x = make(np.zeros((0, 3)), device)
    assert x.client.copy_(x, make(np.ones(3), device)) is x
    z = make(np.array(5, np.int8), device)
    z.client.copy_(z, make(np.array(300.0), device))
    assert_same(z, np.array(127, np.int8), "int8")


# ---- property test: random views, random dtype pairs --------------------------------------

_PAIRS = st.tuples(st.sampled_from(ALL), st.sampled_from(ALL))


@st.composite
def _view_case(draw):
    ndim = draw(st.integers(0, 4))
    shape = tuple(draw(st.integers(0, 5)) for _ in range(ndim))
    perm = draw(st.permutations(range(ndim)))
    slices = tuple(slice(draw(st.integers(0, 2)), None, draw(st.sampled_from([1, 2, -1, -2]))) for _ in range(ndim))
    return shape, tuple(perm), slices


@settings(max_examples=80, deadline=None)
@given(case=_view_case(), pair=_PAIRS, seed=st.integers(0, 2 ** 16))
def test_copy_random_views_property(case, pair, seed):
    """copy_ from a random strided view into a random strided view (CPU), any dtype pair."""
    shape, perm, slices = case
    src_name, dst_name = pair
    rng = np.random.default_rng(seed)
    pool = source_values(src_name)
    a = pool[rng.integers(0, pool.size, size=int(np.prod(shape)))].reshape(shape)
    x = nr.tensor(a)
    sv, av = x.permute(perm)[slices], a.transpose(perm)[slices]
    d = nr.dtype(dst_name)
    dst_base = np.zeros(tuple(reversed(av.shape)), d.np)
    y = nr.tensor(dst_base)
    yv = y.flip().T  # a reversed, transposed destination view of av's shape
    yv.client.copy_(yv, sv)
    assert_same(yv, expected_cast(np.array(av), dst_name), dst_name)
