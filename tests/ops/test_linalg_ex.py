"""torch.linalg's *_ex forms (info tensors instead of raising), Bunch-Kaufman LDL^T
(ldl_factor/ldl_solve: LAPACK's sytrf factors and pivots through SciPy) and householder_product
(LAPACK's orgqr: Q of scipy.linalg.qr from its raw form) against NumPy/SciPy in float64;
gradients by central differences."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg as sl
from conftest import assert_close
from fd_checks import check_grads
from numeric_cases import make

import numr as nr


def fdt(device):
    return "float32" if device == "wgpu" else "float64"


def tol(device):
    return (2e-4, 2e-4) if device == "wgpu" else (1e-10, 1e-10)


def _spd(rng, b, n):
    a = rng.standard_normal((b, n, n))
    return a @ a.transpose(0, 2, 1) + n * np.eye(n)


def test_ex_info(device):
    rng = np.random.default_rng(0)
    dt = fdt(device)
    r, a = tol(device)
    S = _spd(rng, 3, 4)
    S[1] = np.diag([1.0, 2.0, -1.0, 3.0])  # leading minor of order 3 not positive
    L, info = nr.linalg.cholesky_ex(make(S, device, dt))
    assert info.dtype == nr.int32 and info.shape == (3,)
    assert_close(info, [0, 3, 0])
    assert_close(L[0], np.linalg.cholesky(S[0]), rtol=r, atol=a)
    assert np.isnan(L.numpy()[1]).all()
    U, info_u = nr.linalg.cholesky_ex(make(S[[0, 2]], device, dt), upper=True)  # no failure: the plain path
    assert_close(info_u, [0, 0])
    assert_close(U, np.linalg.cholesky(S[[0, 2]]).transpose(0, 2, 1), rtol=r, atol=a)
    with pytest.raises(nr.LinAlgError):
        nr.linalg.cholesky_ex(make(S, device, dt), check_errors=True)
    M = rng.standard_normal((3, 4, 4))
    M[2] = np.diag([1.0, 2.0, 0.0, 4.0])  # U[2, 2] exactly zero
    X, info = nr.linalg.inv_ex(make(M, device, dt))
    assert_close(info, [0, 0, 3])
    assert_close(X[:2], np.linalg.inv(M[:2]), rtol=max(r, 1e-9) * 10, atol=max(a, 1e-9) * 10)
    assert np.isnan(X.numpy()[2]).all()
    LU, piv, info = nr.linalg.lu_factor_ex(make(M, device, dt))
    assert_close(info, [0, 0, 3])
    assert piv.dtype == nr.int32 and LU.shape == M.shape
    B = rng.standard_normal((3, 4, 2))
    X, info = nr.linalg.solve_ex(make(M, device, dt), make(B, device, dt))
    assert_close(info, [0, 0, 3])
    assert_close(X[:2], np.linalg.solve(M[:2], B[:2]), rtol=max(r, 1e-9) * 10, atol=max(a, 1e-9) * 10)
    with pytest.raises(nr.LinAlgError, match="solve"):
        nr.linalg.solve_ex(make(M, device, dt), make(B, device, dt), check_errors=True)
    with pytest.raises(nr.LinAlgError, match="lu_factor_ex"):
        nr.linalg.lu_factor_ex(make(M, device, dt), check_errors=True)
    with pytest.raises(nr.ShapeError):
        nr.linalg.inv_ex(make(np.ones((2, 3)), device, dt))
    e, ei = nr.linalg.inv_ex(make(np.zeros((0, 2, 2)), device, dt))  # an empty batch
    assert e.shape == (0, 2, 2) and ei.shape == (0,)
    if device == "cpu":  # the plain ops' gradients flow through (reverse and forward mode)
        check_grads(device, lambda a: nr.linalg.inv_ex(a)[0], [M[0]], rtol=1e-5, atol=1e-6)
        check_grads(device, lambda a: nr.linalg.cholesky_ex(a)[0], [S[0]], rtol=1e-5, atol=1e-6)
        check_grads(device, lambda a, b: nr.linalg.solve_ex(a, b)[0], [M[0], B[0]], rtol=1e-5, atol=1e-6)


def _sytrf(a, hermitian=False):
    """LAPACK's Bunch-Kaufman (lower) through SciPy: (LD with the upper triangle zeroed, pivots)."""
    fn = sl.lapack.zhetrf if hermitian else (sl.lapack.zsytrf if np.iscomplexobj(a) else sl.lapack.dsytrf)
    ld, piv, info = fn(a, lower=1)
    assert info >= 0
    return np.tril(ld), piv


def test_ldl(device):
    rng = np.random.default_rng(1)
    dt = fdt(device)
    r, a = tol(device)
    A = rng.standard_normal((3, 6, 6))
    sym = A + A.transpose(0, 2, 1)
    sym[1, 0, 0] = sym[1, 2, 2] = 0.0  # zero diagonals: 2x2 pivots
    if device == "wgpu":  # a smaller batch on the software driver (each step is ~40 ops)
        sym = sym[1:, :4, :4]
    nb, n = sym.shape[0], sym.shape[-1]
    LD, piv, info = nr.linalg.ldl_factor_ex(make(sym, device, dt))
    assert LD.shape == sym.shape and LD.dtype == nr.dtype(dt)
    assert piv.dtype == nr.int32 and piv.shape == (nb, n)
    assert_close(info, [0] * nb)
    for b in range(nb):  # LAPACK's own factors and pivots (torch's ldl_factor is the same sytrf)
        ld, p = _sytrf(sym[b])
        assert_close(piv[b], p)
        assert_close(LD[b], ld, rtol=r * 100, atol=a * 100)
    assert (piv.numpy() < 0).any()  # some 2x2 blocks were taken
    B = rng.standard_normal((nb, n, 2))
    X = nr.linalg.ldl_solve(LD, piv, make(B, device, dt))
    assert_close(X, np.linalg.solve(sym, B), rtol=r * 100, atol=a * 100)
    if device != "wgpu":  # one factor against a batch of B
        Xb = nr.linalg.ldl_solve(LD[0], piv[0], make(B, device, dt))
        assert_close(Xb, np.linalg.solve(sym[0], B), rtol=r * 100, atol=a * 100)
    swap = np.array([[0.0, 1.0], [1.0, 0.0]])  # only a 2x2 pivot factors it
    LD2, p2, info = nr.linalg.ldl_factor_ex(make(swap, device, dt))
    assert_close(p2, [-2, -2])
    assert int(info.item()) == 0
    assert_close(nr.linalg.ldl_solve(LD2, p2, make(np.eye(2), device, dt)), swap, rtol=r, atol=a)
    singular = np.array([[1.0, 2.0], [2.0, 4.0]])
    _, _, info = nr.linalg.ldl_factor_ex(make(singular, device, dt))
    assert int(info.item()) == 2  # D[1, 1] is exactly zero, as LAPACK
    with pytest.raises(nr.LinAlgError, match="ldl_factor"):
        nr.linalg.ldl_factor_ex(make(singular, device, dt), check_errors=True)
    with pytest.raises(nr.ShapeError, match="pivots"):
        nr.linalg.ldl_solve(LD, make(np.zeros((nb, n), np.int32), device), make(B, device, dt))
    with pytest.raises(nr.ShapeError, match="ldl_solve"):
        nr.linalg.ldl_solve(LD, piv, make(B[:, :n - 1], device, dt))
    if device != "wgpu":  # complex symmetric and Hermitian (L^H)
        C = rng.standard_normal((5, 5)) + 1j * rng.standard_normal((5, 5))
        for herm, M in ((False, C + C.T), (True, C + C.conj().T)):
            LDc, pc = nr.linalg.ldl_factor(make(M, device), hermitian=herm)
            ld, p = _sytrf(M, herm)
            assert_close(pc, p)
            assert_close(LDc, ld, rtol=1e-10, atol=1e-10)
            assert_close(nr.linalg.ldl_solve(LDc, pc, make(np.eye(5), device), hermitian=herm), np.linalg.inv(M),
                         rtol=1e-9, atol=1e-9)
    if device == "cpu":  # the same composite on every backend: its gradient once (the emulator is slow)
        g = np.array([[0.0, 2.0, 0.5], [2.0, 0.0, -1.0], [0.5, -1.0, 0.3]])  # a 2x2 pivot first
        assert_close(nr.linalg.ldl_factor(make(g, device))[1], [-2, -2, 3])
        check_grads(device, lambda a, b: nr.linalg.ldl_solve(*nr.linalg.ldl_factor(a), b),
                    [g, rng.standard_normal((3, 2))], rtol=1e-5, atol=1e-6)
    if device == "cpu":
        h = nr.linalg.ldl_factor(nr.tensor(sym[0].astype(np.float16)))[0]  # computed in float32
        assert h.dtype == nr.float16
        LD0, p0, i0 = nr.linalg.ldl_factor_ex(nr.zeros((0, 0)))  # empty and 1x1
        assert LD0.shape == (0, 0) and p0.shape == (0,) and int(i0.item()) == 0
        assert_close(nr.linalg.ldl_solve(*nr.linalg.ldl_factor(nr.tensor([[4.0]])), nr.tensor([[2.0]])), [[0.5]])
        assert_close(nr.linalg.householder_product(nr.ones((3, 2)), nr.zeros(0)), np.eye(3, 2))  # k = 0
        e, ei = nr.linalg.cholesky_ex(nr.zeros((0, 0)))
        assert e.shape == (0, 0) and int(ei.item()) == 0


def test_householder_product(device):
    rng = np.random.default_rng(2)
    dt = fdt(device)
    r, a = tol(device)
    for m, n in ((5, 3), (4, 4), (1, 1)):
        A = rng.standard_normal((m, n))
        (h, tau), _ = sl.qr(A, mode="raw")
        Q = nr.linalg.householder_product(make(h, device, dt), make(tau, device, dt))
        assert Q.shape == (m, n) and Q.dtype == nr.dtype(dt)
        assert_close(Q, sl.qr(A, mode="economic")[0], rtol=r * 10, atol=a * 10)
    (h, tau), _ = sl.qr(rng.standard_normal((4, 3)), mode="raw")
    Q2 = nr.linalg.householder_product(make(np.stack([h, h]), device, dt),
                                       make(np.stack([tau[:2], tau[:2]]), device, dt))
    exp = np.eye(4, 3)
    for i in (1, 0):  # k = 2 < n reflectors
        v = np.concatenate([np.zeros(i), [1.0], h[i + 1:, i]])
        exp = exp - tau[i] * np.outer(v, v @ exp)
    assert_close(Q2, np.stack([exp, exp]), rtol=r * 10, atol=a * 10)
    with pytest.raises(nr.ShapeError, match="householder_product"):
        nr.linalg.householder_product(make(np.ones((2, 3)), device, dt), make(np.ones(2), device, dt))
    with pytest.raises(nr.ShapeError, match="householder_product"):
        nr.linalg.householder_product(make(np.ones((3, 2)), device, dt), make(np.ones(3), device, dt))
    if device != "wgpu":
        Ac = rng.standard_normal((4, 3)) + 1j * rng.standard_normal((4, 3))
        (hc, tc), _ = sl.qr(Ac, mode="raw")
        assert_close(nr.linalg.householder_product(make(hc, device), make(tc, device)),
                     sl.qr(Ac, mode="economic")[0], rtol=1e-10, atol=1e-10)
        check_grads(device, nr.linalg.householder_product, [h, tau], rtol=1e-5, atol=1e-6)
