"""The Schur family (numr/ops/traits/schur.py): schur against the definition (a = Z T Z^H to
~n eps ||a||, T (quasi-)triangular with LAPACK's standardised 2x2 blocks, Z unitary, scipy's
eigenvalues as a set) on random, symmetric, Jordan, triangular, 1x1, 0x0, batched, complex and
float32 inputs; rsf2csf and funm against scipy.linalg; the CPU's Schur sqrtm on a nearly defective
matrix (scipy's residual, where Denman-Beavers loses four digits); qz (complex) and the
generalized eig(a, b) against scipy; NaN input, errors, and the GPUs' UnsupportedOperation. No
gradients (schur/funm/qz have none, as torch)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg as sl
from conftest import assert_close

import numr as nr
from numr.ops.generic.matfunc import sqrtm_any
from numr.ops.generic.schur import rsf2csf_any

_RNG = np.random.default_rng(5)
CASES = {
    "random": _RNG.standard_normal((6, 6)),
    "symmetric": (lambda b: b + b.T)(_RNG.standard_normal((5, 5))),
    "jordan": 2 * np.eye(4) + np.eye(4, k=1),
    "triangular": np.triu(_RNG.standard_normal((4, 4))),
    "rotation": np.array([[0.0, -1.0], [1.0, 0.0]]),  # one complex pair, already a 2x2 block
    "1x1": np.array([[-3.5]]),
}
_EPS = {"float64": 2.2e-16, "float32": 1.2e-7, "complex128": 2.2e-16, "complex64": 1.2e-7}


def _same_set(a, b, rtol=1e-9):
    """The eigenvalues a and b are one multiset (greedy nearest matching, conjugate pairs alike)."""
    b = list(np.asarray(b).ravel())
    for x in np.asarray(a).ravel():
        i = int(np.argmin([abs(x - y) for y in b]))
        assert abs(x - b[i]) <= rtol * max(abs(b[i]), 1.0), (x, b[i])
        b.pop(i)


def _check_schur(A, T, Z, output, dtype):
    """a = Z T Z^H, Z unitary, T's structure, eigenvalues as scipy's (A: float64/complex128)."""
    T, Z = T.numpy().astype(complex), Z.numpy().astype(complex)
    n = A.shape[-1]
    tol = 50 * max(n, 1) * _EPS[dtype] * max(np.abs(A).max(), 1.0)
    np.testing.assert_allclose(Z @ T @ np.conj(np.swapaxes(Z, -1, -2)), A, atol=tol, rtol=0)
    np.testing.assert_allclose(np.conj(np.swapaxes(Z, -1, -2)) @ Z, np.broadcast_to(np.eye(n), Z.shape),
                               atol=50 * max(n, 1) * _EPS[dtype], rtol=0)
    real = output == "real" and dtype.startswith("float")
    for t, a in zip(T.reshape((-1, n, n)), A.reshape((-1, n, n)), strict=True):
        assert (np.tril(t, -2 if real else -1) == 0).all()
        for k in range(n - 1):  # a 2x2 block: equal diagonal, off-diagonals of opposite sign, isolated
            if t[k + 1, k] != 0:
                assert t[k, k] == t[k + 1, k + 1] and (t[k, k + 1] * t[k + 1, k]).real < 0
                assert k + 2 >= n or t[k + 2, k + 1] == 0
        ev = np.linalg.eigvals(t) if real else np.diag(t)
        ref = sl.eigvals(a)
        for e in ev:  # each eigenvalue near one of scipy's (the Jordan block's are ~sqrt(eps) apart)
            assert np.abs(ref - e).min() <= 1e-3 * max(np.abs(a).max(), 1.0) ** 0.5 + 1e3 * tol


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("output", ["real", "complex"])
def test_schur_cases(case, output):
    A = CASES[case]
    T, Z = nr.schur(nr.tensor(A), output)
    assert T.shape == A.shape and Z.shape == A.shape
    assert T.dtype == Z.dtype == (nr.float64 if output == "real" else nr.complex128)
    _check_schur(A, T, Z, output, "float64" if output == "real" else "complex128")
    if case in ("triangular", "1x1"):  # already triangular: T = A, Z = I up to signs
        assert_close(nr.abs(T), np.abs(A), dtype="float64")


@pytest.mark.parametrize("dtype", ["float32", "complex64", "complex128"])
def test_schur_dtypes_and_batch(dtype):
    """Batched (2, 3, 5, 5) inputs in each dtype; the real form of a real batch, the triangular one
    of complex input (output is ignored for complex, as scipy)."""
    A = _RNG.standard_normal((2, 3, 5, 5))
    if dtype.startswith("complex"):
        A = A + 1j * _RNG.standard_normal(A.shape)
    T, Z = nr.schur(nr.tensor(A.astype(dtype)))
    assert T.dtype == Z.dtype == nr.dtype(dtype) and T.shape == A.shape
    _check_schur(A.astype(dtype).astype(A.dtype), T, Z, "real", dtype)


def test_schur_layouts_and_small():
    """Views (transposed, sliced, flipped, broadcast), 0x0, low precision."""
    base = _RNG.standard_normal((7, 7))
    for view, ref in [(nr.tensor(base).mT, base.T), (nr.tensor(base)[1:6, 2:7], base[1:6, 2:7]),
                      (nr.flip(nr.tensor(base), [0]), base[::-1]),
                      (nr.tensor(base[:3, :3]).expand((2, 3, 3)), np.broadcast_to(base[:3, :3], (2, 3, 3)))]:
        T, Z = nr.schur(view)
        _check_schur(np.asarray(ref), T, Z, "real", "float64")
    for out in ("real", "complex"):
        T, Z = nr.schur(nr.zeros((2, 0, 0), dtype=nr.float64), out)
        assert T.shape == Z.shape == (2, 0, 0)
    T, Z = nr.schur(nr.tensor(base[:4, :4], dtype="float16"))
    assert T.dtype == Z.dtype == nr.float16
    recon = nr.cast(Z, nr.float64) @ nr.cast(T, nr.float64) @ nr.cast(Z, nr.float64).mT
    np.testing.assert_allclose(recon.numpy(), base[:4, :4].astype(np.float16), atol=2e-2)


def test_schur_nonfinite_and_errors():
    """NaN/inf in a matrix: its T and Z all NaN (scipy's check_finite would raise), the batch mates
    unharmed; non-square: ShapeError; integers: DTypeError; bad output: ValueError."""
    A = np.stack([CASES["random"][:3, :3], np.full((3, 3), np.nan), np.diag([np.inf, 1.0, 1.0])])
    T, Z = nr.schur(nr.tensor(A))
    assert np.isnan(T.numpy()[1:]).all() and np.isnan(Z.numpy()[1:]).all()
    _check_schur(A[0], T[0], Z[0], "real", "float64")
    with pytest.raises(nr.errors.ShapeError, match="schur"):
        nr.schur(nr.zeros((2, 3), dtype=nr.float64))
    with pytest.raises(nr.errors.DTypeError, match="schur"):
        nr.schur(nr.tensor(np.eye(2, dtype=np.int64)))
    with pytest.raises(ValueError, match="output"):
        nr.schur(nr.tensor(np.eye(2)), "imaginary")


def test_rsf2csf(device):
    """scipy's rsf2csf on a real Schur form (computed on the CPU), batched, on every backend."""
    dtype = "float32" if device == "wgpu" else "float64"
    A = np.stack([CASES["random"], _RNG.standard_normal((6, 6))])
    T, Z = (x.numpy() for x in nr.schur(nr.tensor(A)))
    if device == "wgpu":  # no complex dtype there
        with pytest.raises((nr.errors.UnsupportedDType, nr.errors.UnsupportedOperation)):
            nr.rsf2csf(nr.tensor(T[0].astype(dtype), device=device), nr.tensor(Z[0].astype(dtype), device=device))
        return
    runs = [nr.rsf2csf(nr.tensor(T, device=device), nr.tensor(Z, device=device))]
    if device == "cpu":  # the CPU's kernel above; the GPUs' composite here too
        runs.append(rsf2csf_any(nr.tensor(T), nr.tensor(Z)))
    for T2, Z2 in runs:
        assert T2.dtype == Z2.dtype == nr.complex128
        for i in range(2):
            t, z = sl.rsf2csf(T[i], Z[i])
            assert_close(T2[i], t, dtype="complex128")
            assert_close(Z2[i], z, dtype="complex128")
        assert (np.tril(T2.numpy(), -1) == 0).all()
    with pytest.raises(nr.errors.ShapeError, match="rsf2csf"):
        nr.rsf2csf(nr.tensor(T[0], device=device), nr.tensor(Z[0, :3, :3], device=device))


def test_funm():
    """funm(a, f) against scipy.linalg.funm: real in -> real out, complex, batched, 0x0; func must
    map the eigenvalues element-wise."""
    A = CASES["random"] * 0.5
    for f, g in [(nr.exp, np.exp), (nr.sin, np.sin), (lambda x: x * x + 1, lambda x: x * x + 1)]:
        out = nr.funm(nr.tensor(A), f)
        assert out.dtype == nr.float64
        assert_close(out, sl.funm(A, g), dtype="float64", rtol=1e-8, atol=1e-10)
    C = np.stack([A + 0.3j * CASES["random"].T, A.astype(complex)])
    out = nr.funm(nr.tensor(C), nr.exp)
    assert out.dtype == nr.complex128
    assert_close(out, np.stack([sl.expm(c) for c in C]), dtype="complex128", rtol=1e-8, atol=1e-10)
    out = nr.funm(nr.tensor(A.astype(np.float32)), nr.exp)
    assert out.dtype == nr.float32
    assert_close(out, sl.expm(A), dtype="float32", rtol=1e-4, atol=1e-4)
    assert nr.funm(nr.zeros((0, 0), dtype=nr.float64), nr.exp).shape == (0, 0)
    with pytest.raises(nr.errors.DTypeError, match="funm"):
        nr.funm(nr.tensor(A), lambda x: nr.sum(x))


def test_sqrtm_schur_accuracy():
    """The CPU's Schur sqrtm on a nearly defective matrix (a similarity of a Jordan block): the
    residual at scipy's level (~1e-11 relative) where Denman-Beavers leaves ~1e-7."""
    S = np.random.default_rng(2).standard_normal((6, 6))
    M = S @ (np.eye(6) * 0.5 + np.eye(6, k=1) * 3) @ np.linalg.inv(S)

    def res(X):
        return np.linalg.norm(X @ X - M) / np.linalg.norm(M)
    ref = res(sl.sqrtm(M))
    got = res(nr.sqrtm(nr.tensor(M)).numpy())
    assert got <= 10 * ref + 1e-14
    assert res(sqrtm_any(nr.tensor(M)).numpy()) > 100 * got  # the gain over the old path
    B = np.stack([M, M.T])
    assert_close(nr.sqrtm(nr.tensor(B)), np.stack([sl.sqrtm(b) for b in B]), dtype="float64", rtol=1e-6, atol=1e-6)


def test_gpu_unsupported(device):
    """schur and funm are CPU kernels: the GPUs raise UnsupportedOperation naming the op."""
    if device == "cpu":
        pytest.skip("the CPU runs them")
    t = nr.tensor(np.eye(3, dtype=np.float32), device=device)
    for fn in (lambda: nr.schur(t), lambda: nr.funm(t, nr.exp), lambda: nr.qz(t, t, "complex"),
               lambda: nr.eig(t, t), lambda: nr.eigvals(t, homogeneous_eigvals=True)):
        with pytest.raises(nr.errors.UnsupportedOperation, match="schur|funm|qz|eig"):
            fn()


def _check_qz(A, B, AA, BB, Q, Z, dtype="complex128"):
    """A = Q AA Z^H, B = Q BB Z^H, AA and BB triangular, BB's diagonal real >= 0, Q, Z unitary."""
    AA, BB, Q, Z = (x.numpy() for x in (AA, BB, Q, Z))
    n = A.shape[-1]
    tol = 50 * max(n, 1) * _EPS[dtype] * max(np.abs(A).max(), np.abs(B).max(), 1.0)
    ZH = np.conj(np.swapaxes(Z, -1, -2))
    np.testing.assert_allclose(Q @ AA @ ZH, A, atol=tol, rtol=0)
    np.testing.assert_allclose(Q @ BB @ ZH, B, atol=tol, rtol=0)
    for U in (Q, Z):
        np.testing.assert_allclose(np.conj(np.swapaxes(U, -1, -2)) @ U, np.broadcast_to(np.eye(n), U.shape),
                                   atol=50 * max(n, 1) * _EPS[dtype], rtol=0)
    assert (np.tril(AA, -1) == 0).all() and (np.tril(BB, -1) == 0).all()
    d = np.diagonal(BB, 0, -2, -1)
    assert (d.imag == 0).all() and (d.real >= 0).all()


def test_qz():
    """The complex generalized Schur form: real and complex pencils, batched with broadcasting,
    a singular B (infinite eigenvalues deflated), 1x1, 0x0, complex64, NaN; shape errors."""
    A, B = _RNG.standard_normal((2, 6, 6)), _RNG.standard_normal((6, 6))
    AA, BB, Q, Z = nr.qz(nr.tensor(A), nr.tensor(B), "complex")
    assert AA.shape == (2, 6, 6) and AA.dtype == nr.complex128
    _check_qz(A, np.broadcast_to(B, A.shape), AA, BB, Q, Z)
    _same_set(np.diagonal(AA.numpy(), 0, -2, -1)[0] / np.diagonal(BB.numpy(), 0, -2, -1)[0], sl.eigvals(A[0], B))
    Bs = np.diag([1.0, 2.0, 0.0, 0.0]) + np.triu(_RNG.standard_normal((4, 4)), 2)  # rank 2
    Ac = _RNG.standard_normal((4, 4)) + 1j * _RNG.standard_normal((4, 4))
    for a, b, d in [(A[0, :4, :4], Bs, "complex128"), (Ac, Bs, "complex128"),
                    (Ac.astype(np.complex64), Bs.astype(np.complex64), "complex64"),
                    (np.array([[2.0]]), np.array([[0.5]]), "complex128")]:
        out = nr.qz(nr.tensor(a), nr.tensor(b), "complex")
        assert out[0].dtype == nr.dtype(d)
        _check_qz(a.astype(complex), b.astype(complex), *out, dtype=d)
    assert nr.qz(nr.tensor(Ac), nr.tensor(Bs))[0].dtype == nr.complex128  # complex input: output ignored
    assert all(x.shape == (0, 0) for x in nr.qz(nr.zeros((0, 0), dtype=nr.float64), nr.zeros((0, 0), dtype=nr.float64),
                                                 "complex"))
    bad = A[0].copy()
    bad[1, 2] = np.nan
    assert np.isnan(nr.qz(nr.tensor(bad), nr.tensor(B), "complex")[0].numpy()).all()
    with pytest.raises(nr.errors.ShapeError, match="qz"):
        nr.qz(nr.tensor(A), nr.tensor(B[:3, :3]), "complex")


def _pencil_eigs(AA, BB):
    """The eigenvalues of a real quasi-triangular pencil, block by block (inf for beta = 0)."""
    ev, k, n = [], 0, AA.shape[-1]
    while k < n:
        if k + 1 < n and AA[k + 1, k] != 0:
            ev += list(sl.eigvals(AA[k:k + 2, k:k + 2], BB[k:k + 2, k:k + 2]))
            k += 2
        else:
            ev.append(AA[k, k] / BB[k, k] if BB[k, k] != 0 else np.inf)
            k += 1
    return np.array(ev)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_qz_real(dtype):
    """The real generalized Schur form (scipy's default output): A = Q AA Z^T, B = Q BB Z^T, AA
    quasi-triangular with isolated 2x2 blocks whose BB block is diagonal positive, BB's diagonal
    >= 0, Q and Z orthogonal, the eigenvalues as scipy's (a singular B: its infinite ones)."""
    cases = [(_RNG.standard_normal((7, 7)), _RNG.standard_normal((7, 7))),
             (np.array([[0.0, -1.0], [1.0, 0.0]]), np.eye(2)),  # one complex pair
             (_RNG.standard_normal((5, 5)), np.diag([1.0, 2.0, 0.0, 0.0, 3.0])),
             (np.triu(_RNG.standard_normal((4, 4))), np.eye(4)),
             (np.eye(4) + np.eye(4, k=1), np.eye(4)),  # a Jordan block: repeated real eigenvalues
             (np.round(3 * _RNG.standard_normal((6, 6))), np.round(3 * _RNG.standard_normal((6, 6))))]
    for A, B in cases:
        A, B = A.astype(dtype), B.astype(dtype)
        AA, BB, Q, Z = nr.qz(nr.tensor(A), nr.tensor(B))
        assert AA.dtype == nr.dtype(dtype) and Z.dtype == nr.dtype(dtype)
        AA, BB, Q, Z = (x.numpy().astype(np.float64) for x in (AA, BB, Q, Z))
        n = A.shape[0]
        tol = 50 * n * _EPS[dtype] * max(np.abs(A).max(), np.abs(B).max())
        np.testing.assert_allclose(Q @ AA @ Z.T, A, atol=tol, rtol=0)
        np.testing.assert_allclose(Q @ BB @ Z.T, B, atol=tol, rtol=0)
        for U in (Q, Z):
            np.testing.assert_allclose(U.T @ U, np.eye(n), atol=50 * n * _EPS[dtype], rtol=0)
        assert (np.tril(AA, -2) == 0).all() and (np.tril(BB, -1) == 0).all() and (np.diag(BB) >= 0).all()
        for k in range(n - 1):
            if AA[k + 1, k] != 0:
                assert BB[k, k + 1] == 0 and BB[k, k] > 0 and BB[k + 1, k + 1] > 0
                assert k + 2 >= n or AA[k + 2, k + 1] == 0
        ev, ref = _pencil_eigs(AA, BB), sl.eigvals(A.astype(np.float64), B.astype(np.float64))
        assert np.isinf(ev).sum() == np.isinf(ref).sum()
        _same_set(ev[np.isfinite(ev)], ref[np.isfinite(ref)], rtol=1e-9 if dtype == "float64" else 1e-3)


def test_generalized_eig():
    """eig(a, b)/eigvals(a, b) as scipy.linalg.eig: the eigenvalues as a set (inf for a singular
    B), A v = w B v with unit columns, homogeneous_eigvals rows (alpha, beta); the standard
    problem's homogeneous form; the GPUs are tested to raise in test_gpu_unsupported."""
    A, B = _RNG.standard_normal((5, 5)), _RNG.standard_normal((5, 5))
    w, V = nr.eig(nr.tensor(A), nr.tensor(B))
    assert w.dtype == V.dtype == nr.complex128 and w.shape == (5,) and V.shape == (5, 5)
    _same_set(w.numpy(), sl.eigvals(A, B))
    v = V.numpy()
    np.testing.assert_allclose(A @ v, B @ v * w.numpy(), atol=1e-12 * np.abs(A).sum())
    np.testing.assert_allclose(np.linalg.norm(v, axis=0), 1.0, rtol=1e-12)
    Bs = np.diag([1.0, 0.0, 3.0])
    As = _RNG.standard_normal((3, 3)) + 1j * _RNG.standard_normal((3, 3))
    w = nr.eigvals(nr.tensor(As), nr.tensor(Bs)).numpy()
    ref = sl.eigvals(As, Bs)
    assert np.isinf(w).sum() == np.isinf(ref).sum() == 1
    _same_set(w[np.isfinite(w)], ref[np.isfinite(ref)])
    h = nr.eigvals(nr.tensor(A), nr.tensor(B), homogeneous_eigvals=True).numpy()
    assert h.shape == (2, 5)
    _same_set(h[0] / h[1], sl.eigvals(A, B))
    h = nr.eigvals(nr.tensor(A), homogeneous_eigvals=True).numpy()
    _same_set(h[0], np.linalg.eigvals(A))
    assert (h[1] == 1).all()
    w = nr.eigvals(nr.zeros((2, 2)), nr.zeros((2, 2))).numpy()  # 0/0: NaN, as scipy
    assert np.isnan(w).all()
