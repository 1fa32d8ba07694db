"""Complex autograd of cholesky, eigh/eigvalsh, slogdet/logdet (forward and reverse) and the second
derivative of eigvals (complex solve's gradient). complex128 tangents against central differences
of the computed function (cholesky/eigh read one triangle and ignore the imaginary diagonal, so a
general dA checks that read too); eigenvectors only through phase-free results; torch.func.jvp as
a second oracle; reverse against forward by Re<u, J v> = Re<vjp(u), v> (numr's unconjugated
convention). cpu and cuda (emulated); wgpu holds no complex dtype and raises UnsupportedDType."""

from __future__ import annotations

import numpy as np
import pytest

import numr as nr
from numr.autograd import grad, hessian, jvp, vjp

RNG = np.random.default_rng(11)
EPS = 1e-6


def _c(*shape):
    return RNG.standard_normal(shape) + 1j * RNG.standard_normal(shape)


def _herm(*shape):
    """Hermitian positive definite with well separated eigenvalues."""
    x = _c(*shape)
    n = shape[-1]
    return x @ np.conj(np.swapaxes(x, -1, -2)) + np.diag(np.arange(1.0, n + 1) * n)


def _hdir(*shape):
    x = _c(*shape)
    return x + np.conj(np.swapaxes(x, -1, -2))


def _complex_device(device):
    if device == "wgpu":
        pytest.skip("wgpu holds no complex dtype (test_wgpu_raises)")


def test_wgpu_raises(device):
    """wgpu cannot hold the complex input: UnsupportedDType naming backend and dtype."""
    if device != "wgpu":
        pytest.skip("the other backends hold complex128")
    with pytest.raises(nr.UnsupportedDType, match="wgpu.*complex128|complex128.*wgpu"):
        jvp(nr.cholesky, (nr.tensor(_herm(2, 2), device=device),), (nr.tensor(_hdir(2, 2), device=device),))


def _tup(x):
    return x if isinstance(x, tuple) else (x,)


def _eigh_free(a, uplo="L"):
    """w, |V|^2 and V diag(w^2) V^H: eigh's phase-free results."""
    w, V = nr.eigh(a, uplo)
    return w, nr.abs(V) ** 2, (V * (w * w).unsqueeze(-2)) @ nr.conj(V).mT


CASES = {  # name: (f, A maker, dA maker)
    "cholesky": (nr.cholesky, lambda: _herm(3, 3), lambda: _hdir(3, 3)),
    "cholesky_general_dA": (nr.cholesky, lambda: _herm(3, 3), lambda: _c(3, 3)),
    "cholesky_upper_batched": (lambda a: nr.cholesky(a, upper=True), lambda: _herm(2, 3, 3), lambda: _c(2, 3, 3)),
    "cholesky_1x1": (nr.cholesky, lambda: _herm(1, 1), lambda: _c(1, 1)),
    "eigh": (_eigh_free, lambda: _herm(4, 4), lambda: _hdir(4, 4)),
    "eigh_U_general_dA": (lambda a: _eigh_free(a, "U"), lambda: _herm(2, 3, 3), lambda: _c(2, 3, 3)),
    "eigvalsh": (nr.eigvalsh, lambda: _herm(3, 3), lambda: _c(3, 3)),
    "slogdet": (nr.slogdet, lambda: _c(2, 3, 3), lambda: _c(2, 3, 3)),
    "logdet": (nr.logdet, lambda: _c(3, 3), lambda: _c(3, 3)),
}
GPU_CASES = ("cholesky_general_dA", "eigh_U_general_dA", "slogdet")


def _fd(f, a, d):
    hi, lo = _tup(f(a + EPS * d)), _tup(f(a - EPS * d))
    return [(h.numpy() - lw.numpy()) / (2 * EPS) for h, lw in zip(hi, lo, strict=True)]


@pytest.mark.parametrize("name", sorted(CASES))
def test_jvp_central_differences(device, name):
    _complex_device(device)
    if device != "cpu" and name not in GPU_CASES:
        pytest.skip("cpu covers the rest (the rules are device-free public ops)")
    f, make, direction = CASES[name]
    a, d = nr.tensor(make(), device=device), nr.tensor(direction(), device=device)
    out, tan = jvp(f, (a,), (d,))
    for o, t, num in zip(_tup(out), _tup(tan), _fd(f, a, d), strict=True):
        assert t.shape == o.shape and t.dtype == o.dtype and t.device == o.device
        np.testing.assert_allclose(t.numpy(), num, rtol=1e-6, atol=1e-6)


def test_jvp_views_and_empty():
    """A flipped, sliced input and tangent; a 0x0 matrix."""
    big = _herm(4, 4)
    p = big[::-1, ::-1][1:, 1:]  # Hermitian PD, a negative-stride view in numr
    a = nr.flip(nr.tensor(big), (0, 1))[1:, 1:]
    d = nr.tensor(_hdir(3, 3))
    L, dL = jvp(nr.cholesky, (a,), (d,))
    np.testing.assert_allclose(dL.numpy(), _fd(nr.cholesky, nr.tensor(p.copy()), d)[0], rtol=1e-6, atol=1e-6)
    e = nr.zeros((0, 0), dtype=nr.complex128)
    for f in (nr.cholesky, nr.eigvalsh, nr.slogdet):
        out, tan = jvp(f, (e,), (e,))
        for o, t in zip(_tup(out), _tup(tan), strict=True):
            assert t.shape == o.shape and t.dtype == o.dtype


def _torch_jvp(name, a, d):
    torch = pytest.importorskip("torch")
    from torch.func import jvp as tjvp
    fn = {"cholesky": torch.linalg.cholesky, "eigh": torch.linalg.eigh, "slogdet": torch.linalg.slogdet}[name]
    return [x.numpy() for x in tjvp(fn, (torch.tensor(a),), (torch.tensor(d),))[1]] if name != "cholesky" \
        else [tjvp(fn, (torch.tensor(a),), (torch.tensor(d),))[1].numpy()]


@pytest.mark.parametrize("name", ["cholesky", "eigh", "slogdet"])
def test_jvp_matches_torch(name):
    """torch.func.jvp (Hermitian dA: torch reads the whole matrix); eigh's dV up to numr's phases:
    the tangent is covariant, dV D for V D, with D = the phases between numr's V and torch's."""
    a = _c(3, 3) if name == "slogdet" else _herm(3, 3)
    d = _hdir(3, 3)
    want = _torch_jvp(name, a, d)
    out, got = jvp(getattr(nr, name), (nr.tensor(a),), (nr.tensor(d),))
    got, out = [t.numpy() for t in _tup(got)], [o.numpy() for o in _tup(out)]
    if name == "eigh":
        import torch
        Vt = torch.linalg.eigh(torch.tensor(a))[1].numpy()
        phase = np.sum(np.conj(Vt) * out[1], axis=0)  # |phase| = 1
        want[1] = want[1] * phase
    for g, w in zip(got, want, strict=True):
        np.testing.assert_allclose(g, w, rtol=1e-9, atol=1e-10)


_B = _c(3, 2)
REV = {  # name: (f, A maker); cotangents are random complex (real for real outputs)
    "cholesky": (nr.cholesky, lambda: _herm(2, 3, 3)),
    "cholesky_upper": (lambda a: nr.cholesky(a, upper=True), lambda: _herm(3, 3)),
    "eigh": (nr.eigh, lambda: _herm(3, 3)),
    "eigh_U": (lambda a: nr.eigh(a, "U"), lambda: _herm(2, 3, 3)),
    "slogdet": (nr.slogdet, lambda: _c(2, 3, 3)),
    "logdet": (nr.logdet, lambda: _c(3, 3)),
    "solve": (lambda a: nr.solve(a, nr.tensor(np.arange(6.0).reshape(3, 2) + 1j)), lambda: _c(3, 3)),
    "solve_triangular": (lambda a: nr.solve_triangular(a + 4 * nr.eye(3), nr.tensor(_B), upper=True),
                         lambda: _c(3, 3)),
    "det": (nr.det, lambda: _c(3, 3)),
}


@pytest.mark.parametrize("name", sorted(REV))
def test_reverse_matches_forward(device, name):
    """Re sum(u * J v) from jvp equals Re sum(vjp(u) * v), for a general complex v."""
    _complex_device(device)
    if device != "cpu" and name not in ("cholesky", "eigh_U", "slogdet"):
        pytest.skip("cpu covers the rest")
    f, make = REV[name]
    a, v = nr.tensor(make(), device=device), nr.tensor(_c(*make().shape), device=device)
    out, tan = jvp(f, (a,), (v,))
    us = tuple(nr.tensor(_c(*o.shape) if o.dtype.kind == "c" else RNG.standard_normal(o.shape), device=device)
               for o in _tup(out))
    out2, fn = vjp(f, a)
    (ga,) = fn(us if isinstance(out2, tuple) else us[0])
    assert ga.shape == a.shape and ga.dtype == a.dtype
    lhs = sum(np.sum(u.numpy() * t.numpy()).real for u, t in zip(us, _tup(tan), strict=True))
    np.testing.assert_allclose(lhs, np.sum(ga.numpy() * v.numpy()).real, rtol=1e-9, atol=1e-9)


def _fd_grad(g, a, d):
    return (g(nr.tensor(a + EPS * d)).numpy() - g(nr.tensor(a - EPS * d)).numpy()) / (2 * EPS)


def _eig_loss(x):
    return nr.sum(nr.abs(nr.eigvals(x)) ** 2)


def test_eigvals_second_derivative_real():
    """The Hessian of sum(|eigvals(A)|^2) (order free) of a real A with a complex pair (complex
    solve's gradient inside eigvals' rule) against central differences of the gradient."""
    a = np.array([[0.3, -2.0, 0.5], [2.0, 0.1, -0.4], [0.2, 0.7, 1.5]]) + 0.1 * RNG.standard_normal((3, 3))
    assert np.iscomplex(np.linalg.eigvals(a)).any()
    h = hessian(_eig_loss, nr.tensor(a))
    assert h.shape == (3, 3, 3, 3) and h.dtype == nr.float64
    g = grad(_eig_loss)
    for i, j in ((0, 0), (1, 2), (2, 0)):
        e = np.zeros((3, 3))
        e[i, j] = 1
        np.testing.assert_allclose(h.numpy()[:, :, i, j], _fd_grad(g, a, e), rtol=1e-5, atol=1e-6)


SECOND = {  # name: (real loss, A maker); complex A, the rules' own gradients differentiated again
    "eigvals": (_eig_loss, lambda: _c(3, 3)),
    "abs2": (lambda x: nr.sum(nr.abs(x) ** 2), lambda: _c(3, 3)),  # abs's rule: z/|z| has a gradient
    "cholesky": (lambda x: nr.sum(nr.abs(nr.cholesky(x)) ** 2), lambda: _herm(3, 3)),
    "eigh": (lambda x: nr.sum(nr.eigvalsh(x) ** 3) + nr.sum(nr.abs(nr.eigh(x)[1]) ** 4), lambda: _herm(3, 3)),
    "slogdet": (lambda x: nr.sum(nr.real(nr.logdet(x) ** 2)), lambda: _c(3, 3)),
}


@pytest.mark.parametrize("name", sorted(SECOND))
def test_second_derivative_complex(name):
    """The derivative of the gradient g along a complex D: Re sum(grad(Re sum(g U)) D) in numr's
    convention, against central differences of g."""
    loss, make = SECOND[name]
    a = make()
    d, u = _c(*a.shape), _c(*a.shape)
    g = grad(loss)
    h = grad(lambda x: nr.sum(nr.real(g(x) * nr.tensor(u))))(nr.tensor(a))
    assert h.shape == a.shape and h.dtype == nr.complex128
    num = np.sum(_fd_grad(g, a, d) * u).real
    np.testing.assert_allclose(np.sum(h.numpy() * d).real, num, rtol=1e-5, atol=1e-6)


def test_complex64():
    """complex64 keeps its dtypes (eigh's w and slogdet's logabs tangents float32) and agrees with
    complex128 to single precision, forward and reverse."""
    a, d = _herm(3, 3), _c(3, 3)
    for f in (nr.cholesky, nr.eigvalsh, nr.slogdet):
        out, tan = jvp(f, (nr.tensor(a.astype(np.complex64)),), (nr.tensor(d.astype(np.complex64)),))
        ref = _tup(jvp(f, (nr.tensor(a),), (nr.tensor(d),))[1])
        for o, t, r in zip(_tup(out), _tup(tan), ref, strict=True):
            assert t.dtype == o.dtype and o.dtype in (nr.complex64, nr.float32)
            np.testing.assert_allclose(t.numpy(), r.numpy(), rtol=1e-4, atol=1e-4)
        g32 = grad(lambda x, f=f: nr.sum(nr.abs(_tup(f(x))[-1]) ** 2))(nr.tensor(a.astype(np.complex64)))
        g64 = grad(lambda x, f=f: nr.sum(nr.abs(_tup(f(x))[-1]) ** 2))(nr.tensor(a))
        assert g32.dtype == nr.complex64
        np.testing.assert_allclose(g32.numpy(), g64.numpy(), rtol=1e-4, atol=1e-3)
