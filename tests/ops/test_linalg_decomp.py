"""The decomposition family's solvers and factorisations (solve, inv, det, slogdet, lu_factor,
solve_triangular, cholesky, qr) on the CPU against numpy.linalg in float64/complex128
(invariants where signs are free: Q R, L L^H, orthogonality): batched, broadcast, 1x1, 0x0,
views, ill-conditioned, singular, NaN, low precision, the blocked paths, errors, on every backend
(complex: CPU only; the GPUs raise UnsupportedDType). eigh, svd and the composites over
them: tests/ops/test_linalg_spectral.py; gradients: tests/autograd/test_linalg_decomp_grad.py."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_close
from decomp_cases import DTYPES, eye_like, hermitian, mH, on, rand, tol, wide

import numr as nr

# ---- every backend

OPS = {
    "solve": lambda x: nr.solve(x, x), "inv": nr.inv, "det": nr.det, "slogdet": nr.slogdet,
    "cholesky": nr.cholesky, "qr": nr.qr, "eigh": nr.eigh, "eigvalsh": nr.eigvalsh, "svd": nr.svd,
    "svdvals": nr.svdvals, "lstsq": lambda x: nr.lstsq(x, x), "pinv": nr.pinv,
    "matrix_norm": lambda x: nr.matrix_norm(x, 2), "matrix_rank": nr.matrix_rank, "cond": nr.cond,
    "solve_triangular": lambda x: nr.solve_triangular(x, x, upper=True), "lu_factor": nr.lu_factor,
    "lu": nr.lu,
}


@pytest.mark.parametrize("op", sorted(OPS))
def test_backends(device, op):
    """Every backend runs every op (the GPUs: the composites of numr/ops/generic/decomp_blocked.py and
    decomp_jacobi.py) on the input's device, matching the CPU where the result is unique (shapes and
    dtypes where signs are free); complex input too where the backend holds it (wgpu: UnsupportedDType
    naming backend and dtype already creating the tensor)."""
    a = hermitian((3, 3), "float32", shift=1.0)
    for d in ("float32", "complex64"):
        if device == "wgpu" and d == "complex64":
            with pytest.raises(nr.UnsupportedDType) as e:
                OPS[op](nr.tensor(a.astype(np.complex64), device=device))
            assert device in str(e.value) and "complex64" in str(e.value)
            continue
        out, ref = OPS[op](nr.tensor(a.astype(d), device=device)), OPS[op](nr.tensor(a.astype(d)))
        outs, refs = (out, ref) if isinstance(out, tuple) else ((out,), (ref,))
        for o, r in zip(outs, refs, strict=True):
            assert isinstance(o, nr.Tensor) and o.device.runtime_name == device
            assert o.shape == r.shape and o.dtype == r.dtype
            if op not in ("qr", "eigh", "svd"):
                np.testing.assert_allclose(o.numpy(), r.numpy(), rtol=1e-4, atol=1e-5)


# ---- solve, inv, det, slogdet, lu_factor

@pytest.mark.parametrize("dtype", DTYPES)
def test_solve_batched_broadcast(device, dtype):
    T = on(device, dtype)
    A = rand((2, 1, 4, 4), dtype, shift=3)
    B = rand((3, 4, 2), dtype)
    got = nr.solve(T(A), T(B))
    assert_close(got, np.linalg.solve(wide(A), wide(B)), dtype=dtype, **tol(dtype))
    b = rand((4,), dtype)  # a vector right-hand side
    assert_close(nr.solve(T(A), T(b)), np.linalg.solve(wide(A), wide(b)[..., None])[..., 0],
                 dtype=dtype, **tol(dtype))
    Bl = rand((2, 3, 2, 4), dtype)  # X A = B
    assert_close(nr.solve(T(A), T(Bl), left=False), wide(Bl) @ np.linalg.inv(wide(A)),
                 dtype=dtype, **tol(dtype))


def test_solve_views_edges_errors(device):
    T = on(device)
    A = rand((5, 6, 6), shift=4)
    B = rand((6, 5, 3))
    t = T(A)
    for view, a in ((t.mT, np.swapaxes(A, -1, -2)), (t[::2, 1:, 1:], A[::2, 1:, 1:]), (t.flip(-1), A[..., ::-1])):
        n = a.shape[-1]
        b = B[:n, : a.shape[0]].transpose(1, 0, 2)  # (batch, n, 3), non-contiguous
        assert_close(nr.solve(view, T(B)[:n, : a.shape[0]].permute((1, 0, 2))), np.linalg.solve(a, b),
                     dtype="float64", **tol("float64"))
    assert_close(nr.solve(T([[2.0]]), T([[4.0, 6.0]])), [[2.0, 3.0]], dtype="float64")
    assert nr.solve(T(np.zeros((0, 0))), T(np.zeros((0, 2)))).shape == (0, 2)
    assert nr.solve(T(np.zeros((0, 3, 3))), T(np.zeros((0, 3, 1)))).shape == (0, 3, 1)
    sing = np.stack([np.eye(3), np.ones((3, 3))])
    with pytest.raises(nr.LinAlgError, match=r"solve: .*singular.*batch element \(1,\)"):
        nr.solve(T(sing), T(np.ones((2, 3, 1))))
    with pytest.raises(ValueError, match=r"inv: .*singular"):  # LinAlgError is a ValueError
        nr.inv(T(sing))
    with pytest.raises(nr.ShapeError, match="square"):
        nr.solve(T(np.ones((3, 4))), T(np.ones((3, 1))))
    with pytest.raises(nr.ShapeError, match="solve"):
        nr.solve(T(np.eye(3)), T(np.ones((4, 2))))
    with pytest.raises(nr.DTypeError, match="solve"):
        nr.solve(T(np.eye(3, dtype=np.int64)), T(np.ones((3, 1), np.int64)))
    with pytest.raises(nr.ShapeError, match="solve"):
        nr.solve(T(np.ones(3)), T(np.ones(3)))
    nan = np.eye(3)
    nan[1, 1] = np.nan
    assert np.isnan(nr.solve(T(nan), T(np.ones((3, 1)))).numpy()).any()  # NaN propagates


def test_solve_ill_conditioned_and_large_batch(device):
    T = on(device)
    n = 8
    hilb = 1.0 / (np.arange(n)[:, None] + np.arange(n)[None, :] + 1)  # cond ~ 1e10
    b = hilb @ np.ones(n)
    x = nr.solve(T(hilb), T(b)).numpy()
    assert np.linalg.norm(hilb @ x - b) <= 1e-12 * np.linalg.norm(b)  # backward stable
    np.testing.assert_allclose(x, np.linalg.solve(hilb, b), rtol=1e-4)
    A = rand((2500 if device == "cpu" else 100, 8, 8), shift=2)  # CPU: the threaded batch path
    assert_close(nr.inv(T(A)), np.linalg.inv(A), dtype="float64", rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("dtype", DTYPES)
def test_inv_det_slogdet(device, dtype):
    T = on(device, dtype)
    A = rand((3, 5, 5), dtype)
    assert_close(nr.inv(T(A)), np.linalg.inv(wide(A)), dtype=dtype, **tol(dtype, 10))
    assert_close(nr.det(T(A)), np.linalg.det(wide(A)), dtype=dtype, **tol(dtype, 10))
    s, logabs = nr.slogdet(T(A))
    s0, l0 = np.linalg.slogdet(wide(A))
    assert_close(s, s0, dtype=dtype, **tol(dtype))
    assert_close(logabs, l0, dtype="float32" if dtype in ("float32", "complex64") else "float64", **tol(dtype))
    # singular: det 0, slogdet (0, -inf), as numpy and torch
    sing = np.array([[1.0, 2.0], [2.0, 4.0]], dtype=nr.dtype(dtype).np)
    assert nr.det(T(sing)).numpy() == 0
    s, logabs = nr.slogdet(T(sing))
    assert s.numpy() == 0 and logabs.numpy() == -np.inf


def test_det_edges_lowp_lu(device):
    T = on(device)
    assert nr.det(T(np.zeros((0, 0)))).numpy() == 1.0  # empty product, as torch
    s, la = nr.slogdet(T(np.zeros((2, 0, 0))))
    assert s.shape == (2,) and (s.numpy() == 1).all() and (la.numpy() == 0).all()
    assert_close(nr.det(T([[3.0]])), 3.0, dtype="float64")
    A = rand((2, 4, 4), shift=3)
    for d in ("float16", "bfloat16"):  # computed in float32, returned in the input dtype
        x = nr.cast(T(A), nr.dtype(d))
        a = x.numpy().astype(np.float64)
        assert_close(nr.det(x), np.linalg.det(a), dtype=d, rtol=3e-2, atol=3e-2)
        assert_close(nr.solve(x, x), np.eye(4)[None].repeat(2, 0), dtype=d, rtol=3e-2, atol=3e-2)
    LU, piv = nr.lu_factor(T(A))
    assert piv.dtype == nr.int32 and LU.shape == A.shape and int(piv.numpy().min()) >= 1
    lu, p = LU.numpy(), piv.numpy() - 1
    for b in range(2):  # rebuild P A = L U
        L, U = np.tril(lu[b], -1) + np.eye(4), np.triu(lu[b])
        PA = A[b].copy()
        for k, j in enumerate(p[b]):
            PA[[k, j]] = PA[[j, k]]
        np.testing.assert_allclose(L @ U, PA, atol=1e-12)


# ---- solve_triangular

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("upper", [True, False])
def test_solve_triangular(device, dtype, upper):
    T = on(device, dtype)
    A = rand((2, 4, 4), dtype, shift=4)
    tri = np.triu(A) if upper else np.tril(A)
    B = rand((3, 1, 4, 2), dtype)
    assert_close(nr.solve_triangular(T(A), T(B), upper=upper), np.linalg.solve(wide(tri), wide(B)),
                 dtype=dtype, **tol(dtype))
    unit = tri * (1 - np.eye(4)) + np.eye(4)
    assert_close(nr.solve_triangular(T(A), T(B), upper=upper, unitriangular=True),
                 np.linalg.solve(wide(unit), wide(B)), dtype=dtype, **tol(dtype))
    Bl = rand((2, 3, 4), dtype)
    assert_close(nr.solve_triangular(T(A), T(Bl), upper=upper, left=False),
                 wide(Bl) @ np.linalg.inv(wide(tri)), dtype=dtype, **tol(dtype))
    with pytest.raises(nr.ShapeError, match="solve_triangular"):
        nr.solve_triangular(T(A), T(B[..., :3, :]), upper=upper)


# ---- cholesky

@pytest.mark.parametrize("dtype", DTYPES)
def test_cholesky(device, dtype):
    T = on(device, dtype)
    H = hermitian((3, 5, 5), dtype, shift=1.0)
    garbage = H + np.triu(rand((5, 5), dtype), 1)  # only the lower triangle is read
    L = nr.cholesky(T(garbage))
    assert_close(L, np.linalg.cholesky(wide(H)), dtype=dtype, **tol(dtype, 10))
    U = nr.cholesky(T(H), upper=True)
    assert_close(U, mH(np.linalg.cholesky(wide(H))), dtype=dtype, **tol(dtype, 10))
    assert nr.cholesky(T(np.zeros((0, 0), nr.dtype(dtype).np))).shape == (0, 0)
    bad = np.stack([np.eye(3), np.diag([1.0, -1.0, 1.0])]).astype(nr.dtype(dtype).np)
    with pytest.raises(nr.LinAlgError, match=r"cholesky: .*not positive-definite .*order 2 .*batch element \(1,\)"):
        nr.cholesky(T(bad))
    nan = np.eye(3)
    nan[0, 0] = np.nan
    with pytest.raises(nr.LinAlgError, match="cholesky"):  # NaN: not positive-definite (documented)
        nr.cholesky(T(nan))


# ---- qr

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(6, 4), (4, 6), (2, 5, 5), (1, 1), (0, 3), (3, 0)])
@pytest.mark.parametrize("mode", ["reduced", "complete", "r"])
def test_qr(device, dtype, shape, mode):
    T = on(device, dtype)
    A = rand(shape, dtype)
    Q, R = nr.qr(T(A), mode=mode)
    m, n = shape[-2:]
    k = min(m, n)
    assert R.shape == shape[:-2] + ((m if mode == "complete" else k), n) and R.dtype == nr.dtype(dtype)
    r = R.numpy()
    assert (np.tril(r, -1) == 0).all()
    if mode == "r":
        assert Q.numel() == 0
        np.testing.assert_allclose(np.abs(wide(r)), np.abs(np.linalg.qr(wide(A), mode="r")), **tol(dtype, 10))
        return
    q = wide(Q.numpy())
    assert Q.shape == shape[:-2] + (m, m if mode == "complete" else k)
    np.testing.assert_allclose(q @ wide(r), wide(A), **tol(dtype))
    np.testing.assert_allclose(mH(q) @ q, eye_like(q.shape[-1], shape[:-2]), **tol(dtype))


def test_qr_views_and_rank_deficient(device):
    T = on(device)
    A = rand((6, 8))
    v = T(A)[::-1, 1:6].mT  # (5, 6) reversed, sliced, transposed
    a = A[::-1, 1:6].T
    Q, R = nr.qr(v)
    np.testing.assert_allclose(Q.numpy() @ R.numpy(), a, atol=1e-12)
    Z = np.zeros((4, 3))
    Z[:, 0] = 1.0  # rank 1, zero columns: Q stays orthonormal
    Q, R = nr.qr(T(Z))
    np.testing.assert_allclose(Q.numpy().T @ Q.numpy(), np.eye(3), atol=1e-12)
    np.testing.assert_allclose(Q.numpy() @ R.numpy(), Z, atol=1e-12)
    with pytest.raises(ValueError, match="mode"):
        nr.qr(T(Z), mode="full")
    with pytest.raises(nr.ShapeError, match="qr"):
        nr.qr(T(np.ones(3)))


@pytest.mark.parametrize("dtype", ["float64", "complex128", "float32"])
def test_blocked_paths(dtype):
    """n >= 96: the blocked LU, triangular solves and Cholesky (GEMM updates), over a batch of 2."""
    n = 130
    A = rand((2, n, n), dtype, shift=12)
    B = rand((2, n, 9), dtype)
    s = 20 if dtype == "float32" else 1
    assert_close(nr.solve(nr.tensor(A), nr.tensor(B)), np.linalg.solve(wide(A), wide(B)), dtype=dtype, **tol(dtype, s))
    assert_close(nr.inv(nr.tensor(A)), np.linalg.inv(wide(A)), dtype=dtype, **tol(dtype, s))
    H = (A @ mH(A) / n).astype(A.dtype)
    assert_close(nr.cholesky(nr.tensor(H)), np.linalg.cholesky(wide(H)), dtype=dtype, **tol(dtype, s))
    for upper in (True, False):
        tri = np.triu(A) if upper else np.tril(A)
        assert_close(nr.solve_triangular(nr.tensor(A), nr.tensor(B), upper=upper),
                     np.linalg.solve(wide(tri), wide(B)), dtype=dtype, **tol(dtype, s))
    sing = A[0].copy()
    sing[:, 100] = 0  # a zero column past the first panel
    with pytest.raises(nr.LinAlgError, match=r"singular"):
        nr.solve(nr.tensor(sing), nr.tensor(B[0]))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [1, 5, 100])
def test_lu(device, dtype, n):
    """A = P L U: P a permutation, L unit lower, U upper; batched; a singular matrix factors too."""
    T = on(device, dtype)
    A = rand((2, n, n), dtype)
    A[1, :, 0] = 0  # singular
    P, L, U = nr.lu(T(A))
    p, lo, up = wide(P.numpy()), wide(L.numpy()), wide(U.numpy())
    assert P.dtype == L.dtype == U.dtype == nr.dtype(dtype) and P.shape == L.shape == U.shape == A.shape
    assert set(np.unique(p)) <= {0, 1} and (p.sum(-1) == 1).all() and (p.sum(-2) == 1).all()
    assert (np.triu(lo, 1) == 0).all() and (np.diagonal(lo, 0, -2, -1) == 1).all() and (np.tril(up, -1) == 0).all()
    bound = np.sqrt(2) if "complex" in dtype else 1  # pivots by |re| + |im| (LAPACK's cabs1)
    assert np.abs(np.tril(lo, -1)).max(initial=0) <= bound  # partial pivoting bounds the multipliers
    np.testing.assert_allclose(p @ lo @ up, wide(A), **tol(dtype, 10 * n))
    assert nr.lu(T(np.zeros((0, 0))))[0].shape == (0, 0)
    with pytest.raises(nr.UnsupportedOperation, match="pivot"):
        nr.lu(T(A), pivot=False)
