"""The CPU's fused loops of the Bessel J/Y/K and elliptic K/E functions (numr/_cpu/ops/special.py,
special_bessel.h, special_elliptic.h) against the generic composites they replace, run on the same
input (same algorithm and series: a few ulps apart), and against scipy.special; their layout
handling (strided, offset, flipped, 0-d, empty inputs copied dense first), the threaded path with
glibc's sin/cos pass for huge arguments, the dtypes they leave to the composite (half, integers),
and the guard on the series tables. CPU only: the other backends run the composites, which
tests/ops/test_special2.py checks everywhere."""

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
