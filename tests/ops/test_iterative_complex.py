"""numr.sparse.linalg on complex64/complex128 systems built in NumPy with known spectra:
Hermitian positive definite (cg), Hermitian indefinite (minres) and general non-Hermitian
(bicgstab, cgs, gmres, lgmres). The true residual meets the tolerance, the solution matches
numpy.linalg.solve and scipy.sparse.linalg's (scipy's minres takes unconjugated inner products,
so it cannot solve a complex Hermitian system: minres is checked against numpy alone);
complex sparse CSR operators, LinearOperators, preconditioned cg, x0, mixed real/complex
promotion, views, and wgpu's UnsupportedDType."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.linalg as ssl

import numr as nr
from numr.sparse import linalg as sl

N = 16
CDTYPES = ["complex64", "complex128"]
RTOL = {"complex64": 1e-5, "complex128": 1e-10}


def _u(n, seed):
    g = np.random.default_rng(seed)
    return np.linalg.qr(g.standard_normal((n, n)) + 1j * g.standard_normal((n, n)))[0]


def hpd(n=N, cond=50.0, seed=0):
    u = _u(n, seed)
    return (u * np.geomspace(1, cond, n)) @ u.conj().T


def hindef(n=N, seed=1):
    u = _u(n, seed)
    ev = np.concatenate([-np.linspace(1, 10, n // 2), np.linspace(2, 20, n - n // 2)])
    return (u * ev) @ u.conj().T


def general(n=N, seed=2):
    """Normal part HPD (cond 10) plus a skew-Hermitian and a small random complex part."""
    g = np.random.default_rng(seed)
    c = g.standard_normal((n, n)) + 1j * g.standard_normal((n, n))
    return hpd(n, 10.0, seed) + 0.5 * (c - c.conj().T) / np.sqrt(n) + 0.2 * c / np.sqrt(n)


def crhs(n=N, seed=3):
    g = np.random.default_rng(seed)
    return g.standard_normal(n) + 1j * g.standard_normal(n)


SOLVERS = {"cg": (sl.cg, hpd), "minres": (sl.minres, hindef), "gmres": (sl.gmres, general),
           "bicgstab": (sl.bicgstab, general), "cgs": (sl.cgs, general), "lgmres": (sl.lgmres, general)}
SCIPY = {"cg": ssl.cg, "gmres": ssl.gmres, "bicgstab": ssl.bicgstab, "cgs": ssl.cgs, "lgmres": ssl.lgmres}


def T(a, device, dtype="complex128"):
    return nr.tensor(np.ascontiguousarray(a), dtype=nr.dtype(dtype), device=device)


def true_res(a, x, b):
    return np.linalg.norm(b - a @ x.numpy().astype(np.complex128))


def complex_device(device):
    """wgpu has no complex dtype: the solve must raise UnsupportedDType naming backend, op, dtype."""
    return device != "wgpu"


@pytest.mark.parametrize("dtype", CDTYPES)
@pytest.mark.parametrize("name", list(SOLVERS))
def test_complex_solvers_meet_the_tolerance(device, name, dtype):
    solve, make = SOLVERS[name]
    a, b = make(), crhs()
    if not complex_device(device):
        op = sl.LinearOperator(a.shape, lambda x: x, dtype=nr.dtype(dtype))
        with pytest.raises(nr.UnsupportedDType, match=rf"wgpu: {name} is not supported for dtype {dtype}"):
            solve(op, nr.ones((N,), dtype=nr.float32, device=device))
        return
    rtol = RTOL[dtype]
    x, info = solve(T(a, device, dtype), T(b, device, dtype), rtol=rtol)
    assert info == 0
    assert x.shape == (N,) and x.dtype == nr.dtype(dtype) and x.device.runtime_name == device
    slack = 1.0 if dtype == "complex128" else 3.0  # complex64: the oracle sees the rounding of A x
    assert true_res(a, x, b) <= slack * rtol * np.linalg.norm(b) * (1 + 1e-6)
    exact = np.linalg.solve(a, b)
    assert np.linalg.norm(x.numpy() - exact) <= 100 * slack * rtol * np.linalg.norm(exact)
    assert np.abs(x.numpy().imag).max() > 0.01 * np.abs(exact).max()  # a genuinely complex answer
    if name in SCIPY:
        xs, infos = SCIPY[name](a, b, rtol=rtol)
        assert infos == 0
        assert np.linalg.norm(x.numpy() - xs) <= 200 * slack * rtol * np.linalg.norm(exact)


@pytest.mark.parametrize("name", ["cg", "bicgstab", "cgs"])
def test_complex_iteration_counts_match_scipy(name):
    solve, make = SOLVERS[name]
    a, b = make(40), crhs(40)
    ours, theirs = [], []
    x, info = solve(T(a, "cpu"), T(b, "cpu"), rtol=1e-8, callback=ours.append)
    xs, infos = SCIPY[name](a, b, rtol=1e-8, callback=lambda xk: theirs.append(1))
    assert info == infos == 0
    assert abs(len(ours) - len(theirs)) <= 2, (len(ours), len(theirs))
    np.testing.assert_allclose(x.numpy(), xs, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("name", ["gmres", "lgmres"])
def test_complex_gmres_restarts_match_scipy(device, name):
    if not complex_device(device):
        pytest.skip("wgpu has no complex dtype (covered by test_complex_solvers_meet_the_tolerance)")
    a, b = general(30, seed=5) + 2 * np.diag(np.exp(1j * np.linspace(0, 3, 30))), crhs(30)
    kw = {"restart": 4} if name == "gmres" else {"inner_m": 4, "outer_k": 2}
    seen = []
    x, info = getattr(sl, name)(T(a, device), T(b, device), rtol=1e-9, callback=seen.append, **kw)
    xs, infos = getattr(ssl, name)(a, b, rtol=1e-9, **kw)
    assert info == infos == 0 and true_res(a, x, b) <= 1e-9 * np.linalg.norm(b)
    assert len(seen) > 3  # several restart cycles (gmres: pr_norm per inner iteration)
    np.testing.assert_allclose(x.numpy(), xs, rtol=1e-6, atol=1e-7)


def _sparse_hpd(k):
    """A complex Hermitian positive definite sparse matrix (k^2 x k^2, 15% dense): random
    Hermitian couplings plus a diagonal that makes it strictly diagonally dominant."""
    n = k * k
    g = np.random.default_rng(7)
    p = sp.random(n, n, density=0.15, random_state=g, dtype=np.complex128,
                  data_rvs=lambda m: g.standard_normal(m) + 1j * g.standard_normal(m))
    h = (p + p.conj().T) * 0.5
    d = np.abs(h).sum(axis=1).A1 + 1.0  # diagonally dominant with a positive diagonal: HPD
    return (h + sp.diags(d)).tocsr()


@pytest.mark.parametrize("dtype", CDTYPES)
def test_complex_sparse_csr_and_linear_operator(device, dtype):
    if not complex_device(device):
        pytest.skip("wgpu has no complex dtype (covered by test_complex_solvers_meet_the_tolerance)")
    p = _sparse_hpd(5)
    n = p.shape[0]
    b = crhs(n)
    a = nr.sparse.csr_matrix(nr.tensor(p.toarray(), dtype=nr.dtype(dtype), device=device))
    assert a.dtype == nr.dtype(dtype)
    dense = T(p.toarray(), device, dtype)
    op = sl.LinearOperator((n, n), lambda x: dense @ x, dtype=nr.dtype(dtype))
    rtol = 1e-4 if dtype == "complex64" else 1e-9
    for name, (solve, _) in SOLVERS.items():
        for A in (a, op):
            x, info = solve(A, T(b, device, dtype), rtol=rtol)
            assert info == 0 and x.dtype == nr.dtype(dtype), name
            assert true_res(p.toarray(), x, b) <= 3 * rtol * np.linalg.norm(b), name
    xs, _ = ssl.cg(p, b, rtol=1e-9)
    x, _ = sl.cg(a, T(b, device, dtype), rtol=rtol)
    np.testing.assert_allclose(x.numpy(), xs, rtol=0, atol=30 * rtol * np.abs(xs).max())


def test_complex_preconditioned_cg(device):
    if not complex_device(device):
        pytest.skip("wgpu has no complex dtype (covered by test_complex_solvers_meet_the_tolerance)")
    s = np.geomspace(1, 1e3, N)
    a = hpd(cond=4.0) * np.sqrt(s)[:, None] * np.sqrt(s)[None, :]  # badly scaled: Jacobi fixes it
    b = crhs()
    plain, pre, theirs = [], [], []
    x0, info0 = sl.cg(T(a, device), T(b, device), rtol=1e-9, callback=plain.append, maxiter=2000)
    M = sl.jacobi(T(a, device))
    x, info = sl.cg(T(a, device), T(b, device), rtol=1e-9, M=M, callback=pre.append)
    xs, infos = ssl.cg(a, b, rtol=1e-9, M=sp.diags(1 / np.diag(a).real), callback=lambda xk: theirs.append(1))
    assert info == infos == 0 and true_res(a, x, b) <= 1e-9 * np.linalg.norm(b)
    assert len(pre) < len(plain) and abs(len(pre) - len(theirs)) <= 2
    np.testing.assert_allclose(x.numpy(), xs, rtol=1e-6, atol=1e-9)
    inv = T(1 / np.diag(a), device)  # a callable preconditioner gives the same iterates
    x2, info2 = sl.cg(T(a, device), T(b, device), rtol=1e-9, M=lambda r: inv * r)
    assert info2 == 0
    np.testing.assert_allclose(x2.numpy(), x.numpy(), rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("name", list(SOLVERS))
def test_complex_promotion_x0_views_and_edges(device, name):
    solve, make = SOLVERS[name]
    a, b = make(), crhs()
    if not complex_device(device):
        with pytest.raises(nr.UnsupportedDType, match="wgpu"):
            solve(sl.LinearOperator(a.shape, lambda x: x, dtype=nr.complex128), T(b.real, device, "float32"))
        return
    # a real A with a complex b (and the reverse) promotes as scipy / NumPy
    ar = a.real + np.diag(np.abs(a).sum(1))  # real part, made definite for cg / solvable for all
    for A, bb, want in ((T(ar, device, "float64"), T(b, device, "complex128"), "complex128"),
                        (T(ar, device, "float32"), T(b, device, "complex64"), "complex64"),
                        (T(a, device, "complex64"), T(b.real, device, "float32"), "complex64"),
                        (T(a, device, "complex64"), T(b.real, device, "float64"), "complex128")):
        ad = A.numpy().astype(np.complex128)
        bd = bb.numpy().astype(np.complex128)
        assert np.result_type(A.numpy().dtype, bb.numpy().dtype) == np.dtype(want)
        x, info = solve(A, bb, rtol=1e-5)
        assert info == 0 and x.dtype == nr.dtype(want), (A.dtype, bb.dtype)
        assert true_res(ad, x, bd) <= 3e-5 * np.linalg.norm(bd)
    # x0 near the answer takes fewer iterations; views (sliced, flipped) as b and x0
    exact = np.linalg.solve(a, b)
    x, info = solve(T(a, device), T(b, device), x0=T(exact + 1e-3 * crhs(seed=9), device), rtol=1e-10)
    assert info == 0 and true_res(a, x, b) <= 1e-10 * np.linalg.norm(b)
    big = T(np.concatenate([b[::-1], b[::-1]]), device)
    bview = nr.flip(big[N:], 0)  # an offset, negative-stride view equal to b
    x, info = solve(T(a, device), bview, rtol=1e-10)
    assert info == 0 and true_res(a, x, b) <= 1e-10 * np.linalg.norm(b)
    # zero right-hand side, 1x1
    x, info = solve(T(a, device), nr.zeros((N,), dtype=nr.complex64, device=device))
    assert info == 0 and x.dtype == nr.complex128 and not np.any(x.numpy())
    x, info = solve(T([[2 - 0j]], device), T([4 + 2j], device), rtol=1e-12)
    assert info == 0 and abs(x.numpy()[0] - (2 + 1j)) < 1e-12


def test_complex_maxiter_nan_minres_shift_and_rmatvec(device):
    if not complex_device(device):
        pytest.skip("wgpu has no complex dtype (covered by test_complex_solvers_meet_the_tolerance)")
    a, b = hindef(), crhs()
    x, info = sl.minres(T(a, device), T(b, device), shift=0.5, rtol=1e-10)
    assert info == 0 and true_res(a - 0.5 * np.eye(N), x, b) <= 1e-10 * np.linalg.norm(b)
    for name, (solve, make) in SOLVERS.items():
        kw = {"gmres": {"restart": 2}, "lgmres": {"inner_m": 2}}.get(name, {})
        x, info = solve(T(make(), device), T(b, device), rtol=1e-14, maxiter=1, **kw)
        assert info == 1 and x.dtype == nr.complex128, name
        bad = make()
        bad[3, 4] = complex(np.nan, 1.0)  # a NaN in A never claims convergence
        x, info = solve(T(bad, device), T(b, device), maxiter=5, **kw)
        assert info != 0, name
    g = general()
    op = sl.aslinearoperator(T(g, device))
    np.testing.assert_allclose(op.rmatvec(T(b, device)).numpy(), g.conj().T @ b, rtol=1e-12)
    s = nr.sparse.csr_matrix(T(g, device))
    np.testing.assert_allclose(sl.aslinearoperator(s).rmatvec(T(b, device)).numpy(), g.conj().T @ b, rtol=1e-12)


def test_complex_eigsh_raises():
    with pytest.raises(nr.DTypeError, match="eigsh.*complex64.*complex Hermitian"):
        sl.eigsh(nr.eye(8, dtype=nr.complex64), k=2)
