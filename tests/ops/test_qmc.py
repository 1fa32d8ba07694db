"""numr.qmc (numr/qmc/): unscrambled Sobol and Halton equal scipy.stats.qmc's points exactly;
scrambled ones keep the net/stratification properties, give the same points for a seed on every
backend (the CPU is the reference) and a discrepancy within scipy's spread; Latin hypercubes are
stratified (strength 2: every pair of dimensions too); discrepancy equals scipy's value."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import numr as nr
from numr import qmc

sq = pytest.importorskip("scipy.stats.qmc")

FLOATS = (nr.float32, nr.float64)


def small(device):
    """Small cases off the CPU (WebGPU is a software driver, CUDA here an emulator)."""
    return device != "cpu"


def has(device, d):
    dev = nr.device(device)
    return d in dev.runtime.supported_dtypes(dev)


def ref_sobol(d, bits, n, skip=0):
    """scipy's unscrambled points skip .. skip+n-1 (a second call too, to test the state)."""
    e = sq.Sobol(d, scramble=False, bits=bits)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if skip:
            e.random(skip)
        return e.random(n), e.random(5)


def as32(x, bits):
    """numr's float32 Sobol: the top 24 of the bits, truncated."""
    return np.floor(x * 2.0 ** 24) / 2.0 ** 24 if bits > 24 else x


# ---- Sobol -------------------------------------------------------------------------------------

@pytest.mark.parametrize("bits", [30, 32, 64])
@pytest.mark.parametrize("dtype", FLOATS)
def test_sobol_unscrambled_equals_scipy(device, bits, dtype):
    cases = [(1, 16, 0), (7, 64, 0), (3, 37, 5)] if small(device) else [(1, 16, 0), (13, 1024, 0), (50, 100, 77)]
    for d, n, skip in cases:
        if bits > 32 and not has(device, nr.uint64):
            with pytest.raises(nr.UnsupportedDType):
                qmc.Sobol(d, scramble=False, bits=bits, device=device)
            return
        e = qmc.Sobol(d, scramble=False, bits=bits, device=device, dtype=dtype)
        e.fast_forward(skip)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            a, a2 = e.random(n), e.random(5)
        b, b2 = ref_sobol(d, bits, n, skip)
        assert a.shape == (n, d) and a.dtype == dtype and a.device == nr.device(device)
        assert e.num_generated == skip + n + 5
        if dtype == nr.float32:
            b, b2 = as32(b, bits), as32(b2, bits)
        np.testing.assert_array_equal(a.numpy().astype(np.float64), b)
        np.testing.assert_array_equal(a2.numpy().astype(np.float64), b2)


def test_sobol_all_dims_equal_scipy():
    e = qmc.Sobol(qmc.Sobol.MAXDIM, scramble=False)
    np.testing.assert_array_equal(e.random(32).numpy(), ref_sobol(qmc.Sobol.MAXDIM, 30, 32)[0])


@pytest.mark.parametrize("bits", [30, 32])
def test_sobol_scrambled_nets(device, bits):
    """Each 1-d projection of the first 2**m points: one point per 1/2**m interval (LMS + shift
    keep Sobol' (t, m, s)-net), for every m; values in [0, 1)."""
    d, top = (4, 6) if small(device) else (12, 10)
    for dtype in FLOATS:
        x = qmc.Sobol(d, seed=5, bits=bits, device=device, dtype=dtype).random_base2(top).numpy().astype(np.float64)
        assert x.min() >= 0 and x.max() < 1
        for m in range(top + 1):
            cells = np.floor(x[: 2 ** m] * 2 ** m)
            for k in range(d):
                assert len(np.unique(cells[:, k])) == 2 ** m, (dtype, m, k)
    # the scramble is not the identity: it differs from the unscrambled points
    a = qmc.Sobol(d, seed=5, bits=bits, device=device).random(8).numpy()
    assert not np.array_equal(a, qmc.Sobol(d, scramble=False, bits=bits, device=device).random(8).numpy())


def test_sobol_seeds_state_and_backends(device):
    d, n = 5, 32
    a = qmc.Sobol(d, seed=11, device=device)
    x = a.random(n)
    np.testing.assert_array_equal(x.numpy(), qmc.Sobol(d, seed=11, device="cpu").random(n).numpy())
    np.testing.assert_array_equal(a.reset().random(n).numpy(), x.numpy())
    # two calls give the sequence of one; fast_forward skips exactly
    b = qmc.Sobol(d, seed=11, device=device)
    y = nr.cat([b.random(n // 2), b.random(n // 2)]).numpy()
    np.testing.assert_array_equal(y, x.numpy())
    c = qmc.Sobol(d, seed=11, device=device).fast_forward(n // 2)
    np.testing.assert_array_equal(c.random(n // 2).numpy(), x.numpy()[n // 2:])
    assert not np.array_equal(qmc.Sobol(d, seed=12, device=device).random(n).numpy(), x.numpy())
    # no seed: successive engines differ
    assert not np.array_equal(qmc.Sobol(d, device=device).random(n).numpy(),
                              qmc.Sobol(d, device=device).random(n).numpy())


def _spread_test(make_ours, make_ref, n, d, seeds=8):
    """Mean CD discrepancy over seeds within 5 standard errors of scipy's."""
    a = np.array([float(qmc.discrepancy(make_ours(d, s).random(n))) for s in range(seeds)])
    b = np.array([sq.discrepancy(make_ref(d, s).random(n)) for s in range(seeds)])
    se = math.sqrt(a.var(ddof=1) / seeds + b.var(ddof=1) / seeds)
    assert abs(a.mean() - b.mean()) < 5 * se, (a.mean(), b.mean(), se)


def test_sobol_scrambled_discrepancy_like_scipy(device):
    n, d = (64, 3) if small(device) else (256, 6)
    _spread_test(lambda d, s: qmc.Sobol(d, seed=s, device=device), lambda d, s: sq.Sobol(d, seed=s), n, d)


def test_sobol_errors_and_warnings(device):
    with pytest.raises(ValueError, match="Maximum supported dimensionality"):
        qmc.Sobol(qmc.Sobol.MAXDIM + 1, device=device)
    with pytest.raises(ValueError, match="bits"):
        qmc.Sobol(2, bits=65, device=device)
    with pytest.raises(ValueError):
        qmc.Sobol(-1, device=device)
    with pytest.raises(nr.DTypeError):
        qmc.Sobol(2, device=device, dtype=nr.int32)
    with pytest.warns(UserWarning, match="power of 2"):
        qmc.Sobol(2, device=device).random(3)
    e = qmc.Sobol(2, bits=4, device=device)
    with pytest.raises(ValueError, match="At most 2\\*\\*4"):
        e.random(17)
    assert e.random(16).shape == (16, 2)
    e = qmc.Sobol(2, device=device)
    e.random(4)
    with pytest.raises(ValueError, match="power of 2"):
        e.random_base2(1)
    with pytest.raises(ValueError):
        e.random(-1)


def test_empty_and_zero_dims(device):
    for cls in (qmc.Sobol, qmc.Halton, qmc.LatinHypercube):
        for d, n in ((0, 4), (3, 0), (1, 1)):
            x = cls(d, seed=0, device=device, dtype=nr.float32).random(n)
            assert x.shape == (n, d) and x.dtype == nr.float32
    # the first unscrambled Sobol point is 0 (scipy includes it)
    np.testing.assert_array_equal(qmc.Sobol(3, scramble=False, device=device).random(1).numpy(), np.zeros((1, 3)))


# ---- Halton ------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS)
def test_halton_unscrambled_equals_scipy(device, dtype):
    cases = [(1, 10, 0), (4, 50, 3)] if small(device) else [(1, 10, 0), (10, 1000, 0), (30, 64, 12345)]
    for d, n, skip in cases:
        e = qmc.Halton(d, scramble=False, device=device, dtype=dtype).fast_forward(skip)
        r = sq.Halton(d, scramble=False)
        r.fast_forward(skip)
        a, a2 = e.random(n), e.random(4)
        b, b2 = r.random(n), r.random(4)
        assert a.shape == (n, d) and a.dtype == dtype
        if dtype == nr.float64 and has(device, nr.float64):
            np.testing.assert_array_equal(a.numpy(), b)
            np.testing.assert_array_equal(a2.numpy(), b2)
        else:
            np.testing.assert_allclose(a.numpy(), b, rtol=0, atol=2 ** -24)
            np.testing.assert_allclose(a2.numpy(), b2, rtol=0, atol=2 ** -24)


def test_halton_scrambled_properties(device):
    d = 3
    x = qmc.Halton(d, seed=4, device=device).random(64)
    np.testing.assert_array_equal(x.numpy(), qmc.Halton(d, seed=4, device="cpu").random(64).numpy())
    v = x.numpy()
    assert v.min() >= 0 and v.max() < 1
    # digit permutations keep van der Corput's strata: b**m points, one per 1/b**m interval
    assert len(np.unique(np.floor(v[:, 0] * 64))) == 64
    assert len(np.unique(np.floor(v[:27, 1] * 27))) == 27
    assert len(np.unique(np.floor(v[:25, 2] * 25))) == 25
    assert not np.array_equal(v, qmc.Halton(d, scramble=False, device=device).random(64).numpy())
    f = qmc.Halton(d, seed=4, device=device, dtype=nr.float32).random(64)
    assert f.dtype == nr.float32 and f.numpy().max() < 1
    e = qmc.Halton(d, seed=4, device=device)
    y = nr.cat([e.random(40), e.random(24)])
    np.testing.assert_array_equal(y.numpy(), v)


def test_halton_scrambled_discrepancy_like_scipy(device):
    n, d = (64, 3) if small(device) else (300, 5)
    _spread_test(lambda d, s: qmc.Halton(d, seed=s, device=device), lambda d, s: sq.Halton(d, seed=s), n, d)


# ---- Latin hypercube ---------------------------------------------------------------------------

@pytest.mark.parametrize("scramble", [True, False])
def test_lhs_strength1(device, scramble):
    n, d = (20, 3) if small(device) else (200, 6)
    for dtype in FLOATS:
        x = qmc.LatinHypercube(d, scramble=scramble, seed=1, device=device, dtype=dtype).random(n)
        assert x.shape == (n, d) and x.dtype == dtype
        v = x.numpy().astype(np.float64)
        assert v.min() >= 0 and v.max() < 1
        cells = np.floor(v * n)
        for k in range(d):
            np.testing.assert_array_equal(np.sort(cells[:, k]), np.arange(n))
        if not scramble:
            np.testing.assert_allclose(v * n - cells, 0.5, atol=1e-5)
        np.testing.assert_array_equal(
            v, qmc.LatinHypercube(d, scramble=scramble, seed=1, device="cpu", dtype=dtype).random(n).numpy())
    e = qmc.LatinHypercube(d, seed=1, device=device)
    first = e.random(n).numpy()
    assert not np.array_equal(first, e.random(n).numpy())  # the next call draws new strata
    np.testing.assert_array_equal(e.reset().random(n).numpy(), first)


def test_lhs_strength2(device):
    p, d = (5, 4) if small(device) else (7, 8)
    n = p * p
    x = qmc.LatinHypercube(d, strength=2, seed=3, device=device).random(n).numpy()
    assert x.shape == (n, d) and x.min() >= 0 and x.max() < 1
    cells, coarse = np.floor(x * n), np.floor(x * p)
    for k in range(d):
        np.testing.assert_array_equal(np.sort(cells[:, k]), np.arange(n))
        for j in range(k):  # an orthogonal array: every pair of coarse levels exactly once
            assert len(set(zip(coarse[:, j], coarse[:, k], strict=True))) == n
    with pytest.raises(ValueError, match="square of a prime"):
        qmc.LatinHypercube(2, strength=2, device=device).random(10)
    with pytest.raises(ValueError, match="too small for d"):
        qmc.LatinHypercube(5, strength=2, device=device).random(9)
    with pytest.raises(ValueError, match="strength"):
        qmc.LatinHypercube(2, strength=3, device=device)


def test_lhs_discrepancy_like_scipy(device):
    n, d = (25, 3) if small(device) else (49, 5)
    for st in (1, 2):
        _spread_test(lambda d, s, st=st: qmc.LatinHypercube(d, strength=st, seed=s, device=device),
                     lambda d, s, st=st: sq.LatinHypercube(d, strength=st, seed=s), n, d, seeds=12)


# ---- discrepancy and scale ---------------------------------------------------------------------

@pytest.mark.parametrize("method", ["CD", "WD", "MD", "L2-star"])
def test_discrepancy_equals_scipy(device, method):
    rng = np.random.default_rng(0)
    shapes = [(1, 1), (9, 3)] if small(device) else [(1, 1), (9, 3), (700, 4)]
    for n, d in shapes:
        s = rng.random((n, d))
        for it in (False, True):
            got = qmc.discrepancy(nr.tensor(s, device=device), method=method, iterative=it)
            want = sq.discrepancy(s, method=method, iterative=it)
            assert got.shape == () and got.device == nr.device(device)
            rtol = 1e-10 if has(device, nr.float64) else 1e-4
            assert abs(float(got) - want) <= rtol * abs(want) + 1e-14, (n, d, it)
    # non-contiguous, offset and flipped views; float32 input (computed in float64)
    s = rng.random((12, 6))
    t = nr.tensor(s, device=device)
    for view, ref in ((t[:, ::2], s[:, ::2]), (t[2:, 1:], s[2:, 1:]), (t.flip(0), s[::-1]), (t.T[:3], s.T[:3])):
        assert abs(float(qmc.discrepancy(view, method=method)) - sq.discrepancy(ref, method=method)) < 1e-9
    f = nr.tensor(s, dtype=nr.float32, device=device)
    assert abs(float(qmc.discrepancy(f, method=method)) - sq.discrepancy(s.astype(np.float32), method=method)) < 1e-6


def test_discrepancy_errors(device):
    with pytest.raises(ValueError, match="2D"):
        qmc.discrepancy(nr.tensor([0.1, 0.2], device=device))
    with pytest.raises(ValueError, match="unit hypercube"):
        qmc.discrepancy(nr.tensor([[0.1, 1.5]], device=device))
    with pytest.raises(ValueError, match="unit hypercube"):
        qmc.discrepancy(nr.tensor([[0.1, float("nan")]], device=device))
    with pytest.raises(ValueError, match="valid method"):
        qmc.discrepancy(nr.tensor([[0.1, 0.5]], device=device), method="XX")


def test_scale(device):
    s = np.array([[0.5, 0.25], [0.0, 0.75]])
    got = qmc.scale(nr.tensor(s, device=device), [1, 2], [3, 6])
    np.testing.assert_allclose(got.numpy(), sq.scale(s, [1, 2], [3, 6]))
    np.testing.assert_allclose(qmc.scale(got, [1, 2], [3, 6], reverse=True).numpy(), s)
    with pytest.raises(ValueError, match="Bounds"):
        qmc.scale(nr.tensor(s, device=device), [1, 2], [0, 6])
