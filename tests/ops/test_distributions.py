"""Random distributions (numr/ops/generic/distributions*.py): the same seed gives the same numbers
on every backend (the CPU is the reference) and on every call; moments within 5 standard errors
and chi-square goodness of fit with fixed seeds; permutations, no repeats without replacement,
zero-probability categories never drawn; edge sizes; domain errors."""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import assert_close

import numr as nr

stats = pytest.importorskip("scipy.stats")


@pytest.fixture(autouse=True)
def _needs_f64_and_i64(request):
    """The discrete samplers compute in float64 and count in int64: a backend built without them
    (wgpu with NUMR_WGPU_DISABLE=shader-f64,shader-int64) raises UnsupportedDType; skip there."""
    if "device" not in request.fixturenames:
        return
    device = request.getfixturevalue("device")
    try:
        nr.rand(1, dtype=nr.float64, device=device, seed=0)
        nr.randint(0, 2, (1,), device=device, seed=0)
    except nr.UnsupportedDType as e:
        pytest.skip(f"{device} lacks float64/int64 arithmetic: {e}")


def n_for(device):
    return 100_000 if device == "cpu" else 20_000


def check_moments(x, mean, var, what):
    """Sample mean and variance within 5 standard errors (variance's from the 4th moment)."""
    x = np.asarray(x, np.float64)
    n = x.size
    assert abs(x.mean() - mean) < 5 * math.sqrt(var / n), f"{what}: mean {x.mean()} vs {mean}"
    m4 = np.mean((x - mean) ** 4)
    assert abs(x.var() - var) < 5 * math.sqrt(max(m4 - var * var, 1e-30) / n) + 1e-12, f"{what}: var {x.var()} vs {var}"


def gof(counts, probs, what):
    """Chi-square goodness of fit (bins with expected < 5 merged into the last): p > 1e-4."""
    counts, probs = np.asarray(counts, np.float64), np.asarray(probs, np.float64)
    exp = probs * counts.sum()
    keep = exp >= 5
    c = np.append(counts[keep], counts[~keep].sum())
    e = np.append(exp[keep], exp[~keep].sum())
    if e[-1] == 0:
        assert c[-1] == 0, f"{what}: {c[-1]} draws in zero-probability bins"
        c, e = c[:-1], e[:-1]
    p = stats.chisquare(c, e).pvalue
    assert p > 1e-4, f"{what}: chi-square p = {p}"


# ---- identical streams ------------------------------------------------------------------------
FLOAT_CASES = {
    "uniform": lambda dev, s: nr.uniform(-2.0, 3.0, (37,), device=dev, seed=s),
    "normal": lambda dev, s: nr.normal(nr.tensor([[0.0], [5.0]], device=dev), 2.0, (2, 9), seed=s),
    "lognormal": lambda dev, s: nr.lognormal(0.5, 0.25, (21,), device=dev, seed=s),
    "exponential": lambda dev, s: nr.exponential(nr.tensor([0.5, 2.0], device=dev), (10, 2), seed=s),
    "laplace": lambda dev, s: nr.laplace(1.0, 2.0, (33,), device=dev, seed=s),
    "cauchy": lambda dev, s: nr.cauchy(0.0, 1.0, (33,), device=dev, seed=s),
    "gumbel": lambda dev, s: nr.gumbel(0.0, 3.0, (33,), dtype=nr.float32, device=dev, seed=s),
    "gamma": lambda dev, s: nr.gamma(nr.tensor([0.3, 1.0, 4.5, 100.0], device=dev), 2.0, (9, 4), seed=s),
    "beta": lambda dev, s: nr.beta(0.5, 2.0, (25,), device=dev, seed=s),
    "chi_square": lambda dev, s: nr.chi_square(3.0, (25,), dtype=nr.float32, device=dev, seed=s),
    "student_t": lambda dev, s: nr.student_t(4.0, (25,), device=dev, seed=s),
    "dirichlet": lambda dev, s: nr.dirichlet(nr.tensor([0.5, 1.0, 3.0], device=dev), (6,), seed=s),
    "rand_like": lambda dev, s: nr.rand_like(nr.zeros(3, 4, dtype=nr.float32, device=dev), seed=s),
    "randn_like": lambda dev, s: nr.randn_like(nr.zeros(3, 4, device=dev), seed=s),
}
INT_CASES = {
    "bernoulli": lambda dev, s: nr.bernoulli(nr.linspace(0, 1, 40, device=dev), seed=s),
    "bernoulli_f32": lambda dev, s: nr.bernoulli(nr.full((50,), 0.3, dtype=nr.float32, device=dev), seed=s),
    "geometric": lambda dev, s: nr.geometric(0.2, (40,), device=dev, seed=s),
    "poisson": lambda dev, s: nr.poisson(nr.tensor([0.0, 0.7, 4.0, 9.99, 10.0, 55.0, 3e5], device=dev), (8, 7),
                                         seed=s),
    "multinomial": lambda dev, s: nr.multinomial(nr.tensor([[1.0, 0, 2, 3, 4], [5.0, 1, 0, 0, 1]], device=dev), 3,
                                                 seed=s),
    "multinomial_repl": lambda dev, s: nr.multinomial(nr.tensor([1.0, 0, 2, 3, 0], device=dev), 30, True, seed=s),
    "randperm": lambda dev, s: nr.randperm(50, device=dev, seed=s),
    "choice": lambda dev, s: nr.choice(nr.arange(10, 20, device=dev), (3, 4), seed=s),
    "choice_p": lambda dev, s: nr.choice(7, 5, replace=False, p=nr.tensor([1.0, 0, 1, 1, 2, 0, 3], device=dev), seed=s),
    "binomial": lambda dev, s: nr.binomial(nr.tensor([3.0, 20.0, 500.0, 10_000.0], device=dev),
                                           nr.tensor([[0.1], [0.5], [0.93]], device=dev), (6, 3, 4), seed=s),
    "randint_like": lambda dev, s: nr.randint_like(nr.zeros(5, dtype=nr.int32, device=dev), -3, 9, seed=s),
}


@pytest.mark.parametrize("name", sorted(FLOAT_CASES))
def test_float_streams_match_cpu(device, name):
    f = FLOAT_CASES[name]
    ref = f("cpu", 11)
    got = f(device, 11)
    assert got.device == nr.device(device)
    assert_close(got, ref.numpy(), dtype=ref.dtype, rtol=1e-5 if ref.dtype == nr.float32 else 1e-9, atol=1e-6)
    assert np.array_equal(f(device, 11).numpy(), got.numpy()), "same seed, different numbers"
    assert not np.array_equal(f(device, 12).numpy(), got.numpy())


@pytest.mark.parametrize("name", sorted(INT_CASES))
def test_integer_streams_match_cpu_bit_for_bit(device, name):
    f = INT_CASES[name]
    ref = f("cpu", 5)
    got = f(device, 5)
    assert got.dtype == ref.dtype and got.shape == ref.shape
    np.testing.assert_array_equal(got.numpy(), ref.numpy())
    np.testing.assert_array_equal(f(device, 5).numpy(), ref.numpy())


def test_global_generator_streams(device):
    nr.manual_seed(1234)
    a, b = nr.normal(0.0, 1.0, (8,), device=device), nr.normal(0.0, 1.0, (8,), device=device)
    c = nr.poisson(3.0, (8,), device=device)
    assert not np.array_equal(a.numpy(), b.numpy())
    nr.manual_seed(1234)
    np.testing.assert_array_equal(nr.normal(0.0, 1.0, (8,), device=device).numpy(), a.numpy())
    np.testing.assert_array_equal(nr.normal(0.0, 1.0, (8,), device=device).numpy(), b.numpy())
    np.testing.assert_array_equal(nr.poisson(3.0, (8,), device=device).numpy(), c.numpy())


# ---- statistics ---------------------------------------------------------------------------------
CONTINUOUS = [  # (name, call(size, dev), mean, variance)
    ("uniform", lambda n, d: nr.uniform(-1.0, 3.0, n, device=d, seed=1), 1.0, 16 / 12),
    ("normal", lambda n, d: nr.normal(2.0, 3.0, n, device=d, seed=2), 2.0, 9.0),
    ("lognormal", lambda n, d: nr.lognormal(0.0, 0.5, n, device=d, seed=3), math.exp(0.125),
     (math.exp(0.25) - 1) * math.exp(0.25)),
    ("exponential", lambda n, d: nr.exponential(4.0, n, device=d, seed=4), 0.25, 1 / 16),
    ("laplace", lambda n, d: nr.laplace(1.0, 2.0, n, device=d, seed=5), 1.0, 8.0),
    ("gumbel", lambda n, d: nr.gumbel(1.0, 2.0, n, device=d, seed=6), 1.0 + 2 * 0.5772156649015329,
     math.pi ** 2 / 6 * 4),
    ("gamma_small", lambda n, d: nr.gamma(0.25, 2.0, n, device=d, seed=7), 0.5, 1.0),
    ("gamma", lambda n, d: nr.gamma(3.5, 0.5, n, device=d, seed=8), 1.75, 0.875),
    ("beta", lambda n, d: nr.beta(2.0, 5.0, n, device=d, seed=9), 2 / 7, 10 / (49 * 8)),
    ("chi_square", lambda n, d: nr.chi_square(6.0, n, device=d, seed=10), 6.0, 12.0),
    ("student_t", lambda n, d: nr.student_t(10.0, n, device=d, seed=11), 0.0, 10 / 8),
    ("float32_normal", lambda n, d: nr.normal(-1.0, 0.5, n, dtype=nr.float32, device=d, seed=12), -1.0, 0.25),
]


@pytest.mark.parametrize("name,call,mean,var", CONTINUOUS, ids=[c[0] for c in CONTINUOUS])
def test_moments(device, name, call, mean, var):
    x = call((n_for(device),), device)
    assert x.shape == (n_for(device),)
    v = x.numpy()
    assert np.isfinite(v).all()
    check_moments(v, mean, var, name)


def test_cauchy_quantiles(device):
    x = nr.cauchy(1.0, 2.0, (n_for(device),), device=device, seed=3).numpy()
    q = np.quantile(x, [0.25, 0.5, 0.75])  # quartiles of Cauchy(1, 2): 1 -+ 2
    np.testing.assert_allclose(q, [-1.0, 1.0, 3.0], atol=0.1)
    assert np.isfinite(x).all()


def test_gumbel_and_laplace_are_finite_at_the_extremes(device):
    assert np.isfinite(nr.gumbel(0.0, 1.0, (4096,), dtype=nr.float32, device=device, seed=0).numpy()).all()
    assert np.isfinite(nr.laplace(0.0, 1.0, (4096,), dtype=nr.float32, device=device, seed=0).numpy()).all()


def test_dirichlet_rows_sum_to_one(device):
    a = nr.tensor([0.5, 2.0, 4.0], device=device)
    x = nr.dirichlet(a, (n_for(device) // 10,), seed=2)
    assert x.shape == (n_for(device) // 10, 3)
    v = x.numpy()
    np.testing.assert_allclose(v.sum(-1), 1.0, rtol=1e-12)
    for j, aj in enumerate([0.5, 2.0, 4.0]):
        check_moments(v[:, j], aj / 6.5, aj * (6.5 - aj) / (6.5 ** 2 * 7.5), f"dirichlet[{j}]")


def test_bernoulli_fit_and_dtypes(device):
    n = n_for(device)
    p = nr.full((n,), 0.3, dtype=nr.float32, device=device)
    b = nr.bernoulli(p, seed=1)
    assert b.dtype == nr.float32 and b.shape == (n,)
    v = b.numpy()
    assert set(np.unique(v)) <= {0.0, 1.0}
    gof(np.bincount(v.astype(np.int64), minlength=2), [0.7, 0.3], "bernoulli")
    assert nr.bernoulli(0.5, (3, 2), dtype=nr.bool_, device=device, seed=1).dtype == nr.bool_
    edge = nr.bernoulli(nr.tensor([0.0, 1.0, 0.0, 1.0], device=device), seed=4).numpy()
    np.testing.assert_array_equal(edge, [0, 1, 0, 1])


def test_geometric_fit(device):
    n = n_for(device)
    g = nr.geometric(0.3, (n,), device=device, seed=2)
    assert g.dtype == nr.int64
    v = g.numpy()
    assert v.min() >= 1
    k = np.arange(1, v.max() + 1)
    pmf = 0.7 ** (k - 1) * 0.3
    pmf[-1] += 0.7 ** k[-1]  # the tail beyond the largest draw
    gof(np.bincount(v, minlength=v.max() + 1)[1:], pmf, "geometric")
    assert (nr.geometric(1.0, (10,), device=device, seed=1).numpy() == 1).all()


@pytest.mark.parametrize("lam", [0.4, 4.0, 9.5, 10.0, 37.0, 1000.0])
def test_poisson_fit(device, lam):
    n = n_for(device)
    v = nr.poisson(lam, (n,), device=device, seed=3).numpy()
    assert v.min() >= 0
    check_moments(v, lam, lam, f"poisson({lam})")
    k = np.arange(v.max() + 1)
    pmf = stats.poisson.pmf(k, lam)
    pmf[-1] += stats.poisson.sf(v.max(), lam)
    gof(np.bincount(v, minlength=v.max() + 1), pmf, f"poisson({lam})")


@pytest.mark.parametrize("count,prob", [(12, 0.3), (40, 0.85), (200, 0.5), (5000, 0.01), (3000, 0.996)])
def test_binomial_fit(device, count, prob):
    n = n_for(device)
    v = nr.binomial(count, prob, (n,), device=device, seed=4).numpy()
    assert v.min() >= 0 and v.max() <= count
    check_moments(v, count * prob, count * prob * (1 - prob), f"binomial({count}, {prob})")
    k = np.arange(v.max() + 1)
    pmf = stats.binom.pmf(k, count, prob)
    pmf[-1] += stats.binom.sf(v.max(), count, prob)
    gof(np.bincount(v, minlength=v.max() + 1), pmf, f"binomial({count}, {prob})")


def test_binomial_edges(device):
    x = nr.binomial(nr.tensor([0.0, 7.0, 7.0], device=device), nr.tensor([0.5, 0.0, 1.0], device=device), seed=1)
    np.testing.assert_array_equal(x.numpy(), [0, 0, 7])
    assert nr.binomial(5, 0.5, (0,), device=device).shape == (0,)
    with pytest.raises(nr.DomainError, match="binomial: count"):
        nr.binomial(2.5, 0.5, (3,), device=device)
    with pytest.raises(nr.DomainError, match="binomial: count"):
        nr.binomial(-1, 0.5, (3,), device=device)
    with pytest.raises(nr.DomainError, match="binomial: prob"):
        nr.binomial(4, 1.5, (3,), device=device)


def test_poisson_tensor_rates_and_dtype(device):
    rate = nr.tensor([[0.0], [2.0], [50.0]], device=device)
    x = nr.poisson(rate, (3, 4000), dtype=nr.float32, seed=4)
    assert x.dtype == nr.float32 and x.shape == (3, 4000)
    v = x.numpy()
    assert (v[0] == 0).all()
    assert abs(v[1].mean() - 2.0) < 5 * math.sqrt(2 / 4000) and abs(v[2].mean() - 50) < 5 * math.sqrt(50 / 4000)


def test_multinomial_without_replacement(device):
    w = nr.tensor([[0.0, 1.0, 2.0, 0.0, 3.0, 4.0], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0]], device=device)
    out = nr.multinomial(w, 4, seed=3)
    assert out.shape == (2, 4) and out.dtype == nr.int64
    v = out.numpy()
    assert len(set(v[0])) == 4 and set(v[0]) == {1, 2, 4, 5}  # the zero-weight 0 and 3 never drawn
    assert len(set(v[1])) == 4
    firsts = nr.multinomial(nr.broadcast_to(w[0], (n_for(device) // 4, 6)), 1, seed=5).numpy()[:, 0]
    gof(np.bincount(firsts, minlength=6), np.array([0, 1, 2, 0, 3, 4]) / 10, "multinomial first draw")
    full = nr.multinomial(w[1], 6, seed=1).numpy()
    assert sorted(full) == list(range(6))


def test_multinomial_with_replacement(device):
    w = nr.tensor([0.0, 0.5, 2.0, 0.0, 1.5, 0.0], dtype=nr.float32, device=device)
    n = n_for(device)
    v = nr.multinomial(w, n, replacement=True, seed=6).numpy()
    assert v.shape == (n,)
    gof(np.bincount(v, minlength=6), np.array([0, 0.5, 2, 0, 1.5, 0]) / 4, "multinomial with replacement")
    rows = nr.multinomial(nr.tensor([[1.0, 0.0], [0.0, 1.0]], device=device), 5, True, seed=1).numpy()
    np.testing.assert_array_equal(rows, [[0] * 5, [1] * 5])


def test_randperm(device):
    n = 1000
    p = nr.randperm(n, device=device, seed=7)
    assert p.dtype == nr.int64 and p.shape == (n,)
    v = p.numpy()
    assert sorted(v) == list(range(n)) and not np.array_equal(v, np.arange(n))
    assert nr.randperm(n, dtype=nr.int32, device=device, seed=7).dtype == nr.int32
    np.testing.assert_array_equal(nr.randperm(n, dtype=nr.int32, device=device, seed=7).numpy(), v)
    firsts = np.array([nr.randperm(4, device="cpu", seed=s).numpy()[0] for s in range(400)])
    gof(np.bincount(firsts, minlength=4), [0.25] * 4, "randperm first element")


def test_choice(device):
    n = n_for(device)
    v = nr.choice(5, n, device=device, seed=1).numpy()
    gof(np.bincount(v, minlength=5), [0.2] * 5, "choice uniform")
    w = nr.tensor([0.0, 1.0, 3.0], device=device)
    v = nr.choice(nr.tensor([7.0, 8.0, 9.0], device=device), n, p=w, seed=2).numpy()
    gof(np.bincount(v.astype(np.int64) - 7, minlength=3), [0.0, 0.25, 0.75], "choice weighted")
    x = nr.choice(nr.arange(50, device=device) * 2, (5, 4), replace=False, seed=3)
    assert x.shape == (5, 4) and x.dtype == nr.int64
    assert len(set(x.numpy().ravel())) == 20 and (x.numpy() % 2 == 0).all()
    assert nr.choice(9, device=device, seed=1).shape == ()
    assert nr.choice(0, (0,), device=device).shape == (0,)
    with pytest.raises(nr.DomainError, match="choice: cannot take 4 samples without replacement from 3"):
        nr.choice(3, 4, replace=False, device=device)
    with pytest.raises(nr.ShapeError, match="choice: p"):
        nr.choice(3, 2, p=nr.tensor([0.5, 0.5], device=device))
    with pytest.raises(nr.DomainError, match="choice"):
        nr.choice(0, 1, device=device)


# ---- shapes, edge sizes, dtypes ------------------------------------------------------------------
@pytest.mark.parametrize("size", [(0,), (1,), (), (2, 0, 3)])
def test_edge_sizes(device, size):
    for f in (lambda: nr.normal(0.0, 1.0, size, device=device, seed=1),
              lambda: nr.gamma(0.5, 1.0, size, device=device, seed=1),
              lambda: nr.poisson(20.0, size, device=device, seed=1),
              lambda: nr.bernoulli(0.5, size, device=device, seed=1),
              lambda: nr.exponential(1.0, size, device=device, seed=1)):
        x = f()
        assert x.shape == size
    assert nr.randperm(0, device=device).shape == (0,)
    assert nr.randperm(1, device=device).numpy().tolist() == [0]
    assert nr.multinomial(nr.tensor([1.0, 2.0], device=device), 0).shape == (0,)
    assert nr.multinomial(nr.ones(0, 3, device=device), 2).shape == (0, 2)


def test_broadcast_parameters_and_views(device):
    mean = nr.arange(6.0, device=device).reshape(2, 3)[:, ::-1]  # a flipped view
    std = nr.tensor([1e-12], device=device)
    x = nr.normal(mean, std, seed=2)
    assert x.shape == (2, 3)
    np.testing.assert_allclose(x.numpy(), mean.numpy(), atol=1e-9)
    y = nr.normal(mean[0], 0.0, (4, 3), seed=2)
    np.testing.assert_array_equal(y.numpy(), np.broadcast_to(mean[0].numpy(), (4, 3)))
    assert nr.normal(1.0, 2.0, device=device).shape == ()


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64"])
def test_float_dtypes(device, dtype):
    for f in (nr.normal, nr.gumbel, nr.laplace):
        x = f(0.0, 1.0, (64,), dtype=dtype, device=device, seed=3)
        assert x.dtype == nr.dtype(dtype)
        assert np.isfinite(x.numpy().astype(np.float64)).all()
    g = nr.gamma(2.0, 1.0, (64,), dtype=dtype, device=device, seed=3).numpy().astype(np.float64)
    assert (g >= 0).all() and np.isfinite(g).all()


# ---- errors ---------------------------------------------------------------------------------------
def test_domain_errors(device):
    t = lambda v: nr.tensor(v, device=device)  # noqa: E731
    with pytest.raises(nr.DomainError, match="bernoulli: p"):
        nr.bernoulli(t([0.2, 1.5]))
    with pytest.raises(nr.DomainError, match="bernoulli: p"):
        nr.bernoulli(t([float("nan")]))
    with pytest.raises(nr.DomainError, match="normal: std"):
        nr.normal(0.0, t([1.0, -1.0]))
    with pytest.raises(nr.DomainError, match="exponential: rate"):
        nr.exponential(0.0, (3,), device=device)
    with pytest.raises(nr.DomainError, match="poisson: rate"):
        nr.poisson(t([1.0, -2.0]))
    with pytest.raises(nr.DomainError, match="poisson: rate"):
        nr.poisson(float("inf"), (2,), device=device)
    with pytest.raises(nr.DomainError, match="gamma: shape"):
        nr.gamma(t([0.0]))
    with pytest.raises(nr.DomainError, match="geometric: p"):
        nr.geometric(0.0, (2,), device=device)
    with pytest.raises(nr.DomainError, match="without replacement from 3"):
        nr.multinomial(t([1.0, 1.0, 1.0]), 4)
    with pytest.raises(nr.DomainError, match="non-zero categories"):
        nr.multinomial(t([1.0, 0.0, 1.0]), 3)
    with pytest.raises(nr.DomainError, match="positive sum"):
        nr.multinomial(t([[1.0, 1.0], [0.0, 0.0]]), 1, True)
    with pytest.raises(nr.DomainError, match="probs"):
        nr.multinomial(t([1.0, -1.0]), 1, True)
    with pytest.raises(nr.ShapeError, match="multinomial"):
        nr.multinomial(t([[[1.0]]]), 1)
    with pytest.raises(nr.DTypeError, match="multinomial"):
        nr.multinomial(t([1, 2]), 1)
    with pytest.raises(nr.ShapeError, match="normal"):
        nr.normal(t([0.0, 1.0]), 1.0, (3,))
    with pytest.raises(nr.DTypeError, match="normal"):
        nr.normal(0.0, 1.0, (3,), dtype=nr.int32, device=device)
    with pytest.raises(nr.ShapeError, match="randperm"):
        nr.randperm(-1, device=device)
    with pytest.raises(nr.DTypeError, match="randperm"):
        nr.randperm(300, dtype=nr.int8, device=device)
    with pytest.raises(nr.ShapeError, match="dirichlet"):
        nr.dirichlet(t([]))
    if device != "cpu":
        with pytest.raises(nr.DeviceError, match="normal"):
            nr.normal(nr.zeros(3), 1.0, device=device)


def test_normal_reparameterised_gradient():
    from numr.autograd import Var, backward
    mean = Var(nr.tensor([1.0, 2.0, 3.0]), requires_grad=True)
    std = Var(nr.tensor([0.5, 1.0, 2.0]), requires_grad=True)
    y = nr.normal(mean, std, seed=4)
    z = nr.randn(3, seed=4).numpy()
    g = backward(nr.sum(y * y))
    gm, gs = g[mean], g[std]
    yv = 2 * (np.array([1.0, 2.0, 3.0]) + np.array([0.5, 1.0, 2.0]) * z)
    np.testing.assert_allclose(gm.numpy(), yv, rtol=1e-12)
    np.testing.assert_allclose(gs.numpy(), yv * z, rtol=1e-12)


def test_strided_parameters_match_contiguous(device):
    base = nr.tensor(np.linspace(0.05, 0.95, 24).reshape(4, 6), device=device)
    for view in (base.T, base[1:, ::2], base.flip(1)):
        dense = nr.tensor(view.numpy(), device=device)
        np.testing.assert_array_equal(nr.bernoulli(view, seed=3).numpy(), nr.bernoulli(dense, seed=3).numpy())
        np.testing.assert_array_equal(nr.poisson(view * 40.0, seed=3).numpy(), nr.poisson(dense * 40.0, seed=3).numpy())
        np.testing.assert_array_equal(nr.gamma(view, seed=3).numpy(), nr.gamma(dense, seed=3).numpy())
        np.testing.assert_array_equal(nr.multinomial(view, 3, seed=3).numpy(), nr.multinomial(dense, 3, seed=3).numpy())


def test_zero_d_and_low_precision_parameters(device):
    r = nr.poisson(nr.tensor(25.0, device=device), seed=1)
    assert r.shape == () and r.dtype == nr.int64 and r.item() >= 0
    p = nr.full((300,), 0.5, dtype=nr.float16, device=device)
    b = nr.bernoulli(p, seed=2)
    assert b.dtype == nr.float16 and set(np.unique(b.numpy().astype(np.float64))) == {0.0, 1.0}
    assert nr.poisson(3.0, (5,), dtype=nr.int32, device=device, seed=1).dtype == nr.int32
    g = nr.gamma(nr.full((4,), 2.0, dtype=nr.bfloat16, device=device), seed=1)
    assert g.dtype == nr.bfloat16


def test_like_functions(device):
    x = nr.zeros(2, 3, dtype=nr.float32, device=device)
    assert nr.rand_like(x, seed=1).dtype == nr.float32 and nr.rand_like(x).shape == (2, 3)
    want = nr.randn(2, 3, dtype=nr.float32, device=device, seed=4).numpy()
    np.testing.assert_array_equal(nr.randn_like(x, seed=4).numpy(), want)
    r = nr.randint_like(x, 10, seed=2)
    assert r.dtype == nr.int64 and r.numpy().min() >= 0 and r.numpy().max() < 10
    with pytest.raises(nr.DTypeError, match="rand"):
        nr.rand_like(nr.zeros(3, dtype=nr.int32, device=device))


def test_parameter_checks_see_through_autograd_vars():
    from numr.autograd import Var
    with pytest.raises(nr.DomainError, match="normal: std"):
        nr.normal(0.0, Var(nr.tensor([-1.0]), requires_grad=True))


def test_reparameterised_forward_mode_and_plain_values_elsewhere():
    from numr.autograd import Var, jvp
    m, s = nr.tensor([1.0, 2.0]), nr.tensor([0.5, 2.0])
    out, tangent = jvp(lambda a, b: nr.normal(a, b, seed=3), (m, s), (nr.ones(2), nr.ones(2)))
    z = nr.randn(2, seed=3).numpy()
    np.testing.assert_allclose(out.numpy(), [1.0, 2.0] + np.array([0.5, 2.0]) * z, rtol=1e-12)
    np.testing.assert_allclose(tangent.numpy(), 1.0 + z, rtol=1e-12)
    g = nr.gamma(Var(nr.tensor([2.0, 3.0]), requires_grad=True), seed=1)  # not reparameterised: values only
    assert isinstance(g, nr.Tensor)
    np.testing.assert_array_equal(g.numpy(), nr.gamma(nr.tensor([2.0, 3.0]), seed=1).numpy())
