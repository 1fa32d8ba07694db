"""Unary element-wise ops against a NumPy float64 oracle: every op x every dtype x
every layout case (empty, 0-d, size-1, strided, offset, flipped, broadcast), NaN/inf
and integer edge values, result dtypes from dtype_rules; plus the accuracy of the
vectorised float32 transcendentals over dense sweeps."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_close
from elementwise_cases import ALL, VIEWS, make, oracle_cast, run, seed, values, view_pair, wide

import numr as nr
from numr.ops import dtype_rules

UNARY = {
    "neg": np.negative, "abs": np.abs, "sign": np.sign, "sqrt": np.sqrt,
    "rsqrt": lambda x: 1 / np.sqrt(x), "square": np.square, "cbrt": np.cbrt,
    "reciprocal": lambda x: 1 / x, "exp": np.exp, "exp2": np.exp2, "expm1": np.expm1,
    "log": np.log, "log2": np.log2, "log10": np.log10, "log1p": np.log1p, "sin": np.sin,
    "cos": np.cos, "tan": np.tan, "asin": np.arcsin, "acos": np.arccos, "atan": np.arctan,
    "sinh": np.sinh, "cosh": np.cosh, "tanh": np.tanh, "asinh": np.arcsinh,
    "acosh": np.arccosh, "atanh": np.arctanh, "floor": np.floor, "ceil": np.ceil,
    "round": np.rint, "trunc": np.trunc, "isnan": np.isnan, "isinf": np.isinf,
    "isfinite": np.isfinite, "bitwise_not": np.invert,
}


def oracle(op: str, x: np.ndarray, out: nr.DType) -> np.ndarray:
    f = UNARY[op]
    with np.errstate(all="ignore"):
        if x.dtype.kind in "biu" and out.kind in "fc":
            return f(x.astype(np.float64))
        if x.dtype.kind in "biu" and op in ("floor", "ceil", "round", "trunc"):
            return x.copy()  # identity on integers (NumPy's rint would give float64)
        if x.dtype.kind == "b" and op in ("abs", "sign", "square"):
            return x.copy()  # identity on bool (NumPy has no bool loop for sign)
        return f(wide(x))


def expected_dtypes(op: str, d: nr.DType):
    try:
        return dtype_rules.unary_dtypes(op, d)
    except nr.DTypeError:
        return None


@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize("op", sorted(UNARY))
def test_unary(device, op, dtype):
    d = nr.dtype(dtype)
    rng = np.random.default_rng(seed(op, dtype))
    rule = expected_dtypes(op, d)
    if rule is None:  # the op is not defined for this dtype: numr's error, naming the op
        x = make(values(d, 4, rng), device, dtype)
        with pytest.raises(nr.DTypeError, match=op):
            getattr(nr, op)(x)
        return
    out_dtype = rule[1]
    lo, hi = (-0.9, 0.9) if op in ("asin", "acos", "atanh") else (-4.0, 4.0)
    for view in VIEWS:
        _, shape, _ = view
        n = int(np.prod(shape))
        base = values(d, n, rng, lo, hi).reshape(shape)
        xn, xt = view_pair(view, device, dtype, base)
        got = run(device, getattr(nr, op), xt)
        exp = oracle_cast(oracle(op, np.asarray(xn), out_dtype), out_dtype)
        try:
            assert_close(got, exp, dtype=out_dtype)
        except AssertionError as e:
            raise AssertionError(f"{op} {dtype} case {view[0]}: {e}") from None


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint8", "uint64"])
def test_integer_edges_wrap(device, dtype):
    """neg/abs/square of min and max wrap as NumPy's integer arrays do."""
    info = np.iinfo(np.dtype(dtype))
    a = np.array([info.min, info.max, info.min + 1, 0, 1], dtype=dtype)
    x = make(a, device, dtype)
    with np.errstate(all="ignore"):
        for op, f in (("neg", np.negative), ("abs", np.abs), ("square", np.square), ("sign", np.sign)):
            assert_close(run(device, getattr(nr, op), x), f(a), dtype=dtype)


def test_round_half_even_and_sign_nan(device):
    a = np.array([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 1e30, np.nan, -np.inf], np.float32)
    x = make(a, device, "float32")
    assert_close(nr.round(x), np.rint(a), dtype="float32")
    s = nr.sign(x).numpy()
    assert np.isnan(s[7]) and s[8] == -1 and s[6] == 1


ODD = ("sin", "tan", "atan", "asin", "sinh", "tanh", "asinh", "atanh", "expm1", "log1p", "cbrt", "neg", "trunc",
       "round", "floor", "ceil")


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_signed_zeros(device, dtype):
    """Functions through the origin keep the sign of a zero input, as NumPy does."""
    z = np.array([0.0, -0.0], dtype)
    x = make(z, device, dtype)
    for op in ODD:
        got = run(device, getattr(nr, op), x).numpy()
        with np.errstate(all="ignore"):
            ref = oracle(op, z, nr.dtype(dtype))
        assert np.array_equal(got, ref) and np.array_equal(np.signbit(got), np.signbit(ref)), (op, got, ref)


def test_scalar_input(device):
    assert_close(nr.exp(make(np.array(1.0), device, "float32")), np.exp(np.float32(1)), dtype="float32")


def _ulps(got: np.ndarray, ref: np.ndarray) -> float:
    with np.errstate(over="ignore"):
        r32 = ref.astype(np.float32)
    fin = np.isfinite(r32) & np.isfinite(got)
    spacing = np.spacing(np.abs(r32[fin])).astype(np.float64)
    return float((np.abs(got[fin].astype(np.float64) - ref[fin]) / spacing).max())


SWEEPS = {
    "exp": (np.exp, (-110.0, 90.0)), "expm1": (np.expm1, (-30.0, 90.0)), "log": (np.log, (0.0, 50.0)),
    "log1p": (np.log1p, (-1.0, 10.0)), "sin": (np.sin, (-200.0, 200.0)), "cos": (np.cos, (-200.0, 200.0)),
    "tanh": (np.tanh, (-12.0, 12.0)), "exp2": (np.exp2, (-152.0, 130.0)), "log2": (np.log2, (0.0, 50.0)),
    "log10": (np.log10, (0.0, 50.0)), "tan": (np.tan, (-200.0, 200.0)), "sinh": (np.sinh, (-92.0, 92.0)),
    "cosh": (np.cosh, (-92.0, 92.0)), "atan": (np.arctan, (-50.0, 50.0)), "asin": (np.arcsin, (-1.0, 1.0)),
    "acos": (np.arccos, (-1.0, 1.0)),
}
LOG_LIKE = ("log", "log1p", "log2", "log10")


@pytest.mark.parametrize("op", sorted(SWEEPS))
def test_float32_vmath_accuracy(op):
    """CPU vector math (vmath.h, vmath_trig.h), so CPU only (large sweeps). Max error over a
    dense sweep, random bit patterns and edge values: <= 2 ulp,
    with NaN/inf/zero/overflow/underflow exactly as NumPy."""
    device = "cpu"
    f, (lo, hi) = SWEEPS[op]
    rng = np.random.default_rng(7)
    bits = rng.integers(0, 2**32, 300_000, dtype=np.uint64).astype(np.uint32).view(np.float32)
    edge = np.array([0, -0.0, np.inf, -np.inf, np.nan, 1e-45, -1e-45, 1.1754944e-38, 3.4028235e38,
                     -3.4028235e38, 88.72283, 88.72284, -87.33655, -103.9, -104, 89, -1, 1, 1e-3, -1e-7,
                     9.5, 0.625, -0.625, 4.2e8, -4.3e8, 1e30], np.float32)
    x = np.concatenate([np.linspace(lo, hi, 300_001, dtype=np.float32), bits, edge])
    if op in LOG_LIKE:
        x = np.concatenate([x, np.abs(bits), np.linspace(-1e-3, 1e-3, 10_001, dtype=np.float32)])
    if op in ("log2", "exp2"):  # exact at powers of two / integers
        x = np.concatenate([x, np.ldexp(np.float32(1), np.arange(-149, 128)).astype(np.float32),
                            np.arange(-150, 129, dtype=np.float32)])
    got = run(device, getattr(nr, op), make(x, device, "float32")).numpy()
    with np.errstate(all="ignore"):
        ref = f(x.astype(np.float64))
        r32 = ref.astype(np.float32)
    special = ~np.isfinite(r32) | ~np.isfinite(got)
    np.testing.assert_array_equal(got[special], r32[special], err_msg=f"{op}: special values")
    np.testing.assert_array_equal(np.signbit(got[x == 0]), np.signbit(r32[x == 0]), err_msg=f"{op}: signed zeros")
    assert _ulps(got, ref) <= 2.0
    if op in ("log2", "exp2"):
        with np.errstate(invalid="ignore"):
            exact = np.isin(x, np.ldexp(np.float32(1), np.arange(-149, 128))) if op == "log2" else (x == np.rint(x))
        np.testing.assert_array_equal(got[exact], r32[exact], err_msg=f"{op}: exact cases")


def test_errors_name_the_op(device):
    x = make(np.array([1.5, 2.5]), device, "float64")
    with pytest.raises(nr.DTypeError, match="bitwise_not"):
        nr.bitwise_not(x)
    with pytest.raises(nr.DTypeError, match="neg"):
        nr.neg(make(np.array([True]), device, "bool"))
    with pytest.raises(nr.DTypeError, match="floor"):
        nr.floor(make(np.array([1 + 1j]), device, "complex64"))


@pytest.mark.parametrize("dtype", ["float32", "float64", "bfloat16"])
def test_large_strided_threads(dtype):
    """CPU only: above the OpenMP threshold, with a transposed, offset input and long rows."""
    device = "cpu"
    rng = np.random.default_rng(4)
    a = rng.uniform(-3, 3, (257, 509)).astype(nr.dtype(dtype).np)
    x = make(a, device, dtype)
    for op in ("exp", "sin", "tanh", "abs"):
        got = run(device, getattr(nr, op), x.T[3:])
        exp = oracle_cast(UNARY[op](a.T[3:].astype(np.float64)), nr.dtype(dtype))
        assert_close(got, exp, dtype=dtype)


@pytest.mark.parametrize("op", ["exp", "log", "tanh"])
def test_float64_vmath_accuracy(op):
    """CPU only: the vectorised float64 exp/log (within 1 ulp of NumPy's float64) and tanh
    (Cephes' 2.5e-16: 2 ulp), specials and signed zeros exact."""
    device = "cpu"
    rng = np.random.default_rng(9)
    bits = rng.integers(0, 2**63, 200_000, dtype=np.uint64).view(np.float64)
    edge = np.array([0, -0.0, np.inf, -np.inf, np.nan, 5e-324, -5e-324, 2.2250738585072014e-308,
                     1.7976931348623157e308, 709.782712893384, 709.7827128933841, -745.1332191019411,
                     -745.1332191019412, -708.4, -746, 710, 1, -1])
    x = np.concatenate([np.linspace(-750, 720, 200_001), rng.uniform(-1, 1, 100_000), edge,
                        bits if op == "log" else bits[:0]])
    got = run(device, getattr(nr, op), make(x, device, "float64")).numpy()
    with np.errstate(all="ignore"):
        ref = getattr(np, op)(x)
    special = ~np.isfinite(ref) | ~np.isfinite(got) | (ref == 0)
    np.testing.assert_array_equal(got[special], ref[special])
    np.testing.assert_array_equal(np.signbit(got[ref == 0]), np.signbit(ref[ref == 0]))
    fin = ~special
    assert (np.abs(got[fin] - ref[fin]) / np.spacing(np.abs(ref[fin]))).max() <= (2.0 if op == "tanh" else 1.0)
