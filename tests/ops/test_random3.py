"""Generator objects (numr/random_generator.py) and the samplers of distributions_continuous.py,
distributions_mixture.py and distributions_count.py.

Every backend gives the CPU's numbers for a seed (checked on each device with tiny sizes); the
distributions themselves are checked on the CPU with fixed seeds: Kolmogorov-Smirnov against
scipy.stats' cdf for the continuous ones, chi-square goodness of fit for the discrete ones, each
failing when p < 1e-4 (a false-alarm rate of 1e-4 per check were the seeds drawn at random; with
the fixed seeds the outcome is deterministic)."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_close
from test_distributions import _needs_f64_and_i64  # noqa: F401  (autouse: skip a backend without float64/int64)

import numr as nr

stats = pytest.importorskip("scipy.stats")
N = 100_000
P_MIN = 1e-4


def ks(x, dist, what):
    p = stats.kstest(np.asarray(x.numpy(), np.float64).ravel(), dist.cdf).pvalue
    assert p > P_MIN, f"{what}: KS p = {p}"


def gof(x, dist, kmax, what, k0=0):
    """Chi-square over k0..kmax-1 and the tail; bins expecting < 5 merged; p > P_MIN."""
    x = np.asarray(x.numpy()).ravel()
    ks_ = np.arange(k0, kmax)
    counts = np.append([(x == k).sum() for k in ks_], (x >= kmax).sum())
    assert counts.sum() == x.size and x.min() >= k0, f"{what}: values off the support"
    exp = np.append(dist.pmf(ks_), dist.sf(kmax - 1)) * x.size
    keep = exp >= 5
    c, e = np.append(counts[keep], counts[~keep].sum()), np.append(exp[keep], exp[~keep].sum())
    if e[-1] < 1e-9:
        assert c[-1] == 0, f"{what}: {c[-1]} draws where the probability is 0"
        c, e = c[:-1], e[:-1]
    p = stats.chisquare(c, e * c.sum() / e.sum()).pvalue
    assert p > P_MIN, f"{what}: chi-square p = {p}"


def t(v, dev, dtype=nr.float64):
    return nr.tensor(v, dtype=dtype, device=dev)


# ---- identical streams on every backend -------------------------------------------------------
CASES = {
    "weibull": lambda d, s: nr.weibull(t([[0.0], [0.7], [3.0]], d), (3, 4), seed=s),
    "rayleigh": lambda d, s: nr.rayleigh(2.0, (9,), dtype=nr.float32, device=d, seed=s),
    "logistic": lambda d, s: nr.logistic(t([1.0, -1.0], d), 0.5, (3, 2), seed=s),
    "pareto": lambda d, s: nr.pareto(3.0, (9,), device=d, seed=s),
    "power": lambda d, s: nr.power_distribution(0.5, (9,), device=d, seed=s),
    "wald": lambda d, s: nr.wald(t([0.5, 2.0], d), 3.0, (4, 2), seed=s),
    "triangular": lambda d, s: nr.triangular(-1.0, t([-1.0, 0.0, 3.0], d), 3.0, (2, 3), seed=s),
    "f": lambda d, s: nr.f_distribution(3.0, 7.0, (9,), device=d, seed=s),
    "ncx2": lambda d, s: nr.noncentral_chisquare(t([0.5, 3.0], d), 2.0, (3, 2), seed=s),
    "ncf": lambda d, s: nr.noncentral_f(3.0, 7.0, 1.5, (5,), dtype=nr.float32, device=d, seed=s),
    "vonmises": lambda d, s: nr.vonmises(0.5, t([0.0, 0.5, 4.0, 1e7], d), (2, 4), seed=s),
    "negative_binomial": lambda d, s: nr.negative_binomial(t([1.0, 3.5], d), 0.4, (4, 2), seed=s),
    "hypergeometric": lambda d, s: nr.hypergeometric(30, 50, 20, (2, 3), device=d, seed=s),
    "hypergeometric_tensor": lambda d, s: nr.hypergeometric(t([3.0, 30.0, 500.0], d), 50, t([4.0, 20.0, 40.0], d),
                                                            (2, 3), seed=s),
    "zipf": lambda d, s: nr.zipf(2.0, (9,), device=d, seed=s),
    "multinomial_counts": lambda d, s: nr.multinomial_counts(t([[3.0], [40.0]], d), t([0.2, 0.0, 0.5, 0.3], d),
                                                             (2, 3), seed=s),
    "weibull_f16": lambda d, s: nr.weibull(2.0, (9,), dtype=nr.float16, device=d, seed=s),
    "vonmises_bf16": lambda d, s: nr.vonmises(1.0, 2.0, (9,), dtype=nr.bfloat16, device=d, seed=s),
    "logseries": lambda d, s: nr.logseries(t([0.1, 0.9], d), (4, 2), seed=s),
    "permuted": lambda d, s: nr.permuted(nr.arange(12, device=d).reshape(3, 4), axis=1, seed=s),
    "generator": lambda d, s: nr.random.default_rng(s, device=d).gamma(2.0, size=6),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_streams_match_cpu(device, name):
    if device == "wgpu" and name == "hypergeometric_tensor":
        pytest.skip("lavapipe: ~1500 dispatches (the scalar-parameter path runs there)")
    ref, got = CASES[name]("cpu", 11), CASES[name](device, 11)
    assert got.device == nr.device(device) and got.dtype == ref.dtype and got.shape == ref.shape
    if ref.dtype in (nr.float16, nr.bfloat16):  # float32 math rounded: a last-bit flip at most
        assert_close(got, ref.numpy(), dtype=ref.dtype)
    elif ref.dtype.kind == "f":
        assert_close(got, ref.numpy(), rtol=1e-5 if ref.dtype == nr.float32 else 1e-9, atol=1e-6)
    else:
        np.testing.assert_array_equal(got.numpy(), ref.numpy())


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_seed_same_numbers(name):
    a, b, c = (CASES[name]("cpu", s).numpy() for s in (3, 3, 4))
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)


# ---- Generator ---------------------------------------------------------------------------------
def test_generator_streams_are_reproducible_and_independent():
    g1, g2, g3 = nr.random.default_rng(7), nr.random.default_rng(7), nr.random.default_rng(8)
    a = [g1.normal(size=5).numpy(), g1.poisson(3.0, 5).numpy(), g1.weibull(2.0, 4).numpy()]
    nr.manual_seed(99)
    before = nr.rand(4).numpy()
    b = [g2.normal(size=5).numpy(), g2.poisson(3.0, 5).numpy(), g2.weibull(2.0, 4).numpy()]
    after = nr.rand(4).numpy()
    nr.manual_seed(99)
    np.testing.assert_array_equal(nr.rand(4).numpy(), before)  # the generators did not move the global stream
    np.testing.assert_array_equal(nr.rand(4).numpy(), after)
    for x, y in zip(a, b, strict=True):
        np.testing.assert_array_equal(x, y)
    assert not np.array_equal(g3.normal(size=5).numpy(), a[0])
    assert not np.array_equal(g1.normal(size=5).numpy(), a[0])  # the next call takes the next stream


def test_generator_matches_the_global_stream_after_manual_seed():
    """default_rng(s) is a private copy of the global generator after nr.manual_seed(s)."""
    nr.manual_seed(5)
    want = [nr.normal(0.0, 2.0, 4).numpy(), nr.gamma(0.5, 1.0, 3).numpy(), nr.randint(0, 9, (5,)).numpy()]
    g = nr.random.default_rng(5)
    got = [g.normal(0.0, 2.0, 4).numpy(), g.gamma(0.5, size=3).numpy(), g.integers(9, size=5).numpy()]
    for x, y in zip(got, want, strict=True):
        np.testing.assert_array_equal(x, y)
    h = nr.Generator("cpu").manual_seed(5)  # torch's spelling, and seed= taking a generator
    np.testing.assert_array_equal(nr.normal(0.0, 2.0, 4, seed=h).numpy(), want[0])
    assert h.initial_seed() == 5


def test_generator_state_replay_and_spawn():
    g = nr.random.default_rng(3)
    g.normal(size=2)
    st = g.bit_generator.state
    a = g.hypergeometric(10, 5, 7, 6).numpy()
    g.bit_generator.state = st
    np.testing.assert_array_equal(g.hypergeometric(10, 5, 7, 6).numpy(), a)
    g.set_state(st)
    np.testing.assert_array_equal(g.hypergeometric(10, 5, 7, 6).numpy(), a)
    assert g.get_state() == {"bit_generator": "Philox4x32-10", "seed": 3, "stream": st["stream"] + 1}
    with pytest.raises(nr.DomainError, match="state"):
        g.bit_generator.state = {"seed": -1, "stream": 0}
    kids = nr.random.default_rng(3).spawn(2)
    again = nr.random.default_rng(3).spawn(2)
    draws = [k.random(6).numpy() for k in kids]
    np.testing.assert_array_equal(draws[0], again[0].random(6).numpy())
    assert not np.array_equal(draws[0], draws[1])
    assert not np.array_equal(draws[0], nr.random.default_rng(3).random(6).numpy())
    seq = nr.random.SeedSequence(3)
    assert seq.spawn(1)[0].spawn_key == (0,) and seq.spawn(1)[0].spawn_key == (1,)
    np.testing.assert_array_equal(nr.random.default_rng(seq).random(3).numpy(),
                                  nr.random.default_rng(3).random(3).numpy())
    assert nr.random.default_rng(g) is g
    np.testing.assert_array_equal(nr.random.Generator(nr.random.Philox(3)).random(3).numpy(),
                                  nr.random.default_rng(3).random(3).numpy())  # NumPy's Generator(bit_generator)
    assert not np.array_equal(nr.random.default_rng().random(4).numpy(), nr.random.default_rng().random(4).numpy())


def test_generator_device_dtype_and_methods(device):
    g = nr.random.default_rng(1, device=device, dtype=nr.float32)
    x = g.standard_normal((2, 3))
    assert x.device == nr.device(device) and x.dtype == nr.float32 and x.shape == (2, 3)
    assert g.random(dtype=nr.float64).dtype == nr.float64 and g.random().shape == ()
    k = g.integers(0, 3, 200, endpoint=True)
    assert k.dtype == nr.int64 and k.device == nr.device(device)
    assert set(np.unique(k.numpy())) == {0, 1, 2, 3}


METHODS = [("random", ()), ("standard_normal", ()), ("normal", (1.0, 2.0)), ("uniform", (0.0, 2.0)),
           ("exponential", (2.0,)), ("lognormal", (0.0, 0.5)), ("laplace", ()), ("gumbel", ()),
           ("gamma", (2.0,)), ("beta", (2.0, 3.0)), ("chisquare", (3.0,)), ("f", (3.0, 5.0)),
           ("standard_exponential", ()), ("standard_gamma", (0.5,)), ("standard_cauchy", ()),
           ("standard_t", (4.0,)), ("noncentral_chisquare", (3.0, 1.0)), ("noncentral_f", (3.0, 5.0, 1.0)),
           ("weibull", (2.0,)), ("rayleigh", ()), ("logistic", ()), ("pareto", (3.0,)), ("power", (2.0,)),
           ("wald", (1.0, 2.0)), ("triangular", (0.0, 1.0, 2.0)), ("vonmises", (0.0, 2.0)),
           ("poisson", (3.0,)), ("binomial", (10, 0.3)), ("negative_binomial", (2.0, 0.5)),
           ("geometric", (0.3,)), ("hypergeometric", (5, 7, 4)), ("zipf", (2.0,)), ("logseries", (0.5,)),
           ("integers", (5,)), ("choice", (5,)), ("multinomial", (5, [0.5, 0.5]))]


@pytest.mark.parametrize("dtype", [nr.float16, nr.float32, nr.float64])
def test_generator_methods_shapes_and_dtypes(dtype):
    g = nr.random.default_rng(2, dtype=dtype)
    for name, args in METHODS:
        x = getattr(g, name)(*args, size=(3, 2))
        assert x.shape == ((3, 2, 2) if name == "multinomial" else (3, 2)), name
        assert x.dtype == (dtype if x.dtype.kind == "f" else nr.int64), name
        assert np.all(np.isfinite(x.numpy().astype(np.float64))), name
    assert g.exponential(2.0).shape == () and g.weibull(nr.ones((2, 1)), size=(2, 4)).shape == (2, 4)


def test_exponential_scale_is_numpy_s():
    g = nr.random.default_rng(4)
    ks(g.exponential(3.0, N), stats.expon(scale=3.0), "Generator.exponential(scale=3)")


# ---- distributions (CPU, fixed seeds) --------------------------------------------------------
def wrapped(x, mu):
    return nr.tensor(np.mod(x.numpy().astype(np.float64) - mu + np.pi, 2 * np.pi) - np.pi)


KS = {
    "weibull": (lambda s: nr.weibull(1.5, N, seed=s), stats.weibull_min(1.5)),
    "weibull_f32": (lambda s: nr.weibull(0.3, N, dtype=nr.float32, seed=s), stats.weibull_min(0.3)),
    "rayleigh": (lambda s: nr.rayleigh(2.0, N, seed=s), stats.rayleigh(scale=2.0)),
    "logistic": (lambda s: nr.logistic(1.0, 2.0, N, seed=s), stats.logistic(1.0, 2.0)),
    "pareto": (lambda s: nr.pareto(3.0, N, seed=s), stats.lomax(3.0)),
    "power": (lambda s: nr.power_distribution(0.5, N, seed=s), stats.powerlaw(0.5)),
    "wald": (lambda s: nr.wald(2.0, 3.0, N, seed=s), stats.invgauss(2.0 / 3.0, scale=3.0)),
    "wald_skewed": (lambda s: nr.wald(1.0, 0.05, N, dtype=nr.float32, seed=s), stats.invgauss(20.0, scale=0.05)),
    "triangular": (lambda s: nr.triangular(-1.0, 0.0, 3.0, N, seed=s), stats.triang(0.25, loc=-1.0, scale=4.0)),
    "f": (lambda s: nr.f_distribution(3.0, 7.0, N, seed=s), stats.f(3, 7)),
    "ncx2": (lambda s: nr.noncentral_chisquare(3.0, 2.5, N, seed=s), stats.ncx2(3, 2.5)),
    "ncx2_df_below_1": (lambda s: nr.noncentral_chisquare(0.5, 4.0, N, seed=s), stats.ncx2(0.5, 4.0)),
    "ncf": (lambda s: nr.noncentral_f(3.0, 7.0, 2.0, N, seed=s), stats.ncf(3, 7, 2.0)),
    "standard_t": (lambda s: nr.standard_t(3.0, N, seed=s), stats.t(3)),
    "standard_gamma": (lambda s: nr.standard_gamma(0.5, N, seed=s), stats.gamma(0.5)),
    "vonmises": (lambda s: wrapped(nr.vonmises(0.5, 0.5, N, seed=s), 0.5), stats.vonmises(0.5)),
    "vonmises_k4_f32": (lambda s: wrapped(nr.vonmises(-3.0, 4.0, N, dtype=nr.float32, seed=s), -3.0),
                        stats.vonmises(4.0)),
    "vonmises_tiny_k": (lambda s: nr.vonmises(0.0, 1e-6, N, seed=s), stats.vonmises(1e-6)),
    "vonmises_k0": (lambda s: nr.vonmises(0.0, 0.0, N, seed=s), stats.uniform(-np.pi, 2 * np.pi)),
    "vonmises_huge_k": (lambda s: nr.vonmises(0.0, 1e7, N, seed=s), stats.vonmises(1e7)),
}


@pytest.mark.parametrize("name", sorted(KS))
def test_continuous_ks(name):
    f, dist = KS[name]
    ks(f(1), dist, name)


def test_tensor_parameters_per_column():
    kap = nr.tensor(np.tile([0.5, 3.0], 20_000))
    x = nr.vonmises(0.0, kap, seed=2).numpy().reshape(-1, 2)
    for j, k in enumerate((0.5, 3.0)):
        ks(nr.tensor(x[:, j]), stats.vonmises(k), f"vonmises kappa {k}")
    h = nr.hypergeometric(nr.tensor([3.0, 500.0]), nr.tensor([5.0, 300.0]), nr.tensor([4.0, 600.0]), (20_000, 2),
                          seed=3).numpy()
    gof(nr.tensor(h[:, 0]), stats.hypergeom(8, 3, 4), 5, "hypergeometric(3, 5, 4)")
    gof(nr.tensor(h[:, 1]), stats.hypergeom(800, 500, 600), 501, "hypergeometric(500, 300, 600)")


GOF = {
    "negative_binomial": (lambda s: nr.negative_binomial(3.5, 0.4, N, seed=s), stats.nbinom(3.5, 0.4), 40, 0),
    "hypergeometric": (lambda s: nr.hypergeometric(30, 50, 20, N, seed=s), stats.hypergeom(80, 30, 20), 21, 0),
    "hypergeometric_rare": (lambda s: nr.hypergeometric(2, 40, 30, N, seed=s), stats.hypergeom(42, 2, 30), 3, 0),
    "hypergeometric_huge": (lambda s: nr.hypergeometric(10**9, 2 * 10**9, 3 * 10**5, N, seed=s),
                            stats.hypergeom(3 * 10**9, 10**9, 3 * 10**5), 10**5 + 2000, 10**5 - 2000),  # b > 2**16
    "hypergeometric_1": (lambda s: nr.hypergeometric(1, 1, 1, N, seed=s), stats.hypergeom(2, 1, 1), 2, 0),
    "zipf": (lambda s: nr.zipf(2.5, N, seed=s), stats.zipf(2.5), 60, 1),
    "zipf_heavy": (lambda s: nr.zipf(1.2, N, seed=s), stats.zipf(1.2), 200, 1),
    "logseries": (lambda s: nr.logseries(0.8, N, seed=s), stats.logser(0.8), 60, 1),
    "logseries_small_p": (lambda s: nr.logseries(0.1, N, seed=s), stats.logser(0.1), 10, 1),
}


@pytest.mark.parametrize("name", sorted(GOF))
def test_discrete_goodness_of_fit(name):
    f, dist, kmax, k0 = GOF[name]
    gof(f(1), dist, kmax, name, k0)


def test_multinomial_counts_joint_fit():
    """NumPy's multinomial: the joint law of (x0, x1) of 6 trials over 3 categories (28 outcomes)."""
    x = nr.random.default_rng(4).multinomial(6, [0.2, 0.5, 0.3], size=N).numpy()
    assert x.shape == (N, 3) and np.all(x.sum(1) == 6)
    cells = [(i, j) for i in range(7) for j in range(7 - i)]
    idx = {c: m for m, c in enumerate(cells)}
    flat = nr.tensor(np.array([idx[(a, b)] for a, b in x[:, :2]]))

    class Joint:
        @staticmethod
        def pmf(m):
            return np.array([stats.multinomial.pmf([*cells[k], 6 - sum(cells[k])], 6, [0.2, 0.5, 0.3]) for k in m])

        @staticmethod
        def sf(m):
            return 0.0

    gof(flat, Joint, len(cells), "multinomial(6, [0.2, 0.5, 0.3])")


def test_float16_moments():
    x = nr.weibull(2.0, N, dtype=nr.float16, seed=1)
    assert x.dtype == nr.float16
    mean = stats.weibull_min(2.0).mean()
    assert abs(x.numpy().astype(np.float64).mean() - mean) < 5 * stats.weibull_min(2.0).std() / N ** 0.5 + 1e-3


def test_edge_values_and_layouts():
    assert nr.hypergeometric(5, 0, 3, 4, seed=1).numpy().tolist() == [3] * 4
    assert nr.hypergeometric(5, 5, 10, 2, seed=1).numpy().tolist() == [5, 5]
    assert nr.hypergeometric(5, 5, 0, 2, seed=1).numpy().tolist() == [0, 0]
    assert nr.logseries(0.0, 3, seed=1).numpy().tolist() == [1, 1, 1]
    assert nr.weibull(0.0, 3, seed=1).numpy().tolist() == [0.0] * 3
    assert nr.negative_binomial(2.0, 1.0, 3, seed=1).numpy().tolist() == [0, 0, 0]
    assert nr.zipf(2.0, (0, 3), seed=1).shape == (0, 3) and nr.vonmises(0.0, 1.0, 0, seed=1).shape == (0,)
    assert nr.wald(1.0, 1.0, seed=1).shape == () and nr.hypergeometric(3, 3, 2, seed=1).shape == ()
    a = nr.tensor(np.linspace(0.5, 3.0, 12).reshape(3, 4))
    for view in (a[:, 1:3], a.flip(0), a.transpose(0, 1)):  # sliced, flipped, transposed parameters
        np.testing.assert_array_equal(nr.weibull(view, seed=6).numpy(), nr.weibull(view.contiguous(), seed=6).numpy())
    assert nr.logistic(nr.tensor([[0.0], [1.0]]), 1.0, (2, 2, 3), seed=1).shape == (2, 2, 3)
    assert nr.hypergeometric(nr.tensor([4.0, 5.0]), 3, 2, seed=1).dtype == nr.int64
    assert nr.negative_binomial(2.0, 0.5, 3, dtype=nr.float32, seed=1).dtype == nr.float32


def test_permutation_shuffle_permuted(device):
    x = nr.arange(24, device=device).reshape(6, 4)[:, 1:3]  # a non-contiguous view
    p = nr.permutation(x, seed=3)
    perm = nr.randperm(6, device=device, seed=3).numpy()
    np.testing.assert_array_equal(p.numpy(), x.numpy()[perm])
    y = nr.arange(24, device=device).reshape(6, 4)
    nr.shuffle(y[:, 1:3], seed=3)  # in place through the view: only its columns move
    np.testing.assert_array_equal(y.numpy()[:, 1:3], x.numpy()[perm])
    np.testing.assert_array_equal(y.numpy()[:, 0], np.arange(0, 24, 4))
    np.testing.assert_array_equal(nr.permutation(5, device=device, seed=1).numpy(), nr.randperm(5, seed=1).numpy())
    q = nr.permuted(nr.arange(12, device=device).reshape(3, 4), seed=2)
    assert q.shape == (3, 4) and sorted(q.numpy().ravel()) == list(range(12))


def test_permuted_lanes_are_independent():
    q = nr.permuted(nr.arange(40).reshape(8, 5), axis=0, seed=1).numpy()
    for j in range(5):
        assert sorted(q[:, j]) == list(range(j, 40, 5))
    assert len({tuple(np.argsort(q[:, j])) for j in range(5)}) > 1
    with pytest.raises(nr.ShapeError):
        nr.permuted(nr.arange(4), axis=1)
    with pytest.raises(nr.ShapeError):
        nr.permutation(nr.tensor(3.0))


BAD = [
    (lambda: nr.weibull(-1.0, 3), nr.DomainError),
    (lambda: nr.rayleigh(float("nan"), 3), nr.DomainError),
    (lambda: nr.pareto(nr.tensor([1.0, 0.0])), nr.DomainError),
    (lambda: nr.power_distribution(0.0, 3), nr.DomainError),
    (lambda: nr.wald(1.0, -1.0, 3), nr.DomainError),
    (lambda: nr.triangular(0.0, 2.0, 1.0, 3), nr.DomainError),
    (lambda: nr.triangular(1.0, 1.0, 1.0, 3), nr.DomainError),
    (lambda: nr.f_distribution(0.0, 1.0, 3), nr.DomainError),
    (lambda: nr.noncentral_chisquare(2.0, -1.0, 3), nr.DomainError),
    (lambda: nr.vonmises(0.0, -1.0, 3), nr.DomainError),
    (lambda: nr.negative_binomial(1.0, 0.0, 3), nr.DomainError),
    (lambda: nr.hypergeometric(2, 2, 5, 3), nr.DomainError),
    (lambda: nr.hypergeometric(2.5, 2, 1, 3), nr.DomainError),
    (lambda: nr.zipf(1.0, 3), nr.DomainError),
    (lambda: nr.logseries(1.0, 3), nr.DomainError),
    (lambda: nr.weibull(nr.ones(3), (2, 2)), nr.ShapeError),
    (lambda: nr.zipf(2.0, 3, dtype=nr.bool_), nr.DTypeError),
    (lambda: nr.logistic(0.0, 1.0, 3, dtype=nr.int32), nr.DTypeError),
    (lambda: nr.shuffle(nr.tensor(1.0)), nr.ShapeError),
    (lambda: nr.multinomial_counts(5, [0.7, 0.6, 0.1]), nr.DomainError),
    (lambda: nr.multinomial_counts(5, [[0.5, 0.5]]), nr.ShapeError),
    (lambda: nr.multinomial_counts(-1, [0.5, 0.5]), nr.DomainError),
]


@pytest.mark.parametrize("i", range(len(BAD)))
def test_bad_parameters_raise_numr_errors(i):
    f, err = BAD[i]
    with pytest.raises(err):
        f()
