"""Accuracy of the vectorised CPU asinh, acosh, atanh, cbrt (float32, float64) and float64
expm1, log1p (numr/_cpu/kernels/vmath_hyp.h, vmath_cbrt.h) against NumPy float64: dense
sweeps, sampled bit patterns, edge values and the thresholds the kernels switch at, with
special results (non-finite, zeros and their signs) exactly NumPy's. CPU only (large sweeps)."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_close
from elementwise_cases import make, oracle_cast

import numr as nr

DEVICE = "cpu"
NP = {"asinh": np.arcsinh, "acosh": np.arccosh, "atanh": np.arctanh, "cbrt": np.cbrt,
      "expm1": np.expm1, "log1p": np.log1p}
RANGES = {"asinh": (-20.0, 20.0), "acosh": (0.5, 20.0), "atanh": (-1.01, 1.01), "cbrt": (-30.0, 30.0),
          "expm1": (-45.0, 712.0), "log1p": (-1.01, 30.0)}
EPS32, EPS64 = np.finfo(np.float32).eps, np.finfo(np.float64).eps


def _compute(op: str, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(numr's result, NumPy float64's) for x; the strided (scalar) loop on x[::-2] gives the
    same bits as the contiguous (vectorised) one."""
    f = getattr(nr, op)
    got = f(make(x, DEVICE, x.dtype.name)).numpy()
    assert got.dtype == x.dtype and got.shape == x.shape
    np.testing.assert_array_equal(f(make(x, DEVICE, x.dtype.name)[::-2]).numpy(), got[::-2])
    with np.errstate(all="ignore"):
        ref = NP[op](x.astype(np.float64))
    return got, ref


def _check_specials(op: str, x: np.ndarray, got: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """Non-finite and zero results equal NumPy's bit for bit but NaN payloads; returns the
    mask of the finite non-zero ones."""
    special = ~np.isfinite(ref) | ~np.isfinite(got) | (ref == 0) | (got == 0)
    np.testing.assert_array_equal(got[special], ref[special], err_msg=f"{op}: special values")
    zero = special & (ref == 0)
    np.testing.assert_array_equal(np.signbit(got[zero]), np.signbit(ref[zero]), err_msg=f"{op}: signed zeros")
    return ~special


def _ulps(got: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """|got - ref| in units of the spacing of ref in got's dtype (ref: float64)."""
    with np.errstate(over="ignore"):
        spacing = np.spacing(np.abs(ref.astype(got.dtype))).astype(np.float64)
    return np.abs(got.astype(np.float64) - ref) / spacing


def _f32_inputs(op: str) -> np.ndarray:
    lo, hi = RANGES[op]
    rng = np.random.default_rng(11)
    every = np.arange(0, 2**32, 1021, dtype=np.uint64).astype(np.uint32).view(np.float32)  # all patterns, sampled
    near = np.outer([2.0**-12, 2.0**-5, 2.0**-4], [1 - EPS32 / 2, 1, 1 + EPS32])  # 2**-4: the series switch
    near = near.astype(np.float32).ravel()
    edge = np.array([0, -0.0, np.inf, -np.inf, np.nan, 1e-45, -1e-45, 1.1754942e-38, 1.1754944e-38, -1.1754944e-38,
                     3.4028235e38, -3.4028235e38, 1, -1, 1 + EPS32, 1 - EPS32 / 2, -1 + EPS32 / 2, -1 - EPS32,
                     2, 0.5, 8, 27, -27, 1e-30, 1e30, *near, *-near], np.float32)
    parts = [np.linspace(lo, hi, 400_001, dtype=np.float32), every, rng.standard_normal(100_000).astype(np.float32),
             np.linspace(-1e-3, 1e-3, 20_001, dtype=np.float32), edge]
    if op == "acosh":
        parts.append((1 + np.linspace(0, 1e-3, 20_001)).astype(np.float32))
    if op == "atanh":
        parts.append(np.linspace(0.99, 1, 20_001, dtype=np.float32))
    if op == "cbrt":
        parts.append(np.arange(-255, 256, dtype=np.float32) ** 3)  # perfect cubes: exact
    return np.concatenate(parts)


@pytest.mark.parametrize("op", ["asinh", "acosh", "atanh", "cbrt"])
def test_float32_correctly_rounded(op):
    """float32 is computed in double (error ~2e-15 relative at most), so every result is the
    float64 oracle rounded to float32 (all 2**32 inputs agree when this was written); the
    bound leaves room for an oracle's near-tie: <= 0.5 ulp + 1e-3."""
    x = _f32_inputs(op)
    got, ref = _compute(op, x)
    fin = _check_specials(op, x, got, ref.astype(np.float32))
    err = _ulps(got[fin], ref[fin])
    assert err.max() <= 0.501, (op, x[fin][np.argmax(err)], err.max())
    if op == "cbrt":
        cubes = np.arange(-255, 256, dtype=np.float32)
        np.testing.assert_array_equal(nr.cbrt(nr.tensor(cubes**3)).numpy(), cubes)


def _f64_inputs(op: str) -> np.ndarray:
    lo, hi = RANGES[op]
    rng = np.random.default_rng(12)
    bits = rng.integers(0, 2**64, 300_000, dtype=np.uint64).view(np.float64)
    # the thresholds the kernels switch at, and both sides of each
    ln2 = np.log(2.0)
    cut = np.array([2.0**-54, 2.0**-28, 2.0**-12, 0.5, 1, 2, 2.0**28, 1e154, 0.5 * ln2, 1.5 * ln2, 20 * ln2,
                    56 * ln2, 38.9, 40, 709.782712893384, 2.2250738585072014e-308])
    cut = np.concatenate([cut, np.nextafter(cut, 0), np.nextafter(cut, np.inf)])
    edge = np.array([0, -0.0, np.inf, -np.inf, np.nan, 5e-324, -5e-324, 1e-310, -1e-310, 1.7976931348623157e308,
                     -1.7976931348623157e308, 1e300, -1e300, 3.4e38, 1 + EPS64, 1 - EPS64 / 2, -1 + EPS64 / 2,
                     -1 - EPS64, 8, 27, -27, 1e-300, 710, -745, 1024 * ln2])
    parts = [np.linspace(lo, hi, 400_001), bits, rng.uniform(-1, 1, 100_000), rng.standard_normal(100_000) * 50,
             np.linspace(-1e-3, 1e-3, 20_001), np.exp(rng.uniform(-700, 700, 50_000)), edge, cut, -cut]
    if op == "acosh":
        parts.append(1 + np.linspace(0, 1e-3, 20_001))
    if op == "atanh":
        parts.append(np.linspace(0.999, 1, 20_001))
    return np.concatenate(parts)


@pytest.mark.parametrize("op", ["asinh", "acosh", "atanh", "cbrt", "expm1", "log1p"])
def test_float64_accuracy(op):
    """fdlibm's algorithms, branch-free: within 1 ulp of NumPy's float64 (glibc)."""
    x = _f64_inputs(op)
    got, ref = _compute(op, x)
    fin = _check_specials(op, x, got, ref)
    err = _ulps(got[fin], ref[fin])
    assert err.max() <= 1.0, (op, x[fin][np.argmax(err)], err.max())


def test_float64_cbrt_exact_cubes():
    cubes = np.arange(-2000, 2000, dtype=np.float64)
    np.testing.assert_array_equal(nr.cbrt(nr.tensor(cubes**3)).numpy(), cubes)
    k = np.arange(-358, 341)  # 2**(3k), subnormals included
    np.testing.assert_array_equal(nr.cbrt(nr.tensor(np.ldexp(1.0, 3 * k))).numpy(), np.ldexp(1.0, k))


LOWP_X = {"asinh": (-6.0, 6.0), "acosh": (1.0, 9.0), "atanh": (-0.95, 0.95), "cbrt": (-50.0, 50.0),
          "expm1": (-5.0, 5.0), "log1p": (-0.9, 9.0)}


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("op", sorted(LOWP_X))
def test_low_precision(op, dtype):
    """float16/bfloat16 run the float32 loop through the adapter: the dtype's tolerance."""
    lo, hi = LOWP_X[op]
    d = nr.dtype(dtype)
    x = np.concatenate([np.linspace(lo, hi, 1001), [0.0, -0.0, np.inf, -np.inf, np.nan]]).astype(d.np)
    got = getattr(nr, op)(make(x, DEVICE, dtype))
    assert got.dtype == d
    with np.errstate(all="ignore"):
        exp = oracle_cast(NP[op](x.astype(np.float64)), d)
    assert_close(got, exp, dtype=dtype)
    zero = exp == 0
    np.testing.assert_array_equal(np.signbit(got.numpy().astype(np.float64)[zero]), np.signbit(exp[zero]))


@pytest.mark.parametrize("dtype", ["float32", "float64", "bfloat16"])
def test_large_strided_threads(dtype):
    """Above the OpenMP threshold, with a transposed, offset input (the strided loop)."""
    d = nr.dtype(dtype)
    rng = np.random.default_rng(5)
    a = rng.uniform(-3, 3, (257, 509))
    inputs = {"asinh": a, "acosh": 1 + np.abs(a), "atanh": a / 3.1, "cbrt": a * 10, "expm1": a, "log1p": np.abs(a)}
    for op, v in inputs.items():
        v = v.astype(d.np)
        got = getattr(nr, op)(make(v, DEVICE, dtype).T[3:])
        assert got.shape == (506, 257)
        assert_close(got, oracle_cast(NP[op](v.T[3:].astype(np.float64)), d), dtype=dtype)
