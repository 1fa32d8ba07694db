"""Gradients of the decomposition family in float64 against central differences: reverse mode
(gradcheck) for solve, inv, det, slogdet, solve_triangular, cholesky, qr, eigh, svd, lstsq, pinv,
cond and every matrix_norm; forward mode (jvp) for solve, inv, det, slogdet, solve_triangular,
cholesky, eigh and the norms; the unsupported cases raise."""

from __future__ import annotations

import numpy as np
import pytest

import numr as nr
from numr.autograd import gradcheck, jvp

RNG = np.random.default_rng(11)


def hermitian(shape, shift):
    a = RNG.standard_normal(shape)
    return a @ np.swapaxes(a, -1, -2) + shift * np.eye(shape[-1])


# ---- gradients (float64, central differences)

def _t(*shape, shift=0.0):
    a = RNG.standard_normal(shape)
    return nr.tensor(a + shift * np.eye(shape[-1]) if shift else a)


GRADS = {
    "solve": (lambda a, b: nr.solve(a, b), lambda: [_t(2, 4, 4, shift=4), _t(3, 1, 4, 2)]),
    "solve_vector": (lambda a, b: nr.solve(a, b), lambda: [_t(2, 4, 4, shift=4), _t(4)]),
    "solve_left_false": (lambda a, b: nr.solve(a, b, left=False), lambda: [_t(4, 4, shift=4), _t(2, 4)]),
    "inv": (nr.inv, lambda: [_t(2, 3, 3, shift=3)]),
    "det": (nr.det, lambda: [_t(2, 3, 3, shift=3)]),
    "slogdet": (lambda a: nr.slogdet(a)[1], lambda: [_t(3, 3, shift=-3)]),
    "solve_triangular": (lambda a, b: nr.solve_triangular(a, b, upper=True), lambda: [_t(4, 4, shift=4), _t(4, 2)]),
    "solve_triangular_unit_right": (lambda a, b: nr.solve_triangular(a, b, upper=False, left=False, unitriangular=True),
                                    lambda: [_t(4, 4), _t(2, 4)]),
    "cholesky": (nr.cholesky, lambda: [nr.tensor(hermitian((2, 3, 3), 1.0))]),
    "cholesky_upper": (lambda a: nr.cholesky(a, upper=True), lambda: [nr.tensor(hermitian((3, 3), 1.0))]),
    "qr_tall": (nr.qr, lambda: [_t(5, 3)]),
    "qr_wide": (nr.qr, lambda: [_t(3, 5)]),
    "qr_batched": (nr.qr, lambda: [_t(2, 3, 3)]),
    "eigh": (nr.eigh, lambda: [_t(4, 4)]),
    "eigh_upper": (lambda a: nr.eigh(a, "U"), lambda: [_t(2, 3, 3)]),
    "eigvalsh": (nr.eigvalsh, lambda: [_t(4, 4)]),
    "svd_tall": (lambda a: nr.svd(a, full_matrices=False), lambda: [_t(5, 3)]),
    "svd_wide": (lambda a: nr.svd(a, full_matrices=False), lambda: [_t(2, 3, 5)]),
    "svd_square_full": (nr.svd, lambda: [_t(3, 3)]),
    "svdvals": (nr.svdvals, lambda: [_t(4, 3)]),
    "lstsq": (nr.lstsq, lambda: [_t(5, 3), _t(5, 2)]),
    "lstsq_wide": (nr.lstsq, lambda: [_t(3, 5), _t(3, 2)]),
    "pinv": (nr.pinv, lambda: [_t(4, 3)]),
    "cond": (nr.cond, lambda: [_t(3, 3, shift=3)]),
}
for _o in ["fro", "nuc", 2, -2, 1, -1, np.inf, -np.inf]:
    GRADS[f"matrix_norm_{_o}"] = (lambda a, o=_o: nr.matrix_norm(a, o), lambda: [_t(2, 3, 4)])


@pytest.mark.parametrize("name", sorted(GRADS))
def test_gradcheck(name):
    f, make = GRADS[name]
    assert gradcheck(f, make())


def test_grad_errors():
    from numr.autograd import Var
    a = Var(nr.tensor(RNG.standard_normal((4, 3))), requires_grad=True)
    with pytest.raises(nr.UnsupportedOperation, match="svd"):
        nr.svd(a)  # full_matrices of a non-square matrix
    with pytest.raises(nr.UnsupportedOperation, match="qr"):
        nr.qr(a, mode="complete")
    c = Var(nr.tensor(hermitian((3, 3), 1.0) + 0j), requires_grad=True)
    with pytest.raises(nr.UnsupportedOperation, match="complex"):  # complex cholesky: test_fwd_complex.py
        nr.qr(c)


JVPS = {
    "solve": (nr.solve, lambda: [_t(2, 3, 3, shift=3), _t(2, 3, 2)]),
    "solve_vector": (nr.solve, lambda: [_t(3, 3, shift=3), _t(3)]),
    "solve_left_false": (lambda a, b: nr.solve(a, b, left=False), lambda: [_t(3, 3, shift=3), _t(2, 3)]),
    "inv": (nr.inv, lambda: [_t(2, 3, 3, shift=3)]),
    "det": (nr.det, lambda: [_t(3, 3, shift=3)]),
    "slogdet": (nr.slogdet, lambda: [_t(3, 3, shift=-3)]),
    "solve_triangular": (lambda a, b: nr.solve_triangular(a, b, upper=True), lambda: [_t(3, 3, shift=3), _t(3, 2)]),
    "solve_triangular_unit_right": (lambda a, b: nr.solve_triangular(a, b, upper=False, left=False, unitriangular=True),
                                    lambda: [_t(3, 3), _t(2, 3)]),
    "cholesky": (nr.cholesky, lambda: [nr.tensor(hermitian((2, 3, 3), 1.0))]),
    "cholesky_upper": (lambda a: nr.cholesky(a, upper=True), lambda: [nr.tensor(hermitian((3, 3), 1.0))]),
    "eigh": (nr.eigh, lambda: [_t(4, 4)]),
    "eigh_upper": (lambda a: nr.eigh(a, "U"), lambda: [_t(2, 3, 3)]),
    "eigvalsh": (nr.eigvalsh, lambda: [_t(4, 4)]),
    "matrix_norm_fro": (nr.matrix_norm, lambda: [_t(3, 4)]),
    "matrix_norm_inf": (lambda a: nr.matrix_norm(a, np.inf), lambda: [_t(3, 4)]),
    "cond_1": (lambda a: nr.cond(a, 1), lambda: [_t(3, 3, shift=3)]),
}


@pytest.mark.parametrize("name", sorted(JVPS))
def test_jvp(name):
    """The tangent against central differences along a random direction."""
    f, make = JVPS[name]
    xs = make()
    ts = [nr.tensor(RNG.standard_normal(x.shape)) for x in xs]
    _, tan = jvp(f, tuple(xs), tuple(ts))
    eps = 1e-6
    hi = f(*[x + eps * t for x, t in zip(xs, ts, strict=True)])
    lo = f(*[x - eps * t for x, t in zip(xs, ts, strict=True)])
    if not isinstance(hi, tuple):
        hi, lo, tan = (hi,), (lo,), (tan,)
    for h, lw, t in zip(hi, lo, tan, strict=True):
        num = (h.numpy() - lw.numpy()) / (2 * eps)
        got = np.zeros_like(num) if t is None else t.numpy()
        assert got.shape == num.shape
        np.testing.assert_allclose(got, num, rtol=1e-5, atol=1e-6)


def test_jvp_unsupported():
    with pytest.raises(nr.UnsupportedOperation, match="qr"):  # no unique tangent
        jvp(lambda a: nr.qr(a, "complete"), (_t(4, 3),), (_t(4, 3),))


def _grad_np(f, x):
    from numr.autograd import Var, backward
    v = Var(nr.from_numpy(x), requires_grad=True)
    return backward(f(v))[v].numpy()


_SPD = hermitian((3, 3), 3.0)
SECOND = {  # functions of a 9-vector: the rules are written with public ops, so they differentiate again
    "slogdet": lambda x: nr.slogdet(x.reshape(3, 3) + nr.tensor(3 * np.eye(3)))[1],
    "solve": lambda x: (nr.solve(x.reshape(3, 3) + nr.tensor(3 * np.eye(3)), nr.tensor([1.0, 2.0, 3.0])) ** 2.0).sum(),
    "inv": lambda x: (nr.inv(x.reshape(3, 3) + nr.tensor(3 * np.eye(3))) ** 3.0).sum(),
    "cholesky": lambda x: (nr.cholesky(x.reshape(3, 3) * 0.1 + nr.tensor(_SPD)) ** 2.0).sum(),
    "eigh": lambda x: (nr.eigh(x.reshape(3, 3))[1][:, 0] * nr.tensor([1.0, 2.0, 3.0])).sum() ** 2.0
                      + (nr.eigvalsh(x.reshape(3, 3)) ** 3.0).sum(),
    "svd": lambda x: (nr.svdvals(x.reshape(3, 3)) ** 3.0).sum(),
}


@pytest.mark.parametrize("name", sorted(SECOND))
def test_hessian(name):
    from numr.autograd import hessian
    f = SECOND[name]
    base = RNG.uniform(-1, 1, 9)
    h = hessian(f, nr.from_numpy(base)).numpy().reshape(9, 9)
    eps = 1e-5
    fd = np.stack([(_grad_np(f, base + eps * e) - _grad_np(f, base - eps * e)) / (2 * eps) for e in np.eye(9)], 1)
    np.testing.assert_allclose(h, fd, rtol=1e-4, atol=1e-5)
