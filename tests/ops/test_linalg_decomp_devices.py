"""The decomposition primitives on every backend (the GPUs run the composites of
numr/ops/generic/decomp_blocked.py and decomp_jacobi.py): reconstructions (P L U, Q R, L L^T,
V diag(w) V^T, U S Vh) and orthogonality in float32/float64 against numpy.linalg with tolerances
scaled by the condition number, batched and broadcast, odd and even n (the Jacobi padding),
more than one 32-column panel, 0x0/1x1, views, NaN, errors naming the batch element, complex
(wgpu: UnsupportedDType creating it), and gradients through the GPU primitives."""

from __future__ import annotations

import numpy as np
import pytest
from decomp_cases import hermitian, rand

import numr as nr
from numr.autograd import gradcheck

EPS = {"float32": 1.2e-7, "float64": 2.3e-16}


def _tol(dtype, A, k=50.0):
    """An absolute tolerance: k * eps * cond(A) * max |A| (float64 condition numbers of the input)."""
    a = np.asarray(A, np.float64)
    return k * EPS[dtype] * max(float(np.linalg.cond(a).max()), 1.0) * max(float(np.abs(a).max()), 1.0)


def test_dispatch(device):
    """The CPU keeps its kernels (first in the MRO); the GPUs inherit the generic composites."""
    c = type(nr.tensor([1.0], device=device).client)
    for op in ("solve", "solve_triangular", "lu_factor", "lu", "cholesky", "qr", "eigh", "svd"):
        mod = getattr(c, op).__module__
        assert mod == "numr._cpu.ops.decomp" if device == "cpu" else mod.startswith("numr.ops.generic.decomp_")


@pytest.mark.parametrize("op", ["solve", "solve_triangular", "lu_factor", "lu", "cholesky", "qr", "eigh", "svd"])
def test_gpu_complex(device, op):
    """Complex input: computed where the backend holds complex (cpu, cuda); wgpu cannot create it."""
    try:
        x = nr.tensor(hermitian((3, 3), "complex64", shift=1.0), device=device)
    except nr.UnsupportedDType as e:  # wgpu has no complex tensors at all
        assert device != "cpu" and device in str(e) and "complex64" in str(e)
        return
    f = {"solve": lambda: nr.solve(x, x), "solve_triangular": lambda: nr.solve_triangular(x, x, upper=True)}
    run = f.get(op, lambda: getattr(nr, op)(x))
    out = run()  # the CPU kernels, cuda's composites (values: tests/ops/test_decomp_gpu_complex.py)
    assert any(o.dtype == nr.complex64 for o in (out if isinstance(out, tuple) else (out,)))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("n", [5, 6])
def test_reconstructions(device, dtype, n):
    A = rand((2, 1, n, n), dtype, shift=2.0)
    H = hermitian((2, 3, n, n), dtype, shift=1.0)
    tol = _tol(dtype, A)
    P, L, U = (t.numpy().astype(np.float64) for t in nr.lu(nr.tensor(A, device=device)))
    np.testing.assert_allclose(P @ L @ U, A, atol=tol)
    assert (np.triu(L, 1) == 0).all() and (np.diagonal(L, 0, -2, -1) == 1).all() and (np.tril(U, -1) == 0).all()
    assert np.abs(L).max() <= 1 and (P.sum(-1) == 1).all() and (P.sum(-2) == 1).all()
    LU, piv = nr.lu_factor(nr.tensor(A, device=device))
    p = piv.numpy()
    assert piv.dtype == nr.int32 and p.shape == (2, 1, n) and (p >= np.arange(1, n + 1)).all() and (p <= n).all()
    B = rand((3, n, 2), dtype)  # broadcast against A's batch
    X = nr.solve(nr.tensor(A, device=device), nr.tensor(B, device=device))
    assert X.shape == (2, 3, n, 2) and X.dtype == nr.dtype(dtype)
    np.testing.assert_allclose(X.numpy(), np.linalg.solve(A.astype(np.float64), B), atol=tol)
    Lc = nr.cholesky(nr.tensor(H, device=device)).numpy().astype(np.float64)
    np.testing.assert_allclose(Lc @ np.swapaxes(Lc, -1, -2), H, atol=_tol(dtype, H))
    w, V = (t.numpy().astype(np.float64) for t in nr.eigh(nr.tensor(H, device=device)))
    ht = _tol(dtype, H, 10) / np.linalg.cond(H.astype(np.float64)).max()  # eigh is normwise accurate
    assert (np.diff(w, axis=-1) >= 0).all()
    np.testing.assert_allclose(w, np.linalg.eigvalsh(H.astype(np.float64)), atol=n * ht)
    np.testing.assert_allclose((V * w[..., None, :]) @ np.swapaxes(V, -1, -2), H, atol=n * ht)
    np.testing.assert_allclose(np.swapaxes(V, -1, -2) @ V, np.broadcast_to(np.eye(n), V.shape),
                               atol=20 * n * EPS[dtype])
    M = rand((2, n + 2, n), dtype)  # tall; its transpose is wide
    at = 20 * n * EPS[dtype] * np.abs(M).max()
    for X in (M, np.swapaxes(M, -1, -2).copy()):
        for full in (True, False):
            U, S, Vh = (t.numpy().astype(np.float64) for t in nr.svd(nr.tensor(X, device=device), full_matrices=full))
            k = min(X.shape[-2:])
            assert (np.diff(S, axis=-1) <= 0).all()
            np.testing.assert_allclose(S, np.linalg.svd(X.astype(np.float64), compute_uv=False), atol=at)
            np.testing.assert_allclose((U[..., :k] * S[..., None, :]) @ Vh[..., :k, :], X, atol=at)
            for Q in (U, np.swapaxes(Vh, -1, -2)):
                np.testing.assert_allclose(np.swapaxes(Q, -1, -2) @ Q, np.broadcast_to(np.eye(Q.shape[-1]), Q.shape[:-2]
                                           + (Q.shape[-1],) * 2), atol=20 * n * EPS[dtype])
        for mode in ("reduced", "complete"):
            Q, R = (t.numpy().astype(np.float64) for t in nr.qr(nr.tensor(X, device=device), mode=mode))
            np.testing.assert_allclose(Q @ R, X, atol=at)
            assert (np.tril(R, -1) == 0).all()


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_two_panels(device, dtype):
    """n = 40 > the 32-column panel: the blocked LU, triangular solves and Cholesky on the device."""
    n = 40
    A = rand((n, n), dtype, shift=8.0)
    B = rand((n, 3), dtype)
    tol = _tol(dtype, A)
    a, b = nr.tensor(A, device=device), nr.tensor(B, device=device)
    np.testing.assert_allclose(nr.solve(a, b).numpy(), np.linalg.solve(A.astype(np.float64), B), atol=tol)
    for upper in (True, False):
        tri = (np.triu(A) if upper else np.tril(A)).astype(np.float64)
        np.testing.assert_allclose(nr.solve_triangular(a, b, upper=upper).numpy(), np.linalg.solve(tri, B),
                                   atol=_tol(dtype, tri))
    H = (A.astype(np.float64) @ A.T / n + np.eye(n)).astype(dtype)
    Lc = nr.cholesky(nr.tensor(H, device=device)).numpy().astype(np.float64)
    np.testing.assert_allclose(Lc, np.linalg.cholesky(H.astype(np.float64)), atol=_tol(dtype, H))
    P, L, U = (t.numpy().astype(np.float64) for t in nr.lu(a))
    np.testing.assert_allclose(P @ L @ U, A, atol=tol)
    sing = A.copy()
    sing[:, 35] = 0  # a zero column in the second panel
    with pytest.raises(nr.LinAlgError, match=r"^solve: the matrix is singular \(U\[35, 35\] is zero\)$"):
        nr.solve(nr.tensor(sing, device=device), b)
    H2 = np.stack([H, H])
    H2[1, 36, 36] = -1e3  # not positive-definite from order 37
    with pytest.raises(nr.LinAlgError, match=r"cholesky: .* order 37 .*batch element \(1,\)"):
        nr.cholesky(nr.tensor(H2, device=device))


def test_edges_views_nan(device):
    T = lambda x: nr.tensor(x, device=device)  # noqa: E731
    for shape in ((0, 0), (3, 0, 0), (0, 3, 3), (1, 1), (2, 1, 1)):
        A = np.full(shape, 4.0)
        assert nr.cholesky(T(A)).shape == shape and nr.lu_factor(T(A))[1].shape == shape[:-1]
        w, V = nr.eigh(T(A))
        assert w.shape == shape[:-1] and V.shape == shape
        U, S, Vh = nr.svd(T(A))
        assert U.shape == shape and S.shape == shape[:-1] and Vh.shape == shape
        if A.size:
            assert (nr.cholesky(T(A)).numpy() == 2).all() and (w.numpy() == 4).all() and (S.numpy() == 4).all()
            assert (np.abs(V.numpy()) == 1).all() and (nr.solve(T(A), T(A)).numpy() == 1).all()
    H = hermitian((4, 7, 7), "float64", shift=1.0)
    t = T(H)[::-2, ::-1, ::-1].mT  # reversed, strided, flipped and transposed
    h = np.swapaxes(H[::-2, ::-1, ::-1], -1, -2)
    np.testing.assert_allclose(nr.eigvalsh(t).numpy(), np.linalg.eigvalsh(h), atol=1e-10)
    np.testing.assert_allclose(nr.svdvals(t[..., 1:, :]).numpy(), np.linalg.svd(h[..., 1:, :], compute_uv=False),
                               atol=1e-10)
    np.testing.assert_allclose(nr.cholesky(t, upper=True).numpy(), np.swapaxes(np.linalg.cholesky(h), -1, -2),
                               atol=1e-10)
    np.testing.assert_allclose(nr.solve(t, t[..., :2]).numpy(), np.linalg.solve(h, h[..., :2]), atol=1e-10)
    nan = np.stack([np.eye(3), np.eye(3)])
    nan[1, 2, 1] = np.nan
    w, V = nr.eigh(T(nan))
    U, S, Vh = nr.svd(T(nan))
    for out in (w, V, U, S, Vh):  # the NaN matrix: every output NaN; the other one untouched
        assert np.isnan(out.numpy()[1]).all() and not np.isnan(out.numpy()[0]).any()
    lu, piv = nr.lu_factor(T(np.zeros((2, 3, 3))))  # singular input factors (lu_factor_ex)
    assert (lu.numpy() == 0).all() and (piv.numpy() >= 1).all()


def _t(device, *shape, shift=0.0, seed=0):
    a = np.random.default_rng(seed).standard_normal(shape)
    return nr.tensor(a + shift * np.eye(shape[-1]) if shift else a, device=device)


GRADS = {
    "solve": (nr.solve, lambda d: [_t(d, 2, 3, 3, shift=3), _t(d, 3, 2)]),
    "solve_triangular": (lambda a, b: nr.solve_triangular(a, b, upper=False), lambda d: [_t(d, 3, 3, shift=3),
                                                                                        _t(d, 3, 2)]),
    "cholesky": (nr.cholesky, lambda d: [nr.tensor(hermitian((3, 3), "float64", shift=1.0), device=d)]),
    "det": (nr.det, lambda d: [_t(d, 3, 3, shift=2)]),
    "qr": (nr.qr, lambda d: [_t(d, 4, 3)]),
    "eigh": (nr.eigh, lambda d: [_t(d, 3, 3)]),
    "svd": (lambda a: nr.svd(a, full_matrices=False), lambda d: [_t(d, 3, 2)]),
}


@pytest.mark.parametrize("name", sorted(GRADS))
def test_gradcheck(device, name):
    """Reverse mode through the device's primitives (the rules of numr/autograd/ops/decomp.py)."""
    f, make = GRADS[name]
    assert gradcheck(f, make(device))


@pytest.mark.parametrize("n", [1, 4, 7])
def test_sparse_rotations(device, monkeypatch, n):
    """The row-gather rotations (used from N = 96) on small matrices: the same results as numpy."""
    from numr.ops.generic import decomp_jacobi
    monkeypatch.setattr(decomp_jacobi, "SPARSE_FROM", 2)
    H = hermitian((2, n, n), "float64")
    w, V = (t.numpy() for t in nr.eigh(nr.tensor(H, device=device)))
    np.testing.assert_allclose(w, np.linalg.eigvalsh(H), atol=1e-12)
    np.testing.assert_allclose((V * w[..., None, :]) @ np.swapaxes(V, -1, -2), H, atol=1e-12)
    M = rand((2, n + 1, n))
    U, S, Vh = (t.numpy() for t in nr.svd(nr.tensor(M, device=device), full_matrices=False))
    np.testing.assert_allclose(S, np.linalg.svd(M, compute_uv=False), atol=1e-12)
    np.testing.assert_allclose((U * S[..., None, :]) @ Vh, M, atol=1e-12)


def test_inv_batch_of_n_matrices_and_singular_cond(device):
    """inv of a batch of n n x n matrices (an (n, n) identity beside it once read as a batch of
    vectors) and cond in the norms that invert: inf for a singular batch element, the others
    computed (numpy.linalg)."""
    rng = np.random.default_rng(3)
    for shape in ((2, 2, 2), (3, 3, 3), (2, 3, 3)):
        a = rng.standard_normal(shape) + 3 * np.eye(shape[-1])
        got = nr.inv(nr.tensor(a, device=device))
        assert got.shape == shape
        np.testing.assert_allclose(got.numpy(), np.linalg.inv(a), rtol=1e-10, atol=1e-12)
    a = np.array([[[1.0, 2.0], [2.0, 4.0]], [[2.0, 1.0], [1.0, 3.0]]])
    for p in ("fro", "nuc", 1, -1, np.inf, -np.inf):
        got = nr.cond(nr.tensor(a, device=device), p).numpy()
        assert got.shape == (2,) and got[0] == np.inf
        np.testing.assert_allclose(got[1], np.linalg.cond(a[1], p), rtol=1e-10)
