"""CPU only: the vectorised pow (float32: numr/_cpu/kernels/vmath_pow.h, float64:
vmath_f64_pow.h) and float64 hypot (vmath_f64_pow.h) over dense sweeps, random bit patterns,
results near overflow/underflow and in the subnormals, integer exponents of negative bases and
every pair of special values; scalar operands (stride 0), strided and offset inputs, and runs long
enough to be split between OpenMP threads.

Oracles:
- float32 pow: NumPy's float64 pow rounded to float32 (its error, ~1e-16, is far below a float
  ulp): within 1 ulp of that float64 value (measured max 0.5000007: the kernel's double result is
  within ~2**-33 of the power, so the float is correctly rounded but for near-ties).
- float64 pow: mpmath at 130 bits on a few thousand pairs chosen to be hard (|y log x| up to 745,
  x next to 1 with huge y, subnormal results): <= 0.51 ulp for normal results (measured 0.502),
  <= 1 ulp for subnormal ones (0.73: the last scaling rounds a second time); glibc (math.pow, per
  element) on a larger random sample: <= 1 ulp.
- float64 hypot: glibc's math.hypot, <= 1 ulp (differences only in the subnormals, where both are
  within 0.56 ulp of the exact value).
Every inf, NaN and zero (with its sign) must match exactly.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from elementwise_cases import make, seed
from vmath_cases import libm

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


# ---- float64 ----------------------------------------------------------------------------------
F64_SPECIAL = np.array([0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 3.0, -3.0, 0.25, 1.5, -2.5, 5e-324, -5e-324,
                        2.2250738585072014e-308, 1.7976931348623157e308, -1.7976931348623157e308, 1e300, -1e300,
                        1023.0, 1024.0, -1074.0, -1075.0, 2.0**53, 2.0**53 + 2, -(2.0**53) - 1, np.inf, -np.inf,
                        np.nan])
DBL_MIN = 2.2250738585072014e-308


def _pow64(a, b) -> np.ndarray:
    a, b = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(b, np.float64))
    got = nr.pow(make(np.ascontiguousarray(a), "cpu", "float64"), make(np.ascontiguousarray(b), "cpu", "float64"))
    assert got.dtype == nr.float64 and got.shape == a.shape
    return got.numpy()


def _check_exact_specials(got: np.ndarray, ref: np.ndarray) -> None:
    exact = ~np.isfinite(ref) | (ref == 0)
    np.testing.assert_array_equal(got[exact], ref[exact], err_msg="inf/NaN/zero results")
    signed = exact & ~np.isnan(ref)
    np.testing.assert_array_equal(np.signbit(got[signed]), np.signbit(ref[signed]), err_msg="signs of 0/inf")


def _check_glibc(op, a: np.ndarray, b: np.ndarray, got: np.ndarray, max_ulp: float = 1.0) -> None:
    with np.errstate(all="ignore"):
        ref = libm(math.pow, np.power, a, b) if op == "pow" else libm(math.hypot, np.hypot, a, b)
        _check_exact_specials(got, ref)
        if op == "pow":  # (NumPy's SIMD hypot gives NaN for hypot(NaN, inf) in long arrays)
            _check_exact_specials(got, np.power(a, b))
    fin = np.isfinite(ref) & (ref != 0)
    with np.errstate(over="ignore"):
        ulp = np.spacing(np.abs(ref[fin]))
    ulp[np.isinf(ulp)] = 2.0**971  # spacing(DBL_MAX)
    err = np.abs(got[fin] - ref[fin]) / ulp
    if err.size:
        w = int(np.argmax(err))
        assert err.max() <= max_ulp, f"{op}: {err.max()} ulp at ({a[fin][w]!r}, {b[fin][w]!r})"


def _hard_pairs(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Pairs whose y log x spans the whole range: results near DBL_MAX and DBL_MIN, subnormal and
    rounding to 0, bases next to 1 with huge exponents, subnormal bases, negative bases."""
    parts = []
    x = rng.uniform(0.5, 2, n)
    x = x[np.abs(np.log(x)) > 1e-6]
    parts.append((x, rng.uniform(-709, 709.78, x.size) / np.log(x)))
    x = np.exp(rng.uniform(-700, 700, n))
    parts.append((x, rng.choice([rng.uniform(690, 709.78, n), rng.uniform(-745.2, -690, n)], axis=0) / np.log(x)))
    x = 1 + rng.uniform(-(2.0**-20), 2.0**-20, n)
    parts.append((x, rng.uniform(-709, 709, n) / np.log(x)))
    x = 1 + rng.integers(1, 3000, n) * 2.0**-52 * rng.choice([-0.5, 1], n)
    parts.append((x, rng.uniform(-709, 709, n) / np.log(x)))
    x = rng.integers(1, 2**52, n, dtype=np.uint64).view(np.float64)                 # subnormal bases
    parts.append((x, rng.uniform(-0.95, 0.95, n)))
    x = -np.exp(rng.uniform(-20, 20, n))
    parts.append((x, np.rint(rng.uniform(-30, 30, n))))
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def test_float64_pow_against_mpmath():
    rng = np.random.default_rng(seed("pow64", "mpmath"))
    a, b = _hard_pairs(rng, 500)
    got = _pow64(a, b)
    mpmath.mp.prec = 130
    worst = {"normal": (0.0, None), "subnormal": (0.0, None)}
    for g, x, y in zip(got.tolist(), a.tolist(), b.tolist(), strict=True):
        exact = mpmath.power(mpmath.mpf(x), mpmath.mpf(y))
        mag = abs(exact)
        if mag > 1.7976931348623157e308 * (1 + 2.0**-54):
            assert g == math.copysign(math.inf, exact), (x, y, g)
            continue
        if mag < 2.0**-1075:
            assert g == 0.0, (x, y, g)
            continue
        err = float(abs(mpmath.mpf(g) - exact) / math.ulp(max(float(mag), 5e-324)))
        kind = "normal" if mag >= DBL_MIN else "subnormal"
        if err > worst[kind][0]:
            worst[kind] = (err, (x, y))
    assert worst["normal"][0] <= 0.51, worst
    assert worst["subnormal"][0] <= 1.0, worst


def test_float64_pow_against_glibc():
    rng = np.random.default_rng(seed("pow64", "glibc"))
    n = 100_000
    a = np.abs(rng.integers(0, 2**64, n, dtype=np.uint64).view(np.float64))
    b = rng.uniform(-1, 1, n) * 10.0 ** rng.uniform(-5, 3, n)
    ha, hb = _hard_pairs(rng, 5000)
    bits = rng.integers(0, 2**64, (2, n), dtype=np.uint64).view(np.float64)       # mostly specials
    a, b = np.concatenate([a, ha, bits[0]]), np.concatenate([b, hb, bits[1]])
    _check_glibc("pow", a, b, _pow64(a, b))


def test_float64_pow_exact_values_and_specials():
    """Exact powers come out exact; every pair of special values as glibc and NumPy."""
    k = np.arange(-1074, 1024, dtype=np.float64)
    np.testing.assert_array_equal(_pow64(2.0, k), np.ldexp(1.0, k.astype(int)))
    np.testing.assert_array_equal(_pow64(0.5, -k), np.ldexp(1.0, k.astype(int)))
    n = np.arange(0, 23, dtype=np.float64)
    np.testing.assert_array_equal(_pow64(10.0, n), [10.0**i for i in range(23)])
    np.testing.assert_array_equal(_pow64(-3.0, np.arange(0, 34.0)), [(-3.0) ** i for i in range(34)])
    np.testing.assert_array_equal(_pow64(np.arange(-20.0, 21.0), 3.0), np.arange(-20.0, 21.0) ** 3)
    sa, sb = np.meshgrid(F64_SPECIAL, F64_SPECIAL)
    a, b = sa.ravel(), sb.ravel()
    _check_glibc("pow", a, b, _pow64(a, b))


def test_float64_hypot_against_glibc():
    """Random bit patterns, huge, tiny and subnormal operands, zeros, inf with NaN, a scalar
    operand on either side."""
    rng = np.random.default_rng(seed("hypot64", "glibc"))
    n = 100_000
    bits = rng.integers(0, 2**64, (2, n), dtype=np.uint64).view(np.float64)
    sub = rng.integers(0, 2**52, (2, n), dtype=np.uint64).view(np.float64)
    wide = np.exp(rng.uniform(-745, 709.7, (2, n))) * rng.choice([-1, 1], (2, n))
    near = rng.standard_normal((2, n)) * np.exp(rng.uniform(-700, 700, n))         # same magnitude
    sa, sb = np.meshgrid(F64_SPECIAL, F64_SPECIAL)
    a = np.concatenate([bits[0], sub[0], wide[0], near[0], sub[0], sa.ravel()])
    b = np.concatenate([bits[1], sub[1], wide[1], near[1], wide[1], sb.ravel()])
    got = nr.hypot(make(a, "cpu", "float64"), make(b, "cpu", "float64")).numpy()
    assert got.dtype == np.float64 and got.shape == a.shape
    _check_glibc("hypot", a, b, got)
    for s in (0.0, 3e-310, 1e300, -2.5, np.inf, np.nan):
        got = nr.hypot(make(a, "cpu", "float64"), s).numpy()
        _check_glibc("hypot", a, np.full_like(a, s), got)
        got = nr.hypot(s, make(b, "cpu", "float64")).numpy()
        _check_glibc("hypot", np.full_like(b, s), b, got)


@pytest.mark.parametrize("op", ["pow", "hypot"])
def test_float64_operand_layouts(op):
    """A scalar operand on either side, strided, offset and flipped views, runs above the OpenMP
    threshold, against glibc."""
    rng = np.random.default_rng(seed("f64layouts", op))
    n = 100_003
    a = rng.uniform(0, 5, n)
    b = rng.uniform(-40, 40, n)
    a[::101] = -a[::101]
    b[::7] = np.rint(b[::7])
    a[5::997], b[9::991] = np.nan, np.inf
    ta, tb = make(a, "cpu", "float64"), make(b, "cpu", "float64")
    f = getattr(nr, op)
    _check_glibc(op, a, b, f(ta, tb).numpy())
    _check_glibc(op, a, np.full(n, 2.7), f(ta, 2.7).numpy())
    _check_glibc(op, np.full(n, 1.3), b, f(1.3, tb).numpy())
    _check_glibc(op, a[3::2], b[2:-1:2], f(ta[3::2], tb[2:-1:2]).numpy())
    _check_glibc(op, a[::-1], b[::-1], f(ta[::-1], tb[::-1]).numpy())
    _check_glibc(op, a[10:], b[:-10], f(ta[10:], tb[:-10]).numpy())
    m = a[: 300 * 300].reshape(300, 300)
    _check_glibc(op, m.T.ravel(), np.full(m.size, -0.7), f(make(m, "cpu", "float64").T, -0.7).numpy().ravel())
