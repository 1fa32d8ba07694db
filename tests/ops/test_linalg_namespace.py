"""numr.linalg: torch.linalg's names resolve to numr's ops, and the wrappers whose semantics differ
from numr's top-level functions (diagonal on the last two dims, norm choosing a vector or matrix
norm, lstsq's four results) match numpy.linalg in float64 on every backend."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_close

import numr as nr
import numr.linalg as la


def make(a, device):
    try:
        return nr.tensor(a, device=device)
    except (nr.UnsupportedOperation, nr.UnsupportedDType) as e:
        pytest.skip(str(e))


def test_names_are_numr_ops():
    for name in la.__all__:
        assert callable(getattr(la, name)), name
    assert la.solve is nr.solve and la.matrix_exp is nr.matrix_exp and la.vector_norm is nr.vector_norm


def test_diagonal_last_two_dims(device):
    a = np.arange(24.0).reshape(2, 3, 4)
    got = la.diagonal(make(a, device), offset=1)
    assert got.shape == (2, 3)
    assert_close(got, np.diagonal(a, 1, -2, -1))


@pytest.mark.parametrize("shape,ord,dim", [((5,), None, None), ((5,), 1, None), ((5,), float("inf"), None),
                                           ((3, 4), None, None), ((3, 4), "fro", None), ((3, 4), 1, None),
                                           ((3, 4), float("inf"), None), ((3, 4), 2, None), ((3, 4), "nuc", None),
                                           ((2, 3, 4), None, None), ((2, 3, 4), 3, -1), ((2, 3, 4), -1, (1, 2)),
                                           ((2, 3, 4), "fro", (0, 2))])
def test_norm_matches_numpy(device, shape, ord, dim):
    a = np.random.default_rng(0).standard_normal(shape)
    got = la.norm(make(a, device), ord, dim)
    want = np.linalg.norm(a.reshape(-1) if dim is None and ord is None else a, ord, dim)
    assert got.shape == np.shape(want)
    assert_close(got, want, rtol=1e-10, atol=1e-12)
    flat = dim is None and ord is None
    kept = la.norm(make(a, device), ord, dim, keepdim=True)
    want_kept = np.linalg.norm(a.reshape(-1) if flat else a, ord, dim, keepdims=True)
    assert kept.shape == ((1,) * a.ndim if flat else want_kept.shape)
    assert_close(kept.reshape(-1), want_kept.reshape(-1), rtol=1e-10, atol=1e-12)


def test_norm_errors(device):
    with pytest.raises(nr.ShapeError, match="linalg.norm"):
        la.norm(make(np.ones((2, 2, 2)), device), 2)
    with pytest.raises(nr.ShapeError, match="linalg.norm"):
        la.norm(make(np.ones((2, 2, 2)), device), 2, (0, 1, 2))


@pytest.mark.parametrize("m,n,k", [(6, 3, 2), (6, 3, None), (3, 5, 2)])
def test_lstsq_four_results(device, m, n, k):
    rng = np.random.default_rng(1)
    a = rng.standard_normal((m, n))
    b = rng.standard_normal((m,) if k is None else (m, k))
    res = la.lstsq(make(a, device), make(b, device))
    x, r, rank, s = np.linalg.lstsq(a, b, rcond=None)
    assert isinstance(res, la.LstsqResult)
    assert_close(res.solution, x, rtol=1e-10, atol=1e-10)
    assert res.residuals.shape == r.shape
    assert_close(res.residuals, r, rtol=1e-9, atol=1e-10)
    assert int(res.rank.item()) == rank
    assert_close(res.singular_values, s, rtol=1e-10, atol=1e-12)
