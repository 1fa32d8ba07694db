"""numr.sparse.linalg's direct side against scipy.sparse.linalg and NumPy (float64 oracle):
spsolve_triangular and spsolve exact to rounding (CSR/CSC/COO, vector and matrix right-hand
sides, duplicates, unsorted indices, empty and 1x1, views of b, dtypes), spilu/ic0 factors
against a dense ILU(0)/IC(0) computed here with NumPy and as preconditioners cutting cg/gmres
iterations on a Poisson matrix, qmr and eigs against scipy, and the errors (singular, non-SPD,
non-square, bad shapes). On the GPUs the direct kernels and eigs raise UnsupportedOperation;
qmr (a composite) runs there."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.linalg as ssl
from conftest import assert_close
from test_sparse import need

import numr as nr
from numr.sparse import linalg as sl

FLOATS = ("float32", "float64", "complex128")
TOL = {"float32": 2e-4, "float64": 1e-11, "complex128": 1e-11, "complex64": 2e-4}


def poisson(k: int) -> sp.csr_matrix:
    g = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(k, k), dtype=np.float64)
    out = (sp.kron(sp.eye(k), g) + sp.kron(g, sp.eye(k))).tocsr()
    out.eliminate_zeros()  # kron of DIA matrices stores zeros, which ILU(0) would count as pattern
    return out


def rand_sparse(n, density=0.2, seed=0, dtype="float64", diag=4.0):
    s = sp.random(n, n, density=density, random_state=seed, format="csr") * 2 - \
        sp.random(n, n, density=density, random_state=seed + 1, format="csr")
    s = (s + diag * sp.eye(n)).astype(dtype)
    if np.dtype(dtype).kind == "c":
        s = s + 1j * sp.random(n, n, density=density, random_state=seed + 2, format="csr")
    return s.tocsr()


def rhs(n, shape, dtype, seed=3):
    rng = np.random.default_rng(seed)
    b = rng.standard_normal((n,) + shape)
    if np.dtype(dtype).kind == "c":
        b = b + 1j * rng.standard_normal(b.shape)
    return b.astype(dtype)


def on(device, s, fmt="csr"):
    return nr.sparse.from_scipy(s).asformat(fmt).to(device)


def unsupported(device, fn):
    """On a GPU the direct kernels raise UnsupportedOperation naming the backend."""
    with pytest.raises(nr.UnsupportedOperation, match=device):
        fn()


def close(x, ref, dtype):
    assert_close(x, ref, dtype=dtype, rtol=TOL[dtype], atol=TOL[dtype])


# ---------------------------------------------------------------- spsolve_triangular
@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("bshape", [(), (3,)])
def test_spsolve_triangular_vs_scipy(device, fmt, lower, dtype, bshape):
    need(device, dtype)
    s = rand_sparse(30, 0.2, 1, dtype)
    t = (sp.tril(s) if lower else sp.triu(s)).tocsr()
    b = rhs(30, bshape, dtype)
    A, bt = on(device, t, fmt), nr.tensor(b, device=device)
    if device != "cpu":
        return unsupported(device, lambda: sl.spsolve_triangular(A, bt, lower=lower))
    x = sl.spsolve_triangular(A, bt, lower=lower)
    close(x, ssl.spsolve_triangular(t, b, lower=lower), dtype)


@pytest.mark.parametrize("lower", [True, False])
def test_spsolve_triangular_other_triangle_ignored_and_unit(lower):
    s = rand_sparse(25, 0.3, 4)
    d = s.toarray()
    b = rhs(25, (2,), "float64")
    tri = np.tril(d) if lower else np.triu(d)
    x = sl.spsolve_triangular(on("cpu", s), nr.tensor(b), lower=lower)
    close(x, np.linalg.solve(tri, b), "float64")
    unit = tri - np.diag(np.diag(tri)) + np.eye(25)
    x = sl.spsolve_triangular(on("cpu", s), nr.tensor(b), lower=lower, unit_diagonal=True)
    close(x, np.linalg.solve(unit, b), "float64")


def test_spsolve_triangular_duplicates_unsorted_and_views():
    # rows 1 and 2 unsorted; row 2 lists (2, 0) and its diagonal twice: duplicates add up
    indptr = [0, 1, 3, 7]
    indices = [0, 1, 0, 2, 0, 2, 0]
    vals = [2.0, 4.0, 1.0, 1.5, 0.5, 1.5, 1.0]
    A = nr.sparse.CSRMatrix(indptr, indices, vals, (3, 3))
    dense = np.array([[2.0, 0, 0], [1.0, 4.0, 0], [1.5, 0, 3.0]])
    base = nr.tensor(np.arange(12.0))
    for b in (base[::4], nr.flip(base[:3], 0), base.reshape(3, 4)[:, 1:3]):
        x = sl.spsolve_triangular(A, b)
        close(x, np.linalg.solve(dense, b.numpy()), "float64")
        assert x.shape == b.shape


def test_spsolve_triangular_dtypes_and_edges():
    A = nr.sparse.from_dense(nr.tensor([[2, 0], [1, 4]]))
    x = sl.spsolve_triangular(A, nr.tensor([2, 9]))
    assert x.dtype == nr.float64
    close(x, [1.0, 2.0], "float64")
    h = sl.spsolve_triangular(A.astype(nr.float16), nr.tensor([2, 9], dtype=nr.float16))
    assert h.dtype == nr.float16 and np.allclose(h.numpy(), [1, 2])
    e = sl.spsolve_triangular(nr.sparse.empty((0, 0)), nr.zeros(0))
    assert e.shape == (0,) and e.dtype == nr.float64
    one = sl.spsolve_triangular(nr.sparse.from_dense(nr.tensor([[4.0]])), nr.tensor([[2.0, 8.0]]))
    close(one, [[0.5, 2.0]], "float64")
    f = sl.spsolve_triangular(A.astype(nr.float32), nr.tensor([2.0, 9.0], dtype=nr.float32))
    assert f.dtype == nr.float32


def test_spsolve_triangular_errors():
    A = nr.sparse.from_dense(nr.tensor([[0.0, 0], [1, 3]]))
    with pytest.raises(nr.LinAlgError, match="singular"):
        sl.spsolve_triangular(A, nr.ones(2))
    missing = nr.sparse.CSRMatrix([0, 1, 1], [0], [1.0], (2, 2))  # no (1, 1) entry
    with pytest.raises(nr.LinAlgError, match="row/column 1"):
        sl.spsolve_triangular(missing, nr.ones(2))
    assert np.allclose(sl.spsolve_triangular(missing, nr.ones(2), unit_diagonal=True).numpy(), [1, 1])
    with pytest.raises(nr.ShapeError):
        sl.spsolve_triangular(nr.sparse.eye(2, 3), nr.ones(2))
    with pytest.raises(nr.ShapeError):
        sl.spsolve_triangular(nr.sparse.eye(3), nr.ones(2))
    with pytest.raises(nr.ShapeError):
        sl.spsolve_triangular(nr.sparse.eye(3), nr.ones((3, 1, 1)))
    with pytest.raises(nr.DTypeError):
        sl.spsolve_triangular(nr.eye(3), nr.ones(3))
    with pytest.raises(nr.DTypeError):  # the client op's own checks: int32 index arrays
        nr.ones(1).client.csr_triangular_solve(nr.zeros(2, dtype=nr.int32), nr.zeros(1, dtype=nr.int32),
                                               nr.ones(1), nr.ones((1, 1)))
    with pytest.raises(nr.IndexOutOfRange):  # a malformed structure the kernel itself catches
        nr.ones(1).client.csr_triangular_solve(nr.tensor([0, 1]), nr.tensor([5]), nr.ones(1), nr.ones((1, 1)))


# ---------------------------------------------------------------- spsolve
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
def test_spsolve_vs_scipy(device, dtype, fmt):
    need(device, dtype)
    s = rand_sparse(40, 0.15, 5, dtype, diag=0.5)  # small diagonal: pivoting is needed
    b = rhs(40, (), dtype)
    A, bt = on(device, s, fmt), nr.tensor(b, device=device)
    if device != "cpu":
        return unsupported(device, lambda: sl.spsolve(A, bt))
    for spec in (None, "NATURAL", "COLAMD"):
        close(sl.spsolve(A, bt, permc_spec=spec), ssl.spsolve(s.tocsc(), b), dtype)
    B = rhs(40, (3,), dtype)
    close(sl.spsolve(A, nr.tensor(B)), np.linalg.solve(s.toarray(), B), dtype)


def test_spsolve_pivoting_shapes_and_sparse_rhs():
    d = np.array([[0.0, 1, 2], [1, 0, 3], [4, 5, 0]])  # every diagonal entry is zero
    A = nr.sparse.from_dense(nr.tensor(d))
    close(sl.spsolve(A, nr.tensor([1.0, 2, 3])), np.linalg.solve(d, [1, 2, 3]), "float64")
    x = sl.spsolve(A, nr.tensor([[1.0], [2], [3]]))
    assert x.shape == (3,)  # scipy: an (n, 1) dense b gives an (n,) x
    xs = sl.spsolve(A, nr.sparse.from_dense(nr.tensor([[1.0, 0], [0, 0], [0, 2]])))
    assert nr.sparse.is_sparse(xs) and xs.format == "csc"
    close(xs.to_dense(), np.linalg.solve(d, [[1.0, 0], [0, 0], [0, 2]]), "float64")
    p = poisson(12)
    b = rhs(144, (), "float64")
    for spec in (None, "NATURAL"):
        close(sl.spsolve(on("cpu", p), nr.tensor(b), permc_spec=spec), ssl.spsolve(p.tocsc(), b), "float64")
    e = sl.spsolve(nr.sparse.empty((0, 0)), nr.zeros(0))
    assert e.shape == (0,)
    close(sl.spsolve(nr.sparse.from_dense(nr.tensor([[-2.0]])), nr.tensor([3.0])), [-1.5], "float64")
    # duplicates add up, unsorted rows within a column
    coo = nr.sparse.coo_matrix(([1.0, 1.0, 3.0, 2.0], ([1, 0, 1, 0], [1, 0, 1, 0])), shape=(2, 2))
    close(sl.spsolve(coo, nr.tensor([3.0, 4.0])), [1.0, 1.0], "float64")
    assert sl.spsolve(A.astype(nr.int64), nr.tensor([1, 2, 3])).dtype == nr.float64


def test_spsolve_singular_and_errors():
    with pytest.raises(nr.LinAlgError, match="singular"):  # structurally: an empty column
        sl.spsolve(nr.sparse.CSRMatrix([0, 1, 2], [0, 0], [1.0, 2.0], (2, 2)), nr.ones(2))
    with pytest.raises(nr.LinAlgError, match="singular"):  # numerically: rank 1
        sl.spsolve(nr.sparse.from_dense(nr.ones((3, 3))), nr.ones(3))
    with pytest.raises(nr.ShapeError):
        sl.spsolve(nr.sparse.eye(3, 2), nr.ones(3))
    with pytest.raises(nr.ShapeError):
        sl.spsolve(nr.sparse.eye(3), nr.ones(4))
    with pytest.raises(nr.DTypeError):
        sl.spsolve(nr.ones((3, 3)), nr.ones(3))
    with pytest.raises(ValueError, match="permc_spec"):
        sl.spsolve(nr.sparse.eye(3), nr.ones(3), permc_spec="AMD?")


# ---------------------------------------------------------------- spilu / ic0
def ilu0_dense(a: np.ndarray) -> np.ndarray:
    """ILU(0) on a's nonzero pattern (IKJ), L and U packed as in the CSR kernel."""
    lu, pat = a.astype(np.float64).copy(), a != 0
    n = len(a)
    for i in range(1, n):
        for k in range(i):
            if pat[i, k]:
                lu[i, k] /= lu[k, k]
                js = np.arange(k + 1, n)[pat[i, k + 1:]]
                lu[i, js] -= lu[i, k] * lu[k, js]
    return lu


def ic0_dense(a: np.ndarray) -> np.ndarray:
    lo = np.tril(a).astype(np.float64)
    pat = lo != 0
    for i in range(len(a)):
        for k in range(i + 1):
            if pat[i, k]:
                s = a[i, k] - lo[i, :k] @ lo[k, :k]
                lo[i, k] = np.sqrt(s) if i == k else s / lo[k, k]
    return lo


def iterations(solver, A, b, **kw):
    count = []
    x, info = solver(A, b, callback=lambda xk: count.append(1), callback_type="x", **kw) \
        if solver is sl.gmres else solver(A, b, callback=lambda xk: count.append(1), **kw)
    assert info == 0
    return len(count), x


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_spilu_factors_match_dense_ilu0(dtype):
    s = rand_sparse(30, 0.15, 7, dtype)
    il = sl.ilu0(on("cpu", s))
    ref = ilu0_dense(s.toarray())
    Ld, Ud = il.L.to_dense(), il.U.to_dense()
    close(Ld, np.tril(ref, -1) + np.eye(30), dtype)
    close(Ud, np.triu(ref), dtype)
    assert il.shape == (30, 30) and il.dtype == nr.dtype(dtype)
    b = rhs(30, (), dtype)
    x = il.solve(nr.tensor(b))
    lu = (np.tril(ref, -1) + np.eye(30)) @ np.triu(ref)
    close(x, np.linalg.solve(lu, b), dtype)
    close(il.solve(nr.tensor(b), "T"), np.linalg.solve(lu.T, b), dtype)
    close(il.solve(nr.tensor(rhs(30, (2,), dtype))), np.linalg.solve(lu, rhs(30, (2,), dtype)), dtype)


def test_spilu_complex_and_zero_pivot():
    s = rand_sparse(20, 0.2, 8, "complex128")
    il = sl.ilu0(on("cpu", s))
    b = rhs(20, (), "complex128")
    L = il.L.to_dense().numpy()
    U = il.U.to_dense().numpy()
    close(il.solve(nr.tensor(b), "H"), np.linalg.solve((L @ U).conj().T, b), "complex128")
    with pytest.raises(nr.LinAlgError, match="row/column 1"):
        sl.spilu(nr.sparse.from_dense(nr.tensor([[1.0, 2.0], [0.5, 1.0]])))  # u11 = 1 - 2 * 0.5 = 0
    with pytest.raises(nr.ShapeError):
        sl.spilu(nr.sparse.eye(2, 3))


def test_ic0_factors_and_errors():
    p = poisson(6)
    ic = sl.ic0(on("cpu", p))
    close(ic.L.to_dense(), ic0_dense(p.toarray()), "float64")
    b = rhs(36, (), "float64")
    Ld = ic.L.to_dense().numpy()
    close(ic.solve(nr.tensor(b)), np.linalg.solve(Ld @ Ld.T, b), "float64")
    with pytest.raises(nr.LinAlgError, match="positive definite"):
        sl.ic0(nr.sparse.from_dense(nr.tensor([[1.0, 2.0], [2.0, 1.0]])))
    with pytest.raises(nr.DTypeError):
        sl.ic0(nr.sparse.eye(3, dtype=nr.complex128))


def test_preconditioners_cut_iterations_on_poisson():
    p = poisson(16)
    A = on("cpu", p)
    b = nr.tensor(rhs(256, (), "float64"))
    plain, _ = iterations(sl.cg, A, b)
    for M in (sl.spilu(A), sl.ic0(A)):
        n, x = iterations(sl.cg, A, b, M=M)
        assert n < plain / 2, (n, plain)
        assert np.linalg.norm(p @ x.numpy() - b.numpy()) <= 1e-5 * np.linalg.norm(b.numpy()) * 1.01
    g0, _ = iterations(sl.gmres, A, b, restart=10)
    g1, _ = iterations(sl.gmres, A, b, restart=10, M=sl.spilu(A))
    assert g1 < g0, (g1, g0)


def test_direct_ops_unsupported_on_gpus(device):
    if device == "cpu":
        pytest.skip("the CPU runs the kernels")
    need(device, "float32")
    A = on(device, poisson(3).astype(np.float32))
    b = nr.ones(9, dtype=nr.float32, device=device)
    for fn in (lambda: sl.spsolve(A, b), lambda: sl.spsolve_triangular(A, b), lambda: sl.spilu(A),
               lambda: sl.ic0(A), lambda: sl.eigs(A, k=2), lambda: sl.splu(A), lambda: sl.iluk(A, 1),
               lambda: sl.ssor(A).solve(b), lambda: sl.sor(A, b)):
        unsupported(device, fn)
    with pytest.raises(nr.UnsupportedOperation, match=f"{device}.*eigsh.*CPU"):  # shift-invert needs splu
        sl.eigsh(A, k=2, sigma=1.0)


# ---------------------------------------------------------------- qmr
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_qmr_vs_scipy(device, dtype):
    need(device, dtype)
    s = rand_sparse(50, 0.1, 9, dtype)
    b = rhs(50, (), dtype)
    A, bt = on(device, s), nr.tensor(b, device=device)
    rtol = 1e-4 if dtype == "float32" else 1e-5  # 1e-5 is float32's attainable accuracy here
    n, x = iterations(sl.qmr, A, bt, rtol=rtol)
    assert x.dtype == nr.dtype(dtype) and x.shape == (50,)
    res = np.linalg.norm(s.astype(np.float64) @ x.numpy().astype(np.float64) - b) / np.linalg.norm(b)
    assert res <= rtol * 1.01
    ref = []
    xs, info = ssl.qmr(s, b, rtol=rtol, callback=lambda xk: ref.append(1))
    assert info == 0 and abs(n - len(ref)) <= (0 if dtype == "float64" else 2)
    if dtype == "float64":
        close(x, xs, dtype)


def test_qmr_preconditioned_edges_and_errors():
    s = rand_sparse(40, 0.15, 10)
    A, b = on("cpu", s), nr.tensor(rhs(40, (), "float64"))
    n0, _ = iterations(sl.qmr, A, b)
    for kw in ({"M1": sl.spilu(A)}, {"M2": sl.spilu(A)}):
        n1, x = iterations(sl.qmr, A, b, **kw)
        assert n1 < n0 and np.linalg.norm(s @ x.numpy() - b.numpy()) <= 1e-5 * np.linalg.norm(b.numpy()) * 1.01
    x, info = sl.qmr(A, nr.zeros(40))
    assert info == 0 and not np.any(x.numpy())
    x, info = sl.qmr(A, b, maxiter=2)
    assert info == 2
    x, info = sl.qmr(nr.sparse.from_dense(nr.tensor([[3.0]])), nr.tensor([6.0]))
    assert info == 0 and np.allclose(x.numpy(), [2.0])
    with pytest.raises(nr.ShapeError):
        sl.qmr(A, nr.ones(3))


# ---------------------------------------------------------------- eigs
@pytest.mark.parametrize("which", ["LM", "SM", "LR", "SR", "LI"])
def test_eigs_vs_scipy(which):
    s = rand_sparse(60, 0.1, 11, diag=0) + sp.diags(np.linspace(0, 6, 60))
    w, X = sl.eigs(on("cpu", s), k=4, which=which)
    assert w.dtype == nr.complex128 and X.shape == (60, 4)
    ref = ssl.eigs(s, k=4, which=which, return_eigenvectors=False)
    # a conjugate pair may straddle the k-th place: which member is kept is arbitrary
    def canon(z):
        z = np.asarray(z)
        return np.array(sorted(zip(np.round(z.real, 8), np.round(np.abs(z.imag), 8), strict=True)))
    np.testing.assert_allclose(canon(w.numpy()), canon(ref), rtol=1e-7, atol=1e-7)
    Xn = X.numpy()
    np.testing.assert_allclose(np.linalg.norm(Xn, axis=0), 1, rtol=1e-10)
    assert np.abs(s @ Xn - Xn * w.numpy()).max() < 1e-8


def test_eigs_float32_dense_and_errors():
    d = np.random.default_rng(12).standard_normal((30, 30)).astype(np.float32)
    w = sl.eigs(nr.tensor(d), k=3, return_eigenvectors=False)
    assert w.dtype == nr.complex64 and w.shape == (3,)
    ev = np.linalg.eigvals(d.astype(np.float64))
    top = np.sort(np.abs(ev))[-3:]
    np.testing.assert_allclose(np.sort(np.abs(w.numpy())), top, rtol=1e-4)
    with pytest.raises(nr.ShapeError):
        sl.eigs(nr.tensor(d), k=29)
    with pytest.raises(nr.ShapeError):
        sl.eigs(nr.ones((3, 4)), k=1)
    with pytest.raises(ValueError):
        sl.eigs(nr.tensor(d), k=2, which="XX")
    with pytest.raises(nr.UnsupportedOperation):
        sl.eigs(nr.tensor(d), k=2, M=nr.tensor(d))


def test_spilu_ic0_sum_duplicates_of_unsorted_input():
    p = poisson(4).tocoo()
    half = p.data / 2  # every entry stored twice, halves, in reverse order
    row = np.concatenate([p.row, p.row])[::-1].copy()
    col = np.concatenate([p.col, p.col])[::-1].copy()
    A = nr.sparse.coo_matrix((np.concatenate([half, half])[::-1].copy(), (row, col)), shape=p.shape)
    d = p.toarray()
    il = sl.ilu0(A)
    close(il.U.to_dense(), np.triu(ilu0_dense(d)), "float64")
    close(sl.ic0(A.tocsr()).L.to_dense(), ic0_dense(d), "float64")


@pytest.mark.parametrize("which", ["LM", "SI"])
def test_eigs_complex_operator(which):
    s = rand_sparse(50, 0.2, 13, "complex128", diag=0)
    w, X = sl.eigs(on("cpu", s), k=3, which=which, v0=nr.ones(50))
    assert w.dtype == nr.complex128
    np.testing.assert_allclose(np.sort_complex(w.numpy()),
                               np.sort_complex(ssl.eigs(s, k=3, which=which, return_eigenvectors=False)),
                               rtol=1e-8, atol=1e-8)
    assert np.abs(s @ X.numpy() - X.numpy() * w.numpy()).max() < 1e-8


def test_direct_ops_refuse_autograd_inputs():
    from numr.autograd import Var
    A = nr.sparse.eye(3)
    with pytest.raises(nr.UnsupportedOperation, match="autograd"):
        sl.spsolve(A, Var(nr.ones(3)))
    with pytest.raises(nr.UnsupportedOperation, match="autograd"):
        sl.spsolve_triangular(A.with_values(Var(nr.ones(3))), nr.ones(3))
