"""numr.sparse.amg (smoothed aggregation, Ruge-Stuben) against scipy (spsolve as the oracle)
and NumPy (R A P, the prolongator and direct interpolation formulas, float64): flat
preconditioned-cg iteration counts on growing 2-d Poisson grids where plain cg grows, the
anisotropic case, pyamg's aggregates and C/F splitting of a 1-d Laplacian, the cycle on every
backend (hierarchy built on the CPU, moved with .to) and errors."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.linalg as sla
from conftest import assert_close

import numr as nr
from numr.sparse import amg


def lap1(n):
    return sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(n, n))


def poisson(n, eps=1.0):
    """The 5-point Laplacian on an n x n grid (eps scales the coupling along one axis)."""
    i = sp.identity(n)
    return (eps * sp.kron(i, lap1(n)) + sp.kron(lap1(n), i)).tocsr()


def pcg_iterations(S, M=None, seed=0):
    A = nr.sparse.from_scipy(S)
    b = nr.tensor(np.random.default_rng(seed).standard_normal(S.shape[0]))
    its = []
    x, info = nr.sparse.linalg.cg(A, b, rtol=1e-8, M=M, callback=lambda xk: its.append(1))
    assert info == 0
    return len(its), x, b


@pytest.mark.parametrize("solver, oc", [(amg.smoothed_aggregation_solver, 2.0), (amg.ruge_stuben_solver, 2.5)])
def test_poisson_pcg_iterations_stay_flat(solver, oc):
    counts, plain = [], []
    for n in (32, 64):
        S = poisson(n)
        ml = solver(nr.sparse.from_scipy(S))
        assert len(ml.levels) >= 3 and 1.0 < ml.operator_complexity() < oc
        its, x, b = pcg_iterations(S, ml.aspreconditioner())
        counts.append(its)
        plain.append(pcg_iterations(S)[0])
        assert_close(x, sla.spsolve(S.tocsc(), b.numpy()), nr.float64, rtol=1e-6, atol=1e-6)
    assert max(counts) <= 12 and counts[1] - counts[0] <= 2, counts
    assert plain[1] > 1.7 * plain[0] and plain[0] > 4 * counts[0], plain


def test_anisotropic_needs_strength():
    S = poisson(32, eps=1e-3)
    A = nr.sparse.from_scipy(S)
    strong = pcg_iterations(S, amg.smoothed_aggregation_solver(A, theta=0.25).aspreconditioner())[0]
    loose = pcg_iterations(S, amg.smoothed_aggregation_solver(A, theta=0.0).aspreconditioner())[0]
    assert strong <= 12 and loose > 3 * strong, (strong, loose)


def test_hierarchy_is_galerkin_of_smoothed_aggregation():
    S = poisson(6)
    ml = amg.smoothed_aggregation_solver(nr.sparse.from_scipy(S), max_coarse=4, keep=True)
    assert len(ml.levels) >= 3
    for k, lv in enumerate(ml.levels[:-1]):
        A, P, R, T = (m.to_dense().numpy() for m in (lv.A, lv.P, lv.R, lv.T))
        n, nc = P.shape
        assert ml.levels[k + 1].A.shape == (nc, nc) and lv.R.shape == (nc, n)
        np.testing.assert_allclose(R, P.T)
        np.testing.assert_allclose(T.T @ T, np.eye(nc), atol=1e-12)  # T's columns orthonormal
        agg = np.asarray(lv.AggOp)
        np.testing.assert_array_equal(T != 0, agg[:, None] == np.arange(nc)[None, :])
        dinv = 1 / np.diag(A)
        np.testing.assert_allclose(P, T - (4 / 3) / lv.rho * (dinv[:, None] * A) @ T, atol=1e-12)
        np.testing.assert_allclose(ml.levels[k + 1].A.to_dense().numpy(), R @ A @ P, atol=1e-12)
    assert ml.grid_complexity() == sum(lv.A.shape[0] for lv in ml.levels) / 36


def test_ruge_stuben_splitting_and_direct_interpolation():
    """pyamg's C/F splitting of the 1-d Laplacian; P's C rows inject, its F rows are the direct
    interpolation weights (checked densely with NumPy); the coarse operators are R A P."""
    ml = amg.ruge_stuben_solver(nr.sparse.from_scipy(lap1(9).tocsr()), max_coarse=2, keep=True)
    assert ml.levels[0].splitting == [0, 1, 0, 1, 0, 1, 0, 1, 0]
    S = poisson(6) + sp.diags(np.linspace(0.0, 1.0, 36)) - 0.3 * sp.eye(36, k=7)  # positive couplings too
    S = (S + S.T).tocsr()
    ml = amg.ruge_stuben_solver(nr.sparse.from_scipy(S), max_coarse=4, keep=True)
    assert len(ml.levels) >= 2
    for k, lv in enumerate(ml.levels[:-1]):
        A, P, Sd = lv.A.to_dense().numpy(), lv.P.to_dense().numpy(), lv.S.to_dense().numpy() != 0
        c = np.array(lv.splitting) == 1
        cidx = np.cumsum(c) - 1
        expect = np.zeros_like(P)
        for i in range(A.shape[0]):
            if c[i]:
                expect[i, cidx[i]] = 1.0
                continue
            off = np.arange(A.shape[0]) != i
            sc = Sd[i] & c & off
            a = A[i]
            neg, pos = off & (a < 0), off & (a > 0)
            d, sp_ = a[i], a[sc & pos].sum()
            alpha = a[neg].sum() / a[sc & neg].sum() if (sc & neg).any() else 0.0
            beta = a[pos].sum() / sp_ if sp_ else 0.0
            d = d + (a[pos].sum() if not sp_ else 0.0)
            for j in np.nonzero(sc)[0]:
                expect[i, cidx[j]] = -(alpha if a[j] < 0 else beta) * a[j] / d
        np.testing.assert_allclose(P, expect, atol=1e-12)
        np.testing.assert_allclose(ml.levels[k + 1].A.to_dense().numpy(), P.T @ A @ P, atol=1e-12)
        strong = A.copy()
        np.fill_diagonal(strong, 0)
        rmax = np.abs(strong).max(axis=1, keepdims=True)
        np.testing.assert_array_equal(Sd, (np.abs(strong) >= 0.25 * rmax) & (strong != 0))


def test_standard_aggregation_matches_pyamg():
    """pyamg's aggregates of the 1-d Laplacian on 9 nodes; an isolated node stays out."""
    ml = amg.smoothed_aggregation_solver(nr.sparse.from_scipy(lap1(9).tocsr()), max_coarse=2, keep=True)
    assert ml.levels[0].AggOp == [0, 0, 1, 1, 1, 2, 2, 2, 2]
    iso = sp.block_diag([lap1(4), sp.identity(1) * 3.0]).tocsr()
    ml = amg.smoothed_aggregation_solver(nr.sparse.from_scipy(iso), max_coarse=1, keep=True)
    assert ml.levels[0].AggOp[-1] == -1 and not ml.levels[0].T.to_dense().numpy()[-1].any()


@pytest.mark.parametrize("cycle", ["V", "W"])
@pytest.mark.parametrize("smoother", ["gauss_seidel", "jacobi"])
def test_standalone_solve_and_cg_accel(cycle, smoother):
    S = poisson(12)
    ml = amg.smoothed_aggregation_solver(nr.sparse.from_scipy(S), smoother=smoother, max_coarse=8)
    b = nr.tensor(np.random.default_rng(2).standard_normal(144))
    res = []
    x, info = ml.solve(b, tol=1e-10, maxiter=60, cycle=cycle, residuals=res, return_info=True)
    expect = sla.spsolve(S.tocsc(), b.numpy())
    assert info == 0 and res[-1] <= 1e-10 * np.linalg.norm(b.numpy()) and len(res) <= 40
    assert all(r1 < r0 for r0, r1 in zip(res[:-1], res[1:], strict=True))  # every cycle reduces the residual
    assert_close(x, expect, nr.float64, rtol=1e-8, atol=1e-8)
    x2 = ml.solve(b, x0=x * 0, tol=1e-10, cycle=cycle, accel="cg")
    assert_close(x2, expect, nr.float64, rtol=1e-8, atol=1e-8)


def test_coarsest_only_diagonal_and_empty():
    d = sp.diags([2.0, 4.0, 8.0]).tocsr()
    ml = amg.smoothed_aggregation_solver(nr.sparse.from_scipy(d), max_coarse=1)
    assert len(ml.levels) == 1  # nothing aggregates: the dense solve does it all
    assert_close(ml.solve(nr.tensor([2.0, 4.0, 8.0])), [1.0, 1.0, 1.0], nr.float64)
    ml = amg.smoothed_aggregation_solver(nr.tensor(np.diag([5.0])))  # a dense tensor is accepted
    assert_close(ml.aspreconditioner() @ nr.tensor([10.0]), [2.0], nr.float64)
    ml = amg.ruge_stuben_solver(nr.sparse.from_scipy(sp.csr_matrix((0, 0))))
    assert len(ml.levels) == 1 and ml.solve(nr.zeros(0, dtype=nr.float64)).shape == (0,)


def test_singular_neumann_problem():
    """The pure Neumann Laplacian (constants in the null space): the coarse pseudo-inverse keeps
    the cycle finite and a consistent b (zero mean) is solved."""
    S = lap1(40).tolil()
    S[0, 0] = S[-1, -1] = 1.0
    S = S.tocsr()
    b = sample = np.random.default_rng(4).standard_normal(40)
    b = nr.tensor(sample - sample.mean())
    for solver in (amg.smoothed_aggregation_solver, amg.ruge_stuben_solver):
        ml = solver(nr.sparse.from_scipy(S), max_coarse=4)
        x = ml.solve(b, tol=1e-9, maxiter=80)
        assert np.linalg.norm(S @ x.numpy() - b.numpy()) <= 1e-8 * np.linalg.norm(b.numpy())


def test_cycle_on_device(device):
    """Setup on the CPU (float32), the cycle and cg with numr ops on the device."""
    S = poisson(8).astype(np.float32)
    A = nr.sparse.from_scipy(S)
    ml = amg.smoothed_aggregation_solver(A, max_coarse=6).to(device)
    assert ml.device == nr.device(device) and ml.levels[-1].A.device == nr.device(device)
    b = nr.tensor(np.random.default_rng(3).standard_normal(64).astype(np.float32), device=device)
    its = []
    x, info = nr.sparse.linalg.cg(A.to(device), b, rtol=1e-5, M=ml.aspreconditioner(),
                                  callback=lambda xk: its.append(1))
    assert info == 0 and len(its) <= 8 and x.device == nr.device(device)
    assert_close(x, sla.spsolve(S.tocsc().astype(np.float64), b.numpy()), nr.float32, rtol=1e-4, atol=1e-4)
    if device != "cpu":
        with pytest.raises(nr.UnsupportedOperation, match="CPU"):
            amg.smoothed_aggregation_solver(A.to(device))
        gs = amg.smoothed_aggregation_solver(A, smoother="gauss_seidel", max_coarse=6).to(device)
        with pytest.raises(nr.UnsupportedOperation, match="jacobi"):
            gs.solve(b, maxiter=1)
        with pytest.raises(nr.DeviceError, match="to()"):
            ml.solve(b.cpu())


def test_bad_input():
    A = nr.sparse.from_scipy(poisson(4))
    with pytest.raises(nr.ShapeError, match="square"):
        amg.smoothed_aggregation_solver(nr.sparse.from_scipy(sp.random(4, 5, density=0.5, random_state=0)))
    with pytest.raises(nr.DTypeError, match="int64"):
        amg.smoothed_aggregation_solver(A.astype(nr.int64))
    with pytest.raises(nr.DTypeError, match="complex128"):
        amg.ruge_stuben_solver(A.astype(nr.complex128))
    with pytest.raises(nr.ShapeError, match="sparse matrix"):
        amg.smoothed_aggregation_solver([[1.0]])
    for kw in ({"smoother": "sor"}, {"theta": 2.0}, {"max_coarse": 0}):
        with pytest.raises(ValueError):
            amg.smoothed_aggregation_solver(A, **kw)
    ml = amg.smoothed_aggregation_solver(A, max_coarse=4)
    with pytest.raises(nr.ShapeError, match=r"\(16,\)"):
        ml.solve(nr.ones(15, dtype=nr.float64))
    with pytest.raises(ValueError, match="cycle"):
        ml.solve(nr.ones(16, dtype=nr.float64), cycle="F")
    with pytest.raises(nr.UnsupportedOperation, match="accel"):
        ml.solve(nr.ones(16, dtype=nr.float64), accel="gmres")
