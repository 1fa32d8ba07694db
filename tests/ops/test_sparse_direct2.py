"""numr.sparse.linalg's direct side, part 2, against scipy and NumPy (float64 oracles): splu's
factor object (P_r A P_c = L U rebuilt, solves with trans N/T/H against a dense solve and
scipy's splu, factorized, permc_spec), spilu's ILUT and iluk's ILU(k) factors against dense
NumPy reference implementations written here, the iterations they cut on a Poisson matrix,
sor against dense Gauss-Seidel/SOR sweeps and ssor as a cg preconditioner, shift-invert
eigsh/eigs (sigma) against scipy, complex qmr against scipy, and the errors (singular ->
LinAlgError, bad shapes -> ShapeError, bad options -> ValueError). That the GPUs raise
UnsupportedOperation for all of these is checked with part 1's in test_sparse_direct.py."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.linalg as ssl
from test_sparse import need
from test_sparse_direct import TOL, close, iterations, on, poisson, rand_sparse, rhs

import numr as nr
from numr.sparse import linalg as sl

TOL = {**TOL, "complex64": 2e-4}


def perms(lu):
    n = lu.shape[0]
    pr, pc = lu.perm_r.numpy(), lu.perm_c.numpy()
    Pr = sp.csc_matrix((np.ones(n), (pr, np.arange(n))), shape=(n, n))
    Pc = sp.csc_matrix((np.ones(n), (np.arange(n), pc)), shape=(n, n))
    return Pr, Pc


def csort(z):
    """Complex values in a rounding-proof order (conjugate pairs share a real part)."""
    return z[np.lexsort((z.imag, np.round(z.real, 6)))]


# ---------------------------------------------------------------- splu
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
def test_splu_factors_and_solves(dtype, fmt):
    s = rand_sparse(30, 0.15, 5, dtype).astype(dtype)
    lu = sl.splu(on("cpu", s, fmt))
    d = s.toarray().astype(np.complex128 if np.dtype(dtype).kind == "c" else np.float64)
    L, U = lu.L.to_scipy(), lu.U.to_scipy()
    assert L.format == "csc" and U.format == "csc" and lu.shape == (30, 30) and lu.nnz == L.nnz + U.nnz
    assert lu.L.dtype == nr.dtype(dtype) and lu.perm_r.dtype == nr.int64
    Ld, Ud = L.toarray(), U.toarray()
    assert np.all(np.diag(Ld) == 1) and not np.any(np.triu(Ld, 1)) and not np.any(np.tril(Ud, -1))
    Pr, Pc = perms(lu)
    np.testing.assert_allclose((Pr @ d @ Pc), Ld @ Ud, atol=TOL[dtype] * 10)
    for bshape in ((), (3,)):
        b = rhs(30, bshape, dtype)
        for trans, op in (("N", d), ("T", d.T), ("H", d.conj().T)):
            x = lu.solve(nr.tensor(b), trans=trans)
            close(x, np.linalg.solve(op, b), dtype)
    ref = ssl.splu(s.tocsc().astype(np.float64 if np.dtype(dtype).kind == "f" else np.complex128))
    b = rhs(30, (), dtype)
    close(lu.solve(nr.tensor(b)), ref.solve(b.astype(ref.L.dtype)).astype(dtype), dtype)


def test_splu_natural_order_views_and_factorized():
    s = poisson(5)
    A = on("cpu", s)
    lu = sl.splu(A, permc_spec="NATURAL")
    assert np.array_equal(lu.perm_c.numpy(), np.arange(25))
    assert not np.array_equal(sl.splu(A).perm_c.numpy(), np.arange(25))  # minimum degree reorders
    b = rhs(25, (4,), "float64")
    ref = np.linalg.solve(s.toarray(), b)
    bt = nr.tensor(b)
    close(lu.solve(bt[:, 1]), ref[:, 1], "float64")           # a strided column
    close(lu.solve(bt.flip(0)), np.linalg.solve(s.toarray(), b[::-1]), "float64")  # negative strides
    close(lu.solve(bt[:, 2:]), ref[:, 2:], "float64")  # an offset view
    close(sl.factorized(A)(bt), ref, "float64")
    shifted = on("cpu", (s - 2.5 * sp.eye(25)).tocsr())  # indefinite: partial pivoting leaves the diagonal
    d = (s - 2.5 * sp.eye(25)).toarray()
    lus = {t: sl.splu(shifted, diag_pivot_thresh=t) for t in (1.0, 0.0)}
    assert np.any(lus[1.0].perm_r.numpy() != lus[1.0].perm_c.numpy())
    assert np.array_equal(lus[0.0].perm_r.numpy(), lus[0.0].perm_c.numpy())  # threshold 0: diagonal pivots
    for lu_t in lus.values():
        close(lu_t.solve(bt), np.linalg.solve(d, b), "float64")
    with pytest.raises(ValueError, match="diag_pivot_thresh"):
        sl.splu(A, diag_pivot_thresh=1.5)
    close(lu.matvec(bt[:, 0]), ref[:, 0], "float64")  # usable as M


def test_splu_dtypes_and_edges():
    s = poisson(3)
    h = on("cpu", s).astype(nr.float16)
    lu = sl.splu(h)
    assert lu.L.dtype == nr.float32  # float16 factors in float32
    x = sl.spsolve(h, nr.ones(9, dtype=nr.float16))
    assert x.dtype == nr.float16
    li = sl.splu(nr.sparse.from_scipy(s.astype(np.int64)))
    assert li.L.dtype == nr.float64
    one = sl.splu(nr.sparse.from_dense(nr.tensor([[4.0]])))
    close(one.solve(nr.tensor([2.0])), [0.5], "float64")
    empty = sl.splu(nr.sparse.from_dense(nr.zeros((0, 0))))
    assert empty.solve(nr.zeros(0)).shape == (0,) and empty.nnz == 0
    with pytest.raises(nr.LinAlgError, match="singular"):
        sl.splu(nr.sparse.from_dense(nr.tensor([[1.0, 2.0], [2.0, 4.0]])))
    with pytest.raises(nr.LinAlgError, match="singular.*column 1"):  # names A's empty column
        sl.splu(nr.sparse.from_dense(nr.tensor([[1.0, 0, 0], [0, 0, 0], [0, 0, 1]])))
    nan = sl.splu(nr.sparse.from_dense(nr.tensor([[np.nan, 1.0, 0], [1, 2, 0], [0, 0, 4]]))).solve(nr.ones(3))
    assert np.all(np.isnan(nan.numpy()[:2])) and nan.numpy()[2] == 0.25  # NaN propagates, not "singular"
    with pytest.raises(nr.ShapeError, match="square"):
        sl.splu(nr.sparse.eye(2, 3))
    with pytest.raises(nr.ShapeError):
        lu.solve(nr.ones(4))
    with pytest.raises(ValueError, match="trans"):
        one.solve(nr.ones(1), trans="X")
    with pytest.raises(ValueError, match="permc_spec"):
        sl.splu(on("cpu", s), permc_spec="AMD?")
    with pytest.raises(nr.DTypeError):
        sl.splu(nr.ones((3, 3)))


# ---------------------------------------------------------------- ILUT, ILU(k)
def ilut_dense(a, tau, fill):
    """Saad's ILUT(p, tau) on a dense copy, numr's caps: p_i = ceil(fill nnz(a_i) / 2) per triangle."""
    n = a.shape[0]
    L, U = np.eye(n, dtype=a.dtype), np.zeros_like(a)
    for i in range(n):
        w = a[i].copy()
        tol = tau * np.linalg.norm(a[i])
        cap = int(np.ceil(fill * np.count_nonzero(a[i]) / 2))
        kept = []
        for k in range(i):
            if w[k] == 0:
                continue
            f = w[k] / U[k, k]
            w[k] = 0
            if abs(f) < tol:
                continue
            w[k + 1:] -= f * U[k, k + 1:]
            w[k] = f
            kept.append(k)
        for k in sorted(kept, key=lambda k: -abs(w[k]))[:cap]:
            L[i, k] = w[k]
        U[i, i] = w[i]
        up = [j for j in range(i + 1, n) if w[j] != 0 and abs(w[j]) >= tol]
        for j in sorted(up, key=lambda j: -abs(w[j]))[:cap]:
            U[i, j] = w[j]
    return L, U


def iluk_dense(a, k):
    """ILU(k) on a dense copy: levels of fill, then the incomplete elimination on that pattern."""
    n = a.shape[0]
    lev = np.where((a != 0) | np.eye(n, dtype=bool), 0, np.inf)
    for i in range(n):
        for m in range(i):
            if lev[i, m] <= k:
                lev[i, m + 1:] = np.minimum(lev[i, m + 1:], lev[i, m] + lev[m, m + 1:] + 1)
    pat = lev <= k
    w = np.where(pat, a, 0).astype(a.dtype)
    for i in range(n):
        for m in range(i):
            if pat[i, m]:
                w[i, m] /= w[m, m]
                w[i, m + 1:] -= np.where(pat[i, m + 1:], w[i, m] * w[m, m + 1:], 0)
    return np.tril(w, -1) + np.eye(n), np.triu(w), pat


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
@pytest.mark.parametrize("tau,fill", [(0.0, 100.0), (0.05, 1.0), (0.02, 2.5), (1e-4, 10.0)])
def test_ilut_factors_match_dense_reference(dtype, tau, fill):
    if dtype != "float64" and tau not in (0.05,):
        pytest.skip("one case each for float32 and complex128")
    s = rand_sparse(25, 0.15, 8, dtype)
    d = s.toarray().astype(np.complex128 if np.dtype(dtype).kind == "c" else np.float64)
    il = sl.spilu(on("cpu", s), drop_tol=tau, fill_factor=fill)
    L, U = ilut_dense(d, tau, fill)
    close(il.L.to_dense(), L.astype(dtype), dtype)
    close(il.U.to_dense(), U.astype(dtype), dtype)
    if tau == 0.0:  # no dropping, no cap: the complete LU without pivoting
        np.testing.assert_allclose(L @ U, d, atol=1e-12)
    if (tau, fill) == (0.05, 1.0):
        assert il.L.nnz + il.U.nnz < s.nnz + 25 + 10  # the caps bite


@pytest.mark.parametrize("k,dtype", [(0, "float64"), (1, "float64"), (2, "float64"), (30, "float64"),
                                     (1, "complex128"), (2, "float32")])
def test_iluk_factors_match_dense_reference(k, dtype):
    s = rand_sparse(25, 0.1, 4, dtype)
    d = s.toarray().astype(np.complex128 if dtype == "complex128" else np.float64)
    il = sl.iluk(on("cpu", s, "coo"), k)
    L, U, pat = iluk_dense(d, k)
    close(il.L.to_dense(), L.astype(dtype), dtype)
    close(il.U.to_dense(), U.astype(dtype), dtype)
    assert il.L.nnz - 25 + il.U.nnz == np.count_nonzero(pat)
    if k == 0:
        close(il.U.to_dense(), sl.ilu0(on("cpu", s)).U.to_scipy().toarray(), "float64")
    if k == 30:
        np.testing.assert_allclose(L @ U, d, atol=1e-12)
    if dtype == "complex128":
        b = rhs(25, (), dtype)
        close(il.solve(nr.tensor(b), "H"), np.linalg.solve((L @ U).conj().T, b), dtype)


def inner(A, b, M):
    """GMRES(40) inner iterations to rtol 1e-8."""
    count = []
    _, info = sl.gmres(A, b, rtol=1e-8, restart=40, M=M, callback=lambda r: count.append(1), callback_type="pr_norm")
    assert info == 0
    return len(count)


def test_ilu_preconditioners_cut_iterations_on_poisson():
    s = poisson(12)
    A, b = on("cpu", s), nr.tensor(rhs(144, (), "float64"))
    g = {name: inner(A, b, M) for name, M in
         (("none", None), ("ilu0", sl.ilu0(A)), ("ilut", sl.spilu(A)), ("iluk1", sl.iluk(A, 1)),
          ("iluk3", sl.iluk(A, 3)))}
    assert g["ilut"] < g["iluk1"] < g["ilu0"] < g["none"], g
    assert g["iluk3"] < g["iluk1"], g
    c0, _ = iterations(sl.cg, A, b)
    c1, x = iterations(sl.cg, A, b, M=sl.ssor(A, 1.2))
    assert c1 < c0 / 2, (c1, c0)
    assert np.linalg.norm(s @ x.numpy() - b.numpy()) <= 1e-5 * np.linalg.norm(b.numpy()) * 1.01


def test_ilu_options_and_errors():
    A = on("cpu", poisson(3))
    with pytest.raises(ValueError, match="drop_rule"):
        sl.spilu(A, drop_rule="basic,nonsense")
    sl.spilu(A, drop_rule="basic,area")
    for kw in ({"drop_tol": -1.0}, {"fill_factor": 0.0}, {"drop_tol": float("nan")}):
        with pytest.raises(ValueError):
            sl.spilu(A, **kw)
    for k in (-1, 1.5):
        with pytest.raises(ValueError, match="level of fill"):
            sl.iluk(A, k)
    with pytest.raises(nr.LinAlgError, match="singular"):
        sl.spilu(nr.sparse.from_dense(nr.tensor([[0.0, 1.0], [1.0, 0.0]])))
    with pytest.raises(nr.LinAlgError, match="singular"):
        sl.iluk(nr.sparse.from_dense(nr.tensor([[0.0, 1.0], [1.0, 0.0]])), 2)
    with pytest.raises(nr.ShapeError):
        sl.iluk(nr.sparse.eye(2, 3), 1)
    one = sl.spilu(nr.sparse.from_dense(nr.tensor([[2.0]])))
    close(one.solve(nr.tensor([1.0])), [0.5], "float64")
    assert sl.iluk(nr.sparse.from_dense(nr.zeros((0, 0))), 1).solve(nr.zeros(0)).shape == (0,)


# ---------------------------------------------------------------- SOR / SSOR
@pytest.mark.parametrize("omega", [1.0, 1.6])
def test_sor_sweeps_match_dense_sor(omega):
    s = rand_sparse(20, 0.15, 2)
    d = s.toarray()
    b = rhs(20, (), "float64")
    x = np.zeros(20)
    M = np.tril(d, -1) + np.diag(np.diag(d)) / omega
    for _ in range(3):
        x = x + np.linalg.solve(M, b - d @ x)
    xt, info = sl.sor(on("cpu", s), nr.tensor(b), omega=omega, maxiter=3, rtol=0)
    assert info == 3
    close(xt, x, "float64")
    xt, info = sl.sor(on("cpu", s), nr.tensor(b), omega=1.0, rtol=1e-10)  # diagonally dominant: converges
    assert info == 0 and np.linalg.norm(d @ xt.numpy() - b) <= 1e-10 * np.linalg.norm(b) * 1.01


def test_sor_ssor_errors_and_edges():
    A = on("cpu", poisson(3))
    b = nr.ones(9)
    for w in (0.0, 2.0, -1.0):
        with pytest.raises(ValueError, match="omega"):
            sl.sor(A, b, omega=w)
        with pytest.raises(ValueError, match="omega"):
            sl.ssor(A, w)
    with pytest.raises(nr.ShapeError):
        sl.sor(A, nr.ones(4))
    with pytest.raises(nr.LinAlgError):
        sl.sor(nr.sparse.from_dense(nr.tensor([[0.0, 1.0], [1.0, 0.0]])), nr.ones(2))
    x, info = sl.sor(A, nr.zeros(9))
    assert info == 0 and not np.any(x.numpy())
    M = sl.ssor(A, 1.0)  # symmetric Gauss-Seidel: M = (D + L) D^-1 (D + U)
    d = poisson(3).toarray()
    Mref = (np.tril(d)) @ np.diag(1 / np.diag(d)) @ np.triu(d)
    close(M.solve(b), np.linalg.solve(Mref, np.ones(9)), "float64")
    close(M.solve(b, "T"), np.linalg.solve(Mref.T, np.ones(9)), "float64")


# ---------------------------------------------------------------- shift-invert
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("which", ["LM", "LA", "SA"])
def test_eigsh_sigma_vs_scipy(dtype, which):
    if dtype == "float32" and which != "LM":
        pytest.skip("one float32 case")
    s = poisson(8).astype(dtype)
    w, V = sl.eigsh(on("cpu", s), k=4, sigma=1.0, which=which)
    ref = np.sort(ssl.eigsh(s.astype(np.float64), k=4, sigma=1.0, which=which)[0])
    assert w.dtype == nr.dtype(dtype) and w.shape == (4,) and V.shape == (64, 4)
    tol = 1e-4 if dtype == "float32" else 1e-10
    np.testing.assert_allclose(w.numpy(), ref, rtol=tol, atol=tol)
    r = s.astype(np.float64) @ V.numpy() - V.numpy() * w.numpy()
    assert np.abs(r).max() <= tol * 10
    wd = sl.eigsh(nr.tensor(s.toarray()), k=2, sigma=0.1, return_eigenvectors=False)  # a dense A
    np.testing.assert_allclose(wd.numpy(), np.sort(ssl.eigsh(s.astype(np.float64), k=2, sigma=0.1)[0]),
                               rtol=tol, atol=tol)


def test_eigs_sigma_vs_scipy():
    s = rand_sparse(40, 0.1, 21, diag=0) + sp.diags(np.linspace(0, 4, 40))
    w, V = sl.eigs(on("cpu", s), k=4, sigma=1.3)
    ref = ssl.eigs(s.tocsc(), k=4, sigma=1.3)[0]
    assert w.dtype == nr.complex128 and V.shape == (40, 4)
    np.testing.assert_allclose(csort(w.numpy()), csort(ref), atol=1e-9)
    assert np.abs(s @ V.numpy() - V.numpy() * w.numpy()).max() <= 1e-9
    # a complex sigma: the eigenvalues nearest it (scipy's real OPpart would mix in conjugates)
    ev = np.linalg.eigvals(s.toarray())
    sig = 1.0 + 0.4j
    wc = sl.eigs(on("cpu", s), k=3, sigma=sig, return_eigenvectors=False)
    near = ev[np.argsort(np.abs(ev - sig))[:3]]
    np.testing.assert_allclose(csort(wc.numpy()), csort(near), atol=1e-9)


def test_shift_invert_errors_and_opinv():
    s = poisson(5)
    A = on("cpu", s)
    with pytest.raises(nr.LinAlgError, match="singular"):
        sl.eigsh(nr.sparse.from_scipy(sp.diags(np.arange(1.0, 11.0)).tocsr()), k=2, sigma=3.0)
    with pytest.raises(nr.UnsupportedOperation, match="mode"):
        sl.eigsh(A, k=2, sigma=1.0, mode="cayley")
    with pytest.raises(nr.DTypeError, match="OPinv"):
        sl.eigsh(sl.aslinearoperator(A), k=2, sigma=1.0)
    inv = np.linalg.inv(s.toarray() - 0.5 * np.eye(25))
    opinv = sl.LinearOperator((25, 25), lambda x: nr.tensor(inv) @ x, dtype=nr.float64)
    w = sl.eigsh(sl.aslinearoperator(A), k=3, sigma=0.5, OPinv=opinv, return_eigenvectors=False)
    np.testing.assert_allclose(w.numpy(), np.sort(ssl.eigsh(s, k=3, sigma=0.5)[0]), atol=1e-10)


# ---------------------------------------------------------------- complex qmr
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_qmr_complex_vs_scipy(device, dtype):
    if device == "wgpu":
        pytest.skip("WebGPU has no complex dtypes")
    need(device, dtype)
    s = rand_sparse(40, 0.1, 9, dtype).astype(dtype)
    b = rhs(40, (), dtype)
    A, bt = on(device, s), nr.tensor(b, device=device)
    rtol = 1e-4 if dtype == "complex64" else 1e-10
    n, x = iterations(sl.qmr, A, bt, rtol=rtol, M1=sl.jacobi(A) if device == "cpu" else None)
    assert x.dtype == nr.dtype(dtype) and x.shape == (40,)
    res = np.linalg.norm(s @ x.numpy().astype(np.complex128) - b) / np.linalg.norm(b)
    assert res <= rtol * 1.01
    if dtype == "complex128":
        xs, info = ssl.qmr(s, b, rtol=rtol)
        assert info == 0
        np.testing.assert_allclose(x.numpy(), xs, atol=1e-8)
