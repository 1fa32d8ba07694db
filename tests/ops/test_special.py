"""Special functions (SpecialOps, numr.special) against scipy.special in float64 over dense grids
with tails, poles, negative arguments, signed zeros, +-inf and NaN; float32 against the float64
oracle at the float32-rounded inputs; float16, integer and bool inputs; layouts; errors; and their
gradients (gradcheck in float64, jvp against the analytic derivative)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.special as sc
from conftest import assert_close

import numr as nr
import numr.special as ns
from numr.autograd import gradcheck, jvp


def make(a, device, dtype=None):
    try:
        return nr.tensor(a, dtype=dtype, device=device)
    except nr.UnsupportedOperation as e:
        pytest.skip(str(e))


def small(a, device, n=160):
    """The whole grid on the CPU, an even subsample (ends and specials kept) elsewhere."""
    a = np.asarray(a)
    if device == "cpu" or a.size <= n:
        return a
    return a[np.unique(np.r_[np.linspace(0, a.size - 1, n).astype(int), np.arange(a.size - 12, a.size)])]


SPECIALS = [0.0, -0.0, np.inf, -np.inf, np.nan]
X30 = np.r_[np.linspace(-30, 30, 2401), 1e-300, -1e-300, 0.46875, -0.46875, 4.0, 26.5, 1e300, -1e300, SPECIALS]
PROB = np.r_[np.linspace(-1, 1, 1601), 1 - 1e-12, -1 + 1e-15, 1 - 2.0 ** -53, 1e-300, 1.5, -2.0, 1.0, -1.0, SPECIALS]
UNIT = np.r_[np.linspace(0, 1, 1601), 10.0 ** -np.arange(1.0, 300.0, 7.0), 1 - 1e-12, 1.5, -0.1, SPECIALS]
GAMMA = np.r_[np.linspace(-20.05, 40.05, 2001), np.linspace(1e-3, 3, 300), 1e-300, 171.5, 1e5, 1e300, -1e300,
              0.0, -1.0, -2.0, -7.0, 1.0, 2.0, -0.5 + 1e-9, np.inf, np.nan]
BESSEL = np.r_[np.linspace(-60, 60, 2401), 1e-300, -1e-300, 8.0, 700.0, -700.0, 720.0, SPECIALS]


def _lgamma(x):
    return np.where(np.isneginf(x), np.inf, sc.gammaln(x))  # torch: lgamma(-inf) = inf


def _inf(f, at):
    """f with its values at +-inf given (scipy returns NaN for I0/I1 there)."""
    def g(x):
        with np.errstate(all="ignore"):
            y = f(np.where(np.isinf(x), 0, x))
        return np.where(np.isposinf(x), at[0], np.where(np.isneginf(x), at[1], y))
    return g


# name -> (numr function, oracle, grid, float64 (rtol, atol), float32 (rtol, atol))
CASES = {
    "erf": (nr.erf, sc.erf, X30, (1e-14, 0), (1e-6, 0)),
    "erfc": (nr.erfc, sc.erfc, X30, (1e-13, 1e-300), (1e-6, 1e-37)),
    "erfcx": (ns.erfcx, sc.erfcx, X30, (1e-13, 0), (1e-6, 0)),
    "erfinv": (nr.erfinv, sc.erfinv, PROB, (1e-13, 0), (1e-6, 0)),
    "ndtr": (ns.ndtr, sc.ndtr, X30, (2e-13, 1e-300), (1e-6, 1e-37)),  # scipy's own tail error: see below
    "ndtri": (ns.ndtri, sc.ndtri, UNIT, (1e-13, 0), (1e-6, 0)),
    "log_ndtr": (ns.log_ndtr, sc.log_ndtr, X30, (2e-13, 0), (1e-6, 1e-37)),
    "lgamma": (nr.lgamma, _lgamma, GAMMA, (1e-13, 1e-14), (1e-6, 4e-6)),  # float32: reflection's cancellation
    "digamma": (nr.digamma, sc.psi, GAMMA, (1e-12, 1e-13), (1e-6, 2e-6)),
    "i0": (nr.i0, _inf(sc.i0, (np.inf, np.inf)), BESSEL, (1e-14, 0), (2e-6, 0)),
    "i0e": (ns.i0e, sc.i0e, BESSEL, (1e-14, 0), (2e-6, 0)),
    "i1": (ns.i1, _inf(sc.i1, (np.inf, -np.inf)), BESSEL, (1e-14, 0), (2e-6, 0)),
    "i1e": (ns.i1e, sc.i1e, BESSEL, (1e-14, 0), (2e-6, 0)),
    "sinc": (nr.sinc, np.sinc, np.r_[np.linspace(-20, 20, 1601), 0.5, 1e-30, SPECIALS[:2], np.nan],
             (1e-13, 1e-15), (1e-6, 1e-7)),
    "entr": (ns.entr, sc.entr, np.r_[np.linspace(-2, 40, 801), 1e-300, 1.0, SPECIALS], (1e-14, 1e-15), (1e-6, 1e-7)),
    "expit": (ns.expit, sc.expit, X30 * 20, (1e-14, 0), (1e-6, 1e-37)),
    "logit": (nr.logit, sc.logit, UNIT, (1e-14, 1e-15), (1e-6, 1e-7)),
}


def oracle(f, x):
    with np.errstate(all="ignore"):
        return f(x)


@pytest.mark.parametrize("name", list(CASES))
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_values(device, name, dtype):
    fn, ref, grid, t64, t32 = CASES[name]
    rtol, atol = t64 if dtype == "float64" else t32
    if name == "logit" and device != "cpu" and dtype == "float64":
        rtol = 1e-11  # the WebGPU float64 log1p is good to 4e-12
    check_values(device, fn, ref, grid, dtype, rtol, atol)


def check_values(device, fn, ref, grid, dtype, rtol, atol):
    """fn on the grid (subsampled off the CPU) in dtype against the float64 oracle at the rounded inputs."""
    with np.errstate(over="ignore"):
        x = small(grid, device).astype(dtype)
    got = fn(make(x, device))
    with np.errstate(over="ignore", under="ignore"):
        want = oracle(ref, x.astype(np.float64)).astype(dtype)  # float32: overflow to inf, underflow to 0
    assert_close(got, want, dtype=dtype, rtol=rtol, atol=atol)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("n", [1, 2, 3, 5, 8, 10])
def test_polygamma(device, n, dtype):
    x = small(np.r_[np.linspace(0.01, 40, 801), np.linspace(-7.45, -0.05, 149) + 0.0037, 1e-5, 1e5, 1e10,
                    0.0, -1.0, -3.0, np.inf, np.nan], device)
    got = nr.polygamma(n, make(x.astype(dtype), device))
    with np.errstate(all="ignore"):
        want = sc.polygamma(n, x.astype(dtype).astype(np.float64)).astype(dtype)
    want[np.isin(x, [0.0, -1.0, -3.0])] = np.inf if n % 2 else -np.inf  # scipy's poles too
    rtol, atol = (1e-12, 1e-13) if dtype == "float64" else (1e-5, 1e-5)  # float32: zeros of even n
    assert_close(got, want, dtype=dtype, rtol=rtol, atol=atol)
    assert_close(ns.polygamma(0, make(x, device)), oracle(sc.psi, x), rtol=1e-12, atol=1e-13)
    assert_close(make(x.astype(dtype), device).polygamma(n), want, dtype=dtype, rtol=rtol, atol=atol)  # torch's method


def test_ndtr_tail_mpmath(device):
    """In the left tail scipy's ndtr (erfc of the rounded x/sqrt 2) is off by up to 1.6e-13;
    numr's (erfcx times exp(-x^2/2) with x^2 split) is exact to a few ulp."""
    mp = pytest.importorskip("mpmath")
    mp.mp.dps = 30
    x = np.array([-29.856, -37.5, -12.3456, -5.5, -1.1])
    want = np.array([float(mp.ncdf(v)) for v in x])
    assert_close(ns.ndtr(make(x, device)), want, rtol=1e-15, atol=0)
    assert_close(ns.log_ndtr(make(x, device)), np.array([float(mp.log(mp.ncdf(v))) for v in x]), rtol=1e-15, atol=0)


def test_edge_values(device):
    x = make(np.array([0.0, -0.0, -1.0, -2.5, np.inf, -np.inf, np.nan]), device)
    np.testing.assert_array_equal(nr.lgamma(x).numpy()[[0, 1, 2, 4, 5]], np.inf)
    np.testing.assert_array_equal(nr.digamma(x).numpy()[[0, 1, 4]], [-np.inf, np.inf, np.inf])
    assert np.isnan(nr.digamma(x).numpy()[[2, 5, 6]]).all()
    np.testing.assert_array_equal(nr.erfinv(make(np.array([1.0, -1.0]), device)).numpy(), [np.inf, -np.inf])
    np.testing.assert_array_equal(ns.ndtri(make(np.array([0.0, 1.0]), device)).numpy(), [-np.inf, np.inf])
    np.testing.assert_array_equal(nr.erfc(make(np.array([28.0, 40.0, np.inf]), device)).numpy(), 0.0)  # underflow
    np.testing.assert_array_equal(nr.xlogy(make(np.array([0.0, 0.0, 1.0]), device),
                                           make(np.array([0.0, np.nan, 0.0]), device)).numpy()[[0, 2]],
                                  [0.0, -np.inf])
    assert np.isnan(nr.xlogy(make(np.array([0.0]), device), make(np.array([np.nan]), device)).numpy()).all()


def test_binary_and_options(device):
    rng = np.random.default_rng(3)
    a, b = rng.uniform(-2, 3, (3, 4)), rng.uniform(0, 4, (4,))
    a[0, :2] = 0.0
    x, y = make(a, device), make(b, device)
    assert_close(nr.xlogy(x, y), oracle(lambda: sc.xlogy(a, b), ()) if False else sc.xlogy(a, b), dtype="float64")
    assert_close(ns.xlog1py(x, y - 0.5), sc.xlog1py(a, b - 0.5), dtype="float64")
    assert_close(nr.xlogy(x, 2.0), sc.xlogy(a, 2.0), dtype="float64")
    assert_close(nr.xlogy(2, y), sc.xlogy(2, b), dtype="float64")
    p = rng.uniform(0, 1, 7)
    assert_close(nr.logit(make(p, device), eps=0.2), sc.logit(np.clip(p, 0.2, 0.8)), dtype="float64")
    g = rng.uniform(1.6, 9, (2, 3))
    assert_close(ns.multigammaln(make(g, device), 4), sc.multigammaln(g, 4) * np.ones_like(g) if False else
                 np.vectorize(lambda v: sc.multigammaln(v, 4))(g), dtype="float64")
    assert_close(ns.softmax(x, -1), sc.softmax(a, -1), dtype="float64")
    with pytest.raises(nr.DomainError, match="multigammaln"):
        ns.multigammaln(make(g, device), 30)
    with pytest.raises(nr.DomainError, match="polygamma"):
        nr.polygamma(-1, x)


@pytest.mark.parametrize("name", ["erf", "erfinv", "lgamma", "digamma", "i0", "sinc", "logit", "ndtri"])
def test_dtypes_and_layouts(device, name):
    fn, ref, grid, _, _ = CASES[name]
    lo, hi = (0.05, 0.95) if name in ("erfinv", "logit", "ndtri") else (-3.3, 4.7)
    a = np.linspace(lo, hi, 24).reshape(4, 6)
    check_layouts(device, fn, ref, a)
    h = fn(make(a.astype(np.float16), device))
    assert_close(h, oracle(ref, a.astype(np.float16).astype(np.float64)), dtype="float16", rtol=2e-3, atol=2e-3)
    if name not in ("erfinv", "logit", "ndtri"):
        i = fn(make(np.array([[1, 2], [3, 5]], np.int32), device))  # integers: the default float
        assert_close(i, oracle(ref, np.array([[1.0, 2.0], [3.0, 5.0]])), dtype=nr.dtype(nr.dtypes.default_float).name)
        b = fn(make(np.array([True, False]), device))
        assert b.dtype == nr.dtypes.default_float
        bf = fn(make(a[:2, :3], device, dtype="bfloat16"))  # computed in float32
        assert_close(bf, oracle(ref, nr.cast(make(a[:2, :3], device, dtype="bfloat16"), nr.float64).numpy()),
                     dtype="bfloat16")
    with pytest.raises(nr.UnsupportedDType, match=name):
        fn(nr.tensor(np.array([1 + 1j])))


def check_layouts(device, fn, ref, a):
    """fn of a 4x6 float64 grid a through non-contiguous, offset, flipped, 0-d, size-1 and empty views."""
    x = make(a, device)
    want = oracle(ref, a)
    assert_close(fn(x.T), want.T, dtype="float64")  # non-contiguous
    assert_close(fn(x[1:, 2:]), want[1:, 2:], dtype="float64")  # offset
    assert_close(fn(x.flip(1)), want[:, ::-1], dtype="float64")  # negative stride
    assert_close(fn(x[2, 3]), want[2, 3], dtype="float64")  # 0-d
    assert_close(fn(x[:1, :1]), want[:1, :1], dtype="float64")  # size 1
    assert fn(make(np.zeros((0, 3)), device)).shape == (0, 3)  # empty


#: name -> (function, analytic derivative, points)
GRADS = {
    "erf": (nr.erf, lambda x: 2 / np.sqrt(np.pi) * np.exp(-x * x), [-2.1, -0.3, 0.2, 0.7, 3.5]),
    "erfc": (nr.erfc, lambda x: -2 / np.sqrt(np.pi) * np.exp(-x * x), [-2.1, 0.2, 3.5]),
    "erfcx": (ns.erfcx, lambda x: 2 * x * sc.erfcx(x) - 2 / np.sqrt(np.pi), [-1.5, 0.3, 5.0]),
    "erfinv": (nr.erfinv, lambda x: np.sqrt(np.pi) / 2 * np.exp(sc.erfinv(x) ** 2), [-0.9, 0.1, 0.45, 0.99]),
    "ndtr": (ns.ndtr, lambda x: np.exp(-x * x / 2) / np.sqrt(2 * np.pi), [-3.0, 0.4, 2.0]),
    "ndtri": (ns.ndtri, lambda p: np.sqrt(2 * np.pi) * np.exp(sc.ndtri(p) ** 2 / 2), [0.01, 0.3, 0.8]),
    "log_ndtr": (ns.log_ndtr, lambda x: np.exp(-x * x / 2) / np.sqrt(2 * np.pi) / sc.ndtr(x), [-20.0, -1.0, 2.0]),
    "lgamma": (nr.lgamma, sc.psi, [-2.5, -0.3, 0.4, 1.7, 12.0]),
    "digamma": (nr.digamma, lambda x: sc.polygamma(1, x), [-2.5, 0.4, 1.7, 12.0]),
    "polygamma": (lambda t: nr.polygamma(2, t), lambda x: sc.polygamma(3, x), [-1.5, 0.4, 3.0]),
    "i0": (nr.i0, sc.i1, [-9.0, -0.5, 0.0, 3.0, 12.0]),
    "i0e": (ns.i0e, lambda x: sc.i1e(x) - np.sign(x) * sc.i0e(x), [-9.0, -0.5, 3.0, 12.0]),
    "i1": (ns.i1, lambda x: sc.i0(x) - np.where(x == 0, 0.5, sc.i1(x) / np.where(x == 0, 1, x)),
           [-9.0, 0.0, 3.0]),
    "i1e": (ns.i1e, lambda x: sc.i0e(x) - sc.i1e(x) * (np.sign(x) + 1 / x), [-9.0, 0.5, 12.0]),
    "sinc": (nr.sinc, lambda x: (np.cos(np.pi * x) * np.pi * x - np.sin(np.pi * x)) / (np.pi * x * x),
             [-1.3, 0.4, 2.5]),
    "entr": (ns.entr, lambda x: -np.log(x) - 1, [0.2, 1.5, 7.0]),
    "logit": (nr.logit, lambda x: 1 / (x * (1 - x)), [0.1, 0.5, 0.93]),
    "expit": (ns.expit, lambda x: sc.expit(x) * (1 - sc.expit(x)), [-3.0, 0.0, 2.0]),
}


@pytest.mark.parametrize("name", list(GRADS))
def test_gradients(device, name):
    fn, deriv, pts = GRADS[name]
    check_gradient(device, fn, CASES[name][1] if name in CASES else lambda p: sc.polygamma(2, p), deriv, pts,
                   (1e-12, 1e-14), (1e-10, 1e-12))


def check_gradient(device, fn, ref, deriv, pts, tol, dtol):
    """gradcheck of fn at the float64 points, and its jvp (value, tangent) against ref and deriv."""
    p = np.array(pts)
    x = make(p, device)
    assert gradcheck(fn, (x,))
    out, tan = jvp(fn, (x,), (nr.ones_like(x),))
    assert_close(out, oracle(ref, p), rtol=tol[0], atol=tol[1])
    assert_close(tan, deriv(p), dtype="float64", rtol=dtol[0], atol=dtol[1])


def test_composite_gradients(device):
    rng = np.random.default_rng(5)
    a, b = make(rng.uniform(0.2, 2, 5), device), make(rng.uniform(0.2, 2, 5), device)
    assert gradcheck(lambda u, v: nr.xlogy(u, v), (a, b))
    assert gradcheck(lambda u, v: ns.xlog1py(u, v), (a, b))
    assert gradcheck(lambda u: ns.multigammaln(u + 2.0, 3), (a,))
    assert gradcheck(lambda u: nr.lgamma(nr.lgamma(u + 1.5)), (a,))  # lgamma' = digamma, itself differentiable


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_cpu_fused_matches_composite(dtype):
    """The CPU's fused erf/lgamma/digamma loops (contiguous float64; the kernel also has float32
    loops, computing in double) against the generic composites every other backend runs, and both
    against scipy."""
    from numr._cpu.kernels import special as kernel
    from numr.ops.generic.special_gamma import COMPOSITES
    x = np.r_[np.linspace(-25.3, 35.7, 4001), -np.arange(0.0, 12.0), 1e-300, SPECIALS].astype(dtype)
    t = nr.tensor(x)
    for op, (name, ref) in enumerate((("erf", sc.erf), ("lgamma", _lgamma), ("digamma", sc.psi))):
        fused = np.empty_like(x)
        assert kernel.run(op, dtype == "float64", x, 0, fused, x.size)
        fused, comp = nr.tensor(fused), COMPOSITES[name](t)
        want = oracle(ref, x.astype(np.float64))
        tol = (1e-12, 1e-13) if dtype == "float64" else (1e-6, 4e-6)
        assert_close(fused, want.astype(dtype), dtype=dtype, rtol=tol[0], atol=tol[1])
        assert_close(comp, want.astype(dtype), dtype=dtype, rtol=tol[0], atol=tol[1])
        assert_close(fused, comp.numpy(), dtype=dtype, rtol=tol[0], atol=tol[1])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_cpu_erf_vectorised(dtype):
    """nr.erf on the CPU (contiguous float32/float64: fdlibm's erf vectorised in double) is
    correctly rounded in float32 and within 1e-15 relative in float64, subnormals, -0.0, the
    interval joins (0.84375, 1.25, 1/0.35, 6, 28), infinities and NaN included; a strided view
    takes the composite and agrees."""
    x = np.r_[np.linspace(-7.0, 7.0, 20001), np.logspace(-45 if dtype == "float32" else -320, 1, 2000),
              -np.logspace(-40, 1, 500), 0.84375, 1.25, 1 / 0.35, 6.0, 28.0, np.nextafter(6.0, 0.0), 30.0,
              -0.0, np.inf, -np.inf, np.nan].astype(dtype)
    got = nr.erf(nr.tensor(x))
    assert got.dtype == getattr(nr, dtype) and got.shape == x.shape
    want = sc.erf(x.astype(np.float64))
    g = got.numpy()
    if dtype == "float32":
        assert np.array_equal(g, want.astype(np.float32), equal_nan=True)
    else:
        assert_close(got, want, dtype=dtype, rtol=1e-15, atol=0)
    assert np.signbit(g[x.size - 4]) and g[-3] == 1 and g[-2] == -1 and np.isnan(g[-1])
    strided = nr.erf(nr.tensor(x)[::3])
    tol = 1e-6 if dtype == "float32" else 1e-13
    assert_close(strided, g[::3], dtype=dtype, rtol=tol, atol=tol if dtype == "float32" else 0)
