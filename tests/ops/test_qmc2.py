"""numr.qmc part 2: integers() on every engine (scipy's floor(u (b - a) + a)), optimization=
'random-cd' / 'lloyd', PoissonDisk, MultivariateNormalQMC and MultinomialQMC, against
scipy.stats.qmc (same unscrambled points in, same values out; random ones by their properties)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import numr as nr
from numr import qmc

sq = pytest.importorskip("scipy.stats.qmc")
pdist = pytest.importorskip("scipy.spatial.distance").pdist

ENGINES = (qmc.Sobol, qmc.Halton, qmc.LatinHypercube)


def quiet(f, *a, **k):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return f(*a, **k)


# ---- integers ----------------------------------------------------------------------------------

@pytest.mark.parametrize("cls", ENGINES)
def test_integers_bounds_endpoint_dtype(device, cls):
    dtypes = (nr.float64,) if device != "cpu" else (nr.float32, nr.float64)
    for dtype in dtypes:
        e = cls(3, seed=2, device=device, dtype=dtype)
        x = quiet(e.integers, [-3, 0, 5], [4, 1, 9], n=40, endpoint=True)
        assert x.shape == (40, 3) and x.dtype == nr.int64 and x.device == nr.device(device)
        assert e.num_generated == 40
        u = quiet(e.reset().random, 40).numpy().astype(np.float64)
        want = np.floor(u * np.array([8, 2, 5]) + np.array([-3, 0, 5]))  # scipy's mapping
        np.testing.assert_array_equal(x.numpy(), want)
        y = quiet(e.reset().integers, 7, n=16).numpy()  # u_bounds=None: [0, 7)
        assert y.min() >= 0 and y.max() <= 6 and y.shape == (16, 3)


def test_integers_uniform():
    """Balance: 64 scrambled Sobol' points hit each of 0..7 exactly 8 times per dimension; a Latin
    hypercube of 40 points each of 0..4 exactly 8 times; scipy's engines do the same."""
    x = qmc.Sobol(4, seed=0).integers(8, n=64).numpy()
    assert all(np.array_equal(np.bincount(x[:, k], minlength=8), [8] * 8) for k in range(4))
    assert np.array_equal(x, qmc.Sobol(4, seed=0).integers(0, 8, n=64).numpy())
    y = qmc.LatinHypercube(2, seed=1).integers(10, 15, n=40).numpy()
    assert all(np.array_equal(np.bincount(y[:, k] - 10, minlength=5), [8] * 5) for k in range(2))
    z = sq.Sobol(4, rng=0).integers(8, n=64)
    assert all(np.array_equal(np.bincount(z[:, k], minlength=8), [8] * 8) for k in range(4))


def test_integers_errors(device):
    e = qmc.Halton(2, seed=0, device=device)
    with pytest.raises(nr.DTypeError, match="integers"):
        e.integers(0.5, 3)
    with pytest.raises(ValueError, match="Bounds are not consistent"):
        e.integers([0, 5], [3, 5])
    with pytest.raises(nr.ShapeError, match="broadcastable"):
        e.integers([0, 0, 0], 3)
    with pytest.raises(ValueError):
        e.integers(3, n=-1)
    assert e.num_generated == 0
    assert e.integers(2, n=0).shape == (0, 2)


# ---- optimization= -----------------------------------------------------------------------------

def test_random_cd_lowers_discrepancy():
    """Coordinate swaps keep each column's values (a Latin hypercube stays one) and lower the CD
    below the plain sample's, to scipy's level (mean over seeds within a factor 1.5)."""
    n, d, seeds = 48, 4, 3
    ours, ref = [], []
    for s in range(seeds):
        plain = qmc.LatinHypercube(d, seed=s).random(n)
        opt = qmc.LatinHypercube(d, seed=s, optimization="random-cd").random(n)
        assert opt.shape == (n, d) and opt.dtype == nr.float64
        np.testing.assert_array_equal(np.sort(opt.numpy(), 0), np.sort(plain.numpy(), 0))
        ours.append(float(qmc.discrepancy(opt)))
        assert ours[-1] < 0.8 * float(qmc.discrepancy(plain))
        ref.append(sq.discrepancy(sq.LatinHypercube(d, rng=s, optimization="random-cd").random(n)))
    assert 1 / 1.5 < np.mean(ours) / np.mean(ref) < 1.5, (ours, ref)


def test_random_cd_device(device):
    """A short run (50 proposals) on the device: the CPU's swaps (the same seeded proposals), a
    lower discrepancy, the same column values."""
    from numr.ops.generic.distributions import Draws
    from numr.qmc.optimize import random_cd
    x0 = np.random.default_rng(0).random((12, 3))
    got = random_cd(nr.tensor(x0, device=device), Draws(5, nr.device(device)), n_iters=50)
    want = random_cd(nr.tensor(x0), Draws(5, nr.device("cpu")), n_iters=50).numpy()
    assert got.device == nr.device(device) and got.shape == (12, 3)
    np.testing.assert_array_equal(got.numpy(), want)
    np.testing.assert_array_equal(np.sort(want, 0), np.sort(x0, 0))
    assert sq.discrepancy(want) < sq.discrepancy(x0)


def test_lloyd_device(device):
    """Lloyd on the device: the CPU's steps (the same seeded probes), points kept in the cube."""
    x = qmc.Halton(2, seed=6, device=device, optimization="lloyd").random(8)
    assert x.device == nr.device(device) and x.shape == (8, 2)
    want = qmc.Halton(2, seed=6, optimization="lloyd").random(8).numpy()
    np.testing.assert_allclose(x.numpy(), want, rtol=1e-9, atol=1e-12)
    assert want.min() >= 0 and want.max() <= 1


def test_random_cd_other_engines():
    for e in (qmc.Halton(3, seed=1, optimization="Random-CD"), qmc.Sobol(3, seed=1, optimization="random-cd"),
              qmc.Halton(3, seed=1, dtype=nr.float32, optimization="random-cd")):
        x = quiet(e.random, 30)
        plain = quiet(type(e)(3, seed=1, dtype=e.dtype).random, 30)
        assert x.dtype == e.dtype and float(qmc.discrepancy(x)) < float(qmc.discrepancy(plain))
        assert float(x.numpy().max()) < 1 and e.num_generated == 30
    # one point or one dimension: nothing to swap
    np.testing.assert_array_equal(qmc.Halton(1, seed=0, optimization="random-cd").random(5).numpy(),
                                  qmc.Halton(1, seed=0).random(5).numpy())


def test_lloyd_spreads_points():
    """The smallest pairwise L1 distance grows (scipy's measure), as scipy's lloyd makes it."""
    for d, n in ((2, 40), (3, 30)):
        plain = qmc.Halton(d, seed=3).random(n).numpy()
        x = qmc.Halton(d, seed=3, optimization="lloyd").random(n)
        v = x.numpy()
        assert x.shape == (n, d) and v.min() >= 0 and v.max() <= 1
        ref = sq.Halton(d, rng=3, optimization="lloyd").random(n)
        assert pdist(v, "cityblock").min() > 1.2 * pdist(plain, "cityblock").min()
        assert pdist(v, "cityblock").min() > 0.7 * pdist(ref, "cityblock").min()
    with pytest.raises(ValueError, match="dimension is not >= 2"):
        qmc.Halton(1, seed=0, optimization="lloyd").random(4)
    with pytest.raises(ValueError, match="valid optimization"):
        qmc.Sobol(2, optimization="cd")


# ---- PoissonDisk -------------------------------------------------------------------------------

def test_poisson_disk_fill_space():
    r = 0.1
    counts = []
    for s in range(3):
        e = qmc.PoissonDisk(2, radius=r, seed=s)
        x = e.fill_space()
        v = x.numpy()
        assert x.dtype == nr.float64 and v.shape[1] == 2 and e.num_generated == len(v)
        assert pdist(v).min() >= r and v.min() >= 0 and v.max() <= 1
        assert e.random(5).shape == (0, 2)  # full: nothing more fits
        counts.append(len(v))
    ref = [len(sq.PoissonDisk(2, radius=r, rng=s).fill_space()) for s in range(6)]
    assert 0.85 * min(ref) <= np.mean(counts) <= 1.15 * max(ref), (counts, ref)


def test_poisson_disk_random_state_bounds():
    e = qmc.PoissonDisk(3, radius=0.2, hypersphere="surface", ncandidates=10, seed=4, l_bounds=[0, -1, 2],
                        u_bounds=[1, 1, 4], dtype=nr.float32)
    a, b = e.random(6), e.random(4)
    assert a.shape == (6, 3) and b.shape == (4, 3) and a.dtype == nr.float32 and e.num_generated == 10
    v = np.concatenate([a.numpy(), b.numpy()]).astype(np.float64)
    assert pdist(v).min() >= 0.2 - 1e-6
    assert (v >= [0, -1, 2]).all() and (v <= [1, 1, 4]).all()
    e.reset()  # a call stops inside a center's candidates and drops the rest (scipy too): replay 6 + 4
    np.testing.assert_array_equal(nr.cat([e.random(6), e.random(4)]).numpy(), v.astype(np.float32))
    assert qmc.PoissonDisk(2, seed=0).random(0).shape == (0, 2)
    assert qmc.PoissonDisk(0, seed=0).random(3).shape == (0, 0)


def test_poisson_disk_device(device):
    """Built on the host from CPU draws, then moved: the same points on every backend."""
    x = qmc.PoissonDisk(2, radius=0.3, seed=7, device=device).random(5)
    assert x.device == nr.device(device)
    np.testing.assert_array_equal(x.numpy(), qmc.PoissonDisk(2, radius=0.3, seed=7).random(5).numpy())


def test_poisson_disk_errors():
    with pytest.raises(ValueError, match="hypersphere"):
        qmc.PoissonDisk(2, hypersphere="ball")
    for bad in (0, -0.1, float("nan"), "x"):
        with pytest.raises(ValueError, match="radius"):
            qmc.PoissonDisk(2, radius=bad)
    with pytest.raises(ValueError, match="ncandidates"):
        qmc.PoissonDisk(2, ncandidates=0)
    with pytest.raises(ValueError, match="Bounds"):
        qmc.PoissonDisk(2, l_bounds=[0, 1], u_bounds=[1, 1])


# ---- MultivariateNormalQMC and MultinomialQMC --------------------------------------------------

MEAN = [1.0, -2.0, 0.5]
COV = [[2.0, 0.5, 0.1], [0.5, 1.0, 0.2], [0.1, 0.2, 0.5]]


@pytest.mark.parametrize("inv", [True, False])
def test_mvn_equals_scipy_transform(device, inv):
    d, n = (3 if inv else 4), (8 if device != "cpu" else 64)
    x = qmc.MultivariateNormalQMC(MEAN, COV, inv_transform=inv,
                                  engine=qmc.Sobol(d, scramble=False, device=device)).random(n)
    y = quiet(sq.MultivariateNormalQMC(MEAN, COV, inv_transform=inv, engine=sq.Sobol(d, scramble=False)).random, n)
    assert x.shape == (n, 3) and x.dtype == nr.float64 and x.device == nr.device(device)
    np.testing.assert_allclose(x.numpy()[1:], y[1:], rtol=1e-9, atol=1e-9)  # point 0 is u = 0
    root = np.linalg.cholesky(np.array(COV)).T
    z = quiet(sq.MultivariateNormalQMC(MEAN, cov_root=root, inv_transform=inv,
                                       engine=sq.Sobol(d, scramble=False)).random, n)
    w = qmc.MultivariateNormalQMC(MEAN, cov_root=root, inv_transform=inv,
                                  engine=qmc.Sobol(d, scramble=False, device=device)).random(n)
    np.testing.assert_allclose(w.numpy()[1:], z[1:], rtol=1e-9, atol=1e-9)


def test_mvn_moments_and_singular_cov():
    x = qmc.MultivariateNormalQMC(MEAN, COV, seed=0).random(1024).numpy()
    np.testing.assert_allclose(x.mean(0), MEAN, atol=0.01)
    np.testing.assert_allclose(np.cov(x.T), COV, atol=0.03)
    sing = [[1.0, 1.0], [1.0, 1.0]]  # Cholesky fails: the eigen root
    y = qmc.MultivariateNormalQMC([0, 0], sing, seed=1).random(256).numpy()
    np.testing.assert_allclose(y[:, 0], y[:, 1], atol=1e-6)
    np.testing.assert_allclose(np.cov(y.T), sing, atol=0.05)
    z = qmc.MultivariateNormalQMC([3.0, 4.0], seed=2, dtype=nr.float32).random(128)  # identity cov
    assert z.dtype == nr.float32 and abs(z.numpy().mean(0) - [3, 4]).max() < 0.05


def test_mvn_errors():
    with pytest.raises(ValueError, match="mismatch"):
        qmc.MultivariateNormalQMC([0, 0], COV)
    with pytest.raises(ValueError, match="symmetric"):
        qmc.MultivariateNormalQMC([0, 0], [[1, 0.5], [0, 1]])
    with pytest.raises(ValueError, match="PSD"):
        qmc.MultivariateNormalQMC([0, 0], [[1, 2], [2, 1]])
    with pytest.raises(ValueError, match="Dimension of `engine`"):
        qmc.MultivariateNormalQMC([0, 0, 0], engine=qmc.Sobol(3), inv_transform=False)
    with pytest.raises(ValueError, match="engine"):
        qmc.MultivariateNormalQMC([0, 0], engine=sq.Sobol(2))


def test_params_on_another_device(device):
    """A tensor parameter on another device than the engine is refused, not copied."""
    if device == "cpu":
        pytest.skip("needs a second backend")
    with pytest.raises(nr.DeviceError, match="cov"):
        qmc.MultivariateNormalQMC([0.0, 1.0], nr.tensor([[1.0, 0.0], [0.0, 1.0]]), device=device)
    with pytest.raises(nr.DeviceError, match="pvals"):
        qmc.MultinomialQMC(nr.tensor([0.5, 0.5]), 3, engine=qmc.Halton(1, device=device))


def test_multinomial_equals_scipy(device):
    p = [0.2, 0.3, 0.0, 0.5]
    n = 4 if device != "cpu" else 20
    for ours, ref in ((qmc.Halton, sq.Halton), (qmc.Sobol, sq.Sobol)):
        x = quiet(qmc.MultinomialQMC(p, 10, engine=ours(1, scramble=False, device=device)).random, n)
        y = quiet(sq.MultinomialQMC(p, 10, engine=ref(1, scramble=False)).random, n)
        assert x.shape == (n, 4) and x.device == nr.device(device)
        np.testing.assert_array_equal(x.numpy(), y)
    z = quiet(qmc.MultinomialQMC(p, 7, seed=3).random, 50).numpy()
    assert (z.sum(1) == 7).all() and (z[:, 2] == 0).all()
    np.testing.assert_allclose(z.mean(0), np.array(p) * 7, atol=0.15)
    assert qmc.MultinomialQMC(p, 0, seed=3).random(3).numpy().sum() == 0


def test_multinomial_errors():
    with pytest.raises(ValueError, match="non-negative"):
        qmc.MultinomialQMC([-0.1, 1.1], 3)
    with pytest.raises(ValueError, match="sum to 1"):
        qmc.MultinomialQMC([0.2, 0.3], 3)
    with pytest.raises(ValueError, match="Dimension of `engine`"):
        qmc.MultinomialQMC([0.5, 0.5], 3, engine=qmc.Halton(2))
    with pytest.raises(ValueError, match="n_trials"):
        qmc.MultinomialQMC([0.5, 0.5], -1)
