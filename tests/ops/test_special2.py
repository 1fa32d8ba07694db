"""Special functions, part 2 (gamma_fn/beta_fn/betaln, gammainc/gammaincc/betainc, Bessel J/Y/K,
ellipk/ellipe) against scipy.special in float64 over dense grids with tails, zeros, poles, +-0,
+-inf and NaN; float32 against the float64 oracle at the float32-rounded inputs; mpmath where
scipy itself is off (J/Y at large x); half/int/bool/complex inputs; layouts and broadcasting;
gradients by gradcheck in float64 and jvp against the analytic derivatives."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.special as sc
from conftest import assert_close
from test_special import check_gradient, check_layouts, check_values, make, oracle

import numr as nr
import numr.special as ns
from numr.autograd import gradcheck, jvp

SPECIALS = [0.0, -0.0, np.inf, -np.inf, np.nan]
ZEROS = np.r_[sc.jn_zeros(0, 6), sc.jn_zeros(1, 6), sc.yn_zeros(0, 6), sc.yn_zeros(1, 6)]
JY = np.r_[np.linspace(-60, 60, 2401), ZEROS, -ZEROS[:6], 1e-300, 8.0, 5.0, 1e-8, SPECIALS]
K = np.r_[np.linspace(-3, 60, 1261), np.linspace(1e-4, 2.5, 200), 1e-300, 2.0, 700.0, 740.0, SPECIALS]
M = np.r_[np.linspace(-50, 1, 2001), 1 - np.logspace(-1, -15, 15), -np.logspace(0, 10, 21), 1e-300, -1e-300, 1.0,
          1.5, SPECIALS]
GAMMA = np.r_[np.linspace(-20.05, 40.05, 2001), np.linspace(1e-3, 3, 300), 1e-300, 171.5, 180.0, -180.5, 1.0, 5.0,
              -1.0, -7.0, SPECIALS]

# name -> (numr function, oracle, grid, float64 (rtol, atol), float32 (rtol, atol))
CASES = {
    "bessel_j0": (nr.bessel_j0, sc.j0, JY, (1e-13, 4e-15), (2e-5, 2e-6)),
    "bessel_j1": (nr.bessel_j1, sc.j1, JY, (1e-13, 4e-15), (2e-5, 2e-6)),
    "bessel_y0": (ns.y0, sc.y0, JY, (1e-13, 4e-15), (2e-5, 2e-6)),  # Y: absolute accuracy near its zeros
    "bessel_y1": (ns.y1, sc.y1, JY, (1e-13, 4e-15), (2e-5, 2e-6)),
    "modified_bessel_k0": (ns.k0, sc.k0, K, (1e-14, 0), (5e-6, 1e-37)),  # float32: K0 + log(x) I0 cancels near 2
    "modified_bessel_k1": (ns.k1, sc.k1, K, (1e-14, 0), (5e-6, 1e-37)),  # float32: K0 + log(x) I0 cancels near 2
    "scaled_modified_bessel_k0": (ns.k0e, sc.k0e, K, (1e-14, 0), (5e-6, 0)),
    "scaled_modified_bessel_k1": (ns.k1e, sc.k1e, K, (1e-14, 0), (5e-6, 0)),
    "ellipk": (nr.ellipk, sc.ellipk, M, (1e-14, 0), (2e-6, 0)),
    "ellipe": (nr.ellipe, sc.ellipe, M, (1e-14, 0), (2e-6, 0)),
    "gamma_fn": (ns.gamma, sc.gamma, GAMMA, (2e-13, 0), (3e-5, 1e-37)),  # exp(lgamma): lgamma's ulp times |lgamma|
}


@pytest.mark.parametrize("name", list(CASES))
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_values(device, name, dtype):
    fn, ref, grid, t64, t32 = CASES[name]
    check_values(device, fn, ref, grid, dtype, *(t64 if dtype == "float64" else t32))


def test_bessel_large_x_mpmath(device):
    """Beyond x = 8 numr takes cos/sin of x itself (scipy of the rounded x - pi/4: 1e-12 off at 1e4)."""
    mp = pytest.importorskip("mpmath")
    mp.mp.dps = 30
    x = np.array([9.5, 37.3, 250.0, 1e4] if device == "cpu" else [9.5, 37.3, 250.0])
    t = make(x, device)
    for n, (fj, fy) in enumerate(((nr.bessel_j0, nr.bessel_y0), (nr.bessel_j1, nr.bessel_y1))):
        assert_close(fj(t), [float(mp.besselj(n, v)) for v in x], rtol=2e-14, atol=1e-17)
        assert_close(fy(t), [float(mp.bessely(n, v)) for v in x], rtol=2e-14, atol=1e-17)


def _ga_grid(device, amax):
    a = np.r_[1e-3, 0.1, 0.5, 1.0, 3.7, 10.0, 45.0, amax][:, None]
    x = np.r_[0.0, 1e-5, 0.05, 0.5, 1.0, 1.1, 2.0, 5.0, 9.5, 11.0, 30.0, 44.0, 46.0, 60.0, 100.0, 150.0, 700.0][None]
    if device != "cpu":
        a, x = a[::2], x[:, ::2]
    return a, x


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_gammainc(device, dtype):
    a, x = _ga_grid(device, 100.0)
    ta, tx = make(a.astype(dtype), device), make(x.astype(dtype), device)
    a64, x64 = a.astype(dtype).astype(np.float64), x.astype(dtype).astype(np.float64)
    tol = dict(rtol=2e-13, atol=1e-300) if dtype == "float64" else dict(rtol=1e-4, atol=1e-30)  # float32: a log x
    assert_close(nr.gammainc(ta, tx), sc.gammainc(a64, x64).astype(dtype), dtype=dtype, **tol)  # broadcast (8,1)x(1,17)
    assert_close(nr.gammaincc(ta, tx), sc.gammaincc(a64, x64).astype(dtype), dtype=dtype, **tol)
    assert_close(ns.gammaincc(2.5, tx), sc.gammaincc(2.5, x64).astype(dtype), dtype=dtype, **tol)  # scalar a


def test_gammainc_dense_cpu():
    """Dense random a in [1e-3, 100], x in [1e-4, 300]: P and Q within 3e-13 of scipy; a = 1000
    and 3000 within 3e-13 of mpmath (scipy itself is 1.6e-12 off at P(1000, 386.6), 5e-12 at
    P(3000, 1437)); a = 1e5 near x = a (Temme's expansion) within 1e-12 of scipy's."""
    rng = np.random.default_rng(0)
    a, x = np.exp(rng.uniform(np.log(1e-3), np.log(100), 20000)), np.exp(rng.uniform(np.log(1e-4), np.log(300), 20000))
    assert_close(nr.gammainc(nr.tensor(a), nr.tensor(x)), sc.gammainc(a, x), rtol=3e-13, atol=1e-300)
    assert_close(nr.gammaincc(nr.tensor(a), nr.tensor(x)), sc.gammaincc(a, x), rtol=3e-13, atol=1e-300)
    mp = pytest.importorskip("mpmath")
    mp.mp.dps = 30
    x = np.r_[386.57928964482244, np.linspace(700, 1300, 13), 1506.1784378207735, 1437.0, 4728.0, 9000.0]
    a = np.r_[np.full(15, 1000.0), 3000.0, 3000.0, 3000.0]
    p = [float(mp.gammainc(mp.mpf(u), 0, mp.mpf(v), regularized=True)) for u, v in zip(a, x, strict=True)]
    assert_close(nr.gammainc(nr.tensor(a), nr.tensor(x)), p, rtol=3e-13, atol=0)
    q = [float(mp.gammainc(mp.mpf(u), mp.mpf(v), mp.inf, regularized=True)) for u, v in zip(a, x, strict=True)]
    assert_close(nr.gammaincc(nr.tensor(a), nr.tensor(x)), q, rtol=3e-13, atol=0)
    x = np.linspace(0.95e5, 1.05e5, 201)
    assert_close(nr.gammainc(1e5, nr.tensor(x)), sc.gammainc(1e5, x), rtol=1e-12, atol=1e-300)
    assert_close(nr.gammaincc(1e5, nr.tensor(x)), sc.gammaincc(1e5, x), rtol=1e-12, atol=1e-300)


def test_incomplete_edges(device):
    a = np.array([0.0, -1.0, 1.0, 1.0, 1.0, np.inf, 1.0, 2.0, 0.0, np.inf, np.nan, 1.0, 2.0])
    x = np.array([1.0, 1.0, 0.0, np.inf, -1.0, 1.0, -0.0, np.inf, 0.0, np.inf, 1.0, np.nan, 1e-300])
    ta, tx = make(a, device), make(x, device)
    np.testing.assert_array_equal(nr.gammainc(ta, tx).numpy(), sc.gammainc(a, x))
    np.testing.assert_array_equal(nr.gammaincc(ta, tx).numpy(), sc.gammaincc(a, x))
    a = np.array([0.0, 1.0, 1.0, 2.0, 2.0, -1.0, np.inf, 2.0, 2.0, np.nan, 2.0])
    b = np.array([1.0, 0.0, 2.0, 3.0, 3.0, 1.0, 1.0, 3.0, np.inf, 1.0, 3.0])
    x = np.array([0.5, 0.5, 0.0, 1.0, 1.5, 0.5, 0.5, -0.1, 0.5, 0.5, np.nan])
    np.testing.assert_array_equal(nr.betainc(make(a, device), make(b, device), make(x, device)).numpy(),
                                  sc.betainc(a, b, x))


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_betainc(device, dtype):
    rng = np.random.default_rng(1)
    n = 2000 if device == "cpu" else 40
    a, b = np.exp(rng.uniform(np.log(0.05), np.log(40), (2, n)))
    x = rng.uniform(0, 1, n)
    x[:5] = [1e-5, 0.5, 1 - 1e-9, 0.999, 0.02]
    a, b, x = (v.astype(dtype).astype(np.float64) for v in (a, b, x))
    got = nr.betainc(make(a.astype(dtype), device), make(b.astype(dtype), device), make(x.astype(dtype), device))
    # float64: 1 - I_{1-x}(b, a) cancels for b << a near x = 1 (scipy's Boost avoids it): 1e-11
    tol = dict(rtol=1e-11, atol=1e-300) if dtype == "float64" else dict(rtol=1e-3, atol=1e-30)  # a log x
    assert_close(got, sc.betainc(a, b, x).astype(dtype), dtype=dtype, **tol)


def test_beta_betaln(device):
    rng = np.random.default_rng(2)
    a, b = rng.uniform(0.05, 30, (2, 3, 50 if device == "cpu" else 8))
    ta, tb = make(a, device), make(b, device)
    assert_close(nr.betaln(ta, tb), sc.betaln(a, b), dtype="float64", rtol=1e-12, atol=1e-14)  # scipy's 3e-12 near 0
    assert_close(ns.beta(ta, tb), sc.beta(a, b), dtype="float64", rtol=2e-13, atol=1e-300)
    assert_close(ns.beta(ta, 2.5), sc.beta(a, 2.5), dtype="float64", rtol=2e-13, atol=1e-300)
    big = np.array([[1e6, 1e-3, 0.3221621802946272, 500.0], [1.0, 1e5, 24.221183247868314, 600.0]])
    mp = pytest.importorskip("mpmath")
    mp.mp.dps = 30  # the large lgammas' difference by Stirling: scipy is 1.5e-11 off at (1e-3, 1e5)
    assert_close(nr.betaln(make(big[0], device), make(big[1], device)),
                 [float(mp.log(mp.beta(p, q))) for p, q in big.T], rtol=2e-14, atol=1e-15)
    neg = np.array([[-0.5, -1.5, -2.3, 1.2, -0.5, 0.0, -1.0, 1.0], [0.3, 2.2, -0.7, -2.5, -0.5, 1.0, 2.0, 0.0]])
    with np.errstate(all="ignore"):
        assert_close(ns.beta(make(neg[0], device), make(neg[1], device)), sc.beta(neg[0], neg[1]), rtol=1e-13, atol=0)
        assert_close(ns.betaln(make(neg[0], device), make(neg[1], device)), sc.betaln(neg[0], neg[1]), rtol=1e-13,
                     atol=1e-15)


def test_names_and_aliases():
    assert ns.j0 is nr.bessel_j0 and ns.k1e is nr.scaled_modified_bessel_k1 and ns.modified_bessel_i0 is nr.i0
    assert ns.gamma is nr.gamma_fn and ns.beta is nr.beta_fn and nr.gamma is not nr.gamma_fn  # nr.gamma: sampler
    x = nr.tensor(np.array([0.5, 2.0]))
    assert_close(x.bessel_j0(), sc.j0([0.5, 2.0]), dtype="float64")  # the Tensor method


@pytest.mark.parametrize("name", ["bessel_j1", "bessel_y0", "modified_bessel_k0", "ellipk", "gamma_fn"])
def test_dtypes_and_layouts(device, name):
    fn, ref, _, _, _ = CASES[name]
    a = np.linspace(0.05, 0.95, 24).reshape(4, 6) * (1.0 if name == "ellipk" else 7.0)
    check_layouts(device, fn, ref, a)
    h = a.astype(np.float16)
    assert_close(fn(make(h, device)), oracle(ref, h.astype(np.float64)), dtype="float16", rtol=2e-3, atol=2e-3)
    bf = make(a[:2, :3], device, dtype="bfloat16")
    assert_close(fn(bf), oracle(ref, nr.cast(bf, nr.float64).numpy()), dtype="bfloat16")
    i = fn(make(np.array([[0, 1], [0, 1]] if name == "ellipk" else [[1, 2], [3, 5]], np.int32), device))
    assert i.dtype == nr.dtypes.default_float
    assert fn(make(np.array([True, False]), device)).dtype == nr.dtypes.default_float
    with pytest.raises(nr.UnsupportedDType, match=name):
        fn(nr.tensor(np.array([1 + 1j])))


def test_binary_dtypes(device):
    a, x = make(np.array([[1, 2], [3, 4]], np.int32), device), make(np.array([0.5, 3.0], np.float16), device)
    assert nr.gammainc(a, x).dtype == nr.float16  # the float operand's dtype, computed in float32
    assert_close(nr.gammainc(a, x), sc.gammainc([[1, 2], [3, 4]], [0.5, 3.0]), dtype="float16", rtol=2e-3, atol=2e-3)
    assert nr.betainc(a, a, make(np.array([0.2, 0.7]), device)).shape == (2, 2)
    assert nr.gammaincc(make(np.zeros((0, 1)), device), make(np.ones(3), device)).shape == (0, 3)
    g = np.linspace(0.3, 6.0, 12).reshape(3, 4)
    t = make(g, device)
    assert_close(nr.gammainc(t.T, t.flip(0).T), sc.gammainc(g.T, g[::-1].T), dtype="float64", rtol=1e-13)  # strided
    assert_close(nr.betainc(t[1:, 1:], t[:2, :3], make(g[0, :3] / 7, device)),
                 sc.betainc(g[1:, 1:], g[:2, :3], g[0, :3] / 7), dtype="float64", rtol=1e-12)  # offset views
    assert_close(nr.gammaincc(t[1, 2], t[2, 1]), sc.gammaincc(g[1, 2], g[2, 1]), dtype="float64", rtol=1e-13)  # 0-d
    with pytest.raises(nr.UnsupportedDType, match="gammainc"):
        nr.gammainc(nr.tensor(np.array([1 + 1j])), 1.0)
    with pytest.raises(nr.ShapeError):
        nr.betaln(make(np.ones(3), device), make(np.ones(4), device))


#: name -> (function, analytic derivative, points)
GRADS = {
    "bessel_j0": (nr.bessel_j0, lambda x: -sc.j1(x), [-9.0, -0.5, 0.0, 3.0, 12.0]),
    "bessel_j1": (nr.bessel_j1, lambda x: np.where(x == 0, 0.5, sc.j0(x) - sc.j1(x) / np.where(x == 0, 1, x)),
                  [-9.0, 0.0, 3.0, 12.0]),
    "bessel_y0": (ns.y0, lambda x: -sc.y1(x), [0.5, 3.0, 12.0]),
    "bessel_y1": (ns.y1, lambda x: sc.y0(x) - sc.y1(x) / x, [0.5, 3.0, 12.0]),
    "modified_bessel_k0": (ns.k0, lambda x: -sc.k1(x), [0.3, 1.9, 2.1, 9.0]),
    "modified_bessel_k1": (ns.k1, lambda x: -sc.k0(x) - sc.k1(x) / x, [0.3, 2.1, 9.0]),
    "scaled_modified_bessel_k0": (ns.k0e, lambda x: sc.k0e(x) - sc.k1e(x), [0.3, 2.1, 9.0]),
    "scaled_modified_bessel_k1": (ns.k1e, lambda x: sc.k1e(x) * (1 - 1 / x) - sc.k0e(x), [0.3, 2.1, 9.0]),
    "ellipk": (nr.ellipk, lambda m: np.where(m == 0, np.pi / 8, (sc.ellipe(m) - (1 - m) * sc.ellipk(m))
                                            / (2 * np.where(m == 0, 1, m) * (1 - m))), [-3.0, 0.0, 0.4, 0.9]),
    "ellipe": (nr.ellipe, lambda m: np.where(m == 0, -np.pi / 8, (sc.ellipe(m) - sc.ellipk(m))
                                             / (2 * np.where(m == 0, 1, m))), [-3.0, 0.0, 0.4, 0.9]),
    "gamma_fn": (ns.gamma, lambda x: sc.gamma(x) * sc.psi(x), [-2.5, -0.3, 0.4, 1.7, 6.0]),
}


@pytest.mark.parametrize("name", list(GRADS))
def test_gradients(device, name):
    fn, deriv, pts = GRADS[name]
    check_gradient(device, fn, CASES[name][1], deriv, pts, (1e-13, 1e-15), (1e-11, 1e-13))


def test_incomplete_gradients(device):
    a, x = np.array([0.7, 2.0, 5.0]), np.array([0.5, 1.3, 7.0])
    ta, tx = make(a, device), make(x, device)
    dens = x ** (a - 1) * np.exp(-x) / sc.gamma(a)
    assert gradcheck(lambda t: nr.gammainc(ta, t), (tx,))
    assert gradcheck(lambda t: nr.gammaincc(ta[:, None], t), (tx,))  # broadcast: summed gradient
    _, tan = jvp(lambda t: nr.gammaincc(ta, t), (tx,), (nr.ones_like(tx),))
    assert_close(tan, -dens, rtol=1e-12, atol=1e-15)
    p = make(np.array([0.2, 0.5, 0.9]), device)
    assert gradcheck(lambda t: nr.betainc(ta, 2.5, t), (p,))
    _, tan = jvp(lambda t: nr.betainc(ta, 2.5, t), (p,), (nr.ones_like(p),))
    q = p.numpy()
    assert_close(tan, q ** (a - 1) * (1 - q) ** 1.5 / sc.beta(a, 2.5), rtol=1e-12, atol=1e-15)
    assert gradcheck(lambda u, v: nr.betaln(u, v), (ta, tx))  # composites: through lgamma's rule
    assert gradcheck(lambda u, v: ns.beta(u, v), (ta, tx))
    with pytest.raises(nr.UnsupportedOperation, match="gammainc.*with respect to a"):
        gradcheck(lambda u: nr.gammainc(u, tx), (ta,))
    with pytest.raises(nr.UnsupportedOperation, match="betainc"):
        jvp(lambda u: nr.betainc(u, 2.0, p), (ta,), (nr.ones_like(ta),))
