"""CPU only: the vectorised float32 pow (numr/_cpu/kernels/vmath_pow.h) over dense sweeps,
random bit patterns, results near overflow/underflow and in the subnormals, integer exponents
of negative bases and every pair of special values; scalar operands (stride 0), strided and
offset inputs, and runs long enough to be split between OpenMP threads.

Oracle: NumPy's float64 pow rounded to float32 (its error, ~1e-16, is far below a float ulp):
within 1 ulp of that float64 value (measured max 0.5000007: the kernel's double result is
within ~2**-33 of the power, so the float is correctly rounded but for near-ties), and every
inf, NaN and zero (with its sign) exactly.
"""

from __future__ import annotations

import numpy as np
import pytest
from elementwise_cases import make, seed

import numr as nr

F32_SPECIAL = np.array([0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 3.0, -3.0, 0.25, 1.5, -2.5, 1e-45, -1e-45,
                        1.1754944e-38, 3.4028235e38, -3.4028235e38, 1e30, -1e30, 127.0, 128.0, -149.0, -150.0,
                        np.inf, -np.inf, np.nan], np.float32)


def _pow32(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return nr.pow(make(a, "cpu", "float32"), make(b, "cpu", "float32")).numpy()


def _check32(a: np.ndarray, b: np.ndarray, got: np.ndarray | None = None, max_ulp: float = 1.0) -> None:
    """got (default: numr's pow(a, b)) against NumPy's float64 pow rounded to float32."""
    a, b = np.broadcast_arrays(a, b)
    if got is None:
        got = _pow32(a, b)
    assert got.dtype == np.float32 and got.shape == a.shape
    with np.errstate(all="ignore"):
        ref = np.power(a.astype(np.float64), b.astype(np.float64))
        r32 = ref.astype(np.float32)
    exact = ~np.isfinite(r32) | (r32 == 0)
    np.testing.assert_array_equal(got[exact], r32[exact], err_msg="inf/NaN/zero results")
    signed = exact & ~np.isnan(r32)
    np.testing.assert_array_equal(np.signbit(got[signed]), np.signbit(r32[signed]), err_msg="signs of 0/inf")
    fin = ~exact
    if fin.any():
        with np.errstate(over="ignore"):  # spacing(FLT_MAX) is inf in float32
            ulp = np.spacing(np.abs(r32[fin])).astype(np.float64)
        ulp[np.isinf(ulp)] = 2.0**104
        err = np.abs(got[fin].astype(np.float64) - ref[fin]) / ulp
        w = int(np.argmax(err))
        assert err.max() <= max_ulp, f"{err.max()} ulp at pow({a[fin][w]!r}, {b[fin][w]!r})"


def test_float32_dense_sweep():
    """Every 997th positive float (subnormals to FLT_MAX) to a spread of exponents."""
    x = np.arange(1, 0x7F800000, 997, dtype=np.uint32).view(np.float32)
    for y in (2.5, -1.75, 0.3, 1 / 3, -7.0, 11.0, 1e-3, 40.5):
        _check32(x, np.float32(y))
    y = np.arange(0x3E000000, 0x42C80000, 97, dtype=np.uint32).view(np.float32)   # 0.125 .. 100
    for xv in (1.5, 0.7, 2.0, 10.0, 1.0001):
        _check32(np.float32(xv), y)
        _check32(np.float32(xv), -y)


def test_float32_random_bits():
    """Random bit patterns for both operands (every exponent, sign, NaN, inf), and positive bases
    with exponents of moderate size, where most results are finite."""
    rng = np.random.default_rng(seed("pow32", "bits"))
    bits = lambda n: rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32).view(np.float32)
    _check32(bits(400_000), bits(400_000))
    a = np.abs(bits(600_000))
    b = (rng.uniform(-1, 1, a.size) * 10.0 ** rng.uniform(-4, 2.5, a.size)).astype(np.float32)
    _check32(a, b)


def test_float32_extreme_results():
    """Results near FLT_MAX, overflowing, near FLT_MIN, subnormal and rounding to 0."""
    rng = np.random.default_rng(seed("pow32", "extreme"))
    a = rng.uniform(0.01, 50, 300_000).astype(np.float32)
    a = a[np.abs(np.log2(a.astype(np.float64))) > 1e-3]
    t = rng.choice([rng.uniform(120, 129, a.size), rng.uniform(-151, -120, a.size)], axis=0)
    _check32(a, (t / np.log2(a.astype(np.float64))).astype(np.float32))
    k = np.arange(-160, 131, dtype=np.float32)
    _check32(np.float32(2.0), k)                                          # exact powers of two
    _check32(np.float32(0.5), k)
    np.testing.assert_array_equal(_pow32(np.float32(2.0), k[10:-3]), np.ldexp(np.float32(1), k[10:-3].astype(int)))


def test_float32_negative_bases():
    """Integer exponents (odd and even, exact small powers) and non-integer ones (NaN)."""
    rng = np.random.default_rng(seed("pow32", "negative"))
    a = -(rng.uniform(0, 1, 200_000) * 10.0 ** rng.uniform(-3, 3, 200_000)).astype(np.float32)
    _check32(a, rng.integers(-40, 41, a.size).astype(np.float32))
    _check32(a, rng.uniform(-40, 40, a.size).astype(np.float32))
    base = np.arange(-12, 0, dtype=np.float32)[:, None]
    e = np.arange(0, 7, dtype=np.float32)[None, :]
    np.testing.assert_array_equal(_pow32(base, np.broadcast_to(e, (12, 7)).copy()),
                                  np.power(base.astype(np.int64), e.astype(np.int64)).astype(np.float32))
    _check32(np.float32(-2.0), np.array([2.0**24, 2.0**24 + 2, 3.0e9, -(2.0**24) - 2, 16777215.0], np.float32))


def test_float32_special_grid():
    """Every pair of special values (C99 pow's cases) exactly as NumPy, signs included."""
    sa, sb = np.meshgrid(F32_SPECIAL, F32_SPECIAL)
    _check32(sa.ravel(), sb.ravel(), max_ulp=0.5000001)


def test_float32_operand_layouts():
    """A scalar exponent, a scalar base, strided/offset/flipped views and a run above the
    OpenMP threshold (split between threads), against the contiguous results."""
    rng = np.random.default_rng(seed("pow32", "layouts"))
    n = 100_003
    a = rng.uniform(0, 5, n).astype(np.float32)
    b = rng.uniform(-8, 8, n).astype(np.float32)
    a[::101] = -a[::101]
    b[::7] = np.rint(b[::7])
    a[5::997], b[9::991] = np.nan, np.inf
    _check32(a, b)
    _check32(a, np.float32(2.7))
    _check32(a, np.float32(-0.3))
    _check32(np.float32(1.3), b)
    _check32(np.float32(-2.0), b)
    ta, tb = make(a, "cpu", "float32"), make(b, "cpu", "float32")
    _check32(a[3::2], b[2:-1:2], nr.pow(ta[3::2], tb[2:-1:2]).numpy())
    _check32(a[::-1], b[::-1], nr.pow(ta[::-1], tb[::-1]).numpy())
    _check32(a[10:], b[:-10], nr.pow(ta[10:], tb[:-10]).numpy())
    m = make(a[: 300 * 300].reshape(300, 300), "cpu", "float32")
    _check32(a[: 300 * 300].reshape(300, 300).T, np.float32(1.7), (m.T ** 1.7).numpy())


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_low_precision_pow_goes_through_float32(dtype):
    """float16/bfloat16 pow computes in float32 (the staging loop) and rounds once more."""
    rng = np.random.default_rng(seed("pow32", dtype))
    a = rng.uniform(0, 4, 1000).astype(np.float32)
    b = rng.uniform(-4, 4, 1000).astype(np.float32)
    ta, tb = nr.tensor(a).astype(dtype), nr.tensor(b).astype(dtype)
    got = nr.pow(ta, tb).astype("float32").numpy()
    want = nr.pow(ta.astype("float32"), tb.astype("float32")).astype(dtype).astype("float32").numpy()
    np.testing.assert_array_equal(got, want)
