"""Forward mode (jvp) for svd, svdvals, qr, lstsq, pinv and eig, and through them polar, polyfit and
numr.decomposition; eig's reverse-mode eigenvector gradient. Tangents against central differences
along a random direction (float64), on random well-conditioned square, tall, wide and batched
matrices on every backend (eig: CPU only); shapes, dtypes and numr's errors."""

from __future__ import annotations

import numpy as np
import pytest
from _ag_helpers import dt_of

import numr as nr
from numr import decomposition as D
from numr.autograd import Var, backward, jvp

RNG = np.random.default_rng(3)


_dt = dt_of


def _fd_check(f, shapes, device, rtol=1e-5, atol=1e-6, make=None, tangent=None):
    """jvp of f against (f(x + h t) - f(x - h t)) / 2h; outputs' shapes and dtypes equal the tangents'."""
    xs = [nr.tensor(make(s) if make else RNG.standard_normal(s), device=device) for s in shapes]
    ts = [nr.tensor(tangent(s) if tangent else RNG.standard_normal(s), device=device) for s in shapes]
    out, tan = jvp(f, tuple(xs), tuple(ts))
    eps = 1e-6
    hi = f(*[x + eps * t for x, t in zip(xs, ts, strict=True)])
    lo = f(*[x - eps * t for x, t in zip(xs, ts, strict=True)])
    if not isinstance(hi, tuple):
        hi, lo, tan, out = (hi,), (lo,), (tan,), (out,)
    for o, h, lw, t in zip(out, hi, lo, tan, strict=True):
        assert t.shape == o.shape and t.dtype == o.dtype and t.device == o.device
        num = (h.numpy() - lw.numpy()) / (2 * eps)
        np.testing.assert_allclose(t.numpy(), num, rtol=rtol, atol=atol)


def _skip32(device):
    if _dt(device) != "float64":
        pytest.skip("central differences need float64")


def _svd_signed(a, full_matrices=False):
    """svd with each singular pair's sign pinned (U's first row >= 0): the factors' sign is a discrete
    gauge that may flip between the two difference points; sign() has a zero tangent."""
    U, S, Vh = nr.svd(a, full_matrices=full_matrices)
    s = nr.where(U[..., :1, :] < 0, -1.0, 1.0)
    return U * s, S, Vh * s.mT


CASES = {
    "svd_square": (lambda a: _svd_signed(a, True), [(4, 4)]),
    "svd_thin_tall": (_svd_signed, [(5, 3)]),
    "svd_thin_wide": (_svd_signed, [(3, 5)]),
    "svd_batched": (_svd_signed, [(2, 4, 3)]),
    "svdvals_wide": (nr.svdvals, [(2, 3, 5)]),
    "qr_square": (nr.qr, [(4, 4)]),
    "qr_tall": (nr.qr, [(5, 3)]),
    "qr_wide": (nr.qr, [(3, 5)]),
    "qr_batched_r": (lambda a: nr.qr(a, "r"), [(2, 5, 3)]),
    "qr_complete_wide": (lambda a: nr.qr(a, "complete"), [(3, 4)]),
    "lstsq_tall": (nr.lstsq, [(6, 3), (6, 2)]),
    "lstsq_wide": (nr.lstsq, [(2, 5), (2, 3)]),
    "lstsq_vector_batched": (nr.lstsq, [(2, 5, 3), (2, 5, 1)]),
    "lstsq_vector": (nr.lstsq, [(5, 3), (5,)]),
    "pinv": (nr.pinv, [(5, 3)]),
    "polar": (lambda a: nr.linalg.polar(a), [(4, 3)]),
    "polar_left": (lambda a: nr.linalg.polar(a, "left"), [(3, 3)]),
    "polyfit": (lambda x, y: nr.polyfit(x, y, 2), [(7,), (7,)]),
    "hosvd": (lambda x: D.tucker_to_tensor(D.hosvd(x, [2, 2, 2])), [(3, 4, 3)]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_jvp(device, name):
    _skip32(device)
    f, shapes = CASES[name]
    _fd_check(f, shapes, device)


def _cplx(s):
    return RNG.standard_normal(s) + 1j * RNG.standard_normal(s)


def _usv(a):
    U, S, Vh = nr.svd(a, full_matrices=False)
    return (U * nr.cast(S, U.dtype).unsqueeze(-2)) @ Vh, U @ nr.conj(U).mT, nr.conj(Vh).mT @ Vh


def _qr_phase_free(a):
    Q, R = nr.qr(a)
    return Q @ R, Q @ nr.conj(Q).mT


#: complex A: numr does not pin the factors' phases as the tangent does, so phase-free results
COMPLEX = {
    "svdvals": (nr.svdvals, [(2, 4, 3)]),
    "svd_square": (_usv, [(3, 3)]),
    "svd_tall": (_usv, [(5, 3)]),
    "svd_wide": (_usv, [(3, 5)]),
    "qr_tall": (_qr_phase_free, [(5, 3)]),
    "qr_wide": (_qr_phase_free, [(3, 5)]),
    "lstsq_tall": (nr.lstsq, [(5, 3), (5, 2)]),
    "lstsq_wide": (nr.lstsq, [(3, 5), (3, 2)]),
    "pinv": (nr.pinv, [(4, 3)]),
    "polar": (lambda a: nr.linalg.polar(a), [(3, 3)]),
    "solve_triangular": (lambda a, b: nr.solve_triangular(a, b, upper=True), [(3, 3), (3, 2)]),
    "det": (nr.det, [(3, 3)]),
}


@pytest.mark.parametrize("name", sorted(COMPLEX))
def test_jvp_complex(device, name):
    if device.startswith("wgpu"):
        pytest.skip("wgpu holds no complex dtype")
    f, shapes = COMPLEX[name]
    _fd_check(f, shapes, device, make=_cplx, tangent=_cplx)


def test_views_and_float32(device):
    """Transposed (non-contiguous), sliced and flipped inputs; float32 keeps its dtype."""
    dt = _dt(device)
    base = nr.tensor(RNG.standard_normal((6, 5)), dtype=dt, device=device)
    for A in (base.mT, base[1:5, ::2], base.flip(0)):
        tA = nr.ones(A.shape, dtype=dt, device=device)
        (U, S, Vh), (dU, dS, dV) = jvp(lambda a: nr.svd(a, full_matrices=False), (A,), (tA,))
        k = min(A.shape)
        assert dU.shape == U.shape == (A.shape[0], k) and dS.shape == (k,) and dV.shape == (k, A.shape[1])
        assert dS.dtype == nr.dtype(dt)
        ref = np.diag(U.numpy().T @ tA.numpy() @ Vh.numpy().T)  # dS = diag(U^T dA V)
        np.testing.assert_allclose(dS.numpy(), ref, rtol=1e-4 if dt == "float32" else 1e-10, atol=1e-5)
        (Q, R), (dQ, dR) = jvp(nr.qr, (A,), (tA,))
        # the product rule reassembles the tangent: dQ R + Q dR = dA
        tol = 1e-4 if dt == "float32" else 1e-10
        np.testing.assert_allclose(dQ.numpy() @ R.numpy() + Q.numpy() @ dR.numpy(), tA.numpy(), atol=tol)


def test_errors(device):
    A = nr.tensor(RNG.standard_normal((4, 3)), device=device)
    with pytest.raises(nr.UnsupportedOperation, match="svd.*full_matrices"):
        jvp(nr.svd, (A,), (A,))
    with pytest.raises(nr.UnsupportedOperation, match="qr.*complete"):
        jvp(lambda a: nr.qr(a, "complete"), (A,), (A,))
    # no tangent: plain values, None tangents become zeros
    (U, S, Vh), (dU, dS, dV) = jvp(lambda a, b: nr.svd(b, full_matrices=False), (A, A), (A, None))
    assert not dS.numpy().any() and S.shape == (3,)


def _real_spectrum(n, batch=()):
    P = RNG.standard_normal(batch + (n, n)) + 2 * np.eye(n)
    return P @ (np.arange(1.0, n + 1) * 1.5 * np.eye(n)) @ np.linalg.inv(P)


def test_eig_jvp_real_spectrum():
    """Real distinct eigenvalues: V is pinned up to a (locally constant) sign, so dV is checked whole."""
    _fd_check(nr.eig, [(2, 4, 4)], "cpu", make=lambda s: _real_spectrum(4, (2,)))


@pytest.mark.parametrize("dtype", ["float64", "complex128"])
def test_eig_jvp_and_gradient_phase_free(dtype):
    """Complex eigenvectors have a free phase: check |V| (phase-free) and w, forward and reverse."""
    a = RNG.standard_normal((4, 4)) + (1j * RNG.standard_normal((4, 4)) if dtype == "complex128" else 0)
    d = RNG.standard_normal((4, 4)) + (1j * RNG.standard_normal((4, 4)) if dtype == "complex128" else 0)
    W1, W2 = nr.tensor(RNG.standard_normal((4, 4))), nr.tensor(RNG.standard_normal(4))

    def f(x):
        w, V = nr.eig(x)
        return w, nr.abs(V)

    def loss(x):
        w, aV = f(x)
        return nr.sum(aV * W1) + nr.sum(nr.real(w) * W2) + nr.sum(nr.imag(w) ** 2)
    eps = 1e-6
    (_, _), (tw, taV) = jvp(f, (nr.tensor(a),), (nr.tensor(d),))
    hi, lo = f(nr.tensor(a + eps * d)), f(nr.tensor(a - eps * d))
    np.testing.assert_allclose(tw.numpy(), (hi[0].numpy() - lo[0].numpy()) / (2 * eps), atol=1e-6)
    np.testing.assert_allclose(taV.numpy(), (hi[1].numpy() - lo[1].numpy()) / (2 * eps), atol=1e-6)
    x = Var(nr.tensor(a))
    g = backward(loss(x))[x]
    assert g.shape == (4, 4) and g.dtype == x.dtype
    num = (loss(nr.tensor(a + eps * d)).item() - loss(nr.tensor(a - eps * d)).item()) / (2 * eps)
    # numr's complex convention: g = dL/dx - i dL/dy, so the directional derivative is Re(sum(g d))
    np.testing.assert_allclose(np.real(np.sum(g.numpy() * d)), num, rtol=1e-6)


def test_eig_gradient_batched_projectors():
    """The projectors v_j v_j^H are phase free: a batched general (complex-spectrum) real matrix."""
    a, d, W = (RNG.standard_normal((2, 3, 3)) for _ in range(3))
    Wt = nr.tensor(np.stack([W] * 3, -3))

    def loss(x):
        Vt = nr.eig(x)[1].mT
        return nr.sum(nr.real(Vt.unsqueeze(-1) * nr.conj(Vt).unsqueeze(-2)) * Wt)
    x = Var(nr.tensor(a))
    g = backward(loss(x))[x]
    assert g.shape == (2, 3, 3) and g.dtype == nr.float64
    eps = 1e-6
    num = (loss(nr.tensor(a + eps * d)).item() - loss(nr.tensor(a - eps * d)).item()) / (2 * eps)
    np.testing.assert_allclose(np.sum(g.numpy() * d), num, rtol=1e-6)
