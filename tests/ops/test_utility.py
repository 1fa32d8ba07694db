"""fill_ and clamp against NumPy, every real dtype, views, broadcast bounds, NaN."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_close

import numr as nr

REAL = [d.name for d in nr.ALL_DTYPES if not d.is_complex]
ALL = [d.name for d in nr.ALL_DTYPES]


def make(a, device, dtype=None):
    try:
        return nr.tensor(a, dtype=dtype, device=device)
    except nr.UnsupportedOperation as e:
        pytest.skip(str(e))


@pytest.mark.parametrize("dtype", ALL)
def test_fill_views(device, dtype):
    d = nr.dtype(dtype)
    base = np.zeros((4, 6), d.np)
    x = make(base, device)
    value = True if d.kind == "b" else 3
    x.client.fill_(x[1:, ::2], value)
    base[1:, ::2] = value
    x.client.fill_(x.flip(1)[0, :2], value)
    base[0, ::-1][:2] = value
    assert_close(x, base, dtype=d)
    x.client.fill_(x[:0], value)  # empty view: nothing happens
    assert_close(x, base, dtype=d)


def test_fill_0d_and_large(device):
    x = make(np.array(1.5), device)
    assert x.client.fill_(x, -2.25) is x
    assert_close(x, np.array(-2.25))
    y = nr.empty((300, 400), dtype=nr.float32, device=device)
    y.client.fill_(y.T, 7.0)
    assert_close(y, np.full((300, 400), 7.0, np.float32))
    y.client.fill_(y, 0)
    assert_close(y, np.zeros((300, 400), np.float32))


def test_fill_value_cast_rules(device):
    x = make(np.zeros(3, np.int16), device)
    x.client.fill_(x, 1e9)
    assert_close(x, np.full(3, 32767, np.int16))
    x.client.fill_(x, float("nan"))
    assert_close(x, np.zeros(3, np.int16))
    with pytest.raises(nr.DTypeError, match="fill_"):
        x.client.fill_(x, 40000)
    b = make(np.zeros(2, bool), device)
    b.client.fill_(b, float("nan"))
    assert_close(b, np.ones(2, bool))


def test_setitem_scalar_uses_fill(device):
    x = make(np.arange(12.0).reshape(3, 4), device)
    x[:, 1] = 9.5
    ref = np.arange(12.0).reshape(3, 4)
    ref[:, 1] = 9.5
    assert_close(x, ref)


def test_fill_refuses_broadcast_views(device):
    """fill_/zero_ of a view whose stride-0 dims alias one location raise ShapeError (torch raises,
    NumPy's broadcast views are read-only) and write nothing; a size-1 stride-0 dim, or a row of
    the view that no longer aliases, may be written."""
    x = make(np.arange(3.0), device)
    v = x.expand(2, 3)
    for write in (lambda: v.fill_(1.0), lambda: v.zero_(), lambda: x.client.fill_(v, 2.0),
                  lambda: v.__setitem__((slice(None), 0), 5.0)):
        with pytest.raises(nr.ShapeError, match="stride 0"):
            write()
        assert_close(x, np.arange(3.0))
    v[1] = 7.0  # one row of the view: (3,) with stride 1
    assert_close(x, np.full(3, 7.0))
    x.expand(1, 3).fill_(4.0)
    assert_close(x, np.full(3, 4.0))


def _ref_clamp(a, lo, hi):
    r = a
    if lo is not None:
        r = np.maximum(r, lo)
    if hi is not None:
        r = np.minimum(r, hi)
    return r


@pytest.mark.parametrize("dtype", REAL)
def test_clamp_dtypes(device, dtype):
    d = nr.dtype(dtype)
    if d.kind == "b":
        a = np.array([True, False, True])
        lo, hi = False, True
    elif d.kind == "u":
        a = np.array([0, 3, 7, 100, int(np.iinfo(d.np).max)], d.np)
        lo, hi = 3, 50
    elif d.kind == "i":
        a = np.array([int(np.iinfo(d.np).min), -7, 0, 5, 100], d.np)
        lo, hi = -5, 50
    else:
        a = np.array([-np.inf, -3.0, -0.5, 0.0, 0.75, 2.0, 100.0, np.inf, np.nan]).astype(d.np)
        lo, hi = -1, 2
    x = make(a, device)
    lo_t = make(np.array(lo, d.np), device)
    hi_t = make(np.array(hi, d.np), device)
    got = nr.clamp(x, lo_t, hi_t)
    ref = _ref_clamp(a.astype(np.float64) if d.kind == "f" else a, lo, hi)
    assert_close(got, np.asarray(ref).astype(d.np), dtype=d)
    # Python scalar bounds (the CPU's per-call path for a row-major tensor), an offset view,
    # one-sided, 0-d and empty tensors
    assert_close(nr.clamp(x, lo, hi), np.asarray(ref).astype(d.np), dtype=d)
    assert_close(x[1:].clamp(lo, hi), np.asarray(ref).astype(d.np)[1:], dtype=d)
    assert_close(x[1:].clamp(None, hi), np.asarray(_ref_clamp(a[1:], None, hi)).astype(d.np), dtype=d)
    assert_close(x[0].clamp(lo), np.asarray(_ref_clamp(a[:1], lo, None)).astype(d.np)[0], dtype=d)
    assert_close(x[:0].clamp(lo, hi), a[:0], dtype=d)


def test_clamp_one_sided_and_nan_bounds(device):
    a = np.array([-2.0, 0.0, 3.0, np.nan])
    x = make(a, device)
    assert_close(nr.clamp(x, min=0.0), np.maximum(a, 0.0))
    assert_close(nr.clamp(x, max=1.0), np.minimum(a, 1.0))
    assert_close(nr.clamp(x, np.nan, 1.0), np.clip(a, np.nan, 1.0))
    assert_close(nr.clamp(x, 2.0, 1.0), np.clip(a, 2.0, 1.0))  # lo > hi -> hi


def test_clamp_broadcast_strided_bounds(device):
    rng = np.random.default_rng(0)
    a = rng.standard_normal((5, 6, 4)).astype(np.float32)
    lo = rng.standard_normal((6, 1)).astype(np.float32) - 1
    hi = rng.standard_normal((4,)).astype(np.float32) + 1
    x = make(a, device)
    got = nr.clamp(x.flip(0)[:, ::2], make(lo, device)[::2], make(hi, device))
    ref = np.clip(a[::-1][:, ::2], lo[::2], hi)
    assert_close(got, ref, dtype=nr.float32, rtol=0, atol=0)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32"])
def test_clamp_dense_tensor_bounds(device, dtype):
    """Same-shape bounds (the dense three-operand loop): NaN in x or in a bound, lo > hi, one-sided."""
    rng = np.random.default_rng(14)
    a, lo, hi = (rng.integers(-9, 9, 300).astype(dtype) for _ in range(3))
    if dtype != "int32":
        a[::7], lo[::11], hi[::13] = np.nan, np.nan, np.nan
    x, tl, th = (make(v, device) for v in (a, lo, hi))
    assert_close(nr.clamp(x, tl, th), np.minimum(np.maximum(a, lo), hi), dtype=dtype)
    assert_close(nr.clamp(x, min=tl), np.maximum(a, lo), dtype=dtype)
    assert_close(nr.clamp(x, max=th), np.minimum(a, hi), dtype=dtype)
    assert_close(nr.clamp(x, -3, 4), np.minimum(np.maximum(a, -3), 4), dtype=dtype)


def test_clamp_promotion(device):
    x = make(np.array([1, 5, 9], np.int32), device)
    assert_close(nr.clamp(x, 2, 6), np.array([2, 5, 6], np.int32), dtype=nr.int32)
    assert_close(nr.clamp(x, 2.5), np.array([2.5, 5, 9]), dtype=nr.float64)
    y = make(np.array([1.0, 5.0], np.float16), device)
    assert_close(nr.clamp(y, make(np.array([2.0], np.float32), device)), np.array([2.0, 5.0], np.float32),
                 dtype=nr.float32)


def test_clamp_large_parallel(device):
    a = np.linspace(-3, 3, 200_000)
    got = nr.clamp(make(a, device).reshape(400, 500).T, -1.0, 1.0)
    assert_close(got, np.clip(a.reshape(400, 500).T, -1, 1), rtol=0, atol=0)


def test_clamp_errors(device):
    z = make(np.array([1 + 1j]), device)
    with pytest.raises((nr.DTypeError, nr.UnsupportedOperation)):
        nr.clamp(z, 0, 1)
    with pytest.raises(nr.ShapeError, match="clamp"):
        nr.clamp(make(np.zeros(3), device), make(np.zeros(2), device))
