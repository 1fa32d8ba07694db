"""The statistics family against NumPy/SciPy float64 oracles (scipy.special.logsumexp,
np.quantile(method=...), np.cov, np.corrcoef, np.histogram, np.bincount, np.linalg.norm) and
loop oracles of torch's index rules (median, kthvalue, mode, cummax/cummin): dtypes, dims,
keepdim, empty and 0-d, size-1, views (transposed, sliced, flipped, broadcast), NaN/inf and
errors; gradients (reverse and forward mode) against central differences in float64."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from conftest import assert_close
from numeric_cases import make, needs

import numr as nr
from numr.autograd import Var, backward, jvp

try:
    from scipy.special import logsumexp as sp_logsumexp
except ImportError:  # pragma: no cover - scipy is optional
    sp_logsumexp = None

INF, NAN = math.inf, math.nan


def needs_indices(device):
    """gather (order statistics' values) does int64 index arithmetic."""
    needs(device, "int64")


def lse_oracle(a, axis, keepdims=False):
    a = np.asarray(a, np.float64)
    if sp_logsumexp is not None:
        with np.errstate(all="ignore"):
            return sp_logsumexp(a, axis=axis, keepdims=keepdims)
    m = np.max(a, axis=axis, keepdims=True)
    m = np.where(np.isinf(m), 0.0, m)
    with np.errstate(all="ignore"):
        r = np.log(np.sum(np.exp(a - m), axis=axis, keepdims=True)) + m
    return r if keepdims else np.squeeze(r, axis)


FLOATS = ["float32", "float64", "float16", "bfloat16"]


@pytest.mark.parametrize("dtype", FLOATS + ["float8_e4m3fn", "int32"])
def test_logsumexp_dtypes_dims_views(device, dtype):
    if dtype == "int32":
        needs(device, "float64")
    rng = np.random.default_rng(0)
    a = (rng.standard_normal((4, 6)) * 3).astype(np.float64)
    if dtype == "int32":
        a = np.round(a)
    x = make(a.astype(nr.dtype(dtype).np), device)
    ref = x.numpy().astype(np.float64)
    out = "float64" if dtype == "int32" else dtype
    for dim, keep in ((1, False), (0, True), ((0, 1), False), (-1, True)):
        got = nr.logsumexp(x, dim, keep)
        assert_close(got, lse_oracle(ref, dim, keep), dtype=out)
    assert_close(x.T.logsumexp(0), lse_oracle(ref.T, 0), dtype=out)  # the method, a transposed view
    assert_close(nr.logsumexp(x[1:, ::-1][:, 1:4], 1), lse_oracle(ref[1:, ::-1][:, 1:4], 1), dtype=out)
    assert_close(nr.logsumexp(nr.broadcast_to(x[0], (3, 6)), 1), lse_oracle(np.broadcast_to(ref[0], (3, 6)), 1),
                 dtype=out)


def test_logsumexp_special_values(device):
    a = np.array([[-INF, -INF, -INF], [INF, 1.0, 2.0], [NAN, 1.0, 2.0], [-INF, 0.0, -INF],
                  [1000.0, 1000.0, -1000.0], [INF, -INF, 0.0]])
    for dt in ("float32", "float64"):
        x = make(a, device, dt)
        got = nr.logsumexp(x, 1)
        assert_close(got, np.array([-INF, INF, NAN, 0.0, 1000.0 + math.log(2.0), INF]), dtype=x.dtype)
    x = make(a, device, "float32")
    assert nr.logsumexp(x[:, :0], 1).numpy().tolist() == [-INF] * 6  # empty reduction
    assert nr.logsumexp(x[:, :0], 1, keepdim=True).shape == (6, 1)
    z = nr.logsumexp(make(np.float32(2.5), device), 0)
    assert z.shape == () and z.item() == 2.5
    one = nr.logsumexp(make(np.array([[7.0]]), device, "float32"), 1)
    assert_close(one, [7.0], dtype="float32")
    with pytest.raises(nr.IndexOutOfRange, match="logsumexp"):
        nr.logsumexp(x, 2)


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_logcumsumexp(device, dtype):
    rng = np.random.default_rng(1)
    a = rng.standard_normal((3, 9)) * 4
    a[0, :3] = [-1000.0, 0.0, -1000.0]  # a shift by the row max would underflow the first
    a[1, :2] = -INF
    x = make(a.astype(nr.dtype(dtype).np), device)
    ref = x.numpy().astype(np.float64)
    with np.errstate(all="ignore"):
        assert_close(nr.logcumsumexp(x, 1), np.logaddexp.accumulate(ref, 1), dtype=dtype)
        assert_close(nr.logcumsumexp(x.T, 0), np.logaddexp.accumulate(ref.T, 0), dtype=dtype)
        assert_close(x[:, ::-2].logcumsumexp(-1), np.logaddexp.accumulate(ref[:, ::-2], 1), dtype=dtype)
    special = make(np.array([[NAN, 1.0, 2.0], [INF, 1.0, INF], [-INF, -INF, -INF]]), device, dtype)
    assert_close(nr.logcumsumexp(special, 1), [[NAN] * 3, [INF] * 3, [-INF] * 3], dtype=dtype)
    assert nr.logcumsumexp(x[:, :0], 1).shape == (3, 0)
    assert nr.logcumsumexp(make(np.float64(3.0), device, dtype), 0).item() == 3.0


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "int32", "int64", "bool"])
def test_nansum_nanmean_count_nonzero(device, dtype):
    needs(device, "int64")  # count_nonzero, integer sums
    if not dtype.startswith("float"):
        needs(device, "float64")
    rng = np.random.default_rng(2)
    a = rng.integers(-3, 4, (4, 5)).astype(np.float64)
    if dtype.startswith("float"):
        a[0, 1] = a[2, :] = a[3, 4] = NAN
    x = make(a.astype(nr.dtype(dtype).np) if dtype != "bool" else a != 0, device)
    ref = x.numpy()
    r64 = ref.astype(np.float64)
    for dim, keep in ((None, False), (1, True), (0, False), ((0, 1), True)):
        s = nr.nansum(x, dim, keep)
        assert s.dtype == nr.sum(x, dim, keep).dtype
        assert_close(s, np.nansum(r64, axis=dim, keepdims=keep), rtol=2e-3 if dtype == "float16" else None)
        with warnings.catch_warnings():  # the all-NaN row: "Mean of empty slice"
            warnings.simplefilter("ignore", RuntimeWarning)
            mean_ref = np.nanmean(r64, axis=dim, keepdims=keep)
        m = nr.nanmean(x, dim, keep)
        assert m.dtype == (x.dtype if dtype.startswith("float") else nr.float64)
        assert_close(m, mean_ref, rtol=2e-3 if dtype == "float16" else None)
        c = nr.count_nonzero(x, dim)
        assert_close(c, np.count_nonzero(ref, axis=dim), dtype="int64")
    assert nr.count_nonzero(x[:0]).item() == 0


def _median_oracle(a, axis, ignore_nan=False):
    """torch.median along the last axis of a moved view: (values, indices)."""
    b = np.moveaxis(a, axis, -1)
    vals, idx = np.empty(b.shape[:-1], a.dtype), np.empty(b.shape[:-1], np.int64)
    for k in np.ndindex(b.shape[:-1]):
        row = b[k]
        order = np.argsort(row, kind="stable")  # NaN last, as numr's total order
        nans = int(np.isnan(row).sum()) if row.dtype.kind == "f" else 0
        n = row.shape[0]
        if ignore_nan:
            pos = (n - nans - 1) // 2 if n > nans else 0
        else:
            pos = n - nans if nans else (n - 1) // 2
        idx[k] = order[pos]
        vals[k] = row[order[pos]]
    return vals, idx


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16", "float8_e4m3fn", "int32", "int64",
                                   "uint8"])
def test_median_kthvalue(device, dtype):
    needs_indices(device)
    rng = np.random.default_rng(3)
    a = rng.integers(0, 6, (4, 7)).astype(nr.dtype(dtype).np)  # many ties
    if nr.dtype(dtype).is_floating_point:
        a[1, 2] = a[3, 0] = a[3, 5] = NAN
    x = make(a, device)
    a = x.numpy().astype(np.float64) if nr.dtype(dtype).is_floating_point else x.numpy()  # exact: ties kept
    for dim in (0, 1, -1):
        for keep in (False, True):
            v, i = nr.median(x, dim, keep)
            rv, ri = _median_oracle(a, dim)
            if keep:
                rv, ri = np.expand_dims(rv, dim), np.expand_dims(ri, dim)
            assert_close(v, rv, dtype=dtype, rtol=0, atol=0)
            assert_close(i, ri, dtype="int64")
        v, i = nr.nanmedian(x, dim)
        rv, ri = _median_oracle(a, dim, ignore_nan=True)
        assert_close(v, rv, dtype=dtype, rtol=0, atol=0)
        assert_close(i, ri, dtype="int64")
        for k in (1, 3, x.shape[dim]):
            v, i = nr.kthvalue(x, k, dim)
            order = np.argsort(a, axis=dim, kind="stable")
            ri = np.take(order, k - 1, axis=dim)
            assert_close(i, ri, dtype="int64")
            assert_close(v, np.take_along_axis(a, np.expand_dims(ri, dim), dim).squeeze(dim), dtype=dtype,
                         rtol=0, atol=0)
    flat = a.reshape(-1)
    whole = x.median()
    assert whole.shape == () and whole.dtype == nr.dtype(dtype)
    assert_close(whole, _median_oracle(flat, 0)[0], rtol=0, atol=0)
    assert_close(nr.nanmedian(x, keepdim=True), _median_oracle(flat, 0, True)[0].reshape(1, 1), rtol=0, atol=0)
    # views: a flipped, sliced transpose
    v, i = nr.median(x.T[::-1, 1:], 1)
    rv, ri = _median_oracle(a.T[::-1, 1:], 1)
    assert_close(v, rv, rtol=0, atol=0)
    assert_close(i, ri)
    v, i = nr.median(nr.broadcast_to(x[2:3], (3, 7)), 1)  # a broadcast (stride 0) view
    rv, ri = _median_oracle(np.broadcast_to(a[2:3], (3, 7)), 1)
    assert_close(v, rv, rtol=0, atol=0)
    assert_close(i, ri)


@pytest.mark.parametrize("dtype", ["int64", "int32", "int8", "uint64"])
def test_integer_extremes(device, dtype):
    needs_indices(device)
    info = np.iinfo(dtype)
    a = np.array([[info.max, info.min, 0, info.max, info.min + 1, info.min]], dtype)
    x = make(a, device)
    for fn, largest in ((nr.cummax, True), (nr.cummin, False)):
        v, i = fn(x, 1)
        rv, ri = _cum_oracle(a, 1, largest)
        assert_close(v, rv, dtype=dtype)
        assert_close(i, ri, dtype="int64")
    v, i = nr.median(x, 1)
    rv, ri = _median_oracle(a, 1)
    assert_close(v, rv, dtype=dtype)
    assert_close(i, ri, dtype="int64")
    v, i = nr.mode(x, 1)
    rv, ri = _mode_oracle(a, 1)
    assert_close(v, rv, dtype=dtype)
    assert_close(i, ri, dtype="int64")
    assert_close(nr.kthvalue(x, 6)[0], [a.max()], dtype=dtype)
    with np.errstate(over="ignore"):
        assert_close(nr.diff(x), np.diff(a), dtype=dtype)  # wraps around, as NumPy


def test_median_edges_and_errors(device):
    needs_indices(device)
    x = make(np.array([[4.0, 1.0, 3.0, 2.0]]), device)
    v, i = nr.median(x, 1)
    assert v.item() == 2.0 and i.item() == 3  # the lower middle
    v, i = nr.median(make(np.float32(5.0), device), 0)
    assert v.shape == () and i.shape == () and v.item() == 5.0 and i.item() == 0 and i.dtype == nr.int64
    v, i = nr.kthvalue(make(np.array([2.0]), device), 1)
    assert v.item() == 2.0 and i.item() == 0
    assert math.isnan(nr.median(make(np.zeros(0), device)).item())
    assert math.isnan(nr.nanmedian(make(np.array([NAN, NAN]), device)).item())
    with pytest.raises(nr.IndexOutOfRange, match="median"):
        nr.median(make(np.zeros((2, 0)), device), 1)
    with pytest.raises(nr.IndexOutOfRange, match="kthvalue"):
        nr.kthvalue(x, 5, 1)
    with pytest.raises(nr.IndexOutOfRange, match="kthvalue"):
        nr.kthvalue(x, 0)
    with pytest.raises(nr.ShapeError, match="kthvalue"):
        nr.kthvalue(x, 1.5)
    with pytest.raises(nr.IndexOutOfRange, match="median"):
        nr.median(x, 2)


@pytest.mark.parametrize("interpolation", ["linear", "lower", "higher", "nearest", "midpoint"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_quantile(device, dtype, interpolation):
    needs_indices(device)
    rng = np.random.default_rng(4)
    a = rng.standard_normal((3, 9)).astype(nr.dtype(dtype).np)
    x = make(a, device)
    a = x.numpy().astype(np.float64)
    qs = np.array([0.0, 0.1, 0.25, 0.5, 0.625, 0.9, 1.0])
    qt = make(qs, device, dtype)
    tol = {"rtol": 2e-3, "atol": 2e-3} if dtype == "float16" else {}
    for dim in (None, 0, 1):
        for keep in (False, True):
            got = nr.quantile(x, qt, dim, keep, interpolation)
            ref = np.quantile(a, qs.astype(nr.dtype(dtype).np).astype(np.float64), axis=dim, keepdims=keep,
                              method=interpolation)
            assert_close(got, ref, dtype=dtype, **tol)
        got = nr.quantile(x, 0.3, dim, interpolation=interpolation)
        assert_close(got, np.quantile(a, 0.3, axis=dim, method=interpolation), dtype=dtype,
                     **({"rtol": 2e-3, "atol": 2e-3} if dtype != "float64" else {}))
    got = x.T[::-1].quantile([0.5, 0.75], 0, interpolation=interpolation)  # a flipped transposed view
    assert_close(got, np.quantile(a.T[::-1], [0.5, 0.75], axis=0, method=interpolation), dtype=dtype,
                 **({"rtol": 2e-3, "atol": 2e-3} if dtype != "float64" else {}))


def test_quantile_nan_and_errors(device):
    needs_indices(device)
    x = make(np.array([[1.0, NAN, 3.0], [1.0, 2.0, 3.0]]), device)
    got = nr.quantile(x, [0.0, 0.5], 1)
    assert_close(got, [[NAN, 1.0], [NAN, 2.0]])
    assert math.isnan(nr.quantile(x, 0.5).item())  # NaN anywhere in the flattened input
    assert nr.quantile(make(np.float64(4.0), device), 0.5).item() == 4.0
    assert nr.quantile(make(np.array([4.0]), device), [0.2, 0.7]).numpy().tolist() == [4.0, 4.0]
    with pytest.raises(nr.ShapeError, match="quantile"):
        nr.quantile(x, 1.5)
    with pytest.raises(nr.ShapeError, match="quantile"):
        nr.quantile(x, [[0.5]])
    with pytest.raises(nr.ShapeError, match="interpolation"):
        nr.quantile(x, 0.5, interpolation="cubic")
    with pytest.raises(nr.DTypeError, match="quantile"):
        nr.quantile(make(np.array([1, 2]), device), 0.5)
    with pytest.raises(nr.IndexOutOfRange, match="quantile"):
        nr.quantile(make(np.zeros((2, 0)), device), 0.5, 1)


def _mode_oracle(a, axis):
    b = np.moveaxis(a, axis, -1)
    vals, idx = np.empty(b.shape[:-1], a.dtype), np.empty(b.shape[:-1], np.int64)
    for k in np.ndindex(b.shape[:-1]):
        row = b[k]
        u, c = np.unique(row, return_counts=True)
        best = u[np.argmax(c)]  # np.unique is sorted: argmax's first hit is the smallest mode
        vals[k] = best
        idx[k] = np.nonzero(row == best)[0][-1]  # torch: the last occurrence
    return vals, idx


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64", "int8", "bool"])
def test_mode(device, dtype):
    needs_indices(device)
    rng = np.random.default_rng(5)
    a = rng.integers(0, 4, (5, 8))
    a = (a % 2 == 0) if dtype == "bool" else a.astype(dtype)
    x = make(a, device)
    for dim in (0, 1):
        for keep in (False, True):
            v, i = nr.mode(x, dim, keep)
            rv, ri = _mode_oracle(a, dim)
            if keep:
                rv, ri = np.expand_dims(rv, dim), np.expand_dims(ri, dim)
            assert_close(v, rv, dtype=dtype)
            assert_close(i, ri, dtype="int64")
    v, i = nr.mode(x[:, ::-1][1:], 1)
    rv, ri = _mode_oracle(a[:, ::-1][1:], 1)
    assert_close(v, rv, dtype=dtype)
    assert_close(i, ri, dtype="int64")
    v, i = nr.mode(make(np.array([3.0]), device))
    assert v.item() == 3.0 and i.item() == 0
    with pytest.raises(nr.IndexOutOfRange, match="mode"):
        nr.mode(make(np.zeros((3, 0)), device))


def _cum_oracle(a, axis, largest):
    b = np.moveaxis(a, axis, -1)
    vals, idx = np.empty_like(b), np.empty(b.shape, np.int64)
    for k in np.ndindex(b.shape[:-1]):
        row = b[k]
        best, bi = row[0], 0
        for j, v in enumerate(row):
            nan_v = b.dtype.kind not in "biu" and np.isnan(v)
            nan_b = b.dtype.kind not in "biu" and np.isnan(best)
            if nan_v or (not nan_b and (v >= best if largest else v <= best)):
                best, bi = v, j
            vals[k + (j,)], idx[k + (j,)] = best, bi
    return np.moveaxis(vals, -1, axis), np.moveaxis(idx, -1, axis)


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16", "int32", "int64", "uint8", "bool"])
def test_cummax_cummin(device, dtype):
    needs_indices(device)
    rng = np.random.default_rng(6)
    a = rng.integers(0, 5, (4, 11))
    a = (a > 2) if dtype == "bool" else a.astype(nr.dtype(dtype).np)
    if nr.dtype(dtype).is_floating_point:
        a[1, 3] = a[1, 7] = a[2, 0] = NAN
        a[3, 5] = -INF
    x = make(a, device)
    for fn, largest in ((nr.cummax, True), (nr.cummin, False)):
        for dim in (0, 1, -1):
            v, i = fn(x, dim)
            rv, ri = _cum_oracle(a, dim, largest)
            assert_close(v, rv, dtype=dtype, rtol=0, atol=0)
            assert_close(i, ri, dtype="int64")
        v, i = fn(x.T[::-1, 2:], 0)
        rv, ri = _cum_oracle(a.T[::-1, 2:], 0, largest)
        assert_close(v, rv, rtol=0, atol=0)
        assert_close(i, ri)
    v, i = nr.cummax(nr.broadcast_to(x[1:2], (3, 11)), 1)  # a broadcast (stride 0) view
    rv, ri = _cum_oracle(np.broadcast_to(a[1:2], (3, 11)).copy(), 1, True)
    assert_close(v, rv, rtol=0, atol=0)
    assert_close(i, ri)
    v, i = nr.cummax(x[:, :0], 1)
    assert v.shape == (4, 0) and i.shape == (4, 0) and i.dtype == nr.int64
    v, i = nr.cummin(make(np.float32(2.0), device), 0)
    assert v.shape == () and v.item() == 2.0 and i.item() == 0
    with pytest.raises(nr.IndexOutOfRange, match="cummax"):
        nr.cummax(x, 2)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64", "uint8", "bool"])
def test_diff(device, dtype):
    if dtype == "int64":
        needs(device, "int64")
    rng = np.random.default_rng(7)
    a = rng.integers(0, 9, (4, 6))
    a = (a > 4) if dtype == "bool" else a.astype(dtype)
    x = make(a, device)
    for n in (0, 1, 2, 5, 6, 9):
        for dim in (0, 1, -1):
            got = nr.diff(x, n, dim)
            ref = np.diff(a, n, axis=dim)
            assert_close(got, ref, dtype=dtype)
    assert_close(x.T[::-1].diff(), np.diff(a.T[::-1]), dtype=dtype)
    if dtype != "bool":
        pre = np.ones((4, 2), dtype)
        got = nr.diff(x, 1, 1, prepend=make(pre, device), append=3)
        assert_close(got, np.diff(a, 1, 1, prepend=pre, append=3), dtype=dtype)
        got = nr.diff(x, 2, 0, prepend=1)
        assert_close(got, np.diff(a, 2, 0, prepend=1), dtype=dtype)
    with pytest.raises(nr.ShapeError, match="diff"):
        nr.diff(make(np.array(1.0), device))
    with pytest.raises(nr.ShapeError, match="diff"):
        nr.diff(x, -1)
    with pytest.raises(nr.ShapeError, match="prepend"):
        nr.diff(x, 1, 1, prepend=make(np.ones((3, 2), a.dtype), device))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_var_mean_std_mean(device, dtype):
    rng = np.random.default_rng(8)
    a = rng.standard_normal((4, 5)).astype(dtype)
    x = make(a, device)
    for dim, keep, corr in ((None, False, 1), (1, True, 0), ((0, 1), False, 2), (0, False, 1)):
        v, m = nr.var_mean(x, dim, corr, keep)
        s, m2 = nr.std_mean(x, dim, correction=corr, keepdim=keep)
        ax = dim
        assert_close(v, np.var(a.astype(np.float64), axis=ax, ddof=corr, keepdims=keep), dtype=dtype)
        assert_close(s, np.std(a.astype(np.float64), axis=ax, ddof=corr, keepdims=keep), dtype=dtype)
        assert_close(m, np.mean(a.astype(np.float64), axis=ax, keepdims=keep), dtype=dtype)
        assert_close(m2, np.mean(a.astype(np.float64), axis=ax, keepdims=keep), dtype=dtype)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "float16"])
def test_cov_corrcoef(device, dtype):
    needs(device, "int64")  # fweights
    if dtype == "int64":
        needs(device, "float64")
    rng = np.random.default_rng(9)
    a = rng.integers(-5, 6, (3, 7)).astype(dtype)
    x = make(a, device)
    out = "float64" if dtype == "int64" else dtype
    a64 = a.astype(np.float64)
    tol = {"rtol": 1e-2, "atol": 1e-2} if dtype == "float16" else {}
    assert_close(nr.cov(x), np.cov(a64), dtype=out, **tol)
    assert_close(nr.cov(x, correction=0), np.cov(a64, bias=True), dtype=out, **tol)
    assert_close(nr.cov(x.T[::-1].T), np.cov(a64[:, ::-1]), dtype=out, **tol)  # a flipped view
    fw = rng.integers(0, 4, 7)
    aw = rng.uniform(0.1, 2.0, 7)
    for kw in ({"fweights": fw}, {"aweights": aw}, {"fweights": fw, "aweights": aw}):
        for corr in (0, 1, 2):
            args = {k: make(v, device) for k, v in kw.items()}
            ref = np.cov(a64, ddof=corr, **kw)
            assert_close(nr.cov(x, correction=corr, **args), ref, dtype=out, rtol=1e-2 if dtype == "float16"
                         else 1e-5 if dtype == "float32" else 1e-12, atol=1e-2 if dtype == "float16" else 1e-6)
    assert_close(nr.corrcoef(x), np.corrcoef(a64), dtype=out, **tol)
    c = nr.cov(x[0])
    assert c.shape == () and abs(c.item() - np.cov(a64[0])) < 1e-2
    assert nr.corrcoef(x[0]).item() == pytest.approx(1.0)
    with pytest.raises(nr.ShapeError, match="cov"):
        nr.cov(make(np.zeros((2, 2, 2)), device))
    with pytest.raises(nr.ShapeError, match="fweights"):
        nr.cov(x, fweights=make(np.ones(3, np.int64), device))
    with pytest.raises(nr.DTypeError, match="fweights"):
        nr.cov(x, fweights=make(np.ones(7), device))
    with pytest.raises(nr.ShapeError, match="aweights"):
        nr.cov(x, aweights=make(-np.ones(7), device))


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "int32"])
def test_histc(device, dtype):
    if dtype == "int32":
        needs(device, "float64")
    rng = np.random.default_rng(10)
    a = (rng.standard_normal(200) * 2).astype(dtype) if dtype != "int32" else rng.integers(-5, 6, 200).astype(dtype)
    x = make(a, device)
    out = "float64" if dtype == "int32" else dtype
    a64 = x.numpy().astype(np.float64)
    for bins, lo, hi in ((10, -3.0, 3.0), (7, 0.0, 0.0), (1, -1.0, 1.0), (5, 2.0, 2.0)):
        got = nr.histc(x, bins, lo, hi)
        if lo == hi:  # torch: min == max takes the data's range
            lo, hi = a64.min(), a64.max()
        ref = np.histogram(a64, bins, range=(lo, hi))[0]
        assert_close(got, ref, dtype=out, rtol=0, atol=0)
    assert_close(nr.histc(x.reshape(20, 10).T, 4, -1, 1), np.histogram(a64, 4, range=(-1, 1))[0], dtype=out)
    with_nan = make(np.array([NAN, 0.5, 1.0, 5.0, -INF]), device, "float32")
    assert nr.histc(with_nan, 2, 0, 1).numpy().tolist() == [0.0, 2.0]  # NaN and outside are ignored
    same = make(np.array([3.0, 3.0]), device, "float32")
    assert nr.histc(same, 4).numpy().tolist() == [0.0, 0.0, 2.0, 0.0]  # range [2, 4]
    assert nr.histc(make(np.zeros(0), device, "float32"), 3).numpy().tolist() == [0.0, 0.0, 0.0]
    with pytest.raises(nr.ShapeError, match="histc"):
        nr.histc(x, 0)
    with pytest.raises(nr.ShapeError, match="histc"):
        nr.histc(x, 4, 2, 1)
    with pytest.raises(nr.ShapeError, match="histc"):
        nr.histc(with_nan, 4)  # the data's range is not finite


@pytest.mark.parametrize("dtype", ["int64", "int32", "uint8", "int16", "bool"])
def test_bincount(device, dtype):
    needs(device, "int64")  # int64 counts
    rng = np.random.default_rng(11)
    a = rng.integers(0, 9, 40)
    a = (a > 4) if dtype == "bool" else a.astype(dtype)
    x = make(a, device)
    assert_close(nr.bincount(x), np.bincount(a), dtype="int64")
    assert_close(nr.bincount(x, minlength=20), np.bincount(a, minlength=20), dtype="int64")
    assert_close(x[::-3].bincount(), np.bincount(a[::-3]), dtype="int64")  # a negative-stride view
    w = rng.standard_normal(40)
    for wd in ("float32", "float64"):
        got = nr.bincount(x, make(w.astype(wd), device), 3)
        assert_close(got, np.bincount(a, w.astype(wd).astype(np.float64), 3), dtype=wd)
    assert_close(nr.bincount(x, make(np.arange(40), device)), np.bincount(a, np.arange(40)), dtype="float64")
    assert_close(nr.bincount(make(np.zeros(0, np.int64), device), minlength=3), [0, 0, 0], dtype="int64")
    assert nr.bincount(make(np.zeros(0, np.int64), device)).shape == (0,)
    with pytest.raises(nr.IndexOutOfRange, match="bincount"):
        nr.bincount(make(np.array([1, -2]), device))
    with pytest.raises(nr.DTypeError, match="bincount"):
        nr.bincount(make(np.array([1.0]), device))
    with pytest.raises(nr.ShapeError, match="bincount"):
        nr.bincount(make(np.zeros((2, 2), np.int64), device))
    with pytest.raises(nr.ShapeError, match="weights"):
        nr.bincount(x, make(np.ones(3), device))


@pytest.mark.parametrize("dtype", FLOATS + ["int32"])
def test_vector_norm(device, dtype):
    if dtype == "int32":
        needs(device, "float64")
    rng = np.random.default_rng(12)
    a = rng.integers(-4, 5, (3, 5)).astype(np.float64)
    x = make(a.astype(nr.dtype(dtype).np), device)
    out = "float64" if dtype == "int32" else dtype
    for ord in (2, 1, INF, -INF, 0, 3, 0.5, -1.5):
        for dim, keep in ((None, False), (1, False), (0, True), ((0, 1), True)):
            ref = np.abs(a)
            with np.errstate(divide="ignore"):
                if ord == INF:
                    r = ref.max(axis=dim, keepdims=keep)
                elif ord == -INF:
                    r = ref.min(axis=dim, keepdims=keep)
                elif ord == 0:
                    r = (ref != 0).sum(axis=dim, keepdims=keep).astype(np.float64)
                else:
                    r = (ref ** ord).sum(axis=dim, keepdims=keep) ** (1.0 / ord)
            got = nr.vector_norm(x, ord, dim, keep)
            assert_close(got, r, dtype=out)
    assert_close(nr.norm(x), np.linalg.norm(a), dtype=out)
    assert_close(nr.norm(x, "fro"), np.linalg.norm(a, "fro"), dtype=out)
    assert_close(x.T[::-1].vector_norm(1, 0), np.linalg.norm(a.T[::-1], 1, axis=0), dtype=out)
    assert nr.vector_norm(x[:0]).item() == 0.0
    with pytest.raises(nr.IndexOutOfRange, match="vector_norm"):
        nr.vector_norm(x[:0], INF)


def test_vector_norm_complex(device):
    a = np.array([3 + 4j, 1 - 1j, 0], np.complex64)
    x = make(a, device)
    got = nr.vector_norm(x)
    assert_close(got, np.linalg.norm(a.astype(np.complex128)), dtype="float32")


# ---- gradients: central differences in float64, reverse and forward mode


def _f64(device):
    t = make(np.zeros(1), device)
    if t.dtype != nr.float64:
        pytest.skip(f"{device} has no float64")


def _check_grad(device, fn, a, seed=0, eps=1e-6, tol=1e-6):
    """d sum(w * fn(x)) / dx by reverse mode, and the jvp along a random tangent, against central
    differences."""
    rng = np.random.default_rng(seed)
    out = fn(make(a, device))
    w = make(rng.standard_normal(out.shape), device)

    def loss(arr):
        return (fn(make(arr, device)) * w).sum().item()

    xv = Var(make(a, device))
    g = backward((fn(xv) * w).sum())[xv]
    num = np.zeros_like(a)
    for k in np.ndindex(a.shape):
        hi, lo = a.copy(), a.copy()
        hi[k] += eps
        lo[k] -= eps
        num[k] = (loss(hi) - loss(lo)) / (2 * eps)
    assert_close(g, num, rtol=tol, atol=tol)
    t = rng.standard_normal(a.shape)
    _, tan = jvp(fn, (make(a, device),), (make(t, device),))
    with_t = (fn(make(a + eps * t, device)).numpy() - fn(make(a - eps * t, device)).numpy()) / (2 * eps)
    assert_close(tan, with_t, rtol=tol, atol=tol)


def test_gradients_reductions(device):
    _f64(device)
    rng = np.random.default_rng(13)
    a = rng.standard_normal((3, 5))
    _check_grad(device, lambda x: nr.logsumexp(x, 1), a)
    _check_grad(device, lambda x: nr.logsumexp(x, (0, 1), keepdim=True), a)
    _check_grad(device, lambda x: nr.logcumsumexp(x, 1), a)
    _check_grad(device, lambda x: nr.diff(x, 2, 1, prepend=0.5), a)
    _check_grad(device, lambda x: nr.nanmean(x, 0), a)
    _check_grad(device, lambda x: nr.var_mean(x, 1)[0] + nr.std_mean(x, 1)[1], a)
    for ord in (2, 1, INF, -INF, 3, 0.5):
        _check_grad(device, lambda x, o=ord: nr.vector_norm(x, o, 1), a)
    _check_grad(device, lambda x: nr.cov(x), a)
    _check_grad(device, lambda x: nr.cov(x, aweights=make(np.linspace(0.5, 2, 5), device)), a)
    _check_grad(device, lambda x: nr.corrcoef(x), a, tol=1e-5)


def test_gradients_order_statistics(device):
    needs_indices(device)
    _f64(device)
    rng = np.random.default_rng(14)
    a = rng.standard_normal((3, 6))
    _check_grad(device, lambda x: nr.median(x, 1)[0], a)
    _check_grad(device, lambda x: nr.median(x), a)
    _check_grad(device, lambda x: nr.nanmedian(x, 0, keepdim=True)[0], a)
    _check_grad(device, lambda x: nr.kthvalue(x, 4, 1)[0], a)
    for interp in ("linear", "lower", "midpoint"):
        _check_grad(device, lambda x, i=interp: nr.quantile(x, make(np.array([0.3, 0.8]), device), 1,
                                                             interpolation=i), a)
    _check_grad(device, lambda x: nr.cummax(x, 1)[0] + nr.cummin(x, 0)[0], a)
    _check_grad(device, lambda x: nr.bincount(make(np.array([0, 2, 2, 1, 0, 2]), device), x[0]), a)


def test_gradient_ties_as_torch(device):
    """ord=inf shares the gradient evenly among tied maxima, as torch.linalg.vector_norm."""
    needs_indices(device)
    _f64(device)
    xv = Var(make(np.array([3.0, -3.0, 1.0]), device))
    g = backward(nr.vector_norm(xv, INF))[xv]
    assert_close(g, [0.5, -0.5, 0.0])
    _, tan = jvp(lambda x: nr.vector_norm(x, INF), (make(np.array([3.0, -3.0, 1.0]), device),),
                 (make(np.array([1.0, 1.0, 5.0]), device),))
    assert_close(tan, 0.0)  # (1 + -1) / 2
    for ord in (2, 3, 0.5):  # zero at zero, as torch, not NaN
        zv = Var(make(np.array([[0.0, 0.0], [0.0, 2.0]]), device))
        g = backward(nr.vector_norm(zv, ord, 1).sum())[zv]
        assert_close(g, [[0.0, 0.0], [0.0, 1.0]])
        _, tan = jvp(lambda x, o=ord: nr.vector_norm(x, o, 1), (make(np.zeros((1, 2)), device),),
                     (make(np.ones((1, 2)), device),))
        assert_close(tan, [0.0])
    v, i = nr.median(Var(make(np.array([[2.0, 1.0, 3.0]]), device)), 1)
    assert isinstance(v, Var) and isinstance(i, nr.Tensor) and i.item() == 0


def test_logsumexp_second_order(device):
    """The Hessian of logsumexp is diag(p) - p p^T (p = softmax): reverse over reverse."""
    _f64(device)
    from numr.autograd import hessian
    a = np.array([0.3, -1.2, 2.0, 0.5])
    p = np.exp(a - lse_oracle(a, 0))
    h = hessian(lambda x: nr.logsumexp(x, 0), make(a, device))
    assert_close(h, np.diag(p) - np.outer(p, p), rtol=1e-10, atol=1e-12)
