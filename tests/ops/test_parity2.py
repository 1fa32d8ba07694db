"""Parity ops against NumPy/SciPy (float64 oracles) and torch's semantics: gather_nd, scatter_nd,
index_put, slice/select/diagonal_scatter, unique_consecutive, squareform, instance_norm,
local_response_norm, normalize; values, shapes, dtypes, views, edge cases, errors, and gradients
(reverse and forward mode) by central differences. The linalg *_ex / ldl / householder_product
tests are in test_linalg_ex.py."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.spatial.distance as ssd
from conftest import assert_close
from fd_checks import check_grads
from numeric_cases import make

import numr as nr


def dtypes_for(device, cpu_list, gpu_list=("float32", "int32")):
    """Every dtype on the CPU (cheap), a representative pair elsewhere (the test-time budget)."""
    return cpu_list if device == "cpu" else gpu_list


# ---- gather_nd / scatter_nd / index_put -----------------------------------------------------
def test_gather_nd_dtypes_and_views(device):
    rng = np.random.default_rng(0)
    for dtype in dtypes_for(device, ["float64", "float32", "float16", "bfloat16", "int64", "int8", "bool"]):
        npd = nr.dtype(dtype).np
        a = (rng.integers(0, 9, (3, 4, 2)) % (2 if dtype == "bool" else 9)).astype(npd)
        x = make(a, device)
        idx = np.array([[[0, 1], [2, -1]], [[-3, 3], [1, 0]]])  # (2, 2, 2): k = 2, negatives wrap
        got = nr.gather_nd(x, make(idx, device))
        assert got.shape == (2, 2, 2) and got.dtype == nr.dtype(dtype)
        assert_close(got, a[idx[..., 0] % 3, idx[..., 1] % 4], dtype=dtype, rtol=0, atol=0)
    a = np.arange(24.0).reshape(4, 6)
    v = make(a, device).T[::-1]  # negative-stride, transposed view
    assert_close(nr.gather_nd(v, make(np.array([[0], [5]]), device)), a.T[::-1][[0, 5]], rtol=0, atol=0)
    full = nr.gather_nd(v, make(np.array([[1, 2], [0, 3]]), device))
    assert_close(full, a.T[::-1][[1, 0], [2, 3]], rtol=0, atol=0)
    e = nr.gather_nd(v, make(np.zeros((0, 2), np.int64), device))  # no indices
    assert e.shape == (0,)
    k0 = nr.gather_nd(v, make(np.zeros((2, 0), np.int64), device))  # k = 0: whole x per row
    assert_close(k0, np.stack([a.T[::-1]] * 2), rtol=0, atol=0)
    with pytest.raises(nr.IndexOutOfRange, match="gather_nd"):
        nr.gather_nd(v, make(np.array([[6, 0]]), device))
    with pytest.raises(nr.ShapeError, match="gather_nd"):
        nr.gather_nd(v, make(np.zeros((1, 3), np.int64), device))  # k > ndim
    with pytest.raises(nr.DTypeError, match="gather_nd"):
        nr.gather_nd(v, make(np.zeros((1, 1)), device))


def test_scatter_nd_and_index_put(device):
    rng = np.random.default_rng(1)
    dt = "float64" if device != "wgpu" else "float32"
    a = rng.standard_normal((3, 4, 2))
    x = make(a, device, dt)
    idx = np.array([[0, 1], [2, 3], [0, 1]])  # a repeated position: the last update wins
    upd = rng.standard_normal((3, 2))
    got = nr.scatter_nd(x, make(idx, device), make(upd, device, dt))
    exp = a.copy()
    for i, (p, q) in enumerate(idx):
        exp[p, q] = upd[i]
    assert got.shape == a.shape and got.dtype == nr.dtype(dt)
    assert_close(got, exp, rtol=1e-6, atol=1e-6)
    acc = nr.scatter_nd(x, make(idx, device), make(upd, device, dt), accumulate=True)
    exp = a.copy()
    np.add.at(exp, (idx[:, 0], idx[:, 1]), upd)
    assert_close(acc, exp, rtol=1e-6, atol=1e-6)
    assert_close(x, a, rtol=1e-6, atol=1e-6)  # x untouched
    # index_put: broadcast index tensors, a scalar-like value broadcast, a bool index
    i0, i1 = np.array([[0], [2]]), np.array([1, -1])
    got = nr.index_put(x, (make(i0, device), make(i1, device)), make(np.array(5.0), device, dt))
    exp = a.copy()
    exp[i0, i1] = 5.0
    assert_close(got, exp, rtol=1e-6, atol=1e-6)
    mask = a[:, :, 0] > 0
    got = nr.index_put(x, (make(mask, device),), make(np.array([1.0, 2.0]), device, dt), accumulate=True)
    exp = a.copy()
    exp[mask] += [1.0, 2.0]
    assert_close(got, exp, rtol=1e-6, atol=1e-6)
    with pytest.raises(nr.ShapeError, match="index_put"):
        nr.index_put(x, (make(np.array([0, 1]), device),), make(np.ones((3, 2)), device, dt))
    with pytest.raises(nr.ShapeError, match="index_put"):
        nr.index_put(x, (make(np.array([0, 1]), device), make(np.array([0, 1, 2]), device)), 1.0)
    with pytest.raises(nr.IndexOutOfRange, match="scatter_nd"):
        nr.scatter_nd(x, make(np.array([[3, 0]]), device), make(np.ones((1, 2)), device, dt))


def test_slice_select_diagonal_scatter(device):
    a = np.arange(60.0).reshape(3, 4, 5)
    dt = "float64" if device != "wgpu" else "float32"
    x = make(a, device, dt)
    src = -np.arange(3 * 4 * 2.0).reshape(3, 4, 2)
    got = nr.slice_scatter(x, make(src, device, dt), 2, 1, None, 2)
    exp = a.copy()
    exp[:, :, 1::2] = src
    assert got.shape == a.shape and got.dtype == nr.dtype(dt)
    assert_close(got, exp, rtol=0, atol=0)
    got = nr.select_scatter(x, make(-np.ones((3, 5)), device, dt), 1, -1)
    exp = a.copy()
    exp[:, -1] = -1
    assert_close(got, exp, rtol=0, atol=0)
    d = -np.arange(6.0).reshape(3, 2)  # diagonal of dims (2, 1) with offset -2: x[i, j, j - 2]... shape (3, 2)
    got = nr.diagonal_scatter(x, make(d, device, dt), -2, 1, 2)
    exp = a.copy()
    for i in range(3):
        for j in range(2):
            exp[i, j + 2, j] = d[i, j]
    assert_close(got, exp, rtol=0, atol=0)
    v = x[:, ::-1]  # a flipped view as the destination
    got = nr.slice_scatter(v, make(np.zeros((3, 1, 5)), device, dt), 1, 0, 1)
    exp = a[:, ::-1].copy()
    exp[:, 0] = 0
    assert_close(got, exp, rtol=0, atol=0)
    with pytest.raises(nr.ShapeError, match="slice_scatter"):
        nr.slice_scatter(x, make(src, device, dt), 2, 0, None, 1)
    with pytest.raises(nr.IndexOutOfRange, match="select_scatter"):
        nr.select_scatter(x, make(-np.ones((3, 5)), device, dt), 1, 4)


def test_scatter_gradients(device):
    if device == "wgpu":
        pytest.skip("float64 central differences: cpu and cuda")
    rng = np.random.default_rng(3)
    idx = nr.tensor(np.array([[0, 1], [2, 0], [0, 1]]), device=device)
    check_grads(device, lambda x: nr.gather_nd(x, idx), [rng.standard_normal((3, 2, 2))])
    check_grads(device, lambda x, u: nr.scatter_nd(x, idx, u), [rng.standard_normal((3, 2, 2)),
                                                                  rng.standard_normal((3, 2))])
    check_grads(device, lambda x, s: nr.slice_scatter(x, s, 1, 1, 3), [rng.standard_normal((2, 4)),
                                                                         rng.standard_normal((2, 2))])
    check_grads(device, lambda x, s: nr.diagonal_scatter(x, s, 1), [rng.standard_normal((3, 3)),
                                                                      rng.standard_normal(2)])


# ---- unique_consecutive ----------------------------------------------------------------------
def _np_unique_consecutive(a):
    """torch's rule in NumPy: runs of equal neighbours, NaN never equal."""
    if a.size == 0:
        return a, np.zeros(0, np.int64), np.zeros(0, np.int64)
    start = np.concatenate([[True], a[1:] != a[:-1]])
    gid = np.cumsum(start) - 1
    return a[start], gid, np.bincount(gid)


def test_unique_consecutive(device):
    dts = dtypes_for(device, ["float64", "float16", "int64", "int8", "bool"], ["float32"])
    for dtype in dts:
        a = np.array([1, 1, 0, 0, 0, 1, 3, 3, 1], dtype=nr.dtype(dtype).np)
        if dtype == "bool":
            a = a > 0
        vals, inv, cnt = nr.unique_consecutive(make(a, device), return_inverse=True, return_counts=True)
        ev, ei, ec = _np_unique_consecutive(a)
        assert_close(vals, ev, dtype=dtype, rtol=0, atol=0)
        assert_close(inv, ei, dtype="int64")
        assert_close(cnt, ec, dtype="int64")
    nan = np.array([1.0, np.nan, np.nan, 2.0, 2.0])
    v, c = nr.unique_consecutive(make(nan, device, "float32"), return_counts=True)
    assert_close(v, [1.0, np.nan, np.nan, 2.0], equal_nan=True)  # NaN != NaN, as torch
    assert_close(c, [1, 1, 1, 2], dtype="int64")
    m = np.array([[1, 1, 2, 2, 2], [0, 0, 1, 1, 0]])
    x = make(m, device)
    v, i, c = nr.unique_consecutive(x, return_inverse=True, return_counts=True, dim=1)
    assert_close(v, m[:, [0, 2, 4]], rtol=0, atol=0)
    assert_close(i, [0, 0, 1, 1, 2], dtype="int64")
    assert_close(c, [2, 2, 1], dtype="int64")
    two_d = nr.unique_consecutive(x)  # flattened
    assert_close(two_d, [1, 2, 0, 1, 0], rtol=0, atol=0)
    _, inv2 = nr.unique_consecutive(x, return_inverse=True)
    assert inv2.shape == (2, 5)
    e = nr.unique_consecutive(make(np.zeros(0), device, "float32"), return_counts=True)
    assert e[0].shape == (0,) and e[1].shape == (0,)
    s = nr.unique_consecutive(make(np.array(3.0), device, "float32"))
    assert_close(s, [3.0])
    with pytest.raises(nr.IndexOutOfRange):
        nr.unique_consecutive(x, dim=2)
    if device == "cpu":  # the kept values are differentiable: each run's first slice takes the gradient
        from numr.autograd import Var, backward
        v = Var(nr.tensor(np.array([[1.0, 2.0], [1.0, 2.0], [0.5, 2.0]])))
        g = backward((v.unique_consecutive(dim=0) * nr.tensor(np.array([[1.0, 2.0], [3.0, 4.0]]))).sum())
        assert_close(g[v], [[1.0, 2.0], [0.0, 0.0], [3.0, 4.0]])


# ---- squareform ------------------------------------------------------------------------------
def test_squareform(device):
    rng = np.random.default_rng(4)
    dt = "float64" if device != "wgpu" else "float32"
    for n in (1, 2, 5):
        v = rng.random(n * (n - 1) // 2)
        m = nr.squareform(make(v, device, dt))
        assert m.shape == (n, n) and m.dtype == nr.dtype(dt)
        assert_close(m, ssd.squareform(v), rtol=1e-6, atol=1e-7)
        back = nr.squareform(m)
        assert_close(back, v, rtol=1e-6, atol=1e-7)
    d = make(ssd.squareform(rng.random(6)), device, dt)
    assert_close(nr.squareform(d.T, force="tovector"), ssd.squareform(d.numpy().T), rtol=1e-6, atol=1e-7)  # a view
    bad = d.numpy().copy()
    bad[0, 1] += 1
    with pytest.raises(nr.DomainError, match="symmetric"):
        nr.squareform(make(bad, device, dt))
    assert nr.squareform(make(bad, device, dt), checks=False).shape == (6,)
    diag = d.numpy().copy()
    diag[2, 2] = 1
    with pytest.raises(nr.DomainError, match="diagonal"):
        nr.squareform(make(diag, device, dt))
    with pytest.raises(nr.ShapeError, match="squareform"):
        nr.squareform(make(np.ones(4), device, dt))  # not n(n-1)/2
    with pytest.raises(nr.ShapeError, match="squareform"):
        nr.squareform(make(np.ones((2, 3)), device, dt))
    with pytest.raises(nr.ShapeError, match="squareform"):
        nr.squareform(make(np.ones(3), device, dt), force="tovector")
    if device == "cpu":  # pdist's condensed form composes, and the gradient flows through
        check_grads(device, lambda v: nr.squareform(v) * 2.0, [rng.random(6)])
        int_m = nr.squareform(nr.tensor(np.array([1, 2, 3])))
        assert int_m.dtype == nr.int64


# ---- instance_norm / local_response_norm / normalize ----------------------------------------
def _np_instance_norm(x, w=None, b=None, eps=1e-5):
    dims = tuple(range(2, x.ndim))
    y = (x - x.mean(dims, keepdims=True)) / np.sqrt(x.var(dims, keepdims=True) + eps)
    shape = (1, -1) + (1,) * (x.ndim - 2)
    return y * (1 if w is None else w.reshape(shape)) + (0 if b is None else b.reshape(shape))


def test_instance_norm(device):
    rng = np.random.default_rng(5)
    x = rng.standard_normal((2, 3, 4, 5)) * 3 + 1
    w, b = rng.random(3), rng.standard_normal(3)
    dts = dtypes_for(device, ["float64", "float32", "float16", "bfloat16"], ["float32"])
    for dt in dts:
        got = nr.instance_norm(make(x, device, dt), weight=make(w, device, dt), bias=make(b, device, dt))
        assert got.shape == x.shape and got.dtype == nr.dtype(dt)
        assert_close(got, _np_instance_norm(x, w, b), rtol=max(nr.finfo(dt).eps * 40, 1e-6), atol=nr.finfo(dt).eps * 40)
    dt = "float64" if device != "wgpu" else "float32"
    rm, rv = make(np.zeros(3), device, dt), make(np.ones(3), device, dt)
    y = nr.instance_norm(make(x, device, dt), rm, rv, momentum=0.2)
    assert_close(y, _np_instance_norm(x), rtol=1e-5, atol=1e-5)
    mean = x.mean((2, 3)).mean(0)
    var = x.var((2, 3), ddof=1).mean(0)
    assert_close(rm, 0.2 * mean, rtol=1e-5, atol=1e-6)  # the running stats: mean over N of the instances'
    assert_close(rv, 0.8 + 0.2 * var, rtol=1e-5, atol=1e-6)
    y2 = nr.instance_norm(make(x, device, dt), rm, rv, use_input_stats=False)
    shape = (1, 3, 1, 1)
    exp = (x - rm.numpy().reshape(shape)) / np.sqrt(rv.numpy().reshape(shape) + 1e-5)
    assert_close(y2, exp, rtol=1e-5, atol=1e-5)
    xv = make(x, device, dt)[:, :, ::-1, 1:]  # a flipped, offset view, 3-d too
    assert_close(nr.instance_norm(xv), _np_instance_norm(x[:, :, ::-1, 1:]), rtol=1e-5, atol=1e-5)
    with pytest.raises(nr.ShapeError, match="instance_norm"):
        nr.instance_norm(make(x, device, dt), weight=make(np.ones(2), device, dt))
    with pytest.raises(nr.ShapeError):
        nr.instance_norm(make(np.ones((2, 3, 1)), device, dt))  # one value per instance
    with pytest.raises(nr.DTypeError, match="instance_norm"):
        nr.instance_norm(make(np.ones((2, 3, 4), np.int32), device))
    if device == "cpu":
        check_grads(device, lambda x, w, b: nr.instance_norm(x, weight=w, bias=b),
                    [rng.standard_normal((2, 2, 3)), rng.random(2), rng.random(2)], rtol=1e-5, atol=1e-6)


def _np_lrn(x, size, alpha=1e-4, beta=0.75, k=1.0):
    c = x.shape[1]
    sq = np.pad(x * x, [(0, 0), (size // 2, (size - 1) // 2)] + [(0, 0)] * (x.ndim - 2))
    acc = sum(sq[:, i:i + c] for i in range(size))
    return x / (k + alpha * acc / size) ** beta


def test_local_response_norm_and_normalize(device):
    rng = np.random.default_rng(6)
    x = rng.standard_normal((2, 5, 3, 2))
    dt = "float64" if device != "wgpu" else "float32"
    for size in (1, 2, 3, 6):
        got = nr.local_response_norm(make(x, device, dt), size, alpha=0.5, beta=0.6, k=2.0)
        assert got.shape == x.shape and got.dtype == nr.dtype(dt)
        assert_close(got, _np_lrn(x, size, 0.5, 0.6, 2.0), rtol=1e-5, atol=1e-6)
    assert_close(nr.local_response_norm(make(x[..., 0], device, dt), 3), _np_lrn(x[..., 0], 3), rtol=1e-5, atol=1e-6)
    with pytest.raises(nr.ShapeError, match="local_response_norm"):
        nr.local_response_norm(make(x[:, :, 0, 0], device, dt), 2)
    with pytest.raises(nr.DomainError, match="local_response_norm"):
        nr.local_response_norm(make(x, device, dt), 0)
    for p, dim in ((2.0, 1), (1.0, -1), (float("inf"), 2), (3.0, 0)):
        got = nr.normalize(make(x, device, dt), p, dim)
        nrm = np.linalg.norm(np.moveaxis(x, dim, -1), ord=p, axis=-1, keepdims=True)
        assert_close(got, x / np.moveaxis(np.maximum(nrm, 1e-12), -1, dim), rtol=1e-5, atol=1e-6)
    z = nr.normalize(make(np.zeros((2, 3)), device, dt))  # zero vectors stay zero (eps)
    assert_close(z, np.zeros((2, 3)), rtol=0, atol=0)
    with pytest.raises(nr.DTypeError, match="normalize"):
        nr.normalize(make(np.ones((2, 3), np.int32), device))
    if device == "cpu":
        h = nr.normalize(nr.tensor(x.astype(np.float16)))
        assert h.dtype == nr.float16
        check_grads(device, lambda x: nr.local_response_norm(x, 3, alpha=0.5), [rng.standard_normal((1, 4, 2))])
        check_grads(device, lambda x: nr.normalize(x, 2.0, 1), [rng.standard_normal((2, 3))])


def test_edges_cpu():
    """0-d, broadcast (stride-0), offset views, integer extremes, NaN/inf: CPU only (cheap)."""
    assert_close(nr.gather_nd(nr.tensor(5.0), nr.tensor(np.zeros((2, 0), np.int64))), [5.0, 5.0])
    xb = nr.broadcast_to(nr.tensor(np.arange(3.0)), (4, 3))
    assert_close(nr.gather_nd(xb, nr.tensor([[1, 2], [3, 0]])), [2.0, 0.0])
    got = nr.scatter_nd(nr.tensor(np.arange(6.0))[1:], nr.tensor([[0], [4]]), nr.tensor([-1.0, -2.0]))
    assert_close(got, [-1.0, 2.0, 3.0, 4.0, -2.0])
    big = np.iinfo(np.int64).max
    got = nr.index_put(nr.zeros(3, dtype=nr.int64), (nr.tensor([1, 1]),), nr.tensor([big, big]), accumulate=False)
    assert_close(got, [0, big, 0], dtype="int64")
    i8 = nr.index_put(nr.tensor(np.array([127, -128], np.int8)), (nr.tensor([0]),), nr.tensor(np.array([1], np.int8)),
                      accumulate=True)
    assert_close(i8, np.array([-128, -128], np.int8), dtype="int8")  # wraps, as torch
    sq = nr.squareform(nr.tensor([np.nan, 1.0, 2.0]))
    assert_close(sq, [[0, np.nan, 1], [np.nan, 0, 2], [1, 2, 0]])
    with pytest.raises(nr.DomainError):  # NaN is not symmetric to itself (scipy's check)
        nr.squareform(sq)
    assert np.isnan(nr.instance_norm(nr.tensor(np.array([[[1.0, np.inf, 2.0]]]))).numpy()).all()
    assert_close(nr.normalize(nr.tensor(np.array([[np.nan, 1.0], [3.0, 4.0]]))), [[np.nan, np.nan], [0.6, 0.8]])
