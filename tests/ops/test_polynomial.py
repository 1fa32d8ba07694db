"""The polynomial family against NumPy float64 oracles (np.polyval, np.polyfit, np.poly, np.polyadd,
np.polymul, np.polyder, np.polyint, np.roots): dtypes and NumPy's integer promotion, batched
coefficients, 0-d/empty/size-1 inputs, views; roots on the CPU (eigvals) and its error on the
GPUs; gradients (reverse and forward mode) against central differences in float64."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_close
from fd_checks import check_grads
from numeric_cases import make, needs, raises_each

import numr as nr
from numr.autograd import Var, backward


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "int64"])
def test_polyval(device, dtype):
    needs(device, dtype)
    rng = np.random.default_rng(0)
    p = np.round(rng.standard_normal(4) * 3).astype(nr.dtype(dtype).np)
    x = np.round(rng.standard_normal((3, 5)) * 2).astype(nr.dtype(dtype).np)
    pt, xt = make(p, device), make(x, device)
    assert_close(nr.polyval(pt, xt), np.polyval(p.astype(np.float64), x.astype(np.float64)), dtype=dtype)
    assert_close(nr.polyval(pt, xt[:, ::-2]), np.polyval(p.astype(np.float64), x[:, ::-2].astype(np.float64)),
                 dtype=dtype)  # a flipped, strided view
    assert_close(nr.polyval(pt.flip(0), xt.T), np.polyval(p[::-1].astype(np.float64), x.T.astype(np.float64)),
                 dtype=dtype)
    assert_close(nr.polyval(pt, xt[0, 0].reshape(())), np.polyval(p.astype(np.float64), x[0, 0]), dtype=dtype)


def test_polyval_batched_promotion_edges(device):
    needs(device, "float64")
    p = np.array([[1.0, -2.0, 0.5], [0.0, 3.0, 1.0]])
    x = np.array([2.0, -1.5])
    got = nr.polyval(make(p, device), make(x, device))
    assert_close(got, [np.polyval(p[0], x[0]), np.polyval(p[1], x[1])], dtype="float64")
    xx = np.linspace(-1, 1, 8).reshape(4, 2)
    got = nr.polyval(make(p, device), make(xx, device))  # batch (2,) broadcast against (4, 2)
    assert_close(got, np.stack([np.polyval(p[0], xx[:, 0]), np.polyval(p[1], xx[:, 1])], 1), dtype="float64")
    ints = make(np.array([2, 0, -1]), device)
    assert_close(nr.polyval(ints, make(np.array([3, -2]), device)), np.polyval([2, 0, -1], [3, -2]), dtype="int64")
    assert_close(nr.polyval(ints, 2.5), np.polyval([2, 0, -1], 2.5), dtype="float64")  # int p, float x
    assert_close(nr.polyval(make(np.zeros(0), device), make(np.ones(3), device)), np.zeros(3), dtype="float64")
    assert_close(nr.polyval(make(np.array([7.0]), device), make(np.ones(4), device)), np.full(4, 7.0))
    assert nr.polyval(make(np.array([1.0, 2.0]), device), make(np.zeros(0), device)).shape == (0,)
    with pytest.raises(nr.DTypeError):
        nr.polyval(make(np.array([True, False]), device), 1.0)


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64"])
def test_polyfit(device, dtype):
    needs(device, "float64")
    rng = np.random.default_rng(1)
    x = np.round(np.linspace(-3, 3, 13), 0 if dtype == "int64" else 3).astype(nr.dtype(dtype).np)
    y = 0.5 * x.astype(np.float64) ** 3 - x + 2 + rng.standard_normal(13) * 0.1
    out = "float64" if dtype == "int64" else dtype
    tol = {} if dtype != "float32" else {"rtol": 2e-4, "atol": 2e-4}
    for deg in (0, 1, 3):
        ref = np.polyfit(x.astype(np.float64), y, deg)
        assert_close(nr.polyfit(make(x, device), make(y.astype(np.float32) if dtype == "float32" else y, device), deg),
                     ref, dtype=out, **tol)
    if dtype == "float64":
        w = np.linspace(0.5, 2, 13)
        y2 = np.stack([y, y[::-1]], 1)
        assert_close(nr.polyfit(make(x, device), make(y2, device), 2, w=make(w, device)), np.polyfit(x, y2, 2, w=w),
                     rtol=1e-9, atol=1e-9)
        assert_close(nr.polyfit(make(x, device)[::-1], make(y, device)[::-1], 2), np.polyfit(x, y, 2),
                     rtol=1e-9, atol=1e-9)


def test_polyfit_errors(device):
    x = make(np.linspace(0, 1, 5), device)
    raises_each(nr.ShapeError, lambda: nr.polyfit(x, x, -1), lambda: nr.polyfit(x[:0], x[:0], 1),
                lambda: nr.polyfit(x, x[:4], 1), lambda: nr.polyfit(x.reshape(5, 1), x, 1),
                lambda: nr.polyfit(x, x, 1, w=x[:3]))


def test_poly_add_mul_der_int(device):
    needs(device, "float64")
    r = np.array([1.0, -2.0, 0.5])
    assert_close(nr.poly(make(r, device)), np.poly(r), dtype="float64")
    assert_close(nr.poly(make(r, device)[::-1]), np.poly(r[::-1]))
    assert_close(nr.poly(make(np.array([1, 2]), device)), np.poly([1, 2]), dtype="float64")
    assert_close(nr.poly(make(np.zeros(0), device)), [1.0])
    assert_close(nr.poly(make(np.array(3.0), device)), np.poly([3.0]))
    with pytest.raises(nr.ShapeError):
        nr.poly(make(np.eye(2), device))
    a, b = np.array([1, 2, 3]), np.array([4, -5])
    for x1, x2 in ((a, b), (b, a), (a, a), (a[:1], b)):
        assert_close(nr.polyadd(make(x1, device), make(x2, device)), np.polyadd(x1, x2), dtype="int64")
        assert_close(nr.polymul(make(x1, device), make(x2, device)), np.polymul(x1, x2), dtype="int64")
    fa, fb = a * 0.5, b.astype(np.float32)
    assert_close(nr.polyadd(make(fa, device), make(fb, device)), np.polyadd(fa, fb), dtype="float64")
    assert_close(nr.polymul(make(fa, device), make(fb, device)), np.polymul(fa, fb), dtype="float64")
    p = np.array([3, -1, 2, 5])
    for m in (0, 1, 2, 3, 5):
        assert_close(nr.polyder(make(p, device), m), np.polyder(p, m), dtype="int64")
    assert_close(nr.polyder(make(p * 0.25, device)[::-1], 2), np.polyder(p[::-1] * 0.25, 2), dtype="float64")
    for m, k in ((1, 0), (2, 0), (2, [1.5, -2.0]), (1, 3.0), (0, 0)):
        assert_close(nr.polyint(make(p, device), m, k), np.polyint(p, m, k), dtype="float64")
    assert_close(nr.polyint(make(p.astype(np.float32), device)), np.polyint(p), dtype="float32")
    with pytest.raises(nr.ShapeError):
        nr.polyder(make(p, device), -1)
    with pytest.raises(nr.ShapeError):
        nr.polyint(make(p, device), 3, [1.0, 2.0])


def _sorted(z):
    z = np.asarray(z)
    return z[np.lexsort((np.round(z.imag, 8), np.round(z.real, 8)))]


@pytest.mark.parametrize("p", [[1.0, -3.0, 2.0], [0.0, 0.0, 1.0, -3.0, 2.0, 0.0, 0.0], [1.0, 0.0, 1.0],
                               [2.0, -1.0, 0.5, 4.0, -3.0], [5.0], [0.0, 0.0], [0.0, 3.0, 0.0], [1, -6, 11, -6]])
def test_roots(device, p):
    pt = make(np.array(p), device)
    ref = np.roots(p)
    nonzero = np.nonzero(p)[0]
    if device == "wgpu" and len(nonzero) and nonzero[-1] > nonzero[0]:
        with pytest.raises(nr.UnsupportedOperation):  # eigvals: complex results, which wgpu cannot hold
            nr.roots(pt)
        return
    got = nr.roots(pt)
    assert got.shape == ref.shape
    assert got.dtype == (nr.complex128 if np.iscomplexobj(ref) else nr.float64)
    np.testing.assert_allclose(_sorted(got.numpy()), _sorted(ref), rtol=1e-9, atol=1e-9)


def test_roots_float32_gradient_errors(device):
    if device == "wgpu":
        pytest.skip("eigvals: complex results, which wgpu cannot hold")
    check_grads(device, lambda p: nr.sort(nr.roots(p))[0], [np.array([1.0, -6.0, 11.0, -6.0])])  # via eigvals
    got = nr.roots(make(np.array([1.0, -3.0, 2.0], np.float32), device))
    assert got.dtype == nr.float32
    np.testing.assert_allclose(np.sort(got.numpy()), [1.0, 2.0], rtol=1e-5)
    with pytest.raises(nr.ShapeError):
        nr.roots(make(np.ones((2, 2)), device))
    with pytest.raises(nr.DTypeError):
        nr.roots(make(np.array([1 + 1j, 2]), device))


def test_gradients(device):
    needs(device, "float64")
    rng = np.random.default_rng(3)
    p, x = rng.standard_normal(4), rng.standard_normal((2, 3))
    check_grads(device, nr.polyval, [p, x])
    check_grads(device, nr.polyval, [rng.standard_normal((2, 3)), rng.standard_normal(2)])
    xs = np.linspace(-1, 1, 7)
    y = rng.standard_normal(7)
    w = rng.standard_normal(3)
    yv = Var(make(y, device))
    g = backward((nr.polyfit(make(xs, device), yv, 2) * make(w, device)).sum())[yv]
    assert_close(g, np.linalg.pinv(np.vander(xs, 3)).T @ w, rtol=1e-9, atol=1e-9)  # d(pinv(V) y)/dy
    check_grads(device, lambda yy: nr.polyfit(make(xs, device), yy, 2), [y])  # both modes (lstsq's jvp)
    check_grads(device, nr.poly, [rng.standard_normal(3)])
    check_grads(device, nr.polymul, [rng.standard_normal(3), rng.standard_normal(4)])
    check_grads(device, nr.polyadd, [rng.standard_normal(3), rng.standard_normal(5)])
    check_grads(device, lambda a: nr.polyder(a, 2), [rng.standard_normal(5)])
    check_grads(device, lambda a: nr.polyint(a, 2, [1.0, 2.0]), [rng.standard_normal(3)])
