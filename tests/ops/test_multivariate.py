"""multivariate_normal and wishart (numr/ops/generic/distributions_multivariate.py): sample mean
and covariance within 5 standard errors of the analytic moments (fixed seeds; the sample sizes
make a mean off by 0.1 sigma fail), the same seed giving the same samples on every backend (the
CPU is the reference), batching, PSD-not-PD covariances through eigh, and numr's errors."""

from __future__ import annotations

import math

import numpy as np
import pytest

import numr as nr

MU = np.array([1.0, -2.0, 0.5])
COV = np.array([[2.0, 0.5, 0.3], [0.5, 1.0, -0.2], [0.3, -0.2, 0.8]])


def n_for(device):
    return 100_000 if device == "cpu" else 20_000


def check_mvn_moments(x, mu, cov, what):
    """Mean within 5 SE (sqrt(cov_ii / n)); covariance entries within 5 SE of the Gaussian sample
    covariance (sqrt((cov_ii cov_jj + cov_ij**2) / n))."""
    x = np.asarray(x, np.float64).reshape(-1, len(mu))
    n = x.shape[0]
    se = np.sqrt(np.diag(cov) / n)
    assert np.all(np.abs(x.mean(0) - mu) < 5 * se), f"{what}: mean {x.mean(0)} vs {mu}"
    c = np.cov(x.T, bias=True).reshape(len(mu), len(mu))
    se_c = np.sqrt((np.outer(np.diag(cov), np.diag(cov)) + cov ** 2) / n)
    assert np.all(np.abs(c - cov) < 5 * se_c + 1e-12), f"{what}: cov {c} vs {cov}"


@pytest.mark.parametrize("method", ["cholesky", "eigh"])
def test_mvn_moments(device, method):
    n = n_for(device)
    x = nr.multivariate_normal(nr.tensor(MU, device=device), nr.tensor(COV, device=device), size=n,
                               method=method, seed=0)
    assert x.shape == (n, 3) and x.dtype == nr.float64 and x.device == nr.device(device)
    check_mvn_moments(x.numpy(), MU, COV, method)
    # a sampler whose mean were off by 0.1 sigma would fail the bound above
    assert 0.1 * math.sqrt(COV[0, 0]) > 5 * math.sqrt(COV[0, 0] / n)


def test_mvn_same_on_every_backend(device):
    for method in ("cholesky", "eigh"):
        for dtype in (nr.float32, nr.float64):
            a = nr.multivariate_normal(nr.tensor(MU, device=device), nr.tensor(COV, device=device), size=(4, 5),
                                       method=method, dtype=dtype, seed=7)
            b = nr.multivariate_normal(MU, COV, size=(4, 5), method=method, dtype=dtype, seed=7)
            assert a.shape == (4, 5, 3) and a.dtype == dtype
            tol = 1e-12 if dtype == nr.float64 else 1e-5
            np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=tol, atol=tol)
    again = nr.multivariate_normal(MU, COV, size=6, seed=7).numpy()
    np.testing.assert_array_equal(again, nr.multivariate_normal(MU, COV, size=6, seed=7).numpy())
    assert not np.array_equal(again, nr.multivariate_normal(MU, COV, size=6, seed=8).numpy())
    assert not np.array_equal(nr.multivariate_normal(MU, COV, size=6).numpy(),
                              nr.multivariate_normal(MU, COV, size=6).numpy())


def test_low_precision_and_strided_parameters(device):
    """float16/bfloat16 outputs are the float32 samples rounded; sliced, flipped and transposed
    parameters give the samples of their contiguous copies."""
    ref = nr.multivariate_normal(MU, COV, size=8, dtype=nr.float32, seed=5, device=device).numpy()
    wref = nr.wishart(4.0, COV, size=2, dtype=nr.float32, seed=5, device=device).numpy()
    for d, tol in ((nr.float16, 2e-3), (nr.bfloat16, 1.6e-2)):
        x = nr.multivariate_normal(MU, COV, size=8, dtype=d, seed=5, device=device)
        assert x.dtype == d and x.shape == (8, 3)
        np.testing.assert_allclose(x.numpy().astype(np.float64), ref, rtol=tol, atol=tol)
        w = nr.wishart(4.0, COV, size=2, dtype=d, seed=5, device=device)
        assert w.dtype == d and w.shape == (2, 3, 3)
        np.testing.assert_allclose(w.numpy().astype(np.float64), wref, rtol=tol, atol=tol * np.abs(wref).max())
    big = nr.tensor(np.pad(COV, 1), device=device)[1:4, 1:4]  # offset, non-contiguous
    flipped = nr.tensor(MU[::-1].copy(), device=device).flip(0)
    a = nr.multivariate_normal(flipped, big.T, size=5, seed=6)
    b = nr.multivariate_normal(MU, COV, size=5, seed=6, device=device)
    np.testing.assert_array_equal(a.numpy(), b.numpy())
    w = nr.wishart(4.0, COV, seed=6, device=device).numpy()
    np.testing.assert_array_equal(nr.wishart(4.0, big, seed=6).numpy(), w)


def test_mvn_batched(device):
    """mean (4, 1, 3) with cov (2, 3, 3) -> size + (4, 2, 3); batch b uses cov[b]."""
    n = n_for(device) // 8
    covs = np.stack([COV, 4.0 * COV])
    means = np.arange(12.0).reshape(4, 1, 3)
    x = nr.multivariate_normal(nr.tensor(means, device=device), nr.tensor(covs, device=device), size=n, seed=3)
    assert x.shape == (n, 4, 2, 3)
    v = x.numpy()
    for i in range(4):
        for b in range(2):
            check_mvn_moments(v[:, i, b], means[i, 0], covs[b], f"batch {i},{b}")
    assert nr.multivariate_normal(MU, COV, seed=0).shape == (3,)
    assert nr.multivariate_normal(MU, COV, size=0, seed=0).shape == (0, 3)
    one = nr.multivariate_normal([2.0], [[4.0]], size=5, seed=0, device=device)
    assert one.shape == (5, 1)


def test_mvn_singular_cov_via_eigh(device):
    """cov of rank 1 ([[1, 1], [1, 1]]): eigh samples satisfy x0 == x1; Cholesky refuses it."""
    s = nr.tensor([[1.0, 1.0], [1.0, 1.0]], device=device)
    x = nr.multivariate_normal(nr.zeros(2, device=device), s, size=2000, method="eigh", seed=1).numpy()
    np.testing.assert_allclose(x[:, 0], x[:, 1], atol=1e-6)
    assert abs(x[:, 0].var() - 1.0) < 5 * math.sqrt(2.0 / 2000)
    with pytest.raises(nr.LinAlgError):
        nr.multivariate_normal(nr.zeros(2, device=device), s, size=2, seed=1)
    with pytest.raises(nr.DomainError, match="semi-definite"):
        nr.multivariate_normal([0.0, 0.0], [[1.0, 2.0], [2.0, 1.0]], size=2, method="eigh", device=device)


def test_mvn_errors(device):
    m, c = nr.tensor(MU, device=device), nr.tensor(COV, device=device)
    with pytest.raises(nr.ShapeError):
        nr.multivariate_normal(m, c[:, :2])  # not square
    with pytest.raises(nr.ShapeError):
        nr.multivariate_normal(m[:2], c)  # mean does not match
    with pytest.raises(nr.ShapeError):
        nr.multivariate_normal(m, c[0])  # 1-d cov
    with pytest.raises(nr.ShapeError):
        nr.multivariate_normal(nr.zeros((3, 3), device=device), nr.tensor(np.stack([COV, COV]), device=device))
    with pytest.raises(nr.DomainError, match="method"):
        nr.multivariate_normal(m, c, method="svdx")
    with pytest.raises(nr.DTypeError):
        nr.multivariate_normal(m, c, dtype=nr.int32)
    bad = COV.copy()
    bad[0, 1] = np.nan
    with pytest.raises(nr.DomainError):
        nr.multivariate_normal(m, nr.tensor(bad, device=device))


@pytest.mark.parametrize("method", ["cholesky", "eigh"])
def test_mvn_reparameterised_gradient(method):
    """x = mean + L z: d sum(x) / d mean = n per component; the gradient in cov along symmetric
    directions equals central differences of the seeded samples."""
    from numr.autograd import Var, backward
    mean, cov = Var(nr.tensor(MU), requires_grad=True), Var(nr.tensor(COV), requires_grad=True)
    x = nr.multivariate_normal(mean, cov, size=10, method=method, seed=0)
    g = backward(nr.sum(x * x))
    z = nr.multivariate_normal(MU, COV, size=10, method=method, seed=0).numpy()
    np.testing.assert_allclose(g[mean].numpy(), 2 * z.sum(0), rtol=1e-10)

    def f(c):
        return float(nr.sum(nr.multivariate_normal(MU, c, size=10, method=method, seed=0) ** 2))
    h = 1e-6
    for i, j in ((0, 0), (0, 1), (1, 2)):
        e = np.zeros((3, 3))
        e[i, j] = e[j, i] = 1.0
        fd = (f(COV + h * e) - f(COV - h * e)) / (2 * h)
        assert abs(np.sum(g[cov].numpy() * e) - fd) < 1e-5 * max(1.0, abs(fd)), (i, j)


def wishart_moments(w, df, s, what):
    """E W = df S; Var W_ij = df (S_ij**2 + S_ii S_jj): the mean within 5 SE."""
    w = np.asarray(w, np.float64)
    n = w.shape[0]
    var = df * (s ** 2 + np.outer(np.diag(s), np.diag(s)))
    assert np.all(np.abs(w.mean(0) - df * s) < 5 * np.sqrt(var / n)), f"{what}: mean {w.mean(0)} vs {df * s}"
    v = w.reshape(n, -1)
    assert np.all(np.abs(v.var(0) - var.reshape(-1)) < 0.1 * var.reshape(-1) + 1e-12), f"{what}: var"


@pytest.mark.parametrize("df", [2.5, 4.0, 9.5])
def test_wishart_moments(device, df):
    n = n_for(device) // 2
    w = nr.wishart(df, nr.tensor(COV, device=device), size=n, seed=2)
    assert w.shape == (n, 3, 3) and w.dtype == nr.float64
    v = w.numpy()
    wishart_moments(v, df, COV, f"df={df}")
    np.testing.assert_allclose(v, v.transpose(0, 2, 1), atol=1e-12)  # symmetric
    assert np.linalg.eigvalsh(v[:100]).min() > -1e-10  # positive semi-definite


def test_wishart_batched_and_backends(device):
    scales = nr.tensor(np.stack([COV, np.eye(3)]), device=device)
    w = nr.wishart(5.0, scales, size=(4,), seed=9)
    assert w.shape == (4, 2, 3, 3)
    np.testing.assert_allclose(w.numpy(), nr.wishart(5.0, np.stack([COV, np.eye(3)]), size=(4,), seed=9).numpy(),
                               rtol=1e-12, atol=1e-12)
    f = nr.wishart(5.0, scales, seed=9, dtype=nr.float32)
    assert f.shape == (2, 3, 3) and f.dtype == nr.float32
    n = n_for(device) // 4
    big = nr.wishart(4.0, scales, size=n, seed=1).numpy()
    wishart_moments(big[:, 0], 4.0, COV, "batch 0")
    wishart_moments(big[:, 1], 4.0, np.eye(3), "batch 1")


def test_wishart_errors(device):
    s = nr.tensor(COV, device=device)
    with pytest.raises(nr.DomainError):
        nr.wishart(2.0, s)  # df must exceed p - 1 = 2
    with pytest.raises(nr.DomainError):
        nr.wishart(-1.0, s)
    with pytest.raises(nr.DomainError):
        nr.wishart(float("nan"), s)
    with pytest.raises(nr.ShapeError):
        nr.wishart(5.0, s[:, :2])
    with pytest.raises(nr.ShapeError):
        nr.wishart(5.0, s[0])
    with pytest.raises(nr.LinAlgError):
        nr.wishart(5.0, nr.tensor([[1.0, 2.0], [2.0, 1.0]], device=device))
