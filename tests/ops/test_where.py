"""nr.where against NumPy: every dtype, promotion, broadcasting, views, scalars."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_close

import numr as nr

ALL = [d.name for d in nr.ALL_DTYPES]


def make(a, device):
    try:
        return nr.tensor(a, device=device)
    except nr.UnsupportedOperation as e:
        pytest.skip(str(e))


def where(c, a, b):
    try:
        return nr.where(c, a, b)
    except nr.UnsupportedOperation as e:
        pytest.skip(str(e))


@pytest.mark.parametrize("dtype", ALL)
def test_where_dtypes(device, dtype):
    d = nr.dtype(dtype)
    rng = np.random.default_rng(0)
    cond = rng.random((3, 5)) > 0.5
    a = (rng.standard_normal((3, 5)) * 10).astype(d.np) if d.kind != "b" else rng.random((3, 5)) > 0.3
    b = (rng.standard_normal((3, 5)) * 10).astype(d.np) if d.kind != "b" else rng.random((3, 5)) > 0.6
    got = where(make(cond, device), make(a, device), make(b, device))
    assert_close(got, np.where(cond, a, b), dtype=d, rtol=0, atol=0)


def test_where_broadcast_and_views(device):
    rng = np.random.default_rng(1)
    cond = rng.random((4, 1, 6)) > 0.5
    a = rng.standard_normal((5, 6)).astype(np.float32)
    b = rng.standard_normal((6,)).astype(np.float32)
    got = where(make(cond, device), make(a, device), make(b, device))
    assert_close(got, np.where(cond, a, b), dtype=nr.float32, rtol=0, atol=0)
    base = rng.standard_normal((6, 8))
    x = make(base, device)
    got = where(x.T[::2] > 0, x.T[::2], x.flip(1).T[1::2])
    ref = np.where(base.T[::2] > 0, base.T[::2], base[:, ::-1].T[1::2])
    assert_close(got, ref, rtol=0, atol=0)


def test_where_promotion_and_scalars(device):
    c = make(np.array([True, False, True]), device)
    i = make(np.array([1, 2, 3], np.int32), device)
    f = make(np.array([0.5, 1.5, 2.5], np.float16), device)
    assert_close(where(c, i, f), np.array([1.0, 1.5, 3.0], np.float16), dtype=nr.float16)
    assert_close(where(c, i, -1), np.array([1, -1, 3], np.int32), dtype=nr.int32)
    assert_close(where(c, i, 0.5), np.array([1.0, 0.5, 3.0]), dtype=nr.float64)
    assert_close(where(c, 1, 0), np.array([1, 0, 1]), dtype=nr.int64)
    u = make(np.array([1, 2, 3], np.uint8), device)
    s = make(np.array([-1, -2, -3], np.int8), device)
    assert_close(where(c, u, s), np.array([1, -2, 3], np.int16), dtype=nr.int16)


def test_where_condition_cast(device):
    """A non-bool condition means x != 0 (NaN is true)."""
    cond = np.array([0.0, np.nan, -0.0, 2.0])
    a = np.arange(4.0)
    got = where(make(cond, device), make(a, device), 9.0)
    assert_close(got, np.where(cond != 0, a, 9.0))
    ci = make(np.array([0, 3, 0, -1], np.int32), device)
    assert_close(where(ci, make(a, device), -1.0), np.array([-1.0, 1.0, -1.0, 3.0]))


def test_where_0d_empty_large(device):
    assert_close(where(make(np.array(True), device), make(np.array(1.0), device), 2.0), np.array(1.0))
    e = where(make(np.zeros((0, 3), bool), device), make(np.zeros((0, 3)), device), 1.0)
    assert e.shape == (0, 3)
    rng = np.random.default_rng(2)
    cond = rng.random((300, 200)) > 0.5
    a = rng.standard_normal((300, 200))
    got = where(make(cond, device), make(a, device).T.T, -make(a, device))
    assert_close(got, np.where(cond, a, -a), rtol=0, atol=0)


def test_where_errors(device):
    with pytest.raises(nr.ShapeError, match="where"):
        nr.where(make(np.ones(3, bool), device), make(np.ones(4), device), 0.0)


@pytest.mark.parametrize("dtype", ["bool", "int8", "float16", "float32", "float64", "int64", "complex128"])
def test_where_scalar_operands_every_itemsize(device, dtype):
    """A Python scalar on either side, or both, next to a dense tensor of every element size
    (the CPU has dedicated loops for a stride-0 operand): values and dtype as NumPy's."""
    rng = np.random.default_rng(5)
    a = (rng.standard_normal(70002) * 3).astype(np.dtype(nr.dtype(dtype).np))
    c = rng.random(70002) < 0.5
    x, cx = make(a, device), make(c, device)
    s = True if dtype == "bool" else 2
    for got, exp in ((where(cx, x, s), np.where(c, a, np.array(s, a.dtype))),
                     (where(cx, s, x), np.where(c, np.array(s, a.dtype), a)),
                     (where(cx[::2], x[1::2], s), np.where(c[::2], a[1::2], np.array(s, a.dtype)))):
        assert got.dtype == nr.dtype(dtype) and got.shape == exp.shape
        assert_close(got, exp, dtype=dtype, rtol=0, atol=0)
    both = where(cx, 1.5, -2.5)
    assert both.dtype == nr.float32 or both.dtype == nr.float64
    np.testing.assert_array_equal(both.numpy(), np.where(c, 1.5, -2.5))
