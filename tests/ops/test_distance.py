"""cdist, pdist, cosine_similarity and pairwise_distance against scipy.spatial.distance / NumPy
(float64) oracles, torch's conventions (eps clamps, zero-distance gradients) written out here, and
torch as a second oracle where it is installed: every p (0, 1, 2, inf, fractional, general),
both euclidean paths (matmul expansion and direct), batches that broadcast, empty and size-1
inputs, views, dtypes, NaN/inf, errors; gradients by central differences and jvp (a zero distance
has a zero gradient, as torch)."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_close
from fd_checks import check_grads as _check_grads
from scipy.spatial import distance as sd

import numr as nr
from numr.autograd import Var, backward

try:  # a second oracle only: every check has a NumPy oracle, so nothing is skipped without torch
    import torch
except ImportError:
    torch = None

PS = [0.0, 1.0, 2.0, 3.0, 0.5, float("inf")]


def make(a, device, dtype=None):
    try:
        return nr.tensor(a, dtype=dtype, device=device)
    except nr.UnsupportedOperation as e:
        pytest.skip(str(e))


def _f64(device):
    if make(np.zeros(1), device).dtype != nr.float64:
        pytest.skip(f"{device} has no float64")


def scipy_cdist(a, b, p):
    if p == 0:
        return (a[:, None, :] != b[None, :, :]).sum(-1).astype(np.float64)
    if np.isinf(p):
        return sd.cdist(a, b, "chebyshev")
    return sd.cdist(a, b, "minkowski", p=p)


def also_torch(want, f):
    """A second oracle where torch is installed: f() (torch's own call) agrees with the NumPy one."""
    if torch is not None:
        np.testing.assert_allclose(f().detach().numpy(), want, rtol=1e-12, atol=1e-12)


def np_cosine_similarity(a, b, dim=1, eps=1e-8):
    """torch's rule: each vector over its norm clamped below at eps, then the dot product."""
    a, b = np.broadcast_arrays(a, b)
    na = np.maximum(np.linalg.norm(a, axis=dim, keepdims=True), eps)
    nb = np.maximum(np.linalg.norm(b, axis=dim, keepdims=True), eps)
    return ((a / na) * (b / nb)).sum(dim)


def np_pairwise_distance(a, b, p=2.0, eps=1e-6, keepdim=False):
    """torch's rule: the p-norm of a - b + eps over the last dim (eps added to every difference)."""
    d = np.abs(a - b + eps)
    if np.isinf(p):
        return d.max(-1, keepdims=keepdim)
    return (d ** p).sum(-1, keepdims=keepdim) ** (1 / p)


def np_euclid_grad(x, y):
    """d/dx of sum_ij |x_i - y_j|_2: (x_i - y_j) / |x_i - y_j| summed over j; 0 where they coincide."""
    diff = x[:, None, :] - y[None, :, :]
    d = np.linalg.norm(diff, axis=-1, keepdims=True)
    return np.where(d > 0, diff / np.where(d > 0, d, 1), 0).sum(1)


@pytest.mark.parametrize("p", PS)
def test_cdist_every_p(device, p):
    _f64(device)
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((5, 3)), rng.standard_normal((4, 3))
    a[1] = b[2]  # a zero distance
    a[3, 0] = b[0, 0]  # a zero coordinate difference (p=0 counts it out)
    got = nr.cdist(make(a, device), make(b, device), p=p)
    assert got.shape == (5, 4) and got.dtype == nr.float64
    assert_close(got, scipy_cdist(a, b, p), rtol=1e-10, atol=1e-12)


def test_cdist_euclid_paths_batches_and_views(device):
    _f64(device)
    rng = np.random.default_rng(1)
    a, b = rng.standard_normal((2, 30, 4)), rng.standard_normal((1, 27, 4))  # > 25 rows: the matmul path
    want = np.stack([sd.cdist(a[i], b[0]) for i in range(2)])
    got = nr.cdist(make(a, device), make(b, device))
    assert got.shape == (2, 30, 27)
    assert_close(got, want, rtol=1e-9, atol=1e-9)
    direct = nr.cdist(make(a, device), make(b, device), compute_mode="donot_use_mm_for_euclid_dist")
    assert_close(direct, want, rtol=1e-12, atol=1e-12)
    small = rng.standard_normal((3, 2))
    mm = nr.cdist(make(small, device), make(small, device), compute_mode="use_mm_for_euclid_dist")
    assert_close(mm, sd.cdist(small, small), rtol=1e-7, atol=1e-7)
    assert (mm.numpy().diagonal() >= 0).all()  # clamped at 0, never NaN
    x = make(rng.standard_normal((4, 6)), device)
    xn = x.numpy()
    assert_close(nr.cdist(x.T[::-1], x.T[1:4]), sd.cdist(xn.T[::-1], xn.T[1:4]), rtol=1e-12, atol=1e-12)
    want = np.stack([sd.cdist(a[i, :3], b[0, :3], "minkowski", p=1.5) for i in range(2)])
    got = nr.cdist(make(a[:, :3], device), make(b[0, :3], device), p=1.5)  # batch broadcast: (2, 3, 4), (3, 4)
    assert got.shape == (2, 3, 3)
    assert_close(got, want, rtol=1e-12, atol=1e-12)
    also_torch(want, lambda: torch.cdist(torch.from_numpy(a[:, :3].copy()), torch.from_numpy(b[0, :3]), p=1.5))


def test_cdist_edges_dtypes_and_errors(device):
    rng = np.random.default_rng(2)
    a, b = rng.standard_normal((3, 2)), rng.standard_normal((4, 2))
    assert nr.cdist(make(np.zeros((0, 2)), device), make(b, device)).shape == (0, 4)
    assert_close(nr.cdist(make(np.zeros((3, 0)), device), make(np.zeros((4, 0)), device)), np.zeros((3, 4)))
    assert_close(nr.cdist(make(a[:1], device), make(b[:1], device), p=3.0), scipy_cdist(a[:1], b[:1], 3.0),
                 rtol=1e-6, atol=1e-6)
    for dtype in ("float32", "float16", "bfloat16"):
        x, y = make(a, device, dtype), make(b, device, dtype)
        got = nr.cdist(x, y)
        assert got.dtype == nr.dtype(dtype)
        assert_close(got, sd.cdist(x.numpy().astype(np.float64), y.numpy().astype(np.float64)), dtype=dtype)
    i = make(np.array([[0, 0], [3, 4]]), device)
    got = nr.cdist(i, i)
    assert got.dtype.is_floating_point
    assert_close(got, np.array([[0, 5], [5, 0.0]]), rtol=1e-6, atol=1e-6)
    nan = a.copy()
    nan[0, 0], nan[1, 1] = np.nan, np.inf
    for p in (1.0, 2.0):
        assert_close(nr.cdist(make(nan, device), make(b, device), p=p), scipy_cdist(nan, b, p), rtol=1e-6, atol=1e-6)
    with pytest.raises(nr.ShapeError, match="cdist"):
        nr.cdist(make(a, device), make(rng.standard_normal((4, 3)), device))
    with pytest.raises(nr.ShapeError, match="cdist"):
        nr.cdist(make(a[0], device), make(b, device))
    with pytest.raises(nr.ShapeError, match="cdist"):
        nr.cdist(make(np.zeros((2, 3, 2)), device), make(np.zeros((3, 4, 2)), device))
    with pytest.raises(nr.DomainError, match="cdist"):
        nr.cdist(make(a, device), make(b, device), p=-1.0)
    with pytest.raises(nr.DomainError, match="cdist"):
        nr.cdist(make(a, device), make(b, device), compute_mode="fast")


@pytest.mark.parametrize("p", PS)
def test_pdist_scipy_order(device, p):
    _f64(device)
    rng = np.random.default_rng(3)
    a = rng.standard_normal((6, 3))
    a[4] = a[1]
    got = nr.pdist(make(a, device), p=p)
    assert got.shape == (15,)
    full = scipy_cdist(a, a, p)
    assert_close(got, full[np.triu_indices(6, 1)], rtol=1e-10, atol=1e-12)
    if p not in (0.0, float("inf")):
        assert_close(got, sd.pdist(a, "minkowski", p=p), rtol=1e-10, atol=1e-12)


def test_pdist_edges(device):
    assert nr.pdist(make(np.zeros((1, 3)), device)).shape == (0,)
    assert nr.pdist(make(np.zeros((0, 3)), device)).shape == (0,)
    assert_close(nr.pdist(make(np.zeros((3, 0)), device)), np.zeros(3))
    a = np.arange(12.0).reshape(4, 3)
    x = make(a, device, "float32")
    got = nr.pdist(x.T[::-1])  # a view
    assert got.dtype == nr.float32
    assert_close(got, sd.pdist(a.T[::-1]), dtype="float32")
    with pytest.raises(nr.ShapeError, match="pdist"):
        nr.pdist(make(a[0], device))


def test_cosine_similarity_and_pairwise_distance(device):
    _f64(device)
    rng = np.random.default_rng(4)
    a, b = rng.standard_normal((4, 5)), rng.standard_normal((1, 5))
    a[2] = 0.0  # a zero vector: the eps clamp
    x, y = make(a, device), make(b, device)
    F = torch.nn.functional if torch is not None else None
    ta, tb = (torch.from_numpy(a), torch.from_numpy(b)) if torch is not None else (None, None)
    want = np_cosine_similarity(a, b)
    assert want[2] == 0.0 and np.isfinite(want).all()  # the zero vector: 0, not NaN
    got = nr.cosine_similarity(x, y)
    assert got.shape == (4,) and got.dtype == nr.float64
    assert_close(got, want, rtol=1e-12, atol=1e-12)
    also_torch(want, lambda: F.cosine_similarity(ta, tb))
    want = np_cosine_similarity(a, b, dim=0, eps=1e-3)
    assert want.shape == (5,)
    assert_close(nr.cosine_similarity(x, y, dim=0, eps=1e-3), want, rtol=1e-12, atol=1e-12)
    also_torch(want, lambda: F.cosine_similarity(ta, tb, dim=0, eps=1e-3))
    for p in (1.0, 2.0, 3.0, float("inf")):
        want = np_pairwise_distance(a, b, p=p)
        assert_close(nr.pairwise_distance(x, y, p=p), want, rtol=1e-12, atol=1e-12)
        also_torch(want, lambda p=p: F.pairwise_distance(ta, tb, p=p))
    assert_close(nr.pairwise_distance(make(a[2], device), make(a[2], device)), np.array(np.sqrt(5) * 1e-6),
                 rtol=1e-12, atol=0)  # equal vectors: eps in each of the 5 differences
    want = np_pairwise_distance(a, b, keepdim=True)
    assert want.shape == (4, 1)
    assert_close(nr.pairwise_distance(x, y, keepdim=True), want, rtol=1e-12, atol=1e-12)
    also_torch(want, lambda: F.pairwise_distance(ta, tb, keepdim=True))
    want = np_pairwise_distance(a[0], b[0])
    got = nr.pairwise_distance(make(a[0], device), make(b[0], device))
    assert got.shape == ()
    assert_close(got, want, rtol=1e-12, atol=1e-12)
    also_torch(want, lambda: F.pairwise_distance(ta[0], tb[0]))
    with pytest.raises(nr.ShapeError, match="cosine_similarity"):
        nr.cosine_similarity(make(a, device), make(rng.standard_normal((3, 5)), device))


def check_grads(device, f, arrays):
    """fd_checks.check_grads at rtol 1e-5 (distances of nearby points lose digits to cancellation)."""
    _check_grads(device, f, arrays, rtol=1e-5)


def test_distance_gradients(device):
    _f64(device)
    rng = np.random.default_rng(5)
    a, b = rng.standard_normal((3, 2)), rng.standard_normal((4, 2))
    for p in (1.0, 2.0, 3.0, float("inf")):
        check_grads(device, lambda x, y, p=p: nr.cdist(x, y, p=p), [a, b])
    check_grads(device, lambda x, y: nr.cdist(x, y, compute_mode="use_mm_for_euclid_dist"), [a, b])
    check_grads(device, lambda x: nr.pdist(x, p=2.0), [a])
    check_grads(device, lambda x: nr.pdist(x, p=1.5), [b])
    check_grads(device, lambda x, y: nr.cosine_similarity(x, y, dim=-1), [a, b[:1]])
    check_grads(device, lambda x, y: nr.pairwise_distance(x, y), [a, b[:3]])


def test_zero_distance_has_zero_gradient_like_torch(device):
    _f64(device)
    a = np.array([[1.0, 2.0], [3.0, 5.0]])
    want = np_euclid_grad(a, a)  # the diagonal's zero distances give 0, the others a unit vector
    u = (a[0] - a[1]) / np.linalg.norm(a[0] - a[1])
    np.testing.assert_allclose(want, [u, -u], rtol=1e-15)
    for mode in ("use_mm_for_euclid_dist", "donot_use_mm_for_euclid_dist"):
        xv = Var(make(a, device))
        g = backward(nr.cdist(xv, make(a, device), compute_mode=mode).sum())[xv]
        assert_close(g, want, rtol=1e-7, atol=1e-7)
    if torch is not None:
        tx = torch.tensor(a, requires_grad=True)
        torch.cdist(tx, torch.from_numpy(a), compute_mode="donot_use_mm_for_euclid_dist").sum().backward()
        np.testing.assert_allclose(tx.grad.numpy(), want, rtol=1e-12, atol=1e-12)
    r = a[[0, 0, 1]]  # rows 0 and 1 coincide: their pair adds 0; each meets row 2 once
    want = np.array([u, u, -2 * u])
    xv = Var(make(r, device))
    g = backward(nr.pdist(xv).sum())[xv]
    assert_close(g, want, rtol=1e-12, atol=1e-12)
    if torch is not None:
        tx = torch.tensor(r, requires_grad=True)
        torch.pdist(tx).sum().backward()
        np.testing.assert_allclose(tx.grad.numpy(), want, rtol=1e-12, atol=1e-12)


def test_chunked_differences(device, monkeypatch):
    """Small chunks: cdist's row chunks and pdist's pair chunks are put back together in order."""
    from numr.ops.generic import distance
    monkeypatch.setattr(distance, "CHUNK", 7)
    rng = np.random.default_rng(6)
    a, b = rng.standard_normal((2, 5, 3)).astype(np.float32), rng.standard_normal((4, 3)).astype(np.float32)
    got = nr.cdist(make(a, device), make(b, device), p=1.0)
    assert got.shape == (2, 5, 4)
    assert_close(got, np.stack([sd.cdist(a[i], b, "cityblock") for i in range(2)]), dtype="float32")
    assert_close(nr.pdist(make(a[0], device), p=3.0), sd.pdist(a[0], "minkowski", p=3.0), dtype="float32")
