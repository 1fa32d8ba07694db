"""CPU only: the vectorised float64 sin, cos, tan, atan, asin, acos, sinh and cosh
(numr/_cpu/kernels/vmath_f64_trig.h, vmath_f64_atan.h) against glibc over dense sweeps,
random bit patterns and edge values: specials and signed zeros exact, finite results within
1 ulp of glibc, 2 ulp for sinh/cosh (glibc's own sinh/cosh errors reach ~1.7 ulp). Against
mpmath the error is below 1 ulp (measured: 0.62-0.86).

The oracle is glibc through Python's math module, not NumPy: NumPy 2 on AVX-512 machines
computes tan, arctan, arcsin, arccos, sinh and cosh with SVML (contiguous or strided), which
is itself up to ~2 ulp away from the correctly rounded result. NumPy only supplies the values
math refuses (inf and NaN results)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from elementwise_cases import make, run, seed
from vmath_cases import libm, near

import numr as nr

NP = {"sin": np.sin, "cos": np.cos, "tan": np.tan, "atan": np.arctan, "asin": np.arcsin,
      "acos": np.arccos, "sinh": np.sinh, "cosh": np.cosh}
OPS = list(NP)
MATH = {"sin": math.sin, "cos": math.cos, "tan": math.tan, "atan": math.atan, "asin": math.asin,
        "acos": math.acos, "sinh": math.sinh, "cosh": math.cosh}
BIG = 1.6e6  # NR_TRIG_BIG_D: at and above it sin/cos/tan go to libm
MAX_ULP = {"sinh": 2.0, "cosh": 2.0}  # against glibc; 1.0 for the others

COMMON = [0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, 5e-324, -5e-324, 2.2250738585072014e-308,
          -2.2250738585072014e-308, 1e-300, -1e-300, 1e-20, -1e-20, 1.4e-8, -1.4e-8,
          1.7976931348623157e308, -1.7976931348623157e308, 1.0, -1.0, 0.5, -0.5, 2.0, 3.0]


def _sym(v: np.ndarray) -> np.ndarray:
    return np.concatenate([v, -v])


def glibc(op: str, x: np.ndarray) -> np.ndarray:
    return libm(MATH[op], NP[op], x)


def _inputs(op: str) -> np.ndarray:
    rng = np.random.default_rng(seed("f64trig", op))
    bits = rng.integers(0, 2**63, 150_000, dtype=np.uint64).view(np.float64)
    parts = [np.array(COMMON), _sym(bits), rng.uniform(-1, 1, 100_000)]
    if op in ("sin", "cos", "tan"):
        k = np.concatenate([np.arange(1, 65), rng.integers(1, int(BIG / (np.pi / 2)), 20_000),
                            int(BIG / (np.pi / 2)) - np.arange(20)])
        parts += [np.linspace(-20, 20, 400_001), np.linspace(-1.02 * BIG, 1.02 * BIG, 200_001),
                  _sym(near(k * (np.pi / 2))), _sym(near(k * (np.pi / 4))),
                  _sym(near([BIG, 2.0**20, 2.0**20 * np.pi / 2, 1e300])),
                  _sym(near([np.pi / 4, 0.6744, 0.67434]))]
    elif op == "atan":
        parts += [np.linspace(-50, 50, 400_001), np.linspace(-1e6, 1e6, 100_001),
                  _sym(near([0.4375, 0.6875, 1.1875, 2.4375, 2.0**-27, 2.0**66, 1e300]))]
    elif op in ("asin", "acos"):
        parts += [np.linspace(-1.05, 1.05, 400_001), 1 - rng.uniform(0, 1e-6, 50_000),
                  _sym(near([0.5, 0.975, 0.97499847412109375, 1.0, 2.0**-26, 2.0**-57, 1e-300]))]
    else:
        parts += [np.linspace(-720, 720, 400_001), np.linspace(-3, 3, 200_001),
                  _sym(near([1.0, 0.34657359027997264, 22.0, 709.782712893384, 710.0,
                              710.4758600739439, 711.0, 745.2, 1e4]))]
    return np.concatenate(parts)


@pytest.mark.parametrize("op", OPS)
def test_float64_trig_accuracy(op):
    x = _inputs(op)
    got = run("cpu", getattr(nr, op), make(x, "cpu", "float64")).numpy()
    ref = glibc(op, x)
    assert got.dtype == np.float64 and got.shape == x.shape
    special = ~np.isfinite(ref) | ~np.isfinite(got) | (ref == 0)
    np.testing.assert_array_equal(got[special], ref[special])
    np.testing.assert_array_equal(np.signbit(got[ref == 0]), np.signbit(ref[ref == 0]))
    fin = ~special
    err = np.abs(got[fin] - ref[fin]) / np.spacing(np.abs(ref[fin]))
    worst = int(np.argmax(err))
    assert err.max() <= MAX_ULP.get(op, 1.0), f"{op}: {err.max()} ulp at x={x[fin][worst]!r}"


@pytest.mark.parametrize("op", OPS)
def test_float64_trig_specials(op):
    """The C99 values: sin/cos/tan(+-inf) NaN, atan(+-inf) = +-pi/2, asin/acos outside [-1, 1]
    NaN, sinh/cosh overflow to inf only past 710.4758..., odd functions keep the sign of 0."""
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0000000000000002, -1.0000000000000002,
                  710.4758600739439, -710.4758600739439, 710.475860073944, -711.0])
    got = run("cpu", getattr(nr, op), make(x, "cpu", "float64")).numpy()
    ref = glibc(op, x)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(ref))
    np.testing.assert_array_equal(np.signbit(got[got == 0]), np.signbit(ref[got == 0]))
    fin = np.isfinite(ref)
    np.testing.assert_array_equal(got[~fin & ~np.isnan(ref)], ref[~fin & ~np.isnan(ref)])
    assert np.all(np.abs(got[fin] - ref[fin]) <= np.spacing(np.abs(ref[fin])))
    if op == "atan":
        assert got[2] == np.pi / 2 and got[3] == -np.pi / 2
    if op in ("sinh", "cosh"):
        assert np.isfinite(got[7]) and np.isfinite(got[8]) and np.isinf(got[9]) and np.isinf(got[10])


@pytest.mark.parametrize("op", OPS)
def test_float64_trig_strided_threads(op):
    """Above the OpenMP threshold, through the strided loop: a flipped, stepped, offset view,
    with inputs above the libm bound mixed in for sin/cos/tan."""
    rng = np.random.default_rng(11)
    lo, hi = {"asin": (-1, 1), "acos": (-1, 1), "sinh": (-30, 30), "cosh": (-30, 30)}.get(op, (-100, 100))
    a = rng.uniform(lo, hi, 300_001)
    a[::997] = np.nan
    if op in ("sin", "cos", "tan"):
        a[5::1001] = rng.uniform(-1e9, 1e9, a[5::1001].size)
    x = make(a, "cpu", "float64")
    for view in (lambda t: t[::-3], lambda t: t[7::2], lambda t: t[3:]):
        got = run("cpu", getattr(nr, op), view(x)).numpy()
        ref = glibc(op, view(a))
        assert got.shape == ref.shape
        np.testing.assert_array_equal(np.isnan(got), np.isnan(ref))
        fin = np.isfinite(ref)
        assert np.all(np.abs(got[fin] - ref[fin]) <= MAX_ULP.get(op, 1.0) * np.spacing(np.abs(ref[fin])))


@pytest.mark.parametrize("op", OPS)
def test_float64_trig_true_error(op):
    """Below 1 ulp of the exact value (mpmath at 160 bits) where the kernels are weakest:
    the reduction and branch boundaries."""
    import mpmath as mp  # a test dependency (pyproject's "test" extra)

    rng = np.random.default_rng(seed("f64trig-mp", op))
    u = rng.uniform
    if op in ("sin", "cos", "tan"):
        k = rng.integers(1, int(BIG / (np.pi / 2)), 300)
        x = np.concatenate([u(-4, 4, 1000), u(-BIG, BIG, 300), k * (np.pi / 2), k * (np.pi / 4)])
    elif op == "atan":
        x = np.concatenate([u(-3, 3, 1500), 10.0 ** u(-10, 20, 300)])
    elif op in ("asin", "acos"):
        x = np.concatenate([u(-1, 1, 1000), u(0.45, 0.55, 400), _sym(1 - 10.0 ** u(-16, -1, 200))])
    else:
        x = np.concatenate([u(-3, 3, 1000), u(0.2, 1.1, 400), u(-710.4, 710.4, 300)])
    got = run("cpu", getattr(nr, op), make(x, "cpu", "float64")).numpy()
    f = getattr(mp, op)
    with mp.workprec(160):
        exact = [f(mp.mpf(float(v))) for v in x]
        err = [float(abs(mp.mpf(float(g)) - t) / float(np.spacing(abs(float(t)))))
               for g, t in zip(got, exact, strict=True)]
    assert max(err) < 1.0, f"{op}: {max(err)} ulp at x={x[int(np.argmax(err))]!r}"
