"""CPU only: the vectorised float64 log2, log10, exp2 (numr/_cpu/kernels/vmath_f64.h) and
atan2 (vmath_f64_atan.h) over dense sweeps, random bit patterns, subnormals, thresholds and
every pair of special values.

Oracles: glibc through Python's math module (math.log2, math.log10, math.atan2, 2.0 ** x)
element by element, since NumPy 2 on AVX-512 machines may use SVML, itself up to ~2 ulp off;
NumPy for the non-finite results and signed zeros, which must match exactly; mpmath at 130
bits for the true error, below 1 ulp for all four (measured 0.64 log2, 0.57 log10, 0.80 exp2,
0.79 atan2). Against glibc: 1 ulp, except log10, 2 ulp: glibc's own log10 is off by up to
~1.5 ulp (e.g. 1.52 ulp at x = 0.5639315824674704, where numr's error is 0.48).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from elementwise_cases import make, run, seed
from vmath_cases import libm, near

import numr as nr

OPS = ["log2", "log10", "exp2"]
NP = {"log2": np.log2, "log10": np.log10, "exp2": np.exp2, "atan2": np.arctan2}
MAX_ULP = {"log10": 2.0}  # against glibc; 1.0 for the others

SPECIAL = [0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 5e-324, -5e-324, 1.7976931348623157e308,
           -1.7976931348623157e308]


def _pow2(x: float) -> float:
    try:
        return 2.0**x
    except OverflowError:
        return math.inf


MATH = {"log2": math.log2, "log10": math.log10, "exp2": _pow2}


def glibc(op: str, *args: np.ndarray) -> np.ndarray:
    """op from libm element by element; NumPy's value where math raises (inf/NaN results)."""
    return libm(math.atan2 if op == "atan2" else MATH[op], NP[op], *args)


def _numpy(op: str, *args: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        return NP[op](*args)


def _check(op: str, got: np.ndarray, ref: np.ndarray, npref: np.ndarray, args: tuple) -> None:
    """Non-finite results and zeros (with their sign) exactly NumPy's and glibc's; the rest
    within MAX_ULP of glibc."""
    assert got.dtype == np.float64 and got.shape == ref.shape
    for oracle in (npref, ref):
        special = ~np.isfinite(oracle) | (oracle == 0)
        np.testing.assert_array_equal(got[special], oracle[special])
        np.testing.assert_array_equal(np.signbit(got[oracle == 0]), np.signbit(oracle[oracle == 0]))
    fin = np.isfinite(ref) & (ref != 0)
    if not fin.any():
        return
    err = np.abs(got[fin] - ref[fin]) / np.spacing(np.abs(ref[fin]))
    w = int(np.argmax(err))
    where = ", ".join(repr(a[fin][w]) for a in args)
    assert err.max() <= MAX_ULP.get(op, 1.0), f"{op}: {err.max()} ulp at ({where})"


def _bits(rng: np.random.Generator, n: int) -> np.ndarray:
    """n random 64-bit patterns as float64: every exponent, both signs, NaN and inf included."""
    return rng.integers(0, 2**64, n, dtype=np.uint64, endpoint=False).view(np.float64)


def _inputs(op: str) -> np.ndarray:
    rng = np.random.default_rng(seed("f64log", op))
    sub = rng.integers(1, 2**52, 20_000, dtype=np.uint64).view(np.float64)
    parts = [np.array(SPECIAL), _bits(rng, 300_000), sub, -sub]
    if op == "exp2":
        k = np.arange(-1080, 1031, dtype=np.float64)
        parts += [np.linspace(-1080, 1030, 400_001), rng.uniform(-1, 1, 200_000), near(k), near(k + 0.5),
                  rng.uniform(-1076, -1020, 50_000), rng.uniform(1020, 1025, 20_000),
                  near([0.5, -0.5, 1e-300, -1e-300, 2.0**-53, -(2.0**-54), 1023.9999999999999])]
    else:
        e = np.arange(-1074, 1024, dtype=np.float64)
        parts += [rng.uniform(0, 4, 200_000), 1 + rng.uniform(-1e-3, 1e-3, 100_000),
                  1 + np.arange(-200, 200) * 2.0**-53, np.exp(rng.uniform(-700, 700, 100_000)),
                  near(2.0**e), near(10.0 ** np.arange(-300, 301)),
                  near([0.70710678118654752, 1.4142135623730951, 2.2250738585072014e-308])]
    return np.concatenate(parts)


@pytest.mark.parametrize("op", OPS)
def test_float64_accuracy(op):
    x = _inputs(op)
    got = run("cpu", getattr(nr, op), make(x, "cpu", "float64")).numpy()
    _check(op, got, glibc(op, x), _numpy(op, x), (x,))


def test_float64_exact_values():
    """log2(2**k) = k, log10(10**n) = n (n = 0..22, where 10**n is a double), exp2(k) = 2**k
    (subnormals too) and the overflow/underflow edges."""
    k = np.arange(-1074, 1024)
    p2 = np.ldexp(1.0, k)
    np.testing.assert_array_equal(nr.log2(make(p2, "cpu", "float64")).numpy(), k.astype(np.float64))
    n = np.arange(23)
    p10 = np.array([10.0**i for i in n])
    np.testing.assert_array_equal(nr.log10(make(p10, "cpu", "float64")).numpy(), n.astype(np.float64))
    np.testing.assert_array_equal(nr.exp2(make(k.astype(np.float64), "cpu", "float64")).numpy(), p2)
    edge = np.array([1024.0, 1023.9999999999999, -1075.0, -1074.9999999999998, -1074.5, -np.inf, np.inf,
                     np.nan, 0.0, -0.0, 1100.0, -1100.0])
    got = nr.exp2(make(edge, "cpu", "float64")).numpy()
    want = [np.inf, 2.0**1023.9999999999999, 0.0, 5e-324, 5e-324, 0.0, np.inf, np.nan, 1.0, 1.0, np.inf, 0.0]
    np.testing.assert_array_equal(got, want)
    lg = np.array([0.0, -0.0, -1.0, -np.inf, np.inf, np.nan, 1.0, 5e-324])
    for op, last in (("log2", -1074.0), ("log10", math.log10(5e-324))):
        got = getattr(nr, op)(make(lg, "cpu", "float64")).numpy()
        np.testing.assert_array_equal(got, [-np.inf, -np.inf, np.nan, np.nan, np.inf, np.nan, 0.0, last])
        assert not np.signbit(got[6])


# every pair of these is an atan2 special case or next to one
ATAN2_SPECIAL = [0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 5e-324, -5e-324, 2.2250738585072014e-308,
                 1e-300, -1e-300, 1.7976931348623157e308, -1.7976931348623157e308, 1e300, -1e300, 0.5, -3.0]


def test_float64_atan2_special_grid():
    """Each pair of zeros of both signs, +-1, +-inf, NaN, tiny and huge: exactly NumPy's and
    glibc's where an operand is 0, inf or NaN (C99's table: +-0, +-pi/4, +-pi/2, +-3pi/4, +-pi,
    NaN); the finite pairs within 1 ulp of both. (NumPy 2.4 itself gives pi/2 + 1 ulp for
    atan2(1e-300, -5e-324), whose correctly rounded value numr and glibc return.)"""
    v = np.array(ATAN2_SPECIAL)
    y, x = (a.ravel() for a in np.meshgrid(v, v, indexing="ij"))
    got = nr.atan2(make(y, "cpu", "float64"), make(x, "cpu", "float64")).numpy()
    c99 = (y == 0) | (x == 0) | ~np.isfinite(y) | ~np.isfinite(x)
    assert c99.sum() == 18 * 18 - 13 * 13
    for want in (_numpy("atan2", y, x), glibc("atan2", y, x)):
        np.testing.assert_array_equal(got[c99], want[c99])
        np.testing.assert_array_equal(np.signbit(got[c99]), np.signbit(want[c99]))
        assert np.all(np.abs(got[~c99] - want[~c99]) <= np.spacing(np.abs(want[~c99])))


def _atan2_inputs() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed("f64log", "atan2"))
    n = 200_000
    sign = lambda m: rng.choice([-1.0, 1.0], m)  # noqa: E731
    # ratios at fdlibm's interval bounds, and x, y of every magnitude (overflowing y/x included)
    r = rng.choice([0.4375, 0.6875, 1.1875, 1.5, 2.4375, 1.0, 2.0], n) * (1 + rng.uniform(-0.02, 0.02, n))
    bx = sign(n) * 10.0 ** rng.uniform(-320, 308, n)
    mags = 10.0 ** rng.uniform(-323, 308, (2, n)) * sign(2 * n).reshape(2, n)
    with np.errstate(over="ignore"):
        ry = r * bx * sign(n)
    ys = [_bits(rng, 300_000), rng.normal(size=n), ry, mags[0],
          np.ldexp(sign(n) * rng.uniform(0.5, 1, n), rng.integers(-1074, 1024, n))]
    xs = [_bits(rng, 300_000), rng.normal(size=n), bx, mags[1],
          np.ldexp(sign(n) * rng.uniform(0.5, 1, n), rng.integers(-1074, 1024, n))]
    return np.concatenate(ys), np.concatenate(xs)


def test_float64_atan2_accuracy():
    y, x = _atan2_inputs()
    got = nr.atan2(make(y, "cpu", "float64"), make(x, "cpu", "float64")).numpy()
    _check("atan2", got, glibc("atan2", y, x), _numpy("atan2", y, x), (y, x))


@pytest.mark.parametrize("op", OPS + ["atan2"])
def test_float64_strided_threads(op):
    """Above the OpenMP threshold, through the strided loops: flipped, stepped and offset views;
    for atan2 also a broadcast (0-d) operand on either side and a 2-d outer broadcast."""
    rng = np.random.default_rng(seed("f64log-strided", op))
    lo, hi = (-1100, 1100) if op == "exp2" else (-1, 1e6)
    a = rng.uniform(lo, hi, 300_001)
    a[::997] = np.nan
    b = rng.normal(size=300_001)
    b[5::1009] = 0.0
    ta, tb = make(a, "cpu", "float64"), make(b, "cpu", "float64")
    f = getattr(nr, op)
    for view in (lambda t: t[::-3], lambda t: t[7::2], lambda t: t[3:]):
        args, nargs = ((view(ta), view(tb)), (view(a), view(b))) if op == "atan2" else ((view(ta),), (view(a),))
        got = f(*args).numpy()
        _check(op, got, glibc(op, *nargs), _numpy(op, *nargs), nargs)
    if op == "atan2":
        for s in (-2.5, -0.0, np.inf):
            ts = make(np.array(s), "cpu", "float64")
            for args, nargs in (((ta[3:], ts), (a[3:], np.full(a.size - 3, s))),
                                ((ts, tb[::-3]), (np.full(b[::-3].size, s), b[::-3]))):
                got = f(*args).numpy()
                _check(op, got, glibc(op, *nargs), _numpy(op, *nargs), nargs)
        ya, xb = a[:600].reshape(600, 1), b[:500].reshape(1, 500)
        got = f(make(ya, "cpu", "float64"), make(xb, "cpu", "float64")).numpy()
        yy, xx = np.broadcast_arrays(ya, xb)
        _check(op, got.ravel(), glibc(op, yy.ravel(), xx.ravel()), _numpy(op, yy, xx).ravel(),
               (yy.ravel(), xx.ravel()))


@pytest.mark.parametrize("op", OPS + ["atan2"])
def test_float64_true_error(op):
    """Below 1 ulp of the exact value (mpmath at 130 bits), where the kernels are weakest:
    near 1 and the sqrt(2) reduction bound for the logs, reduced arguments near +-1/2 for
    exp2, fdlibm's interval bounds and both signs of x for atan2."""
    import mpmath as mp  # a test dependency (pyproject's "test" extra)

    rng = np.random.default_rng(seed("f64log-mp", op))
    u = rng.uniform
    if op == "exp2":
        args = (np.concatenate([u(-1, 1, 1500), u(-1075, 1024, 500), u(-1075, -1022, 300),
                                np.round(u(-1000, 1000, 300)) + 0.5 - 2.0**-30]),)
        f = lambda v: mp.power(2, v)  # noqa: E731
    elif op == "atan2":
        r = rng.choice([0.4375, 0.6875, 1.1875, 1.5, 2.4375], 800) * (1 + u(-0.05, 0.05, 800))
        x = np.concatenate([u(-3, 3, 1200), u(0.1, 10, 800) * rng.choice([-1, 1], 800)])
        args = (np.concatenate([u(-3, 3, 1200), r * x[1200:] * rng.choice([-1, 1], 800)]), x)
        f = mp.atan2
    else:
        args = (np.concatenate([u(0.5, 2, 1500), 1 + u(-1e-6, 1e-6, 300), 10.0 ** u(-300, 300, 400),
                                u(0.70, 0.72, 300), u(1.40, 1.42, 300)]),)
        f = (lambda v: mp.log(v, 2)) if op == "log2" else mp.log10
    got = getattr(nr, op)(*(make(a, "cpu", "float64") for a in args)).numpy()
    with mp.workprec(130):
        exact = [f(*(mp.mpf(float(a[i])) for a in args)) for i in range(args[0].size)]
        err = [float(abs(mp.mpf(float(g)) - t) / float(np.spacing(abs(float(t)))))
               for g, t in zip(got, exact, strict=True)]
    w = int(np.argmax(err))
    assert max(err) < 1.0, f"{op}: {max(err)} ulp at {[float(a[w]) for a in args]}"
