"""Complex decompositions on every backend holding complex (the CPU kernels; on cuda the composites
of numr/ops/generic/decomp_blocked.py and decomp_jacobi.py with conjugate transposes, zlarfg
reflectors and phase-then-rotate Jacobi) against numpy.linalg in complex128: solve/inv/det,
triangular solves, LU, Cholesky, QR, eigh, SVD and the matrix functions built on them, compared
by reconstructions and invariants (the phases of vectors are free), batched and broadcast, 0x0 and
1x1, views (transposed, sliced, flipped), NaN, and a gradient through the composites. wgpu has
no complex tensors: creating one raises UnsupportedDType."""

from __future__ import annotations

import numpy as np
import pytest
from decomp_cases import hermitian, mH, rand

import numr as nr
from numr.autograd import gradcheck

CDT = ["complex64", "complex128"]
REAL = {"complex64": nr.float32, "complex128": nr.float64}


def _t(a, device):
    try:
        return nr.tensor(a, device=device)
    except nr.UnsupportedDType as e:  # wgpu: no complex dtype at all
        assert device == "wgpu" and "complex" in str(e)
        pytest.skip("wgpu has no complex dtype")


def _tol(dtype, A, k=100.0):
    eps = 1.2e-7 if dtype == "complex64" else 2.3e-16
    a = np.asarray(A, np.complex128)
    return k * eps * max(float(np.linalg.cond(a).max()), 1.0) * max(float(np.abs(a).max()), 1.0)


def _np(x):
    return x.numpy().astype(np.complex128)


@pytest.mark.parametrize("dtype", CDT)
def test_solve_inv_det(device, dtype):
    A, B = rand((2, 1, 4, 4), dtype, shift=2.0), rand((2, 3, 4, 2), dtype)
    tol = _tol(dtype, A)
    X = nr.solve(_t(A, device), _t(B, device))
    assert X.dtype == nr.dtype(dtype) and X.shape == (2, 3, 4, 2)
    np.testing.assert_allclose(_np(X), np.linalg.solve(A.astype(np.complex128), B), atol=tol * 10)
    Bl = rand((3, 2, 4), dtype)
    Xr = nr.solve(_t(A[0, 0], device), _t(Bl, device), left=False)  # X A = B
    np.testing.assert_allclose(_np(Xr) @ A[0, 0], Bl, atol=tol * 10)
    x = nr.solve(_t(A[0, 0], device), _t(B[0, 0, :, 0].copy(), device))  # a vector right-hand side
    np.testing.assert_allclose(A[0, 0] @ _np(x), B[0, 0, :, 0], atol=tol * 10)
    np.testing.assert_allclose(_np(nr.inv(_t(A, device))), np.linalg.inv(A.astype(np.complex128)), atol=tol * 10)
    d = nr.det(_t(A, device))
    assert d.dtype == nr.dtype(dtype)
    np.testing.assert_allclose(_np(d), np.linalg.det(A.astype(np.complex128)), rtol=tol * 10)


@pytest.mark.parametrize("dtype", CDT)
@pytest.mark.parametrize("upper", [True, False])
def test_solve_triangular(device, dtype, upper):
    A = rand((3, 3), dtype, shift=3.0)
    A = np.triu(A) if upper else np.tril(A)
    B = rand((3, 2), dtype)
    tol = _tol(dtype, A)
    X = _np(nr.solve_triangular(_t(A, device), _t(B, device), upper=upper))
    np.testing.assert_allclose(A @ X, B, atol=tol)
    X = _np(nr.solve_triangular(_t(A, device), _t(B.T.copy(), device), upper=upper, left=False))
    np.testing.assert_allclose(X @ A, B.T, atol=tol)
    U = np.triu(A, 1) + np.eye(3) if upper else np.tril(A, -1) + np.eye(3)
    X = _np(nr.solve_triangular(_t(A, device), _t(B, device), upper=upper, unitriangular=True))
    np.testing.assert_allclose(U @ X, B, atol=tol * 10)


@pytest.mark.parametrize("dtype", CDT)
def test_lu_cholesky(device, dtype):
    A = rand((2, 5, 5), dtype)
    tol = _tol(dtype, A)
    P, L, U = (_np(t) for t in nr.lu(_t(A, device)))
    np.testing.assert_allclose(P @ L @ U, A, atol=tol)
    assert np.all(np.abs(np.tril(L, -1)) <= 2 ** 0.5 + 1e-5)  # pivoting by |.| (LAPACK: |re| + |im|)
    LU, piv = nr.lu_factor(_t(A, device))
    assert piv.dtype == nr.int32 and LU.dtype == nr.dtype(dtype)
    np.testing.assert_allclose(np.triu(_np(LU)), U, atol=tol)
    H = hermitian((2, 4, 4), dtype, shift=1.0)
    L = nr.cholesky(_t(H, device))
    np.testing.assert_allclose(_np(L), np.linalg.cholesky(H.astype(np.complex128)), atol=_tol(dtype, H))
    R = _np(nr.cholesky(_t(H, device), upper=True))
    np.testing.assert_allclose(mH(R) @ R, H, atol=_tol(dtype, H))
    with pytest.raises(nr.LinAlgError, match="cholesky.*positive-definite.*batch element"):
        nr.cholesky(_t(np.stack([H[0], -H[1]]), device))


@pytest.mark.parametrize("dtype", CDT)
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (4, 4)])
def test_qr(device, dtype, shape):
    A = rand((2,) + shape, dtype)
    tol = _tol(dtype, A)
    m, n = shape
    for mode in ("reduced", "complete"):
        Q, R = (_np(t) for t in nr.qr(_t(A, device), mode=mode))
        kq = m if mode == "complete" else min(m, n)
        assert Q.shape == (2, m, kq) and R.shape == (2, kq, n)
        np.testing.assert_allclose(Q @ R, A, atol=tol)
        np.testing.assert_allclose(mH(Q) @ Q, np.broadcast_to(np.eye(kq), (2, kq, kq)), atol=tol)
        assert np.all(np.tril(R, -1) == 0)
        if device != "cpu":  # zlarfg: a real diagonal, as numpy.linalg.qr (LAPACK)
            np.testing.assert_allclose(np.diagonal(R, 0, -2, -1).imag, 0, atol=tol)
            np.testing.assert_allclose(np.abs(R), np.abs(np.linalg.qr(A.astype(np.complex128), mode=mode)[1]),
                                       atol=tol * 10)
    R = _np(nr.qr(_t(A, device), mode="r")[1])
    np.testing.assert_allclose(np.abs(R), np.abs(np.linalg.qr(A.astype(np.complex128))[1]), atol=tol * 10)


@pytest.mark.parametrize("dtype", CDT)
@pytest.mark.parametrize("n", [3, 4])
def test_eigh(device, dtype, n):
    H = hermitian((2, n, n), dtype)
    tol = _tol("complex64" if dtype == "complex64" else "complex128", np.eye(1)) * max(np.abs(H).max(), 1)
    for uplo in ("L", "U"):
        Hx = np.triu(H) if uplo == "U" else np.tril(H)  # only that triangle is read
        w, V = nr.eigh(_t(Hx, device), UPLO=uplo)
        assert w.dtype == REAL[dtype]
        assert w.shape == (2, n) and V.dtype == nr.dtype(dtype)
        w, V = w.numpy().astype(np.float64), _np(V)
        np.testing.assert_allclose(w, np.linalg.eigvalsh(H.astype(np.complex128)), atol=tol * n)
        np.testing.assert_allclose(H @ V, V * w[..., None, :], atol=tol * n)
        np.testing.assert_allclose(mH(V) @ V, np.broadcast_to(np.eye(n), (2, n, n)), atol=tol * n)
    w = nr.eigvalsh(_t(H, device))
    np.testing.assert_allclose(w.numpy(), np.linalg.eigvalsh(H.astype(np.complex128)), atol=tol * n)


@pytest.mark.parametrize("dtype", CDT)
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (4, 4)])
def test_svd(device, dtype, shape):
    A = rand((2,) + shape, dtype)
    tol = _tol(dtype, np.eye(1)) * max(np.abs(A).max(), 1) * 10
    m, n = shape
    k = min(m, n)
    for full in (True, False):
        U, S, Vh = nr.svd(_t(A, device), full_matrices=full)
        assert S.dtype == REAL[dtype] and S.shape == (2, k)
        ku, kv = (m, n) if full else (k, k)
        assert U.shape == (2, m, ku) and Vh.shape == (2, kv, n) and U.dtype == nr.dtype(dtype)
        U, S, Vh = _np(U), S.numpy().astype(np.float64), _np(Vh)
        np.testing.assert_allclose(S, np.linalg.svd(A.astype(np.complex128), compute_uv=False), atol=tol)
        np.testing.assert_allclose((U[..., :k] * S[..., None, :]) @ Vh[..., :k, :], A, atol=tol)
        np.testing.assert_allclose(mH(U) @ U, np.broadcast_to(np.eye(ku), (2, ku, ku)), atol=tol)
        np.testing.assert_allclose(Vh @ mH(Vh), np.broadcast_to(np.eye(kv), (2, kv, kv)), atol=tol)
    np.testing.assert_allclose(nr.svdvals(_t(A, device)).numpy(), np.linalg.svd(A, compute_uv=False), atol=tol)


def test_rank_deficient_svd(device):
    """A rank-one complex matrix: U completed to unitary columns where S is 0."""
    u, v = rand((4, 1), "complex128"), rand((1, 3), "complex128")
    A = u @ v
    U, S, Vh = (x.numpy() for x in nr.svd(_t(A, device)))
    np.testing.assert_allclose(S[1:], 0, atol=1e-13)
    np.testing.assert_allclose(mH(U) @ U, np.eye(4), atol=1e-13)
    np.testing.assert_allclose((U[:, :3] * S) @ Vh, A, atol=1e-13)


def test_matrix_functions(device):
    """sqrtm/logm/polar of a complex (Hermitian positive-definite) matrix, built on the primitives."""
    H = hermitian((3, 3), "complex128", shift=1.0)
    x = _t(H, device)
    r = _np(nr.linalg.sqrtm(x))
    np.testing.assert_allclose(r @ r, H, atol=1e-11 * np.abs(H).max())
    w, V = np.linalg.eigh(H)
    np.testing.assert_allclose(_np(nr.linalg.logm(x)), (V * np.log(w)) @ mH(V), atol=1e-11)
    A = rand((3, 3), "complex128")
    Uu, P = (_np(t) for t in nr.linalg.polar(_t(A, device)))
    np.testing.assert_allclose(Uu @ P, A, atol=1e-11)
    np.testing.assert_allclose(mH(Uu) @ Uu, np.eye(3), atol=1e-11)


def test_sizes_0_and_1(device):
    for n in (0, 1):
        A = rand((2, n, n), "complex128", shift=2.0)
        x = _t(A, device)
        assert nr.solve(x, x).shape == (2, n, n)
        Q, R = nr.qr(x)
        U, S, Vh = nr.svd(x)
        w, V = nr.eigh(_t(hermitian((2, n, n), "complex128", shift=1.0), device))
        assert Q.shape == R.shape == U.shape == Vh.shape == V.shape == (2, n, n) and S.shape == w.shape == (2, n)
        if n == 1:
            np.testing.assert_allclose(np.abs(_np(R)), np.abs(A), atol=1e-14)
            np.testing.assert_allclose(S.numpy(), np.abs(A[..., 0]), atol=1e-14)
            np.testing.assert_allclose(_np(nr.solve(x, x)), np.ones((2, 1, 1)), atol=1e-14)


def test_views(device):
    """Transposed, sliced (offset) and flipped complex inputs give the results of their copies."""
    base = rand((6, 6), "complex128", shift=3.0)
    for view, ref in ((lambda t: t.mT, base.T), (lambda t: t[1:5, 2:6], base[1:5, 2:6]),
                      (lambda t: nr.flip(t, 0), base[::-1])):
        x = view(_t(base, device))
        r = np.ascontiguousarray(ref)
        np.testing.assert_allclose(_np(nr.det(x)), np.linalg.det(r), rtol=1e-11)
        np.testing.assert_allclose(nr.svdvals(x).numpy(), np.linalg.svd(r, compute_uv=False), atol=1e-12)
        Q, R = (_np(t) for t in nr.qr(x))
        np.testing.assert_allclose(Q @ R, r, atol=1e-12)


def test_nan(device):
    """NaN input: NaN outputs from solve/eigh/svd (only that batch element), LinAlgError from cholesky,
    as the CPU kernels."""
    H = hermitian((2, 3, 3), "complex128", shift=1.0)
    H[1, 0, 0] = np.nan
    x = _t(H, device)
    X = _np(nr.solve(x, x))
    assert np.all(np.isnan(X[1])) and not np.any(np.isnan(X[0]))
    w, V = nr.eigh(x)
    assert np.all(np.isnan(w.numpy()[1])) and np.all(np.isnan(_np(V)[1]))
    np.testing.assert_allclose(w.numpy()[0], np.linalg.eigvalsh(H[0]), atol=1e-12)
    assert all(np.all(np.isnan(_np(t)[1])) for t in nr.svd(x))
    with pytest.raises(nr.LinAlgError, match=r"cholesky.*batch element \(1,\)"):
        nr.cholesky(x)


def test_gradient(device):
    """Reverse mode through the complex composites: a real function of solve and det of a complex
    matrix against central differences (on cuda the Vars flow through decomp_blocked's ops)."""
    A = rand((3, 3), "complex128", shift=2.0)
    B = rand((3, 2), "complex128")
    b = _t(B, device)

    def f(a):
        return nr.sum(nr.abs(nr.solve(a, b)) ** 2) + nr.real(nr.det(a))
    assert gradcheck(f, [_t(A, device)])
    H = hermitian((3, 3), "complex128", shift=1.0)
    assert gradcheck(lambda a: nr.sum(nr.eigvalsh(a + nr.conj(a.mT)) ** 2), [_t(H, device)])
