"""numr.sparse.linalg (cg, bicgstab, cgs, gmres, minres, eigsh, jacobi, LinearOperator) against
numpy.linalg and scipy.sparse.linalg on systems built from NumPy with known spectra: the true
residual meets the requested tolerance, iteration counts match scipy's, x0, preconditioning,
maxiter exhaustion, breakdown, zero right-hand side, 1x1, views, float32/float64, errors;
eigsh and the device-side Jacobi eigensolver against numpy.linalg.eigh."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse.linalg as ssl

import numr as nr
from numr.ops.generic.iterative_eigen import jacobi_eigh
from numr.sparse import linalg as sl

N = 20


def _q(n, seed):
    return np.linalg.qr(np.random.default_rng(seed).standard_normal((n, n)))[0]


def spd(n=N, cond=50.0, seed=0):
    q = _q(n, seed)
    return q @ np.diag(np.geomspace(1, cond, n)) @ q.T


def indefinite(n=N, seed=1):
    q = _q(n, seed)
    ev = np.concatenate([-np.linspace(1, 10, n // 2), np.linspace(2, 20, n - n // 2)])
    return q @ np.diag(ev) @ q.T


def nonsym(n=N, seed=2):
    g = np.random.default_rng(seed).standard_normal((n, n))
    return spd(n, 10.0, seed) + 0.5 * (g - g.T) / np.sqrt(n) + 0.2 * g / np.sqrt(n)


SOLVERS = {"cg": (sl.cg, spd), "minres": (sl.minres, indefinite), "gmres": (sl.gmres, nonsym),
           "bicgstab": (sl.bicgstab, nonsym), "cgs": (sl.cgs, nonsym), "lgmres": (sl.lgmres, nonsym)}
SCIPY = {"cg": ssl.cg, "minres": ssl.minres, "gmres": ssl.gmres, "bicgstab": ssl.bicgstab, "cgs": ssl.cgs}
RTOL = {"float32": 1e-5, "float64": 1e-10}


def cycle(name, m):
    """The restart length keyword of the GMRES variants (the others take none)."""
    return {"gmres": {"restart": m}, "lgmres": {"inner_m": m}}.get(name, {})


def rhs(n=N, seed=3):
    return np.random.default_rng(seed).standard_normal(n)


def T(a, device, dtype=nr.float64):
    return nr.tensor(np.ascontiguousarray(a), dtype=dtype, device=device)


def true_res(a, x, b):
    return np.linalg.norm(b - a @ x.numpy().astype(np.float64))


def counting():
    seen = []
    return seen, (lambda xk: seen.append(xk))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", list(SOLVERS))
def test_solvers_meet_the_tolerance(device, name, dtype):
    solve, make = SOLVERS[name]
    a, b = make(), rhs()
    rtol = RTOL[dtype]
    x, info = solve(T(a, device, dtype), T(b, device, dtype), rtol=rtol)
    assert info == 0
    assert x.shape == (N,) and x.dtype == nr.dtype(dtype) and x.device.runtime_name == device
    slack = 1.0 if dtype == "float64" else 3.0  # float32: the float64 oracle sees the rounding of A x
    assert true_res(a, x, b) <= slack * rtol * np.linalg.norm(b) * (1 + 1e-6)
    exact = np.linalg.solve(a, b)
    assert np.linalg.norm(x.numpy() - exact) <= 100 * slack * rtol * np.linalg.norm(exact)


@pytest.mark.parametrize("name", ["cg", "bicgstab", "cgs", "minres"])
def test_iteration_counts_match_scipy(name):
    solve, make = SOLVERS[name]
    a, b = make(40), rhs(40)
    ours, cb = counting()
    x, info = solve(T(a, "cpu"), T(b, "cpu"), rtol=1e-8, callback=cb)
    theirs = []
    xs, infos = SCIPY[name](a, b, rtol=1e-8, callback=lambda xk: theirs.append(1))
    assert info == infos == 0
    assert abs(len(ours) - len(theirs)) <= 2, (len(ours), len(theirs))
    np.testing.assert_allclose(x.numpy(), xs, rtol=1e-6, atol=1e-6)


def test_gmres_matches_scipy_and_restarts(device):
    a, b = nonsym(), rhs()
    norms = []
    x, info = sl.gmres(T(a, device), T(b, device), rtol=1e-9, restart=5, callback=norms.append)
    assert info == 0 and true_res(a, x, b) <= 1e-9 * np.linalg.norm(b)
    assert len(norms) > 5 and norms[-1] <= 1e-9 * 1.0001  # several cycles; pr_norm is relative
    xs, _ = ssl.gmres(a, b, rtol=1e-9, restart=5)
    np.testing.assert_allclose(x.numpy(), xs, rtol=1e-6, atol=1e-7)
    xk = []
    x, info = sl.gmres(T(a, device), T(b, device), rtol=1e-9, restart=5, callback=xk.append, callback_type="x")
    assert info == 0 and all(isinstance(v, nr.Tensor) and v.shape == (N,) for v in xk)


@pytest.mark.parametrize("name", list(SOLVERS))
def test_operators_of_every_kind(device, name):
    solve, make = SOLVERS[name]
    a, b = make(), rhs()
    at = T(a, device)

    class Matvec:  # an object with .matvec and .shape (as the sparse matrices)
        shape = a.shape

        def matvec(self, x):
            return at @ x

    class Matmul:  # an object with only @ and .shape
        shape = a.shape

        def __matmul__(self, x):
            return at @ x

    ops = [sl.LinearOperator(a.shape, lambda x: at @ x, dtype=nr.float64), Matvec(), Matmul(),
           sl.aslinearoperator(at)]
    for op in ops:
        x, info = solve(op, T(b, device), rtol=1e-8)
        assert info == 0 and true_res(a, x, b) <= 1e-8 * np.linalg.norm(b)


@pytest.mark.parametrize("name", list(SOLVERS))
def test_x0(device, name):
    solve, make = SOLVERS[name]
    a, b = make(), rhs()
    exact = np.linalg.solve(a, b)
    seen, cb = counting()
    kw = cycle(name, 4)
    x, info = solve(T(a, device), T(b, device), x0=T(exact, device), rtol=1e-8, callback=cb, **kw)
    assert info == 0 and len(seen) == 0  # already converged: no iteration
    np.testing.assert_allclose(x.numpy(), exact, rtol=1e-12)
    cold, cb_cold = counting()
    solve(T(a, device), T(b, device), rtol=1e-6, callback=cb_cold, **kw)
    warm, cb_warm = counting()
    near = exact + 1e-5 * rhs(seed=9)
    x, info = solve(T(a, device), T(b, device), x0=T(near, device), rtol=1e-6, callback=cb_warm, **kw)
    assert info == 0 and len(warm) < len(cold)
    assert true_res(a, x, b) <= 1e-6 * np.linalg.norm(b)


def scaled_spd(n=N):
    d = np.geomspace(1, 1e4, n)
    return np.sqrt(d)[:, None] * spd(n, 5.0) * np.sqrt(d)[None, :]


@pytest.mark.parametrize("name", list(SOLVERS))
def test_preconditioning_cuts_iterations(device, name):
    solve = SOLVERS[name][0]
    a, b = scaled_spd(), rhs()
    at = T(a, device)
    plain, cb1 = counting()
    kw = cycle(name, N if name == "gmres" else 4)
    x1, i1 = solve(at, T(b, device), rtol=1e-8, callback=cb1, maxiter=400, **kw)
    pre, cb2 = counting()
    x2, i2 = solve(at, T(b, device), rtol=1e-8, M=sl.jacobi(at), callback=cb2, maxiter=400, **kw)
    assert i2 == 0 and true_res(a, x2, b) <= 1e-8 * np.linalg.norm(b)
    assert len(pre) < len(plain)
    dinv = T(1 / np.diag(a), device)
    x3, i3 = solve(at, T(b, device), rtol=1e-8, M=lambda r: dinv * r, **kw)  # M as a callable
    assert i3 == 0 and true_res(a, x3, b) <= 1e-8 * np.linalg.norm(b)


@pytest.mark.parametrize("name", list(SOLVERS))
def test_maxiter_exhaustion_reports_info(device, name):
    solve, make = SOLVERS[name]
    a, b = make(), rhs()
    x, info = solve(T(a, device), T(b, device), rtol=1e-14, maxiter=2, **cycle(name, 2))
    assert info == 2
    assert np.isfinite(x.numpy()).all() and true_res(a, x, b) < np.linalg.norm(b)


@pytest.mark.parametrize("name", list(SOLVERS))
def test_zero_rhs_and_one_by_one(device, name):
    solve, _ = SOLVERS[name]
    a = spd()
    x, info = solve(T(a, device), T(np.zeros(N), device), x0=T(rhs(), device))
    assert info == 0 and x.shape == (N,) and not x.numpy().any()
    x, info = solve(T([[4.0]], device, nr.float32), T([2.0], device, nr.float32))
    assert info == 0 and x.dtype == nr.float32
    np.testing.assert_allclose(x.numpy(), [0.5], rtol=1e-6)


@pytest.mark.parametrize("name", list(SOLVERS))
def test_views_as_inputs(device, name):
    solve, make = SOLVERS[name]
    a, b = make(), rhs()
    big = T(np.stack([a.T, 2 * a.T]), device)[0].T  # a transposed view into a larger tensor
    bb = T(np.stack([b, -b], 1).reshape(-1), device)[::2]  # a strided view
    assert not bb.is_contiguous()
    x, info = solve(big, bb, rtol=1e-9, x0=nr.flip(T(np.zeros(N), device), 0))
    assert info == 0 and true_res(a, x, b) <= 1e-9 * np.linalg.norm(b)


def test_minres_shift(device):
    a, b = indefinite(), rhs()
    x, info = sl.minres(T(a, device), T(b, device), shift=0.5, rtol=1e-9)
    shifted = a - 0.5 * np.eye(N)
    assert info == 0 and true_res(shifted, x, b) <= 1e-9 * np.linalg.norm(b)


def test_atol_alone_stops(device):
    a, b = spd(), rhs()
    x, info = sl.cg(T(a, device), T(b, device), rtol=0.0, atol=1e-3)
    assert info == 0 and 1e-6 < true_res(a, x, b) <= 1e-3


@pytest.mark.parametrize("name", ["bicgstab", "cgs"])
def test_breakdown_is_negative_info(device, name):
    a = np.array([[0.0, 1.0], [1.0, 0.0]])  # r~ . A r = 0 for r = e0: the biorthogonal step breaks
    x, info = SOLVERS[name][0](T(a, device), T([1.0, 0.0], device))
    assert info < 0 and np.isfinite(x.numpy()).all()


@pytest.mark.parametrize("name", list(SOLVERS))
def test_nan_operator_does_not_claim_convergence(device, name):
    a = spd()
    a[3, 4] = np.nan
    x, info = SOLVERS[name][0](T(a, device), T(rhs(), device), maxiter=5)
    assert info != 0


@pytest.mark.parametrize("name", list(SOLVERS))
def test_bad_input_raises(name):
    solve = SOLVERS[name][0]
    a = T(spd(), "cpu")
    with pytest.raises(nr.ShapeError, match=rf"{name}.*\(20, 19\)"):
        solve(T(np.ones((20, 19)), "cpu"), T(np.ones(20), "cpu"))
    with pytest.raises(nr.ShapeError, match=rf"{name}.*\(21,\).*\(20, 20\)"):
        solve(a, T(np.ones(21), "cpu"))
    with pytest.raises(nr.ShapeError, match=rf"{name}.*x0"):
        solve(a, T(np.ones(20), "cpu"), x0=T(np.ones(3), "cpu"))
    with pytest.raises(nr.ShapeError, match=rf"{name}.*M"):
        solve(a, T(np.ones(20), "cpu"), M=T(np.eye(3), "cpu"))
    with pytest.raises(nr.DTypeError, match=rf"{name}.*int64"):
        solve(a, nr.ones((20,), dtype=nr.int64))
    with pytest.raises(nr.DTypeError, match=rf"{name}.*int32"):
        solve(nr.ones((20, 20), dtype=nr.int32), T(np.ones(20), "cpu"))
    with pytest.raises(nr.DTypeError, match=rf"{name}.*bool"):
        solve(a, nr.ones((20,), dtype=nr.bool_))
    with pytest.raises(nr.DTypeError, match=rf"{name}.*float16"):
        solve(nr.ones((20, 20), dtype=nr.float16), nr.ones((20,), dtype=nr.float16))


def test_jacobi_preconditioner():
    a = spd()
    a[2, 2] = 0.0
    m = sl.jacobi(T(a, "cpu"))
    d = np.diag(a).copy()
    d[2] = 1.0
    np.testing.assert_allclose(m.matvec(T(np.ones(N), "cpu")).numpy(), 1 / d)
    assert m.shape == (N, N) and m.dtype == nr.float64
    with pytest.raises(nr.ShapeError, match="jacobi.*square"):
        sl.jacobi(T(np.ones((3, 4)), "cpu"))
    with pytest.raises(nr.UnsupportedOperation, match="rmatvec"):
        sl.LinearOperator((2, 2), lambda x: x).rmatvec(T([1.0, 2.0], "cpu"))


# ---- eigenvalues ----------------------------------------------------------------------------

def sym_spectrum(n, seed=4):
    ev = np.concatenate([-np.geomspace(1, 30, n // 2), np.geomspace(2, 50, n - n // 2)])
    q = _q(n, seed)
    return q @ np.diag(ev) @ q.T, np.sort(ev)


def check_pairs(a, w, v, expected, dtype):
    tol = 1e-10 if dtype == "float64" else 2e-5
    assert w.shape == (len(expected),) and v.shape == (a.shape[0], len(expected))
    assert w.dtype == v.dtype == nr.dtype(dtype)
    wn, vn = w.numpy().astype(np.float64), v.numpy().astype(np.float64)
    np.testing.assert_allclose(wn, expected, rtol=tol, atol=tol * 50)
    scale = np.abs(np.linalg.eigvalsh(a)).max()
    assert np.abs(a @ vn - vn * wn).max() <= 20 * tol * scale
    np.testing.assert_allclose(vn.T @ vn, np.eye(len(expected)), atol=20 * tol)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("which", ["LA", "SA", "LM", "SM"])
def test_eigsh_against_eigh(device, which, dtype):
    n, k = 18, 3
    a, ev = sym_spectrum(n)
    w, v = sl.eigsh(T(a, device, dtype), k=k, which=which)
    pick = {"LA": ev[-k:], "SA": ev[:k], "LM": ev[np.argsort(-np.abs(ev))[:k]],
            "SM": ev[np.argsort(np.abs(ev))[:k]]}[which]
    check_pairs(a, w, v, np.sort(pick), dtype)
    ws, _ = ssl.eigsh(a, k=k, which=which)
    np.testing.assert_allclose(w.numpy(), np.sort(ws), rtol=1e-4 if dtype == "float32" else 1e-9)


def test_eigsh_restarts(device):
    n = 60 if device == "cpu" else 30
    a, ev = sym_spectrum(n, seed=5)
    seen = []
    w, v = sl.eigsh(T(a, device), k=4, which="LA", ncv=9)
    check_pairs(a, w, v, ev[-4:], "float64")
    vals = sl.eigsh(T(a, device), k=2, which="SA", ncv=6, return_eigenvectors=False)
    assert isinstance(vals, nr.Tensor) and not seen
    np.testing.assert_allclose(vals.numpy(), ev[:2], rtol=1e-10)


def test_eigsh_operator_v0_and_invariant_start(device):
    a, ev = sym_spectrum(16, seed=6)
    at = T(a, device)
    op = sl.LinearOperator(a.shape, lambda x: at @ x, dtype=nr.float64)
    start = T(np.linalg.eigh(a)[1][:, 0], device)  # an eigenvector: the Krylov space stops at once
    w, v = sl.eigsh(op, k=2, which="LA", v0=start)
    check_pairs(a, w, v, ev[-2:], "float64")
    assert v.device.runtime_name == device


def test_eigsh_degenerate_and_full_basis(device):
    a = np.diag(np.array([5.0, 5.0, 5.0, 1.0, 0.5, 0.25]))  # a triple eigenvalue
    w, v = sl.eigsh(T(a, device), k=3, which="LA", ncv=6)
    check_pairs(a, w, v, [5.0, 5.0, 5.0], "float64")


def test_eigsh_bad_input():
    a = T(sym_spectrum(8)[0], "cpu")
    for k in (0, 8, 9):
        with pytest.raises(nr.ShapeError, match=rf"eigsh: k={k}.*\(8, 8\)"):
            sl.eigsh(a, k=k)
    with pytest.raises(nr.ShapeError, match=r"eigsh.*\(8, 7\)"):
        sl.eigsh(T(np.ones((8, 7)), "cpu"), k=2)
    with pytest.raises(nr.ShapeError, match="eigsh: ncv"):
        sl.eigsh(a, k=3, ncv=3)
    with pytest.raises(ValueError, match="which"):
        sl.eigsh(a, k=2, which="XX")
    with pytest.raises(nr.DTypeError, match="eigsh.*int64"):
        sl.eigsh(nr.ones((8, 8), dtype=nr.int64), k=2)
    with pytest.raises(nr.DTypeError, match="eigsh.*complex128.*complex Hermitian"):
        sl.eigsh(nr.eye(8, dtype=nr.complex128), k=2)
    with pytest.raises(nr.UnsupportedOperation, match="generalised"):
        sl.eigsh(a, k=2, M=a)
    with pytest.raises(nr.LinAlgError, match="did not converge"):
        sl.eigsh(T(sym_spectrum(40)[0], "cpu"), k=3, ncv=4, maxiter=1)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("m", [1, 2, 5, 8])
def test_jacobi_eigh_against_eigh(device, m, dtype):
    g = np.random.default_rng(m).standard_normal((m, m))
    h = g + g.T
    w, v = jacobi_eigh(T(h, device, dtype))
    tol = 1e-12 if dtype == "float64" else 5e-6
    ref = np.linalg.eigvalsh(h)
    np.testing.assert_allclose(w.numpy(), ref, rtol=tol, atol=tol * 10)
    vn = v.numpy().astype(np.float64)
    assert np.abs(h @ vn - vn * w.numpy()).max() <= tol * 50
    np.testing.assert_allclose(vn.T @ vn, np.eye(m), atol=tol * 10)


# ---- numr's sparse matrices (numr.sparse from the sparse branch; skipped without it) --------

def _poisson(k):
    import scipy.sparse as sp
    t = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(k, k))
    return (sp.kron(sp.identity(k), t) + sp.kron(t, sp.identity(k))).tocsr()


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
def test_sparse_operators(device, fmt):
    if not hasattr(nr.sparse, "from_scipy"):
        pytest.skip("numr.sparse has no sparse matrices in this tree")
    p = _poisson(6)
    a = nr.sparse.from_scipy(p.asformat(fmt), device=device)
    b = rhs(36)
    for name, (solve, _) in SOLVERS.items():
        x, info = solve(a, T(b, device), rtol=1e-9)
        assert info == 0 and true_res(p, x, b) <= 1e-9 * np.linalg.norm(b), name
    x, info = sl.cg(a, T(b, device), rtol=1e-9, M=sl.jacobi(a))
    assert info == 0 and true_res(p, x, b) <= 1e-9 * np.linalg.norm(b)
    w, v = sl.eigsh(a, k=2, which="LA")
    check_pairs(p.toarray(), w, v, np.linalg.eigvalsh(p.toarray())[-2:], "float64")


@pytest.mark.parametrize("shape", [(14, 9), (9, 14)])
@pytest.mark.parametrize("which", ["LM", "SM"])
def test_svds_against_svd(device, shape, which):
    q1, q2 = _q(shape[0], 7)[:, :min(shape)], _q(shape[1], 8)[:, :min(shape)]
    sv = np.geomspace(1, 10, min(shape))
    a = q1 @ np.diag(sv) @ q2.T
    u, s, vh = sl.svds(T(a, device), k=2, which=which)
    want = np.sort(sv)[-2:] if which == "LM" else np.sort(sv)[:2]
    assert u.shape == (shape[0], 2) and s.shape == (2,) and vh.shape == (2, shape[1])
    np.testing.assert_allclose(s.numpy(), want, rtol=1e-9)
    un, vn = u.numpy(), vh.numpy()
    np.testing.assert_allclose(a @ vn.T, un * s.numpy(), atol=1e-9)
    np.testing.assert_allclose(un.T @ un, np.eye(2), atol=1e-9)
    np.testing.assert_allclose(vn @ vn.T, np.eye(2), atol=1e-9)
    only = sl.svds(T(a, device), k=2, which=which, return_singular_vectors=False)
    np.testing.assert_allclose(only.numpy(), want, rtol=1e-9)
    np.testing.assert_allclose(np.sort(ssl.svds(a, k=2, which=which)[1]), want, rtol=1e-9)


def test_svds_bad_input():
    with pytest.raises(nr.ShapeError, match=r"svds: k=9.*\(9, 14\)"):
        sl.svds(T(np.ones((9, 14)), "cpu"), k=9)
    with pytest.raises(ValueError, match="which"):
        sl.svds(T(np.ones((9, 14)), "cpu"), k=2, which="LA")


@pytest.mark.parametrize("name", list(SOLVERS))
def test_empty_system(device, name):
    x, info = SOLVERS[name][0](nr.zeros((0, 0), device=device), nr.zeros((0,), device=device))
    assert info == 0 and x.shape == (0,) and x.dtype == nr.float64


def test_operator_returning_a_wrong_shape_raises():
    a = T(spd(), "cpu")
    bad = sl.LinearOperator((N, N), lambda x: (a @ x).reshape((1, N)))
    with pytest.raises(nr.ShapeError, match=r"cg: A's matvec returned Tensor of shape \(1, 20\)"):
        sl.cg(bad, T(rhs(), "cpu"))
    with pytest.raises(nr.ShapeError, match="gmres: the preconditioner M returned"):
        sl.gmres(a, T(rhs(), "cpu"), M=lambda r: r[:3])
    col = sl.LinearOperator((N, N), lambda x: (a @ x).reshape((N, 1)))  # (n, 1) is accepted
    x, info = sl.cg(col, T(rhs(), "cpu"), rtol=1e-9)
    assert info == 0 and x.shape == (N,)
    a8 = T(sym_spectrum(8)[0], "cpu")
    with pytest.raises(nr.ShapeError, match=r"eigsh: A's matvec returned Tensor of shape \(8, 1\)"):
        sl.eigsh(sl.LinearOperator((8, 8), lambda x: (a8 @ x).reshape((8, 1))), k=2)


def test_lgmres_beats_restarted_gmres_and_matches_scipy(device):
    a, b = indefinite(), rhs()
    g, lg, sc = [], [], []
    sl.gmres(T(a, device), T(b, device), rtol=1e-9, restart=4, maxiter=300, callback=g.append, callback_type="x")
    x, info = sl.lgmres(T(a, device), T(b, device), rtol=1e-9, inner_m=4, callback=lg.append)
    ssl.lgmres(a, b, rtol=1e-9, inner_m=4, callback=sc.append)
    assert info == 0 and true_res(a, x, b) <= 1e-9 * np.linalg.norm(b)
    assert len(lg) < len(g) / 2 and abs(len(lg) - len(sc)) <= max(2, len(sc) // 10), (len(lg), len(g), len(sc))
