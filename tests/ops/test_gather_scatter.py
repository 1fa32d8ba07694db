"""gather and scatter_add against NumPy (np.take_along_axis, np.add.at): dtypes, every dim,
index shapes smaller than x's, negative indices, views, errors; their gradients (reverse and
forward mode) against the analytic ones and central differences; a cross-entropy loss."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_close

import numr as nr
from numr.autograd import Var, backward, jvp


def make(a, device, dtype=None):
    try:
        return nr.tensor(a, dtype=dtype, device=device)
    except nr.UnsupportedOperation as e:
        pytest.skip(str(e))


def scatter_oracle(a, dim, idx, src):
    out = a.astype(np.float64 if a.dtype.kind == "f" else np.int64).copy()
    block = src[tuple(slice(0, n) for n in idx.shape)]
    coords = list(np.indices(idx.shape, sparse=False))
    coords[dim] = idx % a.shape[dim]
    np.add.at(out, tuple(coords), block)
    return out.astype(a.dtype)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64", "float16", "uint8", "bool"])
def test_gather_every_dim(device, dtype):
    rng = np.random.default_rng(1)
    a = (rng.integers(0, 50, (3, 4, 5)) % (2 if dtype == "bool" else 50)).astype(nr.dtype(dtype).np)
    x = make(a, device)
    for dim in range(3):
        shape = [2, 3, 4]
        shape[dim] = 6  # more indices than the dim's size: repeats
        idx = rng.integers(-a.shape[dim], a.shape[dim], shape)
        got = nr.gather(x, dim, make(idx, device))
        assert got.shape == tuple(shape) and got.dtype == nr.dtype(dtype)
        sub = a[tuple(slice(None) if i == dim else slice(0, n) for i, n in enumerate(shape))]
        assert_close(got, np.take_along_axis(sub, idx % a.shape[dim], dim), dtype=dtype, rtol=0, atol=0)


def test_gather_views_and_edges(device):
    a = np.arange(24.0).reshape(4, 6)
    x = make(a, device)
    idx = np.array([[3, 0], [1, 1], [0, -2]])
    v = x.T[::-1]  # (6, 4) reversed transposed view
    assert_close(nr.gather(v, 1, make(idx, device)), np.take_along_axis(a.T[::-1][:3], idx % 4, 1), rtol=0, atol=0)
    assert_close(x.gather(0, make(np.array([[3, 2, 1, 0, 3, 2]]), device)), a[[3, 2, 1, 0, 3, 2], range(6)][None],
                 rtol=0, atol=0)  # the method form
    e = nr.gather(x, 1, make(np.zeros((4, 0), np.int64), device))
    assert e.shape == (4, 0)
    with pytest.raises(nr.IndexOutOfRange, match="gather"):
        nr.gather(x, 1, make(np.array([[6]]), device))
    with pytest.raises(nr.ShapeError, match="gather"):
        nr.gather(x, 1, make(np.array([0, 1]), device))  # rank differs
    with pytest.raises(nr.ShapeError, match="gather"):
        nr.gather(x, 1, make(np.zeros((5, 1), np.int64), device))  # larger outside dim
    with pytest.raises(nr.DTypeError, match="gather"):
        nr.gather(x, 1, make(np.zeros((1, 1)), device))


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64"])
def test_scatter_add(device, dtype):
    rng = np.random.default_rng(2)
    a = rng.integers(-5, 5, (4, 5)).astype(dtype)
    x = make(a, device)
    for dim in (0, 1):
        idx = rng.integers(-a.shape[dim], a.shape[dim], (3, 4) if dim == 0 else (4, 7))
        src = rng.integers(-3, 4, (5, 8)).astype(dtype)  # larger than the index: its leading block is used
        got = nr.scatter_add(x, dim, make(idx, device), make(src, device))
        assert got.shape == a.shape and got.dtype == nr.dtype(dtype)
        assert_close(got, scatter_oracle(a, dim, idx, src), dtype=dtype, rtol=0, atol=0)
    assert_close(x, a, dtype=dtype, rtol=0, atol=0)  # x is not modified
    with pytest.raises(nr.ShapeError, match="scatter_add"):
        nr.scatter_add(x, 0, make(np.zeros((2, 2), np.int64), device), make(np.ones((1, 2), dtype), device))
    with pytest.raises(nr.IndexOutOfRange, match="scatter_add"):
        nr.scatter_add(x, 0, make(np.array([[4]]), device), make(np.ones((1, 1), dtype), device))


def _f64(device):
    t = make(np.zeros(1), device)
    if t.dtype != nr.float64:
        pytest.skip(f"{device} has no float64")


def test_gradients_against_central_differences(device):
    _f64(device)
    rng = np.random.default_rng(3)
    a, s = rng.standard_normal((3, 5)), rng.standard_normal((3, 4))
    idx = make(np.array([[4, 0, 4, 1], [2, 2, -1, 0], [0, 1, 2, 3]]), device)
    w = rng.standard_normal((3, 5))

    def loss(av, sv):
        out = nr.scatter_add(av, 1, idx, sv) * make(w, device)
        return (out * out).sum() + (nr.gather(av, 1, idx) ** 3.0).sum()

    xv, sv = Var(make(a, device)), Var(make(s, device))
    g = backward(loss(xv, sv))
    eps = 1e-6
    for var, base, which in ((xv, a, 0), (sv, s, 1)):
        num = np.zeros_like(base)
        for k in np.ndindex(base.shape):
            hi, lo = base.copy(), base.copy()
            hi[k] += eps
            lo[k] -= eps
            args_hi = (make(hi, device), make(s, device)) if which == 0 else (make(a, device), make(hi, device))
            args_lo = (make(lo, device), make(s, device)) if which == 0 else (make(a, device), make(lo, device))
            num[k] = (loss(*args_hi).item() - loss(*args_lo).item()) / (2 * eps)
        assert_close(g[var], num, rtol=1e-6, atol=1e-6)
    # forward mode: the directional derivative of gather is gather of the tangent
    t = rng.standard_normal((3, 5))
    _, tan = jvp(lambda av: nr.gather(av, 1, idx), (make(a, device),), (make(t, device),))
    assert_close(tan, np.take_along_axis(t, idx.numpy() % 5, 1), rtol=0, atol=0)


def test_cross_entropy(device):
    """mean over rows of -log_softmax(z)[row, target]: its value and gradient (softmax - onehot) / N."""
    rng = np.random.default_rng(4)
    z = rng.standard_normal((6, 5)).astype(np.float32)
    target = rng.integers(0, 5, 6)
    zv = Var(make(z, device))
    tv = make(target.reshape(6, 1), device)
    loss = -nr.gather(nr.log_softmax(zv, -1), 1, tv).mean()
    zz = z.astype(np.float64)
    p = np.exp(zz - zz.max(1, keepdims=True))
    p /= p.sum(1, keepdims=True)
    assert_close(loss.tensor, -np.log(p[range(6), target]).mean(), dtype="float32")
    onehot = np.eye(5)[target]
    assert_close(backward(loss)[zv], (p - onehot) / 6, dtype="float32")
