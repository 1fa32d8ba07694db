"""index_add_ / index_add against a NumPy oracle (np.add.at): every dtype, every dim, repeated
and negative indices, alpha, views, broadcast sources, errors raised before any write, and
index_select's gradient, which is built on it."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_close

import numr as nr

NUMERIC = [d.name for d in nr.ALL_DTYPES if d.kind != "b"]


def make(a, device, dtype=None):
    try:
        return nr.tensor(a, dtype=dtype, device=device)
    except nr.UnsupportedOperation as e:
        pytest.skip(str(e))


def small_ints(dtype, shape, rng, lo=-3, hi=4):
    """Small integers: every partial sum is exact in every dtype (float8 included), so the
    result does not depend on the order in which a backend accumulates repeated indices."""
    d = nr.dtype(dtype)
    if d.kind == "u":
        lo = 0
    if d.itemsize == 1 and d.kind == "f":  # float8_e5m2 holds the integers up to 8 only
        lo, hi = -1, 2
    return rng.integers(lo, hi, shape).astype(d.np)


def oracle(a, dim, idx, src, alpha=1):
    """np.add.at in float64/complex128/int64 (the exact sums), cast back to a's dtype."""
    wide = np.complex128 if a.dtype.kind == "c" else (np.int64 if a.dtype.kind in "iu" else np.float64)
    out = np.moveaxis(a.astype(wide), dim, 0).copy()
    np.add.at(out, idx, np.moveaxis(np.broadcast_to(src, a.shape[:dim] + (len(idx),) + a.shape[dim + 1:])
                                    .astype(wide) * alpha, dim, 0))
    return np.moveaxis(out, 0, dim).astype(a.dtype)


@pytest.mark.parametrize("dtype", NUMERIC)
def test_every_dtype_and_dim(device, dtype):
    rng = np.random.default_rng(3)
    a = small_ints(dtype, (4, 5, 3), rng)
    for dim in range(3):
        n = a.shape[dim]
        idx = np.array([0, n - 1, 0, 1, -1, 0], np.int64)  # repeats and a negative index
        src = small_ints(dtype, a.shape[:dim] + (len(idx),) + a.shape[dim + 1:], rng)
        x = make(a, device)
        r = x.client.index_add_(x, dim, make(idx, device), make(src, device))
        assert r is x and x.shape == a.shape and x.dtype == nr.dtype(dtype)
        assert_close(x, oracle(a, dim, idx % n, src), dtype=dtype, rtol=0, atol=0)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64", "float16", "bfloat16", "complex64"])
def test_alpha_and_functional_form(device, dtype):
    rng = np.random.default_rng(4)
    a = small_ints(dtype, (6, 4), rng)
    src = small_ints(dtype, (5, 4), rng)
    idx = np.array([5, 1, 5, 5, 0])
    x = make(a, device)
    alpha = (1 - 2j) if nr.dtype(dtype).is_complex else (-2 if nr.dtype(dtype).kind in "iu" else 0.5)
    y = nr.index_add(x, 0, make(idx, device), make(src, device), alpha=alpha)
    assert y.shape == a.shape and y.dtype == nr.dtype(dtype)
    assert_close(x, a, dtype=dtype, rtol=0, atol=0)  # the functional form leaves x alone
    assert_close(y, oracle(a, 0, idx, src, alpha), dtype=dtype, rtol=0, atol=0)
    z = make(a, device).index_add_(0, make(idx, device), make(src, device), alpha=alpha)  # tensor method
    assert_close(z, oracle(a, 0, idx, src, alpha), dtype=dtype, rtol=0, atol=0)


def check_add(device, a, dim, idx, src, view=None, **tol):
    """index_add_ into a copy of a (or into ``view`` of that copy) against the oracle."""
    x = make(a, device)
    t = view(x) if view else x
    t.index_add_(dim, make(idx, device), make(src, device))
    exp = a.copy()
    sub = view(exp) if view else exp
    sub[...] = oracle(sub, dim, idx % sub.shape[dim], src)
    assert_close(x, exp, **(tol or {"rtol": 0, "atol": 0}))


def test_accumulates_many_repeats(device):
    """Thousands of updates to a few rows (the embedding-gradient pattern), float32 sums of
    exact values in any order."""
    rng = np.random.default_rng(5)
    check_add(device, np.zeros((7, 33), np.float32), 0, rng.integers(-7, 7, 5000),
              rng.integers(-4, 5, (5000, 33)).astype(np.float32))
    # along the last dim, and into a 1-d tensor (one element per index)
    check_add(device, np.zeros((3, 9), np.int32), 1, rng.integers(0, 9, 400),
              rng.integers(-9, 9, (3, 400)).astype(np.int32))
    check_add(device, np.zeros(10), 0, rng.integers(0, 10, 1000), rng.standard_normal(1000),
              rtol=1e-12, atol=1e-12)
    # wide rows (the CPU splits their columns between threads) and rest dims that do not merge
    check_add(device, np.zeros((5, 300), np.float32), 0, rng.integers(0, 5, 200),
              rng.integers(-3, 4, (200, 300)).astype(np.float32))
    check_add(device, rng.integers(-3, 4, (4, 6, 5)).astype(np.float32), 0, rng.integers(0, 4, 9),
              rng.integers(-3, 4, (9, 3, 4)).astype(np.float32), view=lambda t: t[:, ::2, 1:])


def test_views_broadcast_sources_and_index_dtypes(device):
    rng = np.random.default_rng(6)
    base = small_ints("float32", (6, 8), rng)
    x = make(base, device)
    v = x.T[1::2]  # a strided, transposed view of x: writes go through to x
    idx = np.array([2, 0, 2], np.int32)
    src = small_ints("float32", (4, 1), rng)  # broadcast along the indexed dim
    v.index_add_(1, make(idx, device), make(src, device))
    exp = base.copy()
    exp.T[1::2] = oracle(base.T[1::2], 1, idx, np.broadcast_to(src, (4, 3)))
    assert_close(x, exp, rtol=0, atol=0)
    for idx_dtype in ("int8", "uint8", "int16", "int32", "uint64"):
        y = make(base, device)
        ib = np.array([7, 1, 1], idx_dtype)
        y.index_add_(1, make(ib, device)[::-1], 2.0)  # a reversed index view, a scalar source
        assert_close(y, oracle(base, 1, ib[::-1].astype(np.int64), np.float32(2.0)), rtol=0, atol=0)
    # a source that is x itself (overlapping memory): the sums use x's values from before the call
    s = make(np.arange(6.0).reshape(2, 3), device)
    s.index_add_(0, make(np.array([1, 0]), device), s)
    assert_close(s, np.arange(6.0).reshape(2, 3) + np.arange(6.0).reshape(2, 3)[[1, 0]], rtol=0, atol=0)


def test_empty_and_size_zero(device):
    x = make(np.ones((3, 4), np.float32), device)
    x.index_add_(0, make(np.zeros(0, np.int64), device), make(np.zeros((0, 4), np.float32), device))
    assert_close(x, np.ones((3, 4)), rtol=0, atol=0)
    e = make(np.ones((3, 0), np.float32), device)
    e.index_add_(0, make(np.array([0, 2]), device), make(np.ones((2, 0), np.float32), device))
    assert e.shape == (3, 0)
    one = make(np.array([5.0]), device)  # a 0-d index adds one slice
    one.index_add_(0, make(np.array(0), device), make(np.array([2.0]), device))
    assert_close(one, np.array([7.0]), rtol=0, atol=0)


def test_errors_leave_the_tensor_untouched(device):
    a = np.arange(12.0, dtype=np.float32).reshape(3, 4)
    x = make(a, device)
    src = make(np.ones((2, 4), np.float32), device)
    with pytest.raises(nr.IndexOutOfRange, match="index_add_"):
        x.index_add_(0, make(np.array([0, 3]), device), src)
    with pytest.raises(nr.IndexOutOfRange, match="index_add_"):
        x.index_add_(0, make(np.array([-4, 0]), device), src)
    with pytest.raises(nr.ShapeError, match="index_add_"):
        x.index_add_(0, make(np.array([0, 1]), device), make(np.ones((2, 3), np.float32), device))
    with pytest.raises(nr.ShapeError, match="index_add_"):
        x.index_add_(0, make(np.array([[0, 1]]), device), src)
    with pytest.raises(nr.DTypeError, match="index_add_"):
        x.index_add_(0, make(np.array([0.0, 1.0]), device), src)
    with pytest.raises(nr.DTypeError, match="bool"):
        b = make(np.zeros(3, bool), device)
        b.index_add_(0, make(np.array([0]), device), make(np.ones(1, bool), device))
    with pytest.raises(nr.DTypeError, match="alpha"):
        make(np.zeros(3, np.int32), device).index_add_(0, make(np.array([0]), device),
                                                       make(np.ones(1, np.int32), device), alpha=0.5)
    with pytest.raises(nr.ShapeError, match="stride 0"):
        make(np.zeros(3, np.float32), device).broadcast_to((2, 3)).index_add_(1, make(np.array([0]), device), 1.0)
    assert_close(x, a, rtol=0, atol=0)


def test_gradients(device):
    """index_add's gradient (x: the output gradient; source: its rows at the indices, times
    alpha) against central differences, and index_select's gradient with repeated indices."""
    from numr.autograd import Var, backward
    rng = np.random.default_rng(7)
    try:
        xa = make(rng.standard_normal((5, 3)), device)
    except pytest.skip.Exception:
        raise
    if xa.dtype != nr.float64:
        pytest.skip(f"{device} has no float64")
    x = Var(xa)
    src = Var(make(rng.standard_normal((4, 1)), device))  # broadcast to (4, 3)
    idx = make(np.array([1, 4, 1, -5]), device)
    w = make(rng.standard_normal((5, 3)), device)
    g = backward((nr.index_add(x, 0, idx, src, alpha=-1.5) * w).sum())
    assert_close(g[x], w.numpy(), rtol=0, atol=0)
    exp_src = -1.5 * w.numpy()[[1, 4, 1, 0]].sum(1, keepdims=True)
    assert_close(g[src], exp_src, rtol=1e-12, atol=1e-12)
    # index_select (an embedding lookup): repeated rows' gradients add up
    emb = Var(make(rng.standard_normal((6, 4)), device))
    rows = make(np.array([2, 0, 2, 2, 5]), device)
    up = make(rng.standard_normal((5, 4)), device)
    ge = backward((nr.index_select(emb, 0, rows) * up).sum())[emb]
    exp = np.zeros((6, 4))
    np.add.at(exp, [2, 0, 2, 2, 5], up.numpy())
    assert ge.shape == (6, 4)
    assert_close(ge, exp, rtol=1e-12, atol=1e-12)
