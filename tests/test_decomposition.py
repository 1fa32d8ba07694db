"""numr.decomposition (TensorLy's names) on every backend: unfold/fold against a NumPy reference of
TensorLy's C-order unfolding, mode products against np.einsum, exact reconstructions of tensors
built with a known Tucker / CP / TT rank, orthonormal HOSVD factors, rank clipping, 1-element
modes, views, complex, errors, and central-difference gradients and jvps of the reconstructions."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import assert_close

import numr as nr
from numr import decomposition as D

sys.path.insert(0, str(Path(__file__).parent / "ops"))  # the shared central-difference checks
from fd_checks import check_grads  # noqa: E402


def _dt(device):
    """float64 where the backend has it, else float32."""
    try:
        return "float64" if nr.tensor([1.0], dtype="float64", device=device).dtype == nr.float64 else "float32"
    except nr.UnsupportedDType:
        return "float32"


def _t(a, device, dtype=None):
    return nr.tensor(np.asarray(a), device=device, dtype=dtype)


def _rel(x, ref):
    return np.linalg.norm(x.numpy().astype(np.complex128) - ref) / np.linalg.norm(ref)


def _np_unfold(a, mode):
    """TensorLy's unfolding: the mode first, the rest in C order."""
    return np.moveaxis(a, mode, 0).reshape(a.shape[mode], -1)


RNG = np.random.default_rng(0)
X345 = RNG.standard_normal((3, 4, 5))


@pytest.mark.parametrize("shape", [(3, 4, 5), (2, 1, 3, 2), (5,), (1, 1)])
@pytest.mark.parametrize("dtype", ["float64", "float32", "float16", "int64", "complex64"])
def test_unfold_fold_reference(device, shape, dtype):
    a = (RNG.standard_normal(shape) * 10).astype(nr.dtype(dtype).np)
    try:
        x = _t(a, device, dtype)
    except nr.UnsupportedDType:
        pytest.skip(f"{device} has no {dtype} tensors")
    for mode in range(-len(shape), len(shape)):
        u = D.unfold(x, mode)
        assert_close(u, _np_unfold(a, mode), dtype=dtype)
        assert_close(D.fold(u, mode, shape), a, dtype=dtype)


def test_unfold_views_and_empty(device):
    base = _t(X345, device, "float64")
    for view, ref in [(base[:, 1:, ::2], X345[:, 1:, ::2]), (base.flip(2), X345[:, :, ::-1]),
                      (base.permute((2, 0, 1)), X345.transpose(2, 0, 1)),
                      (_t(X345[0], device).broadcast_to((2, 4, 5)), np.broadcast_to(X345[0], (2, 4, 5)))]:
        for mode in range(3):
            assert_close(D.unfold(view, mode), _np_unfold(ref, mode), dtype="float64")
    e = _t(np.zeros((0, 3, 2)), device)
    assert D.unfold(e, 1).shape == (3, 0)
    assert D.fold(D.unfold(e, 0), 0, (0, 3, 2)).shape == (0, 3, 2)


def test_mode_dot_einsum(device):
    dt = _dt(device)
    m, v = RNG.standard_normal((6, 4)), RNG.standard_normal(4)
    x = _t(X345, device, dt)
    assert_close(D.mode_dot(x, _t(m, device, dt), 1), np.einsum("ijk,aj->iak", X345, m), dtype=dt)
    assert_close(D.mode_dot(x, _t(m.T, device, dt), -2, transpose=True), np.einsum("ijk,aj->iak", X345, m), dtype=dt)
    assert_close(D.mode_dot(x, _t(v, device, dt), 1), np.einsum("ijk,j->ik", X345, v), dtype=dt)
    s = D.mode_dot(_t(v, device, dt), _t(v, device, dt), 0)
    assert s.shape == () and abs(s.item() - v @ v) < 1e-5
    c = RNG.standard_normal((2, 3)) + 1j * RNG.standard_normal((2, 3))
    try:
        got = D.mode_dot(_t(X345, device, "complex128"), _t(c.T, device, "complex128"), 0, transpose=True)
    except nr.UnsupportedDType:
        return
    assert_close(got, np.einsum("ijk,ai->ajk", X345, c.conj()), dtype="complex128")


def test_multi_mode_dot(device):
    dt = _dt(device)
    a, b, v = RNG.standard_normal((2, 3)), RNG.standard_normal((6, 5)), RNG.standard_normal(4)
    x = _t(X345, device, dt)
    mats = [_t(b, device, dt), _t(a, device, dt), _t(v, device, dt)]
    assert_close(D.multi_mode_dot(x, mats, modes=[2, 0, 1]), np.einsum("ijk,ai,j,ck->ac", X345, a, v, b), dtype=dt)
    # skip counts in mode order: skipping product 1 leaves mode 1 (the vector) out
    assert_close(D.multi_mode_dot(x, mats, modes=[2, 0, 1], skip=1), np.einsum("ijk,ai,ck->ajc", X345, a, b),
                 dtype=dt)
    assert_close(D.multi_mode_dot(x, [_t(a.T, device, dt)], modes=[0], transpose=True),
                 np.einsum("ijk,ai->ajk", X345, a), dtype=dt)


def _tucker_tensor(shape, ranks, dtype=np.float64):
    rng = np.random.default_rng(1)
    core = rng.standard_normal(ranks)
    fs = [rng.standard_normal((n, r)) for n, r in zip(shape, ranks, strict=True)]
    return np.einsum(core, [0, 1, 2], *[x for i, f in enumerate(fs) for x in (f, [3 + i, i])], [3, 4, 5])


@pytest.mark.parametrize("init", ["svd", "random"])
def test_tucker_exact(device, init):
    dt = _dt(device)
    ref = _tucker_tensor((5, 6, 4), (2, 3, 2))
    x = _t(ref, device, dt)
    tol = 1e-10 if dt == "float64" else 1e-4
    core, factors = D.hosvd(x, [2, 3, 2])
    assert core.shape == (2, 3, 2) and [f.shape for f in factors] == [(5, 2), (6, 3), (4, 2)]
    for f in factors:
        assert f.dtype == nr.dtype(dt)
        assert_close(f.T @ f, np.eye(f.shape[1]), rtol=tol, atol=tol)
    assert _rel(D.tucker_to_tensor((core, factors)), ref) < tol
    if init == "svd":  # no sweeps: the HOSVD itself
        g0, f0 = D.tucker(x, [2, 3, 2], n_iter_max=0)
        assert_close(g0, core.numpy(), rtol=tol, atol=tol)
    tt = D.tucker(x, [2, 3, 2], init=init, seed=3, tol=0, n_iter_max=5)
    assert isinstance(tt, D.TuckerTensor) and tt.core.dtype == nr.dtype(dt)
    assert _rel(D.tucker_to_tensor(tt), ref) < tol
    for f in tt.factors:
        assert_close(f.T @ f, np.eye(f.shape[1]), rtol=tol, atol=tol)


def test_tucker_rank_clipping_and_size_one(device):
    dt = _dt(device)
    ref = RNG.standard_normal((3, 1, 4))
    core, factors = D.tucker(_t(ref, device, dt), 10)  # clipped to the mode sizes: exact
    assert core.shape == (3, 1, 4) and [f.shape for f in factors] == [(3, 3), (1, 1), (4, 4)]
    assert _rel(D.tucker_to_tensor((core, factors)), ref) < (1e-10 if dt == "float64" else 1e-4)
    tall = RNG.standard_normal((6, 2, 2))  # a mode larger than the rest: U from the full SVD
    core, factors = D.hosvd(_t(tall, device, dt), [5, 2, 2])
    assert factors[0].shape == (6, 5) and core.shape == (5, 2, 2)
    assert _rel(D.tucker_to_tensor((core, factors)), tall) < (1e-10 if dt == "float64" else 1e-4)


def _cp_tensor(shape, rank):
    rng = np.random.default_rng(2)
    fs = [rng.standard_normal((n, rank)) for n in shape]
    return np.einsum("ir,jr,kr->ijk", *fs)


@pytest.mark.parametrize(("init", "normalize"), [("svd", False), ("random", False), ("svd", True)])
def test_parafac_exact(device, init, normalize):
    if device.startswith("wgpu") and (init, normalize) != ("svd", False):
        pytest.skip("lavapipe runs 300 ALS sweeps slowly: wgpu checks one init, cpu and cuda all three")
    dt = _dt(device)
    ref = _cp_tensor((5, 6, 4), 3)
    cp = D.parafac(_t(ref, device, dt), 3, n_iter_max=300 if dt == "float64" else 100, tol=0, init=init, seed=0,
                   normalize_factors=normalize)
    assert isinstance(cp, D.CPTensor) and cp.weights.shape == (3,)
    assert [f.shape for f in cp.factors] == [(5, 3), (6, 3), (4, 3)]
    assert cp.weights.dtype == nr.dtype(dt) and all(f.dtype == nr.dtype(dt) for f in cp.factors)
    assert _rel(D.cp_to_tensor(cp), ref) < (1e-10 if dt == "float64" else 1e-4)
    if normalize:
        for f in cp.factors:
            assert_close(nr.linalg.vector_norm(f, dim=0), np.ones(3), rtol=1e-5, atol=1e-5)
    else:
        assert_close(cp.weights, np.ones(3))


def test_parafac_converges_and_rank_above_dims(device):
    if device.startswith("wgpu"):
        pytest.skip("250 ALS sweeps on lavapipe take 10 s; the padded SVD init is checked on cpu and cuda")
    dt = _dt(device)
    ref = _cp_tensor((2, 5, 6), 3)  # rank 3 > the first mode: SVD init padded with random columns
    errs = []
    for n_iter in (50, 200):  # ALS crawls through a swamp here, but it keeps descending
        cp = D.parafac(_t(ref, device, dt), 3, n_iter_max=n_iter, tol=0, seed=1)
        assert cp.factors[0].shape == (2, 3)
        errs.append(_rel(D.cp_to_tensor(cp), ref))
    assert errs[1] < errs[0] / 2 and errs[1] < 1e-2
    # the default tolerance stops well before n_iter_max on an exact fit, close to it
    cp = D.parafac(_t(_cp_tensor((5, 6, 4), 2), device, dt), 2, n_iter_max=10_000)
    assert _rel(D.cp_to_tensor(cp), _cp_tensor((5, 6, 4), 2)) < 1e-3


def test_parafac_complex():
    rng = np.random.default_rng(5)
    fs = [rng.standard_normal((n, 2)) + 1j * rng.standard_normal((n, 2)) for n in (4, 3, 5)]
    ref = np.einsum("ir,jr,kr->ijk", *fs)
    for init in ("svd", "random"):  # complex ALS solves with conj of the Gram product
        cp = D.parafac(_t(ref, "cpu"), 2, n_iter_max=300, tol=0, init=init, seed=0)
        assert cp.factors[0].dtype == nr.complex128 and cp.weights.dtype == nr.float64
        assert _rel(D.cp_to_tensor(cp), ref) < 1e-10
    core, factors = D.tucker(_t(ref, "cpu"), 2)
    assert _rel(D.tucker_to_tensor((core, factors)), ref) < 1e-10
    assert _rel(D.tt_to_tensor(D.tensor_train(_t(ref, "cpu"), 2)), ref) < 1e-10


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_half_precision_computed_in_float32(device, dtype):
    ref = _tucker_tensor((3, 4, 5), (2, 2, 2))
    x = nr.cast(_t(ref, device, "float32"), dtype)
    exact = nr.cast(x, "float64").numpy()  # the rounded input is what gets decomposed
    tol = 1e-4  # float32 work: far below the input's own rounding (1e-3 to 1e-2)
    core, factors = D.tucker(x, 2, tol=0, n_iter_max=3)
    assert core.dtype == nr.dtype(dtype) and all(f.dtype == nr.dtype(dtype) for f in factors)
    g32, f32 = D.tucker(nr.cast(x, "float32"), 2, tol=0, n_iter_max=3)
    assert _rel(nr.cast(D.tucker_to_tensor((g32, f32)), "float64"), exact) < 5e-2
    assert _rel(nr.cast(core, "float32"), nr.cast(g32, dtype).numpy().astype(np.float64)) < tol
    cores = D.tensor_train(x, 5)
    assert all(c.dtype == nr.dtype(dtype) for c in cores)
    cp = D.parafac(x, 2, n_iter_max=2, tol=0)
    assert cp.weights.dtype == nr.dtype(dtype) and cp.factors[0].dtype == nr.dtype(dtype)


def test_views_and_nan(device):
    dt = _dt(device)
    ref = _tucker_tensor((5, 6, 4), (2, 3, 2))
    base = _t(ref, device, dt)
    tol = 1e-10 if dt == "float64" else 1e-4
    for view, want, ranks in [(base.permute((2, 0, 1)), ref.transpose(2, 0, 1), [2, 2, 3]),
                              (base.flip(1)[1:], ref[1:, ::-1], [2, 3, 2])]:
        assert _rel(D.tucker_to_tensor(D.hosvd(view, ranks)), want) < tol
        assert _rel(D.tt_to_tensor(D.tensor_train(view, 6)), want) < tol
    bad = ref.copy()
    bad[1, 2, 3] = np.nan
    x = _t(bad, device, dt)
    for out in (D.hosvd(x, 2).core, D.tucker(x, 2, n_iter_max=2).core, D.parafac(x, 2, n_iter_max=2).factors[0],
                D.tensor_train(x, 2)[0]):
        assert np.isnan(out.numpy()).any()


def test_tensor_train_exact_and_clipped(device):
    dt = _dt(device)
    rng = np.random.default_rng(3)
    cores = [rng.standard_normal(s) for s in [(1, 3, 2), (2, 4, 3), (3, 1, 2), (2, 5, 1)]]
    ref = np.einsum("aib,bjc,ckd,dle->ijkl", *cores)
    tol = 1e-10 if dt == "float64" else 1e-4
    got = D.tensor_train(_t(ref, device, dt), [1, 2, 3, 2, 1])
    assert [c.shape for c in got] == [(1, 3, 2), (2, 4, 3), (3, 1, 2), (2, 5, 1)]
    assert all(c.dtype == nr.dtype(dt) for c in got)
    assert _rel(D.tt_to_tensor(got), ref) < tol
    big = D.tensor_train(_t(ref, device, dt), 100)  # clipped to min(rows, columns) of each unfolding
    assert [c.shape for c in big] == [(1, 3, 3), (3, 4, 5), (5, 1, 5), (5, 5, 1)]
    assert _rel(D.tt_to_tensor(big), ref) < tol
    one = D.tensor_train(_t(ref[0, 0, 0], device, dt), 3)
    assert [c.shape for c in one] == [(1, 5, 1)]


def test_errors(device):
    x = _t(X345, device)
    with pytest.raises(nr.IndexOutOfRange):
        D.unfold(x, 3)
    with pytest.raises(nr.IndexOutOfRange):
        D.mode_dot(x, _t(np.ones((2, 4)), device), -4)
    with pytest.raises(nr.ShapeError):
        D.unfold(_t(np.float64(1.0), device), 0)
    with pytest.raises(nr.ShapeError):
        D.fold(D.unfold(x, 0), 0, (3, 4, 6))
    with pytest.raises(nr.ShapeError, match="not aligned"):
        D.mode_dot(x, _t(np.ones((2, 3)), device), 1)
    with pytest.raises(nr.ShapeError, match="not aligned"):
        D.mode_dot(x, _t(np.ones((3, 2)), device), 1, transpose=True)
    with pytest.raises(nr.ShapeError):
        D.mode_dot(x, _t(np.ones(5), device), 1)
    with pytest.raises(nr.ShapeError):
        D.mode_dot(x, _t(np.ones((2, 2, 4)), device), 1)
    with pytest.raises(nr.ShapeError):
        D.multi_mode_dot(x, [_t(np.ones((2, 3)), device)], modes=[0, 1])
    with pytest.raises(nr.DTypeError):
        D.unfold(X345, 0)
    with pytest.raises(nr.DTypeError, match="tucker.*int64"):
        D.tucker(_t(np.ones((2, 2), dtype=np.int64), device), 1)
    with pytest.raises(nr.ShapeError, match="empty"):
        D.parafac(_t(np.ones((0, 2)), device), 1)
    for bad in (0, [2, 2], [2, 2, -1], 1.5):
        with pytest.raises(nr.ShapeError):
            D.tucker(x, bad)
    with pytest.raises(nr.ShapeError):
        D.parafac(x, 0)
    with pytest.raises(nr.ShapeError):
        D.parafac(_t(np.ones(3), device), 1)
    for bad in ([1, 2, 1], [2, 2, 2, 1], [1, 0, 2, 1]):
        with pytest.raises(nr.ShapeError):
            D.tensor_train(x, bad)
    with pytest.raises(ValueError, match="init"):
        D.parafac(x, 2, init="nope")
    with pytest.raises(ValueError, match="init"):
        D.tucker(x, 2, init="nope")
    with pytest.raises(nr.ShapeError):
        D.cp_to_tensor((None, [_t(np.ones((3, 2)), device), _t(np.ones((4, 3)), device)]))
    with pytest.raises(nr.ShapeError):
        D.cp_to_tensor((_t(np.ones(3), device), [_t(np.ones((3, 2)), device)]))
    with pytest.raises(nr.ShapeError):
        D.tt_to_tensor([_t(np.ones((1, 3, 2)), device), _t(np.ones((3, 4, 1)), device)])
    with pytest.raises(nr.ShapeError):
        D.tucker_to_tensor((x, [_t(np.eye(3), device)]))


def test_gradients(device):
    if _dt(device) != "float64":
        pytest.skip("central differences need float64")
    rng = np.random.default_rng(4)
    t, m, v = rng.standard_normal((2, 3, 2)), rng.standard_normal((2, 3)), rng.standard_normal(3)
    check_grads(device, lambda a, b: D.mode_dot(a, b, 1), [t, m])
    check_grads(device, lambda a, b: D.mode_dot(a, b, 1), [t, v])
    w, fs = rng.standard_normal(2), [rng.standard_normal((n, 2)) for n in (2, 3, 2)]
    check_grads(device, lambda w, a, b, c: D.cp_to_tensor((w, [a, b, c])), [w, *fs])
    core, us = rng.standard_normal((2, 1, 2)), [rng.standard_normal((n, r)) for n, r in ((3, 2), (2, 1), (2, 2))]
    check_grads(device, lambda g, a, b, c: D.tucker_to_tensor((g, [a, b, c])), [core, *us])
    cores = [rng.standard_normal(s) for s in [(1, 2, 2), (2, 3, 1)]]
    check_grads(device, lambda a, b: D.tt_to_tensor([a, b]), cores)


@pytest.mark.parametrize("name", ["hosvd", "tucker", "parafac", "tensor_train"])
def test_decompositions_reverse_mode(device, name):
    """The decompositions themselves differentiate through svd/qr/solve (reverse mode): the
    gradient of sum(w * reconstruction) along a random direction against central differences;
    forward mode (the svd/qr jvp rules) along the same direction."""
    if _dt(device) != "float64":
        pytest.skip("central differences need float64")
    from numr.autograd import Var, backward, jvp
    f = {"hosvd": lambda x: D.tucker_to_tensor(D.hosvd(x, [2, 2, 2])),
         "tucker": lambda x: D.tucker_to_tensor(D.tucker(x, 2, n_iter_max=2, tol=0)),
         "parafac": lambda x: D.cp_to_tensor(D.parafac(x, 2, n_iter_max=3, tol=0)),
         "tensor_train": lambda x: D.tt_to_tensor(D.tensor_train(x, 2))}[name]
    rng = np.random.default_rng(6)
    a, w, d = rng.standard_normal((3, 4, 3)), rng.standard_normal((3, 4, 3)), rng.standard_normal((3, 4, 3))
    xv = Var(_t(a, device))
    g = backward((f(xv) * _t(w, device)).sum())[xv].numpy()
    assert g.shape == a.shape and np.isfinite(g).all()
    eps = 1e-6
    lo, hi = (float((f(_t(a + s * eps * d, device)) * _t(w, device)).sum().item()) for s in (-1, 1))
    np.testing.assert_allclose(np.sum(g * d), (hi - lo) / (2 * eps), rtol=1e-5, atol=1e-6)
    _, tan = jvp(f, (_t(a, device),), (_t(d, device),))
    lo, hi = (f(_t(a + s * eps * d, device)).numpy() for s in (-1, 1))
    np.testing.assert_allclose(tan.numpy(), (hi - lo) / (2 * eps), rtol=1e-5, atol=1e-6)
