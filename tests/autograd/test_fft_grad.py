"""Gradients of the FFT family: reverse mode against central differences on the real and
imaginary parts of the input (float64/complex128), jvp against the op of the tangent and a
finite difference, float32 inputs and second order."""

from __future__ import annotations

import numpy as np
import pytest

import numr as nr
from numr.autograd import Var, backward, jvp


def needs_complex(device):
    if device == "wgpu":
        pytest.skip("WebGPU has no complex dtype (tests/ops/test_fft.py::test_wgpu_raises)")


def crandn(rng, shape):
    return rng.standard_normal(shape) + 1j * rng.standard_normal(shape)


GRAD_CASES = [
    ("fft", (5,), dict()), ("fft", (6,), dict(n=8, norm="ortho")), ("ifft", (7,), dict(n=4)),
    ("fft", (3, 4), dict(dim=0, norm="forward")), ("rfft", (7,), dict(n=5)), ("rfft", (6,), dict()),
    ("rfft", (2, 5), dict(n=8, dim=0)), ("irfft", (4,), dict(n=7)), ("irfft", (5,), dict()),
    ("irfft", (3, 4), dict(n=4, norm="ortho")), ("fftn", (3, 4), dict(s=(2, 5))), ("ifft2", (3, 4), dict()),
    ("rfftn", (3, 4), dict()), ("rfft2", (3, 5), dict(s=(4, 6), norm="ortho")),
    ("irfftn", (3, 4), dict(s=(4, 5), norm="forward")), ("irfft2", (4, 3), dict()), ("fftshift", (5,), dict()),
    ("hfft", (4,), dict(n=7)), ("hfft", (2, 3), dict(norm="ortho")), ("ihfft", (6,), dict()),
    ("ihfft", (5,), dict(n=4, norm="forward")),
]


def real_input(op):
    return op.startswith("rfft") or op == "ihfft"


def _loss(op, kw, xr, xi, w1, w2):
    """sum(Re(y) w1 + Im(y) w2) of op(xr + i xi) (op(xr) for the real-input ops)."""
    x = xr if real_input(op) else nr.cast(xr, nr.complex128) + nr.cast(xi, nr.complex128) * 1j
    y = getattr(nr, op)(x, **kw)
    if not y.dtype.is_complex:
        return nr.sum(y * w1)
    return nr.sum(nr.cast(y, nr.float64) * w1) + nr.sum(nr.cast(y * -1j, nr.float64) * w2)


@pytest.mark.parametrize("op,shape,kw", GRAD_CASES)
def test_grad_central_differences(device, op, shape, kw):
    needs_complex(device)
    rng = np.random.default_rng(7)
    ar, ai = rng.standard_normal(shape), rng.standard_normal(shape)
    yshape = tuple(getattr(np.fft, op)(ar + 1j * ai if not real_input(op) else ar,
                                       **{("axes" if k == "dim" and not isinstance(v, int) else
                                           "axis" if k == "dim" else k): v for k, v in kw.items()}).shape) \
        if op != "fftshift" else shape
    w1 = nr.tensor(rng.standard_normal(yshape), device=device)
    w2 = nr.tensor(rng.standard_normal(yshape), device=device)
    xr, xi = Var(nr.tensor(ar, device=device)), Var(nr.tensor(ai, device=device))
    g = backward(_loss(op, kw, xr, xi, w1, w2))
    eps = 1e-6
    parts = [(xr, ar)] + ([] if real_input(op) else [(xi, ai)])
    for v, base in parts:
        num = np.zeros(shape)
        for idx in np.ndindex(shape):
            vals = []
            for sgn in (1, -1):
                p = base.copy()
                p[idx] += sgn * eps
                r, i = (p, ai) if v is xr else (ar, p)
                vals.append(_loss(op, kw, nr.tensor(r, device=device), nr.tensor(i, device=device), w1, w2).item())
            num[idx] = (vals[0] - vals[1]) / (2 * eps)
        got = g[v].numpy()
        assert got.shape == shape
        np.testing.assert_allclose(got, num, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("op,shape,kw", [c for c in GRAD_CASES if c[0] != "fftshift"])
def test_jvp(device, op, shape, kw):
    """The tangent of a linear op is the op of the tangent (and matches a finite difference)."""
    needs_complex(device)
    rng = np.random.default_rng(8)
    real = real_input(op)
    a = rng.standard_normal(shape) if real else crandn(rng, shape)
    t = rng.standard_normal(shape) if real else crandn(rng, shape)
    x, tx = nr.tensor(a, device=device), nr.tensor(t, device=device)
    out, tan = jvp(lambda v: getattr(nr, op)(v, **kw), (x,), (tx,))
    ref = getattr(nr, op)(tx, **kw).numpy()
    np.testing.assert_allclose(tan.numpy(), ref, rtol=1e-12, atol=1e-12)
    eps = 1e-6
    fd = (getattr(nr, op)(nr.tensor(a + eps * t, device=device), **kw).numpy()
          - getattr(nr, op)(nr.tensor(a - eps * t, device=device), **kw).numpy()) / (2 * eps)
    np.testing.assert_allclose(tan.numpy(), fd, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(out.numpy(), getattr(nr, op)(x, **kw).numpy(), rtol=0, atol=0)


def test_grad_float32_and_second_order(device):
    """float32 input: gradient in float32; the gradient of a gradient goes through the rules too."""
    needs_complex(device)
    from numr.autograd import backward_with_graph
    rng = np.random.default_rng(9)
    a = rng.standard_normal(8)
    x = Var(nr.tensor(a.astype(np.float32), device=device))
    y = nr.rfft(x)
    g = backward(nr.sum(nr.cast(y * nr.conj(y) if hasattr(nr, "conj") else y * y, nr.float32)))
    assert g[x].dtype == nr.float32 and g[x].shape == (8,)
    x64 = Var(nr.tensor(a, device=device))
    y = nr.irfft(nr.rfft(x64) * 2.0, n=8)  # = 2 x
    gg = backward_with_graph(nr.sum(y * y))  # d/dx sum(4 x^2) = 8 x
    np.testing.assert_allclose(gg[x64].tensor.numpy(), 8 * a, rtol=1e-12, atol=1e-12)
    h = backward(nr.sum(gg[x64] * gg[x64]))  # d/dx sum(64 x^2) = 128 x
    np.testing.assert_allclose(h[x64].numpy(), 128 * a, rtol=1e-12, atol=1e-12)
