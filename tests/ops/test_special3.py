"""Special functions, part 3 (airy, fresnel, zeta, gammaincinv/gammainccinv/betaincinv, hyp1f1,
the orthogonal polynomials, lpmv, sph_harm_y) against scipy.special in float64 over grids with
tails, zeros, +-inf and NaN (mpmath where scipy itself is off); float32 against the float64
oracle at the float32-rounded inputs; half/int/bool/complex inputs; layouts and broadcasting;
gradients by gradcheck in float64 and jvp against the analytic derivatives. Off the CPU the grids
are subsampled and the iterative inverses run on a handful of points (WebGPU is a software driver)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.special as sc
from conftest import assert_close
from test_special import check_layouts, check_values, make, oracle, small

import numr as nr
import numr.special as ns
from numr.autograd import gradcheck, jvp

SPECIALS = [0.0, -0.0, np.nan]
AIRY = np.r_[np.linspace(-10, 30, 801), 2.09, -2.09, 8.3203353, 8.33, 1e-300, SPECIALS]
FRESNEL = np.r_[np.linspace(-40, 40, 1601), 1.6, -1.6, 1.60078125, 1e-300, 1e5, 3e4, SPECIALS, np.inf, -np.inf]
ZETA = np.r_[np.linspace(-60, 60, 1201), 1 + 1e-10, 1 - 1e-10, -2.0, -1.0, 200.0, -170.0, -200.5, SPECIALS,
             np.inf, -np.inf, 1.0]


def _airy(i):
    return lambda x: sc.airy(x)[i]


def _fresnel(i):
    return lambda x: sc.fresnel(x)[i]


# name -> (numr function, oracle, grid, float64 (rtol, atol), float32 (rtol, atol))
CASES = {
    "airy_ai": (nr.airy_ai, _airy(0), AIRY, (2e-14, 1e-15), (2e-5, 2e-6)),  # float32: e^-zeta's eps zeta
    "airy_ai_prime": (nr.airy_ai_prime, _airy(1), AIRY, (2e-14, 4e-15), (2e-5, 4e-6)),
    "airy_bi": (nr.airy_bi, _airy(2), AIRY, (1e-13, 1e-15), (2e-5, 2e-6)),
    "airy_bi_prime": (nr.airy_bi_prime, _airy(3), AIRY, (1e-13, 4e-15), (2e-5, 4e-6)),
    "fresnel_s": (nr.fresnel_s, _fresnel(0), FRESNEL, (1e-14, 1e-300), (1e-6, 1e-37)),
    "fresnel_c": (nr.fresnel_c, _fresnel(1), FRESNEL, (1e-14, 0), (1e-6, 0)),
    # float32 below -30: exp of lgamma(1 - x) ~ 100 carries 100 eps
    "zeta": (nr.zeta, sc.zeta, ZETA, (3e-13, 1e-300), (5e-5, 1e-37)),
}


#: the cases run on WebGPU (in float32): each op costs ~1 ms on lavapipe, an airy call ~500 ops
WGPU_VALUES = ("fresnel_s", "zeta")  # airy: test_limits_and_tuples


def _not_on_wgpu(device, why):
    if device == "wgpu":
        pytest.skip(f"WebGPU (a software driver here): {why}; the CPU and CUDA run it")


@pytest.mark.parametrize("name", list(CASES))
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_values(device, name, dtype):
    if device == "wgpu" and (dtype == "float64" or name not in WGPU_VALUES):
        pytest.skip("WebGPU (a software driver here): one case per function; the CPU and CUDA run all")
    fn, ref, grid, t64, t32 = CASES[name]
    if name.startswith("airy") or name == "zeta":  # the limits at +-inf: scipy gives NaN
        grid = grid[np.isfinite(grid) | np.isnan(grid)]
    check_values(device, fn, ref, small(grid, device, 60), dtype, *(t64 if dtype == "float64" else t32))


def test_limits_and_tuples(device):
    x = make(np.array([np.inf, -np.inf, 200.0, np.nan]), device)
    ai, aip, bi, bip = ns.airy(x)
    np.testing.assert_array_equal(np.stack([v.numpy() for v in (ai, aip, bi, bip)])[:, :3],
                                  [[0, 0, 0], [0, 0, 0], [np.inf, 0, np.inf], [np.inf, 0, np.inf]])
    assert np.isnan(ai.numpy()[3]) and ai.dtype == nr.float64
    s, c = ns.fresnel(make(np.array([[0.5, -2.0], [3.0, np.inf]]), device))
    ws, wc = sc.fresnel(np.array([[0.5, -2.0], [3.0, np.inf]]))
    assert_close(s, ws, dtype="float64", rtol=1e-14)
    assert_close(c, wc, dtype="float64", rtol=1e-14)
    z = nr.zeta(make(np.array([-2.0, -4.0, 0.0, 1.0, np.inf]), device))
    np.testing.assert_array_equal(z.numpy(), [0.0, 0.0, -0.5, np.inf, 1.0])  # trivial zeros exact


def test_fresnel_large_x_mpmath():
    """The angle pi x^2/2 is reduced exactly: scipy's sin(pi x x / 2) is 4e-13 off at x = 12345.678."""
    mp = pytest.importorskip("mpmath")
    mp.mp.dps = 30
    x = np.array([12345.678, 3e4 + 0.1, 40.3, 7.77])
    s, c = ns.fresnel(nr.tensor(x))
    assert_close(s, [float(mp.fresnels(v)) for v in x], rtol=2e-16, atol=0)
    assert_close(c, [float(mp.fresnelc(v)) for v in x], rtol=2e-16, atol=0)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_hurwitz_zeta(device, dtype):
    rng = np.random.default_rng(0)
    n = 3000 if device == "cpu" else 30
    x = (np.exp(rng.uniform(0, np.log(100), n)) + 1).astype(dtype).astype(np.float64)
    q = np.exp(rng.uniform(np.log(1e-3), np.log(1e3), n)).astype(dtype).astype(np.float64)
    tol = dict(rtol=1e-13, atol=1e-300) if dtype == "float64" else dict(rtol=2e-5, atol=1e-37)
    with np.errstate(over="ignore"):
        want = sc.zeta(x, q).astype(dtype)
    assert_close(nr.zeta(make(x.astype(dtype), device), make(q.astype(dtype), device)), want, dtype=dtype, **tol)
    xe = np.array([2.0, 3.0, 2.5, 1.0, 0.5, np.inf, np.inf, 2.0, 3.0, 2.5, 4.0, np.nan, 2.0])
    qe = np.array([-1.0, -2.5, -2.5, 1.0, 1.0, 1.0, 0.5, 0.0, -0.5, np.inf, -7.3, 1.0, np.nan])
    with np.errstate(all="ignore"):
        want = sc.zeta(xe, qe)
    assert_close(nr.zeta(make(xe, device), make(qe, device)), want, dtype="float64", rtol=1e-13)
    assert_close(nr.zeta(3.0, make(np.array([[1.0], [2.0]]), device)), sc.zeta(3.0, [[1.0], [2.0]]), rtol=1e-14)


def _inverse_grid(device):
    rng = np.random.default_rng(1)
    if device != "cpu":
        return np.array([0.3, 2.0, 15.0]), np.array([1e-20, 0.4, 0.999])
    a = np.exp(rng.uniform(np.log(1e-2), np.log(1e3), 1500))
    y = rng.uniform(0, 1, 1500)
    y[:150] = 10 ** rng.uniform(-300, -1, 150)
    y[150:300] = 1 - 10 ** rng.uniform(-15, -1, 150)
    return a, y


@pytest.mark.parametrize("name", ["gammaincinv", "gammainccinv"])
def test_gamma_inverses(device, name):
    """Within 3e-13 of scipy over a in [1e-2, 1e3] and y down to 1e-300 (float64)."""
    _not_on_wgpu(device, "7 Newton steps on gammainc are ~4000 ops, 5 s a call")
    a, y = _inverse_grid(device)
    fn, ref = getattr(nr, name), getattr(sc, name)
    ta, ty = make(a, device), make(y, device)
    assert_close(fn(ta, ty), ref(a, y), dtype="float64", rtol=3e-13, atol=0)
    if device == "cpu":
        a32, y32 = a[300:600].astype(np.float32), y[300:600].astype(np.float32)
        want = ref(a32.astype(np.float64), y32.astype(np.float64)).astype(np.float32)
        # float32: P's rounding over a in the left tail (dx/x = dP/P / a)
        assert_close(fn(nr.tensor(a32), nr.tensor(y32)), want, dtype="float32", rtol=1e-4, atol=1e-30)
    ae = np.array([1.0, 1.0, 1.0, 1.0, 0.0, -1.0, np.nan, 2.0, 1e-3])
    ye = np.array([0.0, 1.0, 1.5, -0.1, 0.5, 0.5, 0.5, np.nan, 1e-300])
    np.testing.assert_allclose(fn(make(ae, device), make(ye, device)).numpy(), ref(ae, ye), rtol=3e-13)


def test_betaincinv(device):
    _not_on_wgpu(device, "7 Newton steps on betainc are ~8000 ops")
    rng = np.random.default_rng(2)
    n = 1500 if device == "cpu" else 3
    a, b = np.exp(rng.uniform(np.log(0.1), np.log(100), (2, n)))
    y = rng.uniform(0, 1, n)
    y[: n // 10] = 10 ** rng.uniform(-250, -1, n // 10)
    got = nr.betaincinv(make(a, device), make(b, device), make(y, device))
    want = sc.betaincinv(a, b, y)
    lost = np.isnan(want)  # scipy gives up in a few far left tails (y ~ 1e-200): check the residual there
    under = want < 1e-300  # the root underflows: scipy returns the smallest normal, numr a subnormal
    keep = ~lost & ~under
    assert_close(got[nr.tensor(keep, device=device)], want[keep], dtype="float64", rtol=1e-12, atol=0)
    np.testing.assert_allclose(sc.betainc(a[lost], b[lost], got.numpy()[lost]), y[lost], rtol=1e-11)
    assert (got.numpy()[under] < 1e-300).all()
    e = np.array([[1.0, 2.0, 2.0, 2.0, -1.0, 2.0, 2.0], [1.0, 3.0, 3.0, 3.0, 1.0, 0.0, np.nan],
                  [0.0, 1.0, 1.5, 0.25, 0.5, 0.5, 0.5]])
    np.testing.assert_allclose(nr.betaincinv(*(make(v, device) for v in e)).numpy(), sc.betaincinv(*e), rtol=1e-13)
    assert nr.betaincinv(make(a[:2], device), 2.0, 0.5).shape == (2,)  # Python scalars broadcast


def test_hyp1f1(device):
    """scipy within 5e-11 on a in [-5, 5], b in [0.5, 10], x in [-60, 60] (scipy itself is up to
    2e-11 off there); mpmath within 2e-15 where the terms keep one sign."""
    rng = np.random.default_rng(3)
    n = 4000 if device == "cpu" else 12
    a, b, x = rng.uniform(-5, 5, n), rng.uniform(0.5, 10, n), rng.uniform(-60, 60, n)
    a[: n // 10] = np.round(a[: n // 10])  # terminating series
    got = nr.hyp1f1(make(a, device), make(b, device), make(x, device))
    assert_close(got, sc.hyp1f1(a, b, x), dtype="float64", rtol=5e-11, atol=0)
    if device == "wgpu":
        return
    mp = pytest.importorskip("mpmath")
    mp.mp.dps = 30
    p = np.array([[1.0, 9.63, 49.8], [0.0028, 7.95, 59.1], [1.0, 1.05, -34.1], [0.5, 9.1, -0.33], [2.5, 1.5, 300.0],
                  [0.7, 3.0, -400.0]])
    want = [float(mp.hyp1f1(*(mp.mpf(v) for v in r))) for r in p]
    assert_close(nr.hyp1f1(*(make(p[:, i], device) for i in range(3))), want, rtol=2e-14, atol=0)
    e = np.array([[0.0, 1.0, 1.0, np.nan, 1.0], [2.0, -1.0, 1.0, 1.0, 1.0], [5.0, 2.0, np.inf, 1.0, -np.inf]])
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(nr.hyp1f1(*(make(v, device) for v in e)).numpy(), sc.hyp1f1(*e))
    if device == "cpu":
        x32 = np.linspace(-20, 20, 81).astype(np.float32)
        want = sc.hyp1f1(1.5, 2.5, x32.astype(np.float64)).astype(np.float32)
        assert_close(nr.hyp1f1(1.5, 2.5, nr.tensor(x32)), want, dtype="float32", rtol=1e-5, atol=0)


def test_hyp2f1(device):
    """scipy within 2e-8 (1e-12 for 99% of points) on a, b in [-5, 5], c in [0.5, 10], x in [-20, 1];
    mpmath within 1e-13 for |x| <= 0.9 and 5e-10 at integer c - a - b near 1 (the c +- 1e-5 mean)."""
    _not_on_wgpu(device, "five series of up to 600 terms")
    rng = np.random.default_rng(4)
    n = 4000 if device == "cpu" else 8
    a, b, c, x = rng.uniform(-5, 5, n), rng.uniform(-5, 5, n), rng.uniform(0.5, 10, n), rng.uniform(-20, 1, n)
    x[: n // 4] = rng.uniform(-1, 1, n // 4)
    a[: n // 20] = np.round(a[: n // 20])
    got = nr.hyp2f1(*(make(v, device) for v in (a, b, c, x)))
    want = sc.hyp2f1(a, b, c, x)
    assert_close(got, want, dtype="float64", rtol=2e-8, atol=0)
    if device == "cpu":
        assert np.quantile(np.abs(got.numpy() / want - 1), 0.99) < 1e-11
    mp = pytest.importorskip("mpmath")
    mp.mp.dps = 30
    p = np.array([[1.2, -2.7, 3.1, 0.85], [4.1, 4.1, 9.2, -2.2], [0.5, 0.5, 1.0, 0.99], [1.0, 1.0, 2.0, -30.0],
                  [0.3, 0.7, 2.0, 0.999999], [-3.0, 2.0, 1.0, 0.7]])
    tol = np.array([1e-13, 1e-13, 5e-10, 5e-10, 5e-10, 1e-13])
    got = nr.hyp2f1(*(make(p[:, i], device) for i in range(4))).numpy()
    want = np.array([float(mp.hyp2f1(*r)) for r in p])
    assert (np.abs(got / want - 1) < tol).all()
    e = np.array([[1, 1, 1, -2, 0, 1, np.nan], [2, 2, 2, 2, 2, 2, 1], [3, 2.5, -1, -3, 3, 3, 1],
                  [1.0, 1.0, 0.3, 0.3, 0.9, 1.5, 0.1]])
    with np.errstate(all="ignore"):
        want = sc.hyp2f1(*e)
    want[5] = np.nan  # x > 1: numr NaN (a complex value), scipy inf
    np.testing.assert_array_equal(nr.hyp2f1(*(make(v, device) for v in e)).numpy(), want)


#: op -> (torch-order alias, scipy eval_*)
POLYS = {"legendre_p": (ns.legendre_polynomial_p, sc.eval_legendre),
         "chebyshev_t": (ns.chebyshev_polynomial_t, sc.eval_chebyt),
         "chebyshev_u": (ns.chebyshev_polynomial_u, sc.eval_chebyu),
         "hermite_h": (ns.hermite_polynomial_h, sc.eval_hermite),
         "hermite_he": (ns.hermite_polynomial_he, sc.eval_hermitenorm),
         "laguerre_l": (ns.laguerre_polynomial_l, sc.eval_laguerre)}


@pytest.mark.parametrize("name", list(POLYS))
def test_polynomials(device, name):
    top = 20 if device == "cpu" else 4
    n = np.arange(-1, top + 1)[:, None]
    x = np.r_[np.linspace(-1, 1, 9), -3.5, 2.2][None]
    fn, (torch_order, ref) = getattr(nr, name), POLYS[name]
    want = np.where(n < 0, 0.0, ref(np.maximum(n, 0), x))  # torch: n < 0 gives 0
    got = fn(make(n.astype(np.int32), device), make(x, device))  # (n, 1) x (1, 11) broadcast
    assert_close(got, want, dtype="float64", rtol=1e-13, atol=1e-13)
    assert_close(torch_order(make(x, device), 3), ref(3, x), dtype="float64", rtol=1e-13, atol=1e-14)
    if device == "cpu":
        x32 = x.astype(np.float32)
        assert_close(fn(nr.tensor(n), nr.tensor(x32)), np.where(n < 0, 0.0, ref(np.maximum(n, 0), x32)),
                     dtype="float32", rtol=2e-5, atol=2e-5)
        assert fn(nr.tensor(np.zeros((0,), np.int64)), nr.tensor(np.ones((3, 1)))).shape == (3, 0)


def test_lpmv_and_sph_harm(device):
    nn, mm = np.meshgrid(np.arange(0, 7 if device == "cpu" else 3), np.arange(-6 if device == "cpu" else -3, 7))
    nn, mm = nn.ravel(), mm.ravel()
    x = np.linspace(-0.95, 0.95, nn.size)
    got = ns.lpmv(make(mm, device), make(nn, device), make(x, device))
    want = np.where(mm < -nn, 0.0, sc.lpmv(mm, nn, x))  # scipy: NaN for m < -n; numr 0, as for m > n
    assert_close(got, want, dtype="float64", rtol=1e-12, atol=1e-13)
    assert_close(ns.lpmv(2, 4, make(np.array([1.0, -1.0, 0.3]), device)), sc.lpmv(2, 4, [1.0, -1.0, 0.3]), rtol=1e-13,
                 atol=1e-14)
    theta, phi = np.linspace(0.1, 3.0, nn.size), np.linspace(-3, 6, nn.size)
    args = make(nn, device), make(mm, device), make(theta, device), make(phi, device)
    if device == "wgpu":  # no complex dtype on WebGPU
        with pytest.raises(nr.UnsupportedDType, match="sph_harm_y"):
            ns.sph_harm_y(*args)
        return
    y = ns.sph_harm_y(*args)
    assert_close(y, sc.sph_harm_y(nn, mm, theta, phi), dtype="complex128", rtol=1e-12, atol=1e-13)
    y32 = ns.sph_harm_y(2, 1, make(theta.astype(np.float32), device), make(phi.astype(np.float32), device))
    assert_close(y32, sc.sph_harm_y(2, 1, theta, phi), dtype="complex64", rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("name", ["airy_ai", "fresnel_c", "zeta"])
def test_dtypes_and_layouts(device, name):
    if name != "fresnel_c":
        _not_on_wgpu(device, "one function's dtypes and layouts on WebGPU")
    fn, ref, _, _, _ = CASES[name]
    a = np.linspace(1.5, 4.5, 24).reshape(4, 6)
    check_layouts(device, fn, ref, a)
    h = a.astype(np.float16)
    assert_close(fn(make(h, device)), oracle(ref, h.astype(np.float64)), dtype="float16", rtol=2e-3, atol=2e-3)
    bf = make(a[:2, :3], device, dtype="bfloat16")
    assert_close(fn(bf), oracle(ref, nr.cast(bf, nr.float64).numpy()), dtype="bfloat16")
    assert_close(fn(make(np.array([[2, 3], [4, 5]], np.int32), device)), oracle(ref, np.array([[2.0, 3], [4, 5]])),
                 dtype=nr.dtypes.default_float.name)
    assert fn(make(np.array([True, False]), device)).dtype == nr.dtypes.default_float
    with pytest.raises(nr.UnsupportedDType, match=name):
        fn(nr.tensor(np.array([1 + 1j])))


def test_multi_argument_layouts(device):
    _not_on_wgpu(device, "the inverses' Newton steps")
    g = np.linspace(0.3, 6.0, 12).reshape(3, 4)
    t = make(g, device)
    assert_close(nr.hyp1f1(t.T, t.flip(0).T, -t.T), sc.hyp1f1(g.T, g[::-1].T, -g.T), dtype="float64", rtol=1e-12)
    assert_close(nr.gammaincinv(t[1:, 1:], make(g[0, 1:] / 7, device)), sc.gammaincinv(g[1:, 1:], g[0, 1:] / 7),
                 dtype="float64", rtol=1e-12)
    assert_close(nr.zeta(t[1, 2] + 1.0, t[2, 1]), sc.zeta(g[1, 2] + 1.0, g[2, 1]), dtype="float64", rtol=1e-13)  # 0-d
    assert nr.betaincinv(make(np.ones((0, 1)), device), 2.0, make(np.full(3, 0.5), device)).shape == (0, 3)
    i = nr.gammainccinv(make(np.array([1, 2], np.int32), device), make(np.array([0.5, 0.25], np.float16), device))
    assert i.dtype == nr.float16  # the float operand's dtype, computed in float32
    assert_close(i, sc.gammainccinv([1, 2], [0.5, 0.25]), dtype="float16", rtol=2e-3)
    with pytest.raises(nr.UnsupportedDType, match="hyp1f1"):
        nr.hyp1f1(nr.tensor(np.array([1 + 1j])), 1.0, 1.0)
    with pytest.raises(nr.ShapeError):
        nr.zeta(make(np.ones(3) * 2, device), make(np.ones(4), device))


#: name -> (function of x, analytic derivative, points)
GRADS = {
    "airy_ai": (nr.airy_ai, lambda x: sc.airy(x)[1], [-4.0, 0.5, 3.0, 9.0]),
    "airy_ai_prime": (nr.airy_ai_prime, lambda x: x * sc.airy(x)[0], [-4.0, 0.5, 3.0]),
    "airy_bi": (nr.airy_bi, lambda x: sc.airy(x)[3], [-4.0, 0.5, 9.0]),
    "airy_bi_prime": (nr.airy_bi_prime, lambda x: x * sc.airy(x)[2], [-4.0, 0.5, 9.0]),
    "fresnel_s": (nr.fresnel_s, lambda x: np.sin(np.pi * x * x / 2), [-2.2, 0.3, 1.5, 7.0]),
    "fresnel_c": (nr.fresnel_c, lambda x: np.cos(np.pi * x * x / 2), [-2.2, 0.3, 1.5, 7.0]),
}


@pytest.mark.parametrize("name", list(GRADS))
def test_gradients(device, name):
    _not_on_wgpu(device, "gradcheck's repeated evaluations")
    fn, deriv, pts = GRADS[name]
    x = make(np.array(pts), device)
    assert gradcheck(fn, (x,))
    _, tan = jvp(fn, (x,), (nr.ones_like(x),))
    assert_close(tan, deriv(np.array(pts)), dtype="float64", rtol=1e-12, atol=1e-14)


def test_parameter_gradients(device):
    _not_on_wgpu(device, "gradcheck's repeated evaluations of the inverses")
    a, y = np.array([0.7, 2.0, 5.0]), np.array([0.2, 0.5, 0.9])
    ta, ty = make(a, device), make(y, device)
    assert gradcheck(lambda t: nr.gammaincinv(ta, t), (ty,))
    _, tan = jvp(lambda t: nr.gammainccinv(ta, t), (ty,), (nr.ones_like(ty),))
    x = sc.gammainccinv(a, y)
    assert_close(tan, -sc.gamma(a) * x ** (1 - a) * np.exp(x), rtol=1e-11, atol=0)
    assert gradcheck(lambda t: nr.betaincinv(ta, 2.5, t), (ty,))
    q = make(np.array([0.5, 1.5, 3.0]), device)
    assert gradcheck(lambda t: nr.zeta(3.5, t), (q,))
    _, tan = jvp(lambda t: nr.zeta(3.5, t), (q,), (nr.ones_like(q),))
    assert_close(tan, -3.5 * sc.zeta(4.5, [0.5, 1.5, 3.0]), rtol=1e-12, atol=0)
    xs = make(np.array([-3.0, 0.4, 2.5]), device)
    assert gradcheck(lambda t: nr.hyp1f1(1.5, ta, t), (xs,))
    _, tan = jvp(lambda t: nr.hyp1f1(1.5, ta, t), (xs,), (nr.ones_like(xs),))
    assert_close(tan, 1.5 / a * sc.hyp1f1(2.5, a + 1, [-3.0, 0.4, 2.5]), rtol=1e-12, atol=0)
    x2 = make(np.array([-3.0, 0.4, 0.8]), device)
    assert gradcheck(lambda t: nr.hyp2f1(1.5, -0.5, ta, t), (x2,))
    _, tan = jvp(lambda t: nr.hyp2f1(1.5, -0.5, ta, t), (x2,), (nr.ones_like(x2),))
    assert_close(tan, -0.75 / a * sc.hyp2f1(2.5, 0.5, a + 1, [-3.0, 0.4, 0.8]), rtol=1e-12, atol=0)
    for bad in (lambda u: nr.gammaincinv(u, ty), lambda u: nr.betaincinv(2.0, u, ty), lambda u: nr.zeta(u, 2.0),
                lambda u: nr.hyp1f1(u, 2.0, ty), lambda u: nr.hyp2f1(1.0, 1.0, u, ty)):
        with pytest.raises(nr.UnsupportedOperation, match="with respect to"):
            gradcheck(bad, (ta + 1.0,))


def test_polynomial_gradients(device):
    _not_on_wgpu(device, "gradcheck's repeated evaluations")
    n = make(np.array([0, 1, 3, 5]), device)
    x = make(np.array([-0.7, 0.1, 0.45, 0.9]), device)
    assert gradcheck(lambda t: nr.legendre_p(n, t), (x,))  # through the recurrence: exact
    assert gradcheck(lambda t: nr.legendre_p_assoc(n + 1, n - 1, t), (x,))
    _, tan = jvp(lambda t: nr.hermite_h(n, t), (x,), (nr.ones_like(x),))
    nv, xv = np.array([0, 1, 3, 5]), np.array([-0.7, 0.1, 0.45, 0.9])
    assert_close(tan, 2 * nv * sc.eval_hermite(np.maximum(nv - 1, 0), xv), rtol=1e-13, atol=1e-14)
    assert gradcheck(lambda t: ns.fresnel(t)[0] * ns.airy(t)[2], (x,))  # the tuples through their ops
