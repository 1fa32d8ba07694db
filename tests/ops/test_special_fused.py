"""The CPU's fused loops of the Bessel J/Y/K and elliptic K/E functions (numr/_cpu/ops/special.py,
special_bessel.h, special_elliptic.h), of the incomplete gamma/beta functions, their inverses and
hyp1f1 (special_incgamma.h, special_incbeta.h, special_hyp1f1.h) against the generic composites
they replace, run on the same input (same algorithm and series: a few ulps apart), and against
scipy.special; their layout handling (strided, offset, flipped, 0-d, empty inputs copied dense
first), the threaded path with glibc's sin/cos pass for huge arguments, the dtypes they leave to
the composite (half, integers), and the guard on the constant tables. CPU only: the other backends
run the composites, which tests/ops/test_special2.py and test_special3.py check everywhere."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.special as sc
from conftest import assert_close

import numr as nr
from numr._cpu.ops import special as cpu_special
from numr.dtypes import default_float
from numr.ops.generic import special_bessel2 as b2
from numr.ops.generic import special_elliptic as el
from numr.ops.generic import special_hyper as hy
from numr.ops.generic import special_incomplete as inc
from numr.ops.generic import special_inverse as inv
from numr.ops.generic.special import special_unary

SPECIALS = [0.0, -0.0, np.inf, -np.inf, np.nan]
ZEROS = np.r_[sc.jn_zeros(0, 4), sc.jn_zeros(1, 4), sc.yn_zeros(0, 4), sc.yn_zeros(1, 4)]
JY = np.r_[np.linspace(-80, 80, 3201), ZEROS, -ZEROS, 8.0, -8.0, 1e-300, 1e-8, SPECIALS]
HUGE = np.array([1e5, 1.6e6, -1.7e6, 2e6, 3e9, -1e20, 1e300])  # scipy off by x ulp; glibc's sin/cos from 1.6e6
K = np.r_[np.linspace(-3, 40, 1721), np.logspace(-300, 0.3, 60), 2.0, 700.0, 710.0, 745.0, 1e300, SPECIALS]
M = np.r_[np.linspace(-60, 1.2, 2449), 1 - np.logspace(-1, -15, 15), -np.logspace(0, 300, 31), 1e-300, -1e-300,
          1.0, SPECIALS]

# name -> (composite, scipy, grid, float64 (rtol, atol) against the composite and scipy)
CASES = {
    "bessel_j0": (b2._j0, sc.j0, JY, (2e-14, 4e-15)),  # J/Y: absolute accuracy near their zeros
    "bessel_j1": (b2._j1, sc.j1, JY, (2e-14, 4e-15)),
    "bessel_y0": (b2._y0, sc.y0, JY, (2e-14, 4e-15)),
    "bessel_y1": (b2._y1, sc.y1, JY, (2e-14, 4e-15)),
    "modified_bessel_k0": (b2._k0, sc.k0, K, (1e-14, 0)),
    "modified_bessel_k1": (b2._k1, sc.k1, K, (1e-14, 0)),
    "scaled_modified_bessel_k0": (b2._k0e, sc.k0e, K, (1e-14, 0)),
    "scaled_modified_bessel_k1": (b2._k1e, sc.k1e, K, (1e-14, 0)),
    "ellipk": (el._ellipk, sc.ellipk, M, (1e-14, 0)),
    "ellipe": (el._ellipe, sc.ellipe, M, (1e-14, 0)),
}


def fused(name, x):
    """The CPU fused loop's result (asserting that it ran, not the composite)."""
    y = cpu_special._fused(x.client, name, x)
    assert y is not None, f"{name} {x.dtype}: the fused loop did not run"
    return y


def composite(name, x):
    return special_unary(name, CASES[name][0])(x)


def oracle(name, x):
    with np.errstate(all="ignore"):
        return CASES[name][1](x)


@pytest.mark.parametrize("name", list(CASES))
def test_float64_matches_composite_and_scipy(name):
    _, _, grid, (rtol, atol) = CASES[name]
    g = np.r_[grid, HUGE] if name.startswith("bessel") else grid
    x = nr.tensor(g)
    got = fused(name, x)
    assert got.dtype == nr.float64 and got.shape == g.shape
    np.testing.assert_array_equal(getattr(nr, name)(x).numpy(), got.numpy())  # nr.<name> dispatches here
    assert_close(got, composite(name, x).numpy(), dtype="float64", rtol=rtol, atol=atol)
    srtol = 1e-13 if name == "ellipe" else rtol  # E(m) loses ~log(-m) ulp for m < -1e10 (as the composite)
    assert_close(fused(name, nr.tensor(grid)), oracle(name, grid), dtype="float64", rtol=srtol, atol=atol)


@pytest.mark.parametrize("name", list(CASES))
def test_float32_computed_in_double(name):
    """float32 is computed in double and rounded once: within ~1 ulp of scipy's float64 result
    (the float32 composite is ~20 ulp off near K's cancellation), and close to the composite."""
    _, _, grid, _ = CASES[name]
    with np.errstate(over="ignore"):
        g = grid.astype(np.float32)
    x = nr.tensor(g)
    got = fused(name, x)
    with np.errstate(over="ignore", under="ignore"):
        want = oracle(name, g.astype(np.float64)).astype(np.float32)
    jy = name.startswith("bessel")
    assert_close(got, want, dtype="float32", rtol=2.5e-7, atol=1e-7 if jy else 0)
    assert_close(got, composite(name, x).numpy(), dtype="float32", rtol=5e-6, atol=2e-6 if jy else 1e-37)


@pytest.mark.parametrize("name", ["bessel_j1", "bessel_y0", "modified_bessel_k1", "ellipe"])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_layouts(name, dtype):
    """Strided, offset, flipped, 0-d, size-1 and empty inputs: exactly the dense result."""
    grid = CASES[name][2]
    a = grid[:1200].reshape(20, 60).astype(dtype)
    x = nr.tensor(a)
    want = fused(name, x).numpy()
    for view, w in [(x.T, want.T), (x[3:, 7:], want[3:, 7:]), (x.flip(1), want[:, ::-1]),
                    (x[::3, 1::4], want[::3, 1::4]), (x[5, 9], want[5, 9]), (x[:1, :1], want[:1, :1])]:
        got = fused(name, view)
        assert got.dtype == nr.dtype(dtype) and got.shape == w.shape
        np.testing.assert_array_equal(got.numpy(), w)
    empty = fused(name, nr.zeros((0, 3), dtype=dtype))
    assert empty.shape == (0, 3) and empty.dtype == nr.dtype(dtype)


def test_threads_and_huge_arguments():
    """Above the OpenMP threshold with glibc's sin/cos second pass for the huge arguments."""
    rng = np.random.default_rng(3)
    a = rng.uniform(-50, 50, 40000)
    a[::997] = 2.5e6 + np.arange(a[::997].size) * 1e5
    x = nr.tensor(a)
    want = {name: composite(name, x).numpy() for name in ("bessel_j0", "bessel_y1")}
    before = nr.get_num_threads()
    try:
        nr.set_num_threads(2)
        got = {name: fused(name, x) for name in want}
    finally:
        nr.set_num_threads(before)
    for name, w in want.items():
        assert_close(got[name], w, dtype="float64", rtol=2e-14, atol=1e-15)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "int32", "int64", "bool"])
def test_other_dtypes_run_the_composite(dtype):
    """Half and integer inputs are not the fused loop's: the composite runs, with its dtype rules."""
    a = np.array([0.0, 1.0, 1.0, 3.0, 7.0, 0.0]) if dtype == "bool" else np.array([0.0, 1.0, 2.0, 3.0, 7.0, 12.0])
    x = nr.tensor(a.astype(bool) if dtype == "bool" else a, dtype=dtype)
    assert cpu_special._fused(x.client, "bessel_j0", x) is None
    out = dtype if dtype in ("float16", "bfloat16") else default_float
    xs = nr.cast(x, nr.float64).numpy()
    for name in ("bessel_j0", "modified_bessel_k1", "ellipk"):
        assert_close(getattr(nr, name)(x), oracle(name, xs), dtype=out)


def test_table_guard():
    """The C loop checks the series lengths and AGM steps it is given against its own."""
    k = cpu_special._k()
    tab, lens = cpu_special._tables()
    x = np.ones(4)
    y = np.empty(4)
    assert k.run2(0, True, x, 0, y, 4, tab, lens, el.STEPS)
    bad = lens.copy()
    bad[3] += 1
    assert not k.run2(0, True, x, 0, y, 4, tab, bad, el.STEPS)
    assert not k.run2(8, True, x, 0, y, 4, tab, lens, el.STEPS + 1)
    assert not k.run2(99, True, x, 0, y, 4, tab, lens, el.STEPS)


# incomplete gamma (special_incgamma.h): a wide (a, x) grid with the domain's edges and ends
_A = np.r_[0.0, 1e-3, 0.1, 0.5, 1.0, 2.5, 9.99, 10.0, 19.9, 20.0, 50.0, 1e3, 1e5, np.inf, np.nan, -1.0]
_X = np.r_[0.0, 1e-300, 1e-3, 0.5, 1.1, 2.0, 10.0, 20.0, 100.0, 1e3, 1e5, np.inf, np.nan, -1.0]
_RNG = np.random.default_rng(7)
_RA = np.r_[_RNG.uniform(0.01, 30, 1500), np.logspace(-3, 5, 300)]
IG_A = np.r_[np.repeat(_A, _X.size), _RA]
IG_X = np.r_[np.tile(_X, _A.size), _RNG.uniform(0, 40, 1500), _RA[1500:] * _RNG.uniform(0.1, 3, 300)]
IG_Y = np.r_[np.tile(np.r_[0.0, 1e-300, 1e-20, 0.1, 0.5, 0.9, 1 - 1e-12, 1.0, -0.1, 1.1, np.inf, np.nan, 0.3, 0.7],
                     _A.size), _RNG.uniform(0, 1, 1800)]
_B = np.r_[0.0, 1e-2, 0.5, 1.0, 5.0, 10.0, 100.0, 1e3, np.inf, np.nan, -1.0]
_BX = np.r_[0.0, 1e-300, 0.1, 0.5, 0.9, 1.0, -0.1, 1.1, np.nan]
_RB = np.r_[_RNG.uniform(0.05, 20, 1200), np.logspace(-2, 3, 300)]
IB_A, IB_B = np.r_[np.repeat(_B, _B.size * _BX.size), _RB], np.r_[np.tile(np.repeat(_B, _BX.size), _B.size), _RB[::-1]]
IB_X = np.r_[np.tile(_BX, _B.size ** 2), _RNG.uniform(0, 1, 1500)]
_H = np.r_[0.0, -1.0, -2.0, 0.5, 1.0, 3.0, -2.5, np.inf, -np.inf, np.nan]
HY_A = np.r_[np.repeat(_H, 100), _RNG.uniform(-5, 5, 1000), _RNG.uniform(0, 5, 1500)]
HY_B = np.r_[np.tile(np.repeat(_H, 10), 10), _RNG.uniform(0.5, 10, 2500)]
HY_X = np.r_[np.tile(np.r_[_H[:7], 300.0, -300.0, 20.0], 100), _RNG.uniform(-400, 400, 1000), _RNG.uniform(0, 60, 1500)]
# name -> (composite, scipy, arguments); float64 rtol against the composite and scipy: the prefactor
# exp(a log x - x - lgamma a) is computed with libm's log/log1p (the composite with numr's element-wise
# passes): both ~1e-13 from mpmath at a = 1e4, so apart by that much where it dominates
IG_CASES = {"gammainc": (inc.gammainc_any, sc.gammainc, (IG_A, IG_X)),
            "gammaincc": (inc.gammaincc_any, sc.gammaincc, (IG_A, IG_X)),
            "gammaincinv": (inv.gammaincinv_any, sc.gammaincinv, (IG_A, IG_Y)),
            "gammainccinv": (inv.gammainccinv_any, sc.gammainccinv, (IG_A, IG_Y)),
            "betainc": (inc.betainc_any, sc.betainc, (IB_A, IB_B, IB_X)),
            "betaincinv": (inv.betaincinv_any, sc.betaincinv, (IB_A, IB_B, IB_X)),
            "hyp1f1": (hy.hyp1f1_any, sc.hyp1f1, (HY_A, HY_B, HY_X))}


def fused_ig(name, *args):
    y = cpu_special._fused_ig(next(t for t in args if hasattr(t, "client")).client, name, *args)
    assert y is not None, f"{name}: the fused loop did not run"
    return y


@pytest.mark.parametrize("name", list(IG_CASES))
def test_incomplete_gamma_beta_float64(name):
    comp, ref, args = IG_CASES[name]
    ts = [nr.tensor(g) for g in args]
    got = fused_ig(name, *ts)
    assert got.dtype == nr.float64 and got.shape == args[0].shape
    np.testing.assert_array_equal(getattr(nr, name)(*ts).numpy(), got.numpy())  # nr.<name> dispatches here
    rtol = 1e-12 if name == "betainc" else 5e-13  # betainc at a = b = 1e3: exp(2.19) of 3 terms of ~700
    keep = ~np.isinf(args[:2]).any(0) if name == "betaincinv" else slice(None)  # infinite a, b: NaN (scipy)
    assert_close(nr.tensor(got.numpy()[keep]), comp(*ts).numpy()[keep], dtype="float64", rtol=rtol, atol=1e-300)
    if name == "betaincinv":  # where the composite's start is clamped to 1e-298 or 1 and Newton runs on NaN
        assert np.isnan(got.numpy()[~keep & (args[2] > 0) & (args[2] < 1)]).all()
    with np.errstate(all="ignore"):
        want = ref(*args)
    a, y = args[0], args[-1]
    ok = ~(np.isinf(args[:-1]).any(0) & np.isnan(want))  # scipy: NaN for some infinite a, b; 0 or 1 here
    if name.endswith("inv"):  # scipy is the one off where the function flattens (x in its far tail), and
        ok &= (want < 1e4) | ~np.isfinite(want)  # its 0 or inf at a = 0 or y < 0, y > 1 are NaN here
        ok &= (np.r_[args[:-1]] > 0).all(0) & (a < np.inf) & ~(y < 0) & ~(y > 1)
    if name.startswith("beta"):  # scipy's ends where both a, b are 0 or infinite, or one is 0 at x = 0 or 1
        ok &= ~(np.isinf(args[:2]).all(0) | ((args[0] == 0) | (args[1] == 0)) & ((y == 0) | (y == 1)))
        ok &= ((np.r_[args[:2]] > 0.05) & (np.r_[args[:2]] < 500)).all(0) | ~np.isfinite(want) | (want == 0)
    if name == "hyp1f1":  # scipy where the series' terms keep one sign (elsewhere both lose digits);
        ok &= (a >= 0) & (y >= 0) & (y <= 60) & (args[1] > 0)  # a, b infinite: as the composite, not scipy
        ok &= np.isfinite(args[:2]).all(0)
    assert_close(nr.tensor(got.numpy()[ok]), want[ok], dtype="float64", rtol=3e-11, atol=1e-300)


@pytest.mark.parametrize("name", list(IG_CASES))
def test_incomplete_gamma_beta_float32_layouts(name):
    """float32 in double, rounded once; broadcast, strided and flipped inputs; Python scalars; half and int."""
    comp, ref, args = IG_CASES[name]
    a32 = [g[-1500:].astype(np.float32) for g in args]
    got = fused_ig(name, *(nr.tensor(g) for g in a32))
    assert got.dtype == nr.float32 and got.shape == a32[0].shape
    want = ref(*(g.astype(np.float64) for g in a32)).astype(np.float32)
    # betaincinv for y > 1/2 solves for 1 - x (the composite's mirror): absolute to 1e-16 near 0
    assert_close(got, want, dtype="float32", rtol=2e-6, atol=1e-15 if name == "betaincinv" else 1e-37)
    a = nr.tensor(np.linspace(0.5, 12.0, 24).reshape(4, 6))
    b = [a.T.flip(0).T] if len(args) == 3 else []
    x = nr.tensor(np.linspace(0.05, 0.95, 9).reshape(9, 1, 1) * (1 if "inv" in name or "beta" in name else 20))
    full = fused_ig(name, *(nr.broadcast_to(t, (9, 4, 6)).contiguous() for t in (a, *b, x)))
    np.testing.assert_array_equal(fused_ig(name, a, *b, x).numpy(), full.numpy())
    flat = [t.reshape(-1) for t in (a, *b)] + [nr.tensor(np.linspace(0.01, 0.99, 24))]
    np.testing.assert_array_equal(fused_ig(name, *(t[5:] for t in flat)).numpy(),  # offset, contiguous
                                  fused_ig(name, *flat).numpy()[5:])
    np.testing.assert_array_equal(fused_ig(name, a.T.flip(0), *(t.T for t in b), x[::2]).numpy(),  # strided, flipped
                                  fused_ig(name, a.T.flip(0).contiguous(), *(t.T.contiguous() for t in b),
                                           x[::2].contiguous()).numpy())
    np.testing.assert_array_equal(fused_ig(name, 2.5, *b, x).numpy(),
                                  fused_ig(name, nr.tensor(2.5), *b, x).numpy())
    h = getattr(nr, name)(nr.cast(a, nr.float16), *(nr.cast(t, nr.float16) for t in b), nr.cast(x[0], nr.float16))
    assert h.dtype == nr.float16 and h.shape == (4, 6)
    i = getattr(nr, name)(nr.tensor([[1, 3, 5]]), *(nr.tensor([[2, 2, 3]]) for _ in b),
                          nr.tensor([0.25, 0.5]).reshape(2, 1))
    assert i.dtype == default_float and i.shape == (2, 3)
    assert fused_ig(name, *(nr.zeros((0, 3)) for _ in args)).shape == (0, 3)


def test_incomplete_gamma_guard_and_threads():
    k = cpu_special._k()
    tab, lens = cpu_special._ig_tables()
    a, y = np.full(4, 2.0), np.empty(4)
    assert k.run_ig(0, True, a, 0, None, 0, a, 0, y, 4, tab, lens)
    bad = lens.copy()
    bad[2] -= 1
    assert not k.run_ig(0, True, a, 0, None, 0, a, 0, y, 4, tab, bad)
    assert not k.run_ig(7, True, a, 0, a, 0, a, 0, y, 4, tab, lens)
    assert not k.run_ig(4, True, a, 0, None, 0, a, 0, y, 4, tab, lens)  # betainc without b
    x = nr.tensor(_RNG.uniform(0, 20, 20000))
    one = fused_ig("gammainc", nr.tensor(3.5), x).numpy()
    before = nr.get_num_threads()
    try:
        nr.set_num_threads(2)
        np.testing.assert_array_equal(fused_ig("gammainc", nr.tensor(3.5), x).numpy(), one)
    finally:
        nr.set_num_threads(before)
