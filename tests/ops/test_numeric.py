"""The numeric family against NumPy/SciPy float64 oracles (np.convolve, np.correlate, np.interp,
np.trapezoid, scipy's cumulative_trapezoid, np.gradient, np.histogram, np.digitize; torch's
bucketize rule through np.searchsorted): modes and lengths, the FFT route, integer exactness and
promotion, views, NaN/inf, empty and size-1 inputs, errors; gradients (reverse and forward mode)
against central differences in float64."""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import assert_close
from fd_checks import check_grads
from numeric_cases import make, needs, raises_each

import numr as nr
from numr.ops.generic.numeric import FFT_MIN

try:
    from scipy.integrate import cumulative_trapezoid as sp_cumtrapz
except ImportError:  # pragma: no cover - scipy is optional
    sp_cumtrapz = None

NAN, INF = math.nan, math.inf


LENGTHS = [(7, 3), (3, 7), (4, 4), (1, 5), (5, 1), (1, 1), (6, 2)]


@pytest.mark.parametrize("mode", ["full", "same", "valid"])
@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "float16"])
def test_convolve_correlate(device, mode, dtype):
    needs(device, dtype)
    rng = np.random.default_rng(0)
    for n, m in LENGTHS:
        a = np.round(rng.standard_normal(n) * 4).astype(nr.dtype(dtype).np)
        v = np.round(rng.standard_normal(m) * 4).astype(nr.dtype(dtype).np)
        a64, v64 = a.astype(np.float64), v.astype(np.float64)
        at, vt = make(a, device), make(v, device)
        assert_close(nr.convolve(at, vt, mode), np.convolve(a64, v64, mode), dtype=dtype)
        assert_close(nr.correlate(at, vt, mode), np.correlate(a64, v64, mode), dtype=dtype)
    big = np.array([2**40 + 1, -(2**40), 3])  # integers stay exact
    assert_close(nr.convolve(make(big, device), make(big[::-1], device)), np.convolve(big, big[::-1])) \
        if dtype == "int64" else None


def test_convolve_views_promotion_fft_errors(device):
    needs(device, "float64")
    rng = np.random.default_rng(1)
    a, v = rng.standard_normal(12), rng.standard_normal(5)
    at, vt = make(a, device), make(v, device)
    assert_close(nr.convolve(at[::-2], vt[::-1], "same"), np.convolve(a[::-2], v[::-1], "same"))
    assert_close(nr.correlate(at[3:9], vt, "full"), np.correlate(a[3:9], v, "full"))
    ints = np.array([1, -2, 3])
    assert_close(nr.convolve(make(ints, device), vt), np.convolve(ints, v), dtype="float64")
    assert_close(nr.convolve(make(np.array(2.0), device), vt), np.convolve(2.0, v))  # 0-d as 1-d
    assert_close(nr.convolve(at, vt.narrow(0, 0, 1)), np.convolve(a, v[:1]))
    n = FFT_MIN + 5 if device != "wgpu" else 40  # both >= FFT_MIN: the rfft route (wgpu has no complex)
    la, lv = rng.standard_normal(n), rng.standard_normal(n - 3)
    for mode in ("full", "same", "valid"):
        assert_close(nr.convolve(make(la, device), make(lv, device), mode), np.convolve(la, lv, mode),
                     rtol=1e-9, atol=1e-9)
        assert_close(nr.correlate(make(lv, device), make(la, device), mode), np.correlate(lv, la, mode),
                     rtol=1e-9, atol=1e-9)
    assert_close(nr.convolve(make(la.astype(np.float32), device), make(lv.astype(np.float32), device)),
                 np.convolve(la, lv), dtype="float32", rtol=1e-4, atol=1e-4)
    raises_each(nr.ShapeError, lambda: nr.convolve(at[:0], vt), lambda: nr.convolve(at, vt[:0]),
                lambda: nr.convolve(at.reshape(3, 4), vt), lambda: nr.convolve(at, vt, "middle"))
    with pytest.raises(nr.DTypeError):
        nr.convolve(make(np.array([True, False]), device), vt)


def test_interp(device):
    needs(device, "float64")
    xp = np.array([0.0, 1.0, 1.0, 2.5, 4.0])
    fp = np.array([1.0, 3.0, 2.0, -1.0, 0.5])
    x = np.array([[-1.0, 0.0, 0.5, 1.0, 1.7], [2.5, 3.0, 4.0, 5.0, NAN]])
    xt, xpt, fpt = make(x, device), make(xp, device), make(fp, device)
    assert_close(nr.interp(xt, xpt, fpt), np.interp(x, xp, fp), dtype="float64")
    assert_close(nr.interp(xt, xpt, fpt, left=-9.0, right=9.0), np.interp(x, xp, fp, left=-9.0, right=9.0))
    assert_close(nr.interp(xt.T, xpt, fpt[::-1]), np.interp(x.T, xp, fp[::-1]))
    assert_close(nr.interp(2.0, xpt, fpt), np.interp(2.0, xp, fp))  # a Python scalar x: 0-d
    assert_close(nr.interp(xt, xpt[:1], fpt[:1]), np.interp(x, xp[:1], fp[:1]))  # one sample point
    x2 = np.linspace(-3, 10, 11)
    assert_close(nr.interp(make(x2, device), xpt, fpt, period=3.0), np.interp(x2, xp, fp, period=3.0))
    # non-finite values follow NumPy's retries: inf fp, an x on an inf node
    fpi = np.array([0.0, INF, 1.0, -INF, 2.0])
    xi = np.array([0.0, 0.5, 1.0, 2.0, 3.0, 4.0])
    assert_close(nr.interp(make(xi, device), make(np.arange(5.0), device), make(fpi, device)),
                 np.interp(xi, np.arange(5.0), fpi))
    assert_close(nr.interp(make(np.array([1, 3]), device), make(np.array([0, 2, 4]), device),
                           make(np.array([0, 10, 0]), device)), [5.0, 5.0], dtype="float64")  # int inputs
    if device != "wgpu":  # complex fp: its real and imaginary parts (wgpu holds no complex)
        zp = fp + 1j * fp[::-1]
        assert_close(nr.interp(xt, xpt, make(zp, device), left=2 - 1j), np.interp(x, xp, zp, left=2 - 1j),
                     dtype="complex128")
    got = nr.interp(make(x.astype(np.float32), device), make(xp.astype(np.float32), device),
                    make(fp.astype(np.float32), device))
    assert_close(got, np.interp(x, xp, fp), dtype="float32")
    raises_each(nr.ShapeError, lambda: nr.interp(xt, xpt[:0], fpt[:0]), lambda: nr.interp(xt, xpt, fpt[:3]),
                lambda: nr.interp(xt, xpt.reshape(5, 1), fpt), lambda: nr.interp(xt, xpt, fpt, period=0))


@pytest.mark.parametrize("dtype", ["float64", "float32", "int32"])
def test_trapezoid(device, dtype):
    needs(device, "float64")
    rng = np.random.default_rng(2)
    y = np.round(rng.standard_normal((3, 5)) * 3).astype(nr.dtype(dtype).np)
    y64 = y.astype(np.float64)
    yt = make(y, device)
    out = "float64" if dtype == "int32" else dtype
    x1 = np.cumsum(rng.uniform(0.1, 1, 5))
    x2 = np.cumsum(rng.uniform(0.1, 1, (3, 5)), 1)
    assert_close(nr.trapezoid(yt), np.trapezoid(y64), dtype=out)
    assert_close(nr.trapezoid(yt, dx=0.5, axis=0), np.trapezoid(y64, dx=0.5, axis=0), dtype=out)
    assert_close(nr.trapezoid(yt, make(x1, device)), np.trapezoid(y64, x1), dtype="float64")
    assert_close(nr.trapezoid(yt, make(x2, device)), np.trapezoid(y64, x2), dtype="float64")
    assert_close(nr.trapezoid(yt[:, ::-1], make(x1, device)[::-1]), np.trapezoid(y64[:, ::-1], x1[::-1]))
    assert_close(nr.trapezoid(yt[:, :1]), np.trapezoid(y64[:, :1]), dtype=out)  # one sample: 0
    assert_close(nr.trapezoid(yt[:, :0]), np.trapezoid(y64[:, :0]), dtype=out)
    if sp_cumtrapz is not None:
        assert_close(nr.cumulative_trapezoid(yt), sp_cumtrapz(y64), dtype=out)
        assert_close(nr.cumulative_trapezoid(yt, make(x1, device), initial=0), sp_cumtrapz(y64, x1, initial=0),
                     dtype="float64")
        assert_close(nr.cumulative_trapezoid(yt.T, dx=2.0, axis=0), sp_cumtrapz(y64.T, dx=2.0, axis=0), dtype=out)
    with pytest.raises(nr.ShapeError):
        nr.trapezoid(yt, make(x1[:4], device))
    with pytest.raises(nr.ShapeError):
        nr.trapezoid(make(np.array(1.0), device))


def test_gradient(device):
    needs(device, "float64")
    rng = np.random.default_rng(3)
    f = rng.standard_normal((4, 6))
    ft = make(f, device)
    for eo in (1, 2):
        got = nr.gradient(ft, edge_order=eo)
        ref = np.gradient(f, edge_order=eo)
        assert isinstance(got, tuple) and len(got) == 2
        for g, r in zip(got, ref, strict=True):
            assert_close(g, r, dtype="float64")
        assert_close(nr.gradient(ft, 0.5, axis=1, edge_order=eo), np.gradient(f, 0.5, axis=1, edge_order=eo))
        xs = np.cumsum(rng.uniform(0.2, 1.0, 6))
        assert_close(nr.gradient(ft, make(xs, device), axis=-1, edge_order=eo),
                     np.gradient(f, xs, axis=-1, edge_order=eo))
        ys = np.cumsum(rng.uniform(0.2, 1.0, 4))
        for g, r in zip(nr.gradient(ft[:, ::-1], make(ys, device), 2.0, edge_order=eo),
                        np.gradient(f[:, ::-1], ys, 2.0, edge_order=eo), strict=True):
            assert_close(g, r)
    assert_close(nr.gradient(make(np.array([1, 4, 9, 16]), device)), np.gradient(np.array([1, 4, 9, 16])),
                 dtype="float64")  # integers: float64
    assert_close(nr.gradient(make(f[0].astype(np.float32), device)), np.gradient(f[0]), dtype="float32")
    assert_close(nr.gradient(make(f[0, :2], device)), np.gradient(f[0, :2]))
    raises_each(nr.ShapeError, lambda: nr.gradient(make(f[0, :2], device), edge_order=2),
                lambda: nr.gradient(ft, axis=(0, 0)), lambda: nr.gradient(ft, 1.0, 2.0, 3.0),
                lambda: nr.gradient(make(np.array(1.0), device)),
                lambda: nr.gradient(ft, edge_order=3), lambda: nr.gradient(ft, make(np.ones(3), device), axis=1))


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64"])
def test_histogram(device, dtype):
    needs(device, "float64")
    rng = np.random.default_rng(4)
    a = (rng.standard_normal((5, 8)) * 4).astype(nr.dtype(dtype).np)
    at = make(a, device)
    edge_dtype = "float64" if dtype == "int64" else dtype
    for kw in ({}, {"bins": 7}, {"bins": 3, "range": (-2, 3)}, {"bins": 1}, {"bins": 4, "range": (1, 1)}):
        h, e = nr.histogram(at, **kw)
        rh, re = np.histogram(a, **kw)
        assert_close(h, rh, dtype="int64")
        assert_close(e, re, dtype=edge_dtype)
    w = rng.uniform(0, 2, a.shape)
    h, e = nr.histogram(at.T, 5, weights=make(w.T, device))
    rh, re = np.histogram(a.T, 5, weights=w.T)
    assert_close(h, rh, dtype="float64")
    h, _ = nr.histogram(at, 6, density=True)
    assert_close(h, np.histogram(a, 6, density=True)[0], dtype="float64")
    edges = np.array([-5.0, -1.0, 0.0, 0.5, 6.0])
    h, e = nr.histogram(at[:, ::-1], make(edges, device))
    assert_close(h, np.histogram(a[:, ::-1], edges)[0], dtype="int64")
    assert_close(e, edges)
    h, _ = nr.histogram(at, [-3, 0, 3], density=True)
    assert_close(h, np.histogram(a, [-3, 0, 3], density=True)[0])


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "int64"])
def test_histogram_bitwise_numpy(device, dtype):
    """Edges as np.linspace makes them (float64 from a given range, the data's dtype from its own)
    and counts of values one ulp either side of every edge, as NumPy's."""
    needs(device, "float64")
    rng = np.random.default_rng(8)
    t = nr.dtype(dtype).np.type
    for bins, rg in ((7, (-1.3, 2.9)), (10, None), (3, (0.1, 0.7)), (13, None)):
        base = (rng.uniform(-1.5, 3.1, 300) * (100 if dtype == "int64" else 1)).astype(t)
        e = np.histogram(base if rg is None else np.zeros(1, t), bins, range=rg)[1].astype(t)
        a = base
        if dtype != "int64":
            near = np.concatenate([np.nextafter(e, t(INF)), np.nextafter(e, t(-INF)), e])
            a = np.concatenate([base, near if rg is not None else near[(near >= base.min()) & (near <= base.max())]])
        h, edges = nr.histogram(make(a, device), bins, range=rg)
        rh, re = np.histogram(a, bins, range=rg)
        assert_close(h, rh, dtype="int64")
        assert_close(edges, re, dtype="float64" if dtype == "int64" else dtype, rtol=0, atol=0)


def test_histogram_edges_and_errors(device):
    needs(device, "float64")
    x = np.array([0.0, 1.0, 1.0, 2.0, 3.0, NAN, INF])
    xt = make(x, device)
    h, e = nr.histogram(xt, 3, range=(0, 3))  # NaN and inf outside; 3.0 in the closed last bin
    rh, re = np.histogram(x, 3, range=(0, 3))
    assert_close(h, rh)
    assert_close(e, re)
    h, e = nr.histogram(make(np.zeros(0), device))
    rh, re = np.histogram(np.zeros(0))
    assert_close(h, rh)
    assert_close(e, re)
    h, e = nr.histogram(make(np.full(4, 2.5), device), 2)  # one value: widened by 0.5
    assert_close(e, np.histogram(np.full(4, 2.5), 2)[1])
    assert_close(h, np.histogram(np.full(4, 2.5), 2)[0])
    y = np.linspace(0, 1, 11)  # values on the edges: NumPy's corrections
    assert_close(nr.histogram(make(y, device), 10)[0], np.histogram(y, 10)[0])
    raises_each(nr.ShapeError, lambda: nr.histogram(xt), lambda: nr.histogram(xt, 0), lambda: nr.histogram(xt, "auto"),
                lambda: nr.histogram(xt, 3, range=(2, 1)), lambda: nr.histogram(xt, [0.0, 2.0, 1.0]),
                lambda: nr.histogram(xt, 3, range=(0, INF)), lambda: nr.histogram(xt, [1.0]),
                lambda: nr.histogram(xt, 3, weights=xt[:2]))


def test_histogram2d(device):
    needs(device, "float64")
    rng = np.random.default_rng(7)
    x, y = rng.standard_normal(40), rng.standard_normal(40) * 2
    x[3], y[5] = NAN, INF  # outside any given range
    xt, yt = make(x, device), make(y, device)
    w = rng.uniform(0, 1, 40)
    cases = [dict(bins=4, range=((-2, 2), (-3, 3))), dict(bins=[3, [-4.0, 0.0, 1.0, 4.0]], range=((-1, 1), None)),
             dict(bins=[-2.0, 0.0, 2.0], weights=w, density=True), dict(bins=(2, 5), range=((0, 0), (-3, 3)))]
    for kw in cases:
        got = nr.histogram2d(xt, yt, **{k: make(v, device) if k == "weights" else v for k, v in kw.items()})
        ref = np.histogram2d(x, y, **kw)
        assert_close(got[0], ref[0], dtype="float64")
        assert_close(got[1], ref[1])
        assert_close(got[2], ref[2])
    h, ex, ey = nr.histogram2d(xt[::2][:4].abs(), yt[::-2][:4].abs(), 2)  # auto range on finite views
    rh, rx, ry = np.histogram2d(np.abs(x[::2][:4]), np.abs(y[::-2][:4]), 2)
    assert_close(h, rh)
    assert_close(ex, rx)
    assert_close(ey, ry)
    h, ex, _ = nr.histogram2d(make(np.zeros(0), device), make(np.zeros(0), device), 2)
    assert_close(h, np.zeros((2, 2)))
    assert_close(ex, [0.0, 0.5, 1.0])
    assert nr.histogram2d(xt, yt, 2, range=((-1, 1), (-1, 1)), weights=make(w.astype(np.float32), device))[0].dtype \
        == nr.float32
    raises_each(nr.ShapeError, lambda: nr.histogram2d(xt, yt[:5]), lambda: nr.histogram2d(xt, yt),
                lambda: nr.histogram2d(xt.reshape(4, 10), yt.reshape(4, 10)))


def test_digitize_bucketize(device):
    x = np.array([[-1.0, 0.0, 0.5], [1.0, 2.5, 9.0], [NAN, 3.0, -INF]])
    inc = np.array([0.0, 1.0, 2.5, 3.0])
    xt = make(x, device)
    for bins in (inc, inc[::-1], np.array([1.0, 1.0, 2.0]), np.array([2.0])):
        for right in (False, True):
            got = nr.digitize(xt, make(bins, device), right=right)
            assert_close(got, np.digitize(x, bins, right=right), dtype="int64")
    assert_close(nr.digitize(make(np.array([1, 5, 3]), device), make(np.array([2, 4]), device)),
                 np.digitize([1, 5, 3], [2, 4]))
    assert_close(nr.digitize(xt.T[::-1], make(inc, device)), np.digitize(x.T[::-1], inc))
    for right in (False, True):  # torch.bucketize: right=False is searchsorted side="left"
        got = nr.bucketize(xt, make(inc, device), right=right)
        assert_close(got, np.searchsorted(inc, x, side="right" if right else "left"), dtype="int64")
    assert nr.bucketize(xt, make(inc, device), out_int32=True).dtype == nr.int32
    assert nr.bucketize(2.0, make(inc, device)).shape == ()
    with pytest.raises(nr.ShapeError):
        nr.digitize(xt, make(np.array([0.0, 2.0, 1.0]), device))
    with pytest.raises(nr.ShapeError):
        nr.bucketize(xt, make(np.ones((2, 2)), device))
    if device == "cpu":  # wgpu holds no complex tensors
        with pytest.raises(nr.DTypeError):
            nr.digitize(make(np.array([1j]), device), make(inc, device))


def test_gradients(device):
    needs(device, "float64")
    rng = np.random.default_rng(5)
    check_grads(device, lambda a, v: nr.convolve(a, v, "same"), [rng.standard_normal(6), rng.standard_normal(3)])
    check_grads(device, nr.correlate, [rng.standard_normal(5), rng.standard_normal(3)])
    xp = np.array([0.0, 1.0, 2.5, 4.0])
    check_grads(device, lambda x, fp: nr.interp(x, make(xp, device), fp),
                [np.array([0.3, 1.2, 2.0, 3.9]), rng.standard_normal(4)])
    check_grads(device, lambda y, x: nr.trapezoid(y, x, axis=0),
                [rng.standard_normal((4, 2)), np.array([0.0, 0.5, 1.7, 2.0])])
    check_grads(device, lambda y: nr.cumulative_trapezoid(y, dx=0.3, initial=0), [rng.standard_normal((2, 4))])
    check_grads(device, lambda f: nr.gradient(f, edge_order=2)[1], [rng.standard_normal((3, 4))])
    check_grads(device, lambda f: nr.gradient(f, make(np.array([0.0, 0.4, 1.5, 2.0]), device)),
                [rng.standard_normal(4)])
    pts = make(np.array([0.1, 0.5, 0.9, 0.2]), device)
    check_grads(device, lambda w: nr.histogram(pts, 2, weights=w)[0], [rng.standard_normal(4)])
    check_grads(device, lambda w: nr.histogram2d(pts, pts.flip(0), 2, weights=w)[0], [rng.standard_normal(4)])


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float8_e4m3fn"])
def test_half_dtypes(device, dtype):
    """Half and float8 inputs compute in float32 and come back in their own dtype."""
    rng = np.random.default_rng(6)
    h = nr.dtype(dtype)
    y = make(rng.standard_normal((3, 6)), device, dtype)
    y64 = y.numpy().astype(np.float64)
    xp = make(np.linspace(0, 5, 6), device, dtype)
    x = make(np.array([0.3, 2.2, 4.9, 7.0]), device, dtype)
    rtol, atol = {"float16": (4e-3, 4e-3), "bfloat16": (2e-2, 2e-2)}.get(dtype, (0.15, 0.15))
    assert_close(nr.interp(x, xp, y[0]), np.interp(x.numpy().astype(np.float64), xp.numpy().astype(np.float64), y64[0]),
                 dtype=h, rtol=rtol, atol=atol)
    assert_close(nr.trapezoid(y, dx=0.5), np.trapezoid(y64, dx=0.5, axis=-1), dtype=h, rtol=rtol, atol=atol)
    assert_close(nr.cumulative_trapezoid(y, axis=0)[-1], np.trapezoid(y64, axis=0), dtype=h, rtol=rtol, atol=atol)
    for g, r in zip(nr.gradient(y), np.gradient(y64), strict=True):
        assert_close(g, r, dtype=h, rtol=rtol, atol=atol)
    assert_close(nr.convolve(y[0], y[1]), np.convolve(y64[0], y64[1]), dtype=h, rtol=rtol, atol=atol)
    ints = make(np.array([0.0, 1.0, 1.0, 3.0, 2.0, 3.0, 3.0]), device, dtype)
    hist, edges = nr.histogram(ints, 4, range=(-0.5, 3.5))
    assert_close(hist, [1, 2, 1, 3], dtype="int64")
    assert_close(edges, [-0.5, 0.5, 1.5, 2.5, 3.5], dtype=h)
    assert_close(nr.digitize(ints, xp), np.digitize(ints.numpy().astype(np.float64), xp.numpy().astype(np.float64)))
