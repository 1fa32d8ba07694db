"""The decomposition family's spectral ops (eigh, eigvalsh, svd, svdvals) and the composites
over them (lstsq, pinv, matrix_norm, matrix_rank, cond) on every backend (complex: CPU only)
against numpy.linalg in float64/complex128: invariants (V diag(w) V^H, U S Vh, orthogonality), batched, 0x0/1x1, views,
repeated and rounding-level eigenvalues, rank-deficient and extreme-scale inputs, NaN."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_close
from decomp_cases import DTYPES, eye_like, hermitian, mH, on, rand, tol, wide

import numr as nr

# ---- eigh

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("uplo", ["L", "U"])
def test_eigh(device, dtype, uplo):
    T = on(device, dtype)
    H = hermitian((2, 6, 6), dtype)
    keep = np.tril(H) if uplo == "L" else np.triu(H)
    junk = keep + (np.triu(rand((6, 6), dtype), 1) if uplo == "L" else np.tril(rand((6, 6), dtype), -1))
    w, V = nr.eigh(T(junk.astype(H.dtype)), UPLO=uplo)
    real = "float32" if dtype in ("float32", "complex64") else "float64"
    assert_close(w, np.linalg.eigvalsh(wide(H)), dtype=real, **tol(dtype, 10))
    v, ww = wide(V.numpy()), wide(w.numpy())
    assert V.dtype == nr.dtype(dtype)
    np.testing.assert_allclose(wide(H) @ v, v * ww[..., None, :], **tol(dtype, 10))
    np.testing.assert_allclose(mH(v) @ v, eye_like(6, (2,)), **tol(dtype))
    assert_close(nr.eigvalsh(T(H)), np.linalg.eigvalsh(wide(H)), dtype=real, **tol(dtype, 10))


def test_eigh_edges(device):
    T = on(device)
    w, V = nr.eigh(T(np.eye(4) * 2.0))  # repeated eigenvalues
    assert_close(w, np.full(4, 2.0), dtype="float64")
    np.testing.assert_allclose(V.numpy().T @ V.numpy(), np.eye(4), atol=1e-14)
    w, V = nr.eigh(T(np.zeros((3, 0, 0))))
    assert w.shape == (3, 0) and V.shape == (3, 0, 0)
    assert_close(nr.eigh(T([[5.0]]))[0], [5.0], dtype="float64")
    Q = np.linalg.qr(rand((8, 8)))[0]  # ill-conditioned: eigenvalues over 12 decades
    H = (Q * np.logspace(-6, 6, 8)) @ Q.T
    w = nr.eigvalsh(T(H)).numpy()
    np.testing.assert_allclose(w, np.linalg.eigvalsh(H), rtol=1e-9, atol=1e-9 * 1e6)
    nan = np.eye(3)
    nan[2, 1] = np.nan
    assert np.isnan(nr.eigvalsh(T(nan)).numpy()).any()  # NaN propagates (documented)
    with pytest.raises(ValueError, match="UPLO"):
        nr.eigh(T(np.eye(2)), UPLO="X")


# ---- svd

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(6, 4), (4, 6), (2, 3, 5, 5), (1, 1), (1, 4)])
@pytest.mark.parametrize("full", [True, False])
def test_svd(device, dtype, shape, full):
    T = on(device, dtype)
    A = rand(shape, dtype)
    U, S, Vh = nr.svd(T(A), full_matrices=full)
    m, n = shape[-2:]
    k = min(m, n)
    real = "float32" if dtype in ("float32", "complex64") else "float64"
    assert U.shape == shape[:-2] + (m, m if full else k) and Vh.shape == shape[:-2] + (n if full else k, n)
    assert_close(S, np.linalg.svd(wide(A), compute_uv=False), dtype=real, **tol(dtype))
    u, vh, s = wide(U.numpy()), wide(Vh.numpy()), S.numpy()
    np.testing.assert_allclose((u[..., :k] * s[..., None, :]) @ vh[..., :k, :], wide(A), **tol(dtype))
    np.testing.assert_allclose(mH(u) @ u, eye_like(u.shape[-1], shape[:-2]), **tol(dtype))
    np.testing.assert_allclose(vh @ mH(vh), eye_like(vh.shape[-2], shape[:-2]), **tol(dtype))
    assert_close(nr.svdvals(T(A)), np.linalg.svd(wide(A), compute_uv=False), dtype=real, **tol(dtype))


def test_svd_edges(device):
    T = on(device)
    A = rand((5, 2)) @ rand((2, 4))  # rank 2: zero singular values, U still orthonormal
    U, S, Vh = nr.svd(T(A))
    np.testing.assert_allclose(U.numpy().T @ U.numpy(), np.eye(5), atol=1e-12)
    np.testing.assert_allclose(S.numpy(), np.linalg.svd(A, compute_uv=False), atol=1e-12)
    U, S, Vh = nr.svd(T(np.zeros((3, 0))))  # torch: identity U, empty S
    assert U.shape == (3, 3) and S.shape == (0,) and Vh.shape == (0, 0)
    np.testing.assert_allclose(U.numpy(), np.eye(3))
    t = T(rand((7, 6)))[1::2, ::-1]  # (3, 6) strided, flipped view
    assert_close(nr.svdvals(t), np.linalg.svd(t.numpy(), compute_uv=False), dtype="float64", **tol("float64"))
    x = nr.cast(T(rand((4, 3))), nr.bfloat16)
    s = nr.svdvals(x)
    assert s.dtype == nr.bfloat16
    np.testing.assert_allclose(s.numpy().astype(np.float64),
                               np.linalg.svd(x.numpy().astype(np.float64), compute_uv=False), rtol=2e-2)


# ---- lstsq, pinv, matrix_norm, matrix_rank, cond

@pytest.mark.parametrize("dtype", DTYPES)
def test_lstsq_pinv(device, dtype):
    T = on(device, dtype)
    A, B = rand((2, 7, 4), dtype), rand((2, 7, 3), dtype)
    assert_close(nr.lstsq(T(A), T(B)), np.linalg.pinv(wide(A)) @ wide(B), dtype=dtype, **tol(dtype, 10))
    Aw, Bw = rand((3, 6), dtype), rand((3,), dtype)  # underdetermined: the minimum-norm solution
    assert_close(nr.lstsq(T(Aw), T(Bw)), np.linalg.lstsq(wide(Aw), wide(Bw), rcond=None)[0],
                 dtype=dtype, **tol(dtype, 10))
    assert_close(nr.pinv(T(A)), np.linalg.pinv(wide(A)), dtype=dtype, **tol(dtype, 10))
    low = rand((5, 2), dtype) @ rand((2, 4), dtype)  # rank deficient
    single = dtype in ("float32", "complex64")
    assert_close(nr.pinv(T(low)), np.linalg.pinv(wide(low), rcond=1e-5 if single else 1e-12),
                 dtype=dtype, **tol(dtype, 100))
    assert nr.pinv(T(np.zeros((0, 3)))).shape == (3, 0)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
def test_norms_rank_cond(device, dtype):
    T = on(device, dtype)
    A = rand((2, 3, 4), dtype)
    real = "float32" if dtype == "float32" else "float64"
    for o in ["fro", "nuc", 2, -2, 1, -1, np.inf, -np.inf]:
        assert_close(nr.matrix_norm(T(A), o), np.linalg.norm(wide(A), o, axis=(-2, -1)), dtype=real,
                     **tol(dtype))
    got = nr.matrix_norm(T(A), 1, dim=(0, 2), keepdim=True)
    assert_close(got, np.linalg.norm(wide(A), 1, axis=(0, 2), keepdims=True), dtype=real, **tol(dtype))
    low = rand((6, 2), dtype) @ rand((2, 5), dtype)
    r = nr.matrix_rank(T(np.stack([low, rand((6, 5), dtype)])))
    assert r.dtype == nr.int64 and r.numpy().tolist() == [2, 5]
    assert nr.matrix_rank(T(low), atol=1e3).numpy() == 0
    S = rand((3, 4, 4), dtype)
    for p in (None, 2, -2, 1, np.inf, "fro", "nuc"):
        assert_close(nr.cond(T(S), p), np.linalg.cond(wide(S), p), dtype=real, **tol(dtype, 100))
    with pytest.raises(ValueError, match="ord"):
        nr.matrix_norm(T(A), 3)
    with pytest.raises(nr.ShapeError, match="matrix_norm"):
        nr.matrix_norm(T(np.ones(3)))


@pytest.mark.parametrize("scale", [1e200, 1e-200])
def test_extreme_scales(device, scale):
    """Entries whose squares overflow or underflow: eigh, svd and qr work on a power-of-two scaled copy."""
    T = on(device)
    A = rand((5, 5))
    H = A + A.T
    np.testing.assert_allclose(nr.eigvalsh(T(H * scale)).numpy() / scale, np.linalg.eigvalsh(H), atol=1e-12)
    w, V = nr.eigh(T(H * scale))
    np.testing.assert_allclose(H @ V.numpy(), V.numpy() * (w.numpy() / scale), atol=1e-12)
    np.testing.assert_allclose(nr.svdvals(T(A * scale)).numpy() / scale, np.linalg.svd(A, compute_uv=False),
                               atol=1e-12)
    Q, R = nr.qr(T(A * scale))
    np.testing.assert_allclose(Q.numpy() @ (R.numpy() / scale), A, atol=1e-12)
    assert_close(nr.solve(T(A * scale), T(np.ones(5) * scale)), np.linalg.solve(A, np.ones(5)),
                 dtype="float64", rtol=1e-10, atol=1e-10)
    with pytest.raises(nr.LinAlgError, match=r"^solve: the matrix is singular \(U\[0, 0\] is zero\)$"):
        nr.solve(T(np.zeros((2, 2))), T(np.ones(2)))  # unbatched: no batch element named


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64"])
@pytest.mark.parametrize("shape", [(4, 3), (8, 8), (10, 12), (20, 20)])
def test_svd_rank_one_and_zero_columns(device, dtype, shape):
    """Rank one (bidiagonal entries down to 1e-300 and below) and zero columns: converges, U and V stay
    orthonormal (a sign or phase of a subnormal |d| once scaled U's columns)."""
    T = on(device, dtype)
    single = dtype in ("float32", "complex64")
    for A in (np.ones(shape), np.where(np.arange(shape[1]) % 2, rand(shape), 0.0)):
        A = A.astype(nr.dtype(dtype).np)
        U, S, Vh = nr.svd(T(A))
        u, vh = wide(U.numpy()), wide(Vh.numpy())
        k = min(shape)
        np.testing.assert_allclose(mH(u) @ u, np.eye(shape[0]), atol=1e-5 if single else 1e-12)
        np.testing.assert_allclose(vh @ mH(vh), np.eye(shape[1]), atol=1e-5 if single else 1e-12)
        np.testing.assert_allclose((u[:, :k] * S.numpy()) @ vh[:k], wide(A), atol=2e-5 if single else 1e-12)
        H = A[:k, :k] + mH(A[:k, :k])
        w, V = nr.eigh(T(H))
        v = wide(V.numpy())
        np.testing.assert_allclose(mH(v) @ v, np.eye(k), atol=1e-5 if single else 1e-12)


@pytest.mark.parametrize("dtype", ["complex64", "float32", "float64"])
def test_eigh_rounding_level_cluster(dtype):
    """Low rank: ~85 eigenvalues at rounding level beside large ones (QL stalled there before the
    normwise split test, single precision)."""
    n = 90
    X, Y = rand((n, 3), dtype), rand((3, n), dtype)
    A = wide(X) @ wide(Y)
    H = ((A + mH(A)) / 2).astype(X.dtype)
    w, V = nr.eigh(nr.tensor(H))
    v, hw = wide(V.numpy()), wide(H)
    single = dtype != "float64"
    scale = np.abs(hw).max()
    np.testing.assert_allclose(hw @ v, v * w.numpy(), atol=(1e-4 if single else 1e-11) * scale)
    np.testing.assert_allclose(mH(v) @ v, np.eye(n), atol=1e-4 if single else 1e-11)
    np.testing.assert_allclose(w.numpy(), np.linalg.eigvalsh(hw), atol=(1e-5 if single else 1e-12) * scale * n)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_low_precision_every_op(device, dtype):
    """float16/bfloat16 compute in float32 and come back in the input dtype (eigenvalues/singular
    values too); the values match the float64 results of the rounded input."""
    T = on(device, dtype)
    d = nr.dtype(dtype)
    x = nr.cast(T(hermitian((2, 4, 4), "float64", shift=2.0)), d)
    a = x.numpy().astype(np.float64)
    r = dict(rtol=4e-2, atol=4e-2 * np.abs(a).max())
    w, V = nr.eigh(x)
    assert w.dtype == d and V.dtype == d
    np.testing.assert_allclose(w.numpy().astype(np.float64), np.linalg.eigvalsh(a), **r)
    U, S, Vh = nr.svd(x)
    assert U.dtype == S.dtype == Vh.dtype == d
    np.testing.assert_allclose(S.numpy().astype(np.float64), np.linalg.svd(a, compute_uv=False), **r)
    Q, R = nr.qr(x)
    assert Q.dtype == R.dtype == d
    np.testing.assert_allclose(Q.numpy().astype(np.float64) @ R.numpy().astype(np.float64), a, **r)
    L = nr.cholesky(x)
    assert L.dtype == d
    np.testing.assert_allclose(L.numpy().astype(np.float64), np.linalg.cholesky(a), **r)
    assert_close(nr.inv(x), np.linalg.inv(a), dtype=dtype, rtol=4e-2, atol=4e-2)
    s, la = nr.slogdet(x)
    assert s.dtype == la.dtype == d
    np.testing.assert_allclose(la.numpy().astype(np.float64), np.linalg.slogdet(a)[1], rtol=4e-2)
    assert nr.matrix_norm(x, "nuc").dtype == d and nr.matrix_rank(x).dtype == nr.int64
    with pytest.raises(nr.DTypeError, match="eigh"):
        nr.eigh(T(np.eye(3, dtype=np.int32)))
