"""NaN-ignoring reductions and higher moments of the statistics family against NumPy/SciPy
float64 oracles (np.nanvar/nanstd/nanprod/nanmax/nanmin/nanargmax/nanargmin/nanquantile/nancumsum/
nancumprod, scipy.stats.skew/kurtosis): dtypes, dims, keepdim, all-NaN slices, views, inf,
integers, 0-d and empty inputs, errors; gradients (reverse and forward mode) against central
differences in float64."""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import assert_close
from fd_checks import check_grads
from numeric_cases import make, needs, oracle

import numr as nr

try:
    from scipy import stats
except ImportError:  # pragma: no cover - scipy is optional
    stats = None

NAN, INF = math.nan, math.inf


def data(dtype):
    a = np.array([[1.0, NAN, 3.0, -2.0], [NAN, NAN, NAN, NAN], [0.5, 4.0, NAN, INF]])
    return a.astype(nr.dtype(dtype).np)


FLOATS = ["float64", "float32", "float16", "bfloat16"]


@pytest.mark.parametrize("dtype", FLOATS)
def test_nanvar_nanstd(device, dtype):
    needs(device, "float64")
    a = data(dtype)
    a[2, 3] = 7.0  # finite, so the variances are
    x = make(a, device)
    ref = x.numpy().astype(np.float64)
    for dim, keep, ddof in ((None, False, 0), (1, False, 0), (0, True, 1), ((0, 1), False, 2), (-1, True, 3)):
        axis = dim if dim is not None else None
        assert_close(nr.nanvar(x, dim, ddof, keep), oracle(np.nanvar, ref, axis, ddof=ddof, keepdims=keep), dtype=dtype)
        assert_close(nr.nanstd(x, dim, ddof, keep), oracle(np.nanstd, ref, axis, ddof=ddof, keepdims=keep), dtype=dtype)
    assert_close(nr.nanvar(x.T[::-1], 0), oracle(np.nanvar, ref.T[::-1], 0), dtype=dtype)
    assert_close(nr.nanvar(x[:, :0], 1), oracle(np.nanvar, ref[:, :0], 1), dtype=dtype)  # empty: NaN


def test_nan_moments_integers_and_0d(device):
    needs(device, "float64")
    ints = np.array([[1, 5, -3], [2**31 - 1, 0, 7]], np.int32)
    x = make(ints, device)
    assert_close(nr.nanvar(x, 1), np.nanvar(ints.astype(np.float64), 1), dtype="float64")
    assert_close(nr.nanstd(x), np.nanstd(ints.astype(np.float64)), dtype="float64")
    assert_close(nr.nanprod(x, 1), np.nanprod(ints, 1).astype(np.int64), dtype="int64")  # prod's dtype rule
    assert_close(nr.nanmax(x, 0), np.nanmax(ints, 0), dtype="int32")
    assert_close(nr.nanargmin(x, 1), np.nanargmin(ints, 1), dtype="int64")
    assert_close(nr.nancumsum(x, 1), np.nancumsum(ints, 1), dtype="int64")
    z = make(np.array(2.5), device)
    assert_close(nr.nanvar(z), 0.0)
    assert_close(nr.nanmax(z), 2.5)
    assert_close(nr.nanmax(make(np.array(NAN), device)), NAN)
    assert_close(nr.nancumsum(make(np.array(NAN), device)), [0.0])


@pytest.mark.parametrize("dtype", FLOATS)
def test_nanprod_nanmax_nanmin_nancum(device, dtype):
    needs(device, "float64")
    x = make(data(dtype), device)
    ref = x.numpy().astype(np.float64)
    for dim, keep in ((None, False), (1, False), (0, True), ((0, 1), True)):
        assert_close(nr.nanprod(x, dim, keep), oracle(np.nanprod, ref, dim, keepdims=keep), dtype=dtype)
        assert_close(nr.nanmax(x, dim, keep), oracle(np.nanmax, ref, dim, keepdims=keep), dtype=dtype)
        assert_close(nr.nanmin(x, dim, keep), oracle(np.nanmin, ref, dim, keepdims=keep), dtype=dtype)
    for dim in (None, 0, 1, -1):
        assert_close(nr.nancumsum(x, dim), np.nancumsum(ref, dim), dtype=dtype)
        assert_close(nr.nancumprod(x, dim), np.nancumprod(ref, dim), dtype=dtype)
    assert_close(nr.nanmax(x[::-1, 1:], 1), oracle(np.nanmax, ref[::-1, 1:], 1), dtype=dtype)
    with pytest.raises(nr.ShapeError):  # as max, NumPy's ValueError
        nr.nanmax(x[:, :0], 1)


@pytest.mark.parametrize("dtype", ["float64", "float32", "float16"])
def test_nanargmax_nanargmin(device, dtype):
    a = np.array([[1.0, NAN, 3.0, 3.0], [NAN, -INF, NAN, 2.0], [0.5, 4.0, NAN, -1.0]]).astype(nr.dtype(dtype).np)
    x = make(a, device)
    for dim, keep in ((None, False), (1, False), (0, True), (-1, True)):
        assert_close(nr.nanargmax(x, dim, keep), np.nanargmax(a, dim, keepdims=keep), dtype="int64")
        assert_close(nr.nanargmin(x, dim, keep), np.nanargmin(a, dim, keepdims=keep), dtype="int64")
    assert_close(nr.nanargmax(x.T[::-1], 0), np.nanargmax(a.T[::-1], 0))
    bad = make(np.array([[1.0, 2.0], [NAN, NAN]]).astype(a.dtype), device)
    assert_close(nr.nanargmax(bad, 0), [0, 0])  # no all-NaN column
    with pytest.raises(nr.DomainError):  # an all-NaN row, as NumPy's ValueError
        nr.nanargmax(bad, 1)
    with pytest.raises(ValueError):
        nr.nanargmin(make(np.full(3, NAN), device))


@pytest.mark.parametrize("interpolation", ["linear", "lower", "higher", "nearest", "midpoint"])
def test_nanquantile(device, interpolation):
    needs(device, "int64")
    needs(device, "float64")
    rng = np.random.default_rng(0)
    a = rng.standard_normal((4, 7))
    a[0, [1, 4]] = NAN
    a[2, :] = NAN
    a[3, :6] = NAN
    x = make(a, device)
    q = np.array([0.0, 0.3, 0.5, 1.0])
    for dim, keep in ((1, False), (0, True), (None, False)):
        got = nr.nanquantile(x, make(q, device), dim, keep, interpolation=interpolation)
        assert_close(got, oracle(np.nanquantile, a, q, axis=dim, keepdims=keep, method=interpolation), dtype="float64")
    assert_close(nr.nanquantile(x[:, ::-1], 0.25, 1, interpolation=interpolation),
                 oracle(np.nanquantile, a[:, ::-1], 0.25, axis=1, method=interpolation))
    x32 = make(a.astype(np.float32), device)
    assert_close(nr.nanquantile(x32, 0.5, 1, interpolation=interpolation),
                 oracle(np.nanquantile, a.astype(np.float32).astype(np.float64), 0.5, axis=1, method=interpolation),
                 dtype="float32")
    with pytest.raises(nr.ShapeError):
        nr.nanquantile(x, 1.5, 1)
    with pytest.raises(nr.DTypeError):
        nr.nanquantile(make(np.arange(3), device), 0.5)


@pytest.mark.skipif(stats is None, reason="scipy not installed")
@pytest.mark.parametrize("dtype", ["float64", "float32", "int32", "float16"])
def test_skew_kurtosis(device, dtype):
    needs(device, "float64")
    rng = np.random.default_rng(1)
    a = (rng.standard_normal((5, 6)) ** 2 * 3).astype(nr.dtype(dtype).np)
    a[4] = 2  # a constant column slice: NaN
    x = make(a, device)
    ref = x.numpy().astype(np.float64)
    out = "float64" if dtype == "int32" else dtype
    tol = {"rtol": 1e-4, "atol": 1e-4} if dtype == "float32" else {}
    for dim, keep in ((0, False), (1, True), (None, False), (-1, False)):
        for bias in (True, False):
            assert_close(nr.skew(x, dim, bias, keep), oracle(stats.skew, ref, dim, bias=bias, keepdims=keep),
                         dtype=out, **tol)
            for fisher in (True, False):
                assert_close(nr.kurtosis(x, dim, fisher, bias, keep),
                             oracle(stats.kurtosis, ref, dim, fisher=fisher, bias=bias, keepdims=keep),
                             dtype=out, **tol)
    assert_close(nr.skew(x.T[::-1], 1), oracle(stats.skew, ref.T[::-1], 1), dtype=out, **tol)
    assert_close(nr.kurtosis(x[:, :2], 1, bias=False), oracle(stats.kurtosis, ref[:, :2], 1, bias=False), dtype=out)


def test_skew_edges(device):
    needs(device, "float64")
    assert_close(nr.skew(make(np.array(3.0), device)), NAN)
    assert_close(nr.skew(make(np.array([1.0, NAN, 2.0]), device)), NAN)
    if device == "cpu":  # wgpu holds no complex tensors
        with pytest.raises(nr.DTypeError):
            nr.skew(make(np.array([1 + 1j, 2.0]), device))


def test_gradients(device):
    needs(device, "float64")
    rng = np.random.default_rng(2)
    a = rng.standard_normal((3, 5))
    mask = np.zeros_like(a, bool)
    mask[0, 1] = mask[2, 3] = True

    def with_nans(f):
        nan = make(np.where(mask, NAN, 0.0), device)
        return lambda x: f(x + nan)
    check_grads(device, with_nans(lambda x: nr.nanvar(x, 1, 1)), [a])
    check_grads(device, with_nans(lambda x: nr.nanstd(x, 0)), [a])
    check_grads(device, with_nans(lambda x: nr.nanprod(x, 1)), [a])
    check_grads(device, with_nans(lambda x: nr.nanmax(x, 1) + nr.nanmin(x, 0).sum()), [a])
    check_grads(device, with_nans(lambda x: nr.nancumsum(x, 1) + nr.nancumprod(x, 1)), [a])
    check_grads(device, lambda x: nr.skew(x, 1, bias=False) + nr.kurtosis(x, 1, bias=False), [a], rtol=1e-5,
                atol=1e-6)
    needs(device, "int64")
    check_grads(device, with_nans(lambda x: nr.nanquantile(x, 0.3, 1)), [a])
