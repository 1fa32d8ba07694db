"""Matrix functions (numr/ops/generic/matfunc.py, matfunc_banded.py) on every backend: values
against scipy.linalg (float64 on cpu/cuda, float32 on wgpu), invariants (sqrtm^2 = A,
expm(logm(A)) = A, signm^2 = I, U unitary and P Hermitian PSD), batches, views, 0x0/1x1, complex,
NaN and no-principal-root inputs, errors, and central-difference gradients and jvps in float64."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg as sl
from conftest import assert_close
from fd_checks import check_grads

import numr as nr


def _dt(device):
    """float64 where the backend has it, else float32 (wgpu)."""
    try:
        return "float64" if nr.tensor([1.0], dtype="float64", device=device).dtype == nr.float64 else "float32"
    except nr.UnsupportedDType:
        return "float32"


def _tol(dtype):
    return (1e-9, 1e-10) if dtype in ("float64", "complex128") else (2e-4, 2e-5)


def _t(a, device, dtype):
    return nr.tensor(np.asarray(a).astype(dtype), device=device)


def _rand(shape, seed, scale=1.0):
    return np.random.default_rng(seed).standard_normal(shape) * scale


def _batched(f, A):
    """scipy's f over the leading dims of A."""
    A = np.asarray(A)
    if A.ndim == 2:
        return np.asarray(f(A))
    return np.stack([_batched(f, a) for a in A])


def _sign_oracle(A):
    w, V = np.linalg.eig(A)
    return (V @ np.diag(np.sign(w.real)) @ np.linalg.inv(V)).real


MATRICES = {
    "well": _rand((4, 4), 1, 0.3) + 2 * np.eye(4),
    "spd": (lambda B: B @ B.T + np.eye(4))(_rand((4, 4), 2)),
    "nonnormal": np.triu(_rand((4, 4), 3, 2.0), 1) + np.diag([1.0, 2.0, 0.5, 3.0]),
    "jordan": 2 * np.eye(4) + np.eye(4, k=1),  # a nilpotent part: one Jordan block
    "identity": np.eye(3),
    "1x1": np.array([[2.5]]),
    "batch": np.stack([_rand((3, 3), 4, 0.3) + np.eye(3) * 3, np.diag([0.5, 1.0, 4.0]), np.eye(3) * 7]),
}

FUNCS = {
    "sqrtm": (nr.sqrtm, sl.sqrtm),
    "logm": (nr.logm, sl.logm),
    "fmp_0.3": (lambda A: nr.fractional_matrix_power(A, 0.3), lambda a: sl.fractional_matrix_power(a, 0.3)),
    "fmp_-1.5": (lambda A: nr.fractional_matrix_power(A, -1.5), lambda a: sl.fractional_matrix_power(a, -1.5)),
    "fmp_3": (lambda A: nr.fractional_matrix_power(A, 3), lambda a: np.linalg.matrix_power(a, 3)),
}


@pytest.mark.parametrize("fname", list(FUNCS))
@pytest.mark.parametrize("case", list(MATRICES))
def test_values(device, case, fname):
    """sqrtm, logm, fractional_matrix_power against scipy.linalg: shape, dtype, values."""
    dtype = _dt(device)
    if device == "wgpu" and case in ("spd", "nonnormal"):
        pytest.skip("wgpu (a software driver): the smaller cases suffice")
    A = MATRICES[case]
    ours, ref = FUNCS[fname]
    want = _batched(ref, A).real
    rtol, atol = _tol(dtype)
    scale = max(1.0, float(np.abs(want).max()))
    assert_close(ours(_t(A, device, dtype)), want, dtype=dtype, rtol=rtol, atol=atol * scale)


@pytest.mark.parametrize("case", ["well", "nonnormal", "jordan", "batch", "1x1"])
def test_invariants(device, case):
    """sqrtm(A)^2 = A and expm(logm(A)) = A."""
    dtype = _dt(device)
    A = MATRICES[case]
    t = _t(A, device, dtype)
    rtol, atol = _tol(dtype)
    X = nr.sqrtm(t)
    assert_close(X @ X, A, dtype=dtype, rtol=rtol, atol=atol * 10)
    assert_close(nr.linalg.expm(nr.logm(t)), A, dtype=dtype, rtol=rtol * 10, atol=atol * 10)
    assert nr.linalg.expm is nr.matrix_exp


SIGN_CASES = {
    "mixed": _rand((4, 4), 5, 0.3) + np.diag([2.0, -1.0, 1.5, -3.0]),
    "positive": MATRICES["well"],
    "1x1": np.array([[-0.5]]),
    "batch": np.stack([_rand((3, 3), 6, 0.2) + np.diag([1.0, -1.0, 2.0]), -np.eye(3) * 2]),
}


@pytest.mark.parametrize("case", list(SIGN_CASES))
def test_signm(device, case):
    """signm against V sign(Re w) V^-1 (and scipy.linalg.signm), and signm^2 = I."""
    dtype = _dt(device)
    A = SIGN_CASES[case]
    rtol, atol = _tol(dtype)
    S = nr.signm(_t(A, device, dtype))
    assert_close(S, _batched(_sign_oracle, A), dtype=dtype, rtol=rtol, atol=atol * 10)
    if A.ndim == 2:
        assert_close(S, sl.signm(A), dtype=dtype, rtol=1e-6, atol=1e-6 if dtype == "float64" else 1e-4)
    assert_close(S @ S, np.broadcast_to(np.eye(A.shape[-1]), A.shape), dtype=dtype, rtol=rtol, atol=atol * 10)


@pytest.mark.parametrize("shape", [(4, 4), (4, 2), (2, 4), (2, 3, 3), (1, 1)])
@pytest.mark.parametrize("side", ["right", "left"])
def test_polar(device, shape, side):
    """(U, P) as scipy.linalg.polar; A = U P (P U), U with orthonormal columns/rows, P Hermitian PSD."""
    dtype = _dt(device)
    A = _rand(shape, 7)
    U, P = nr.linalg.polar(_t(A, device, dtype), side)
    rtol, atol = _tol(dtype)
    u_ref = _batched(lambda a: sl.polar(a, side)[0], A)
    p_ref = _batched(lambda a: sl.polar(a, side)[1], A)
    assert_close(U, u_ref, dtype=dtype, rtol=rtol, atol=atol * 10)
    assert_close(P, p_ref, dtype=dtype, rtol=rtol, atol=atol * 10)
    u, p = U.numpy().astype(np.float64), P.numpy().astype(np.float64)
    np.testing.assert_allclose(u @ p if side == "right" else p @ u, A, rtol=rtol, atol=atol * 10)
    np.testing.assert_allclose(p, np.swapaxes(p, -1, -2), atol=atol * 10)
    assert np.linalg.eigvalsh(p).min() >= -atol * 10
    m, n = shape[-2:]
    gram = np.swapaxes(u, -1, -2) @ u if m >= n else u @ np.swapaxes(u, -1, -2)
    np.testing.assert_allclose(gram, np.broadcast_to(np.eye(min(m, n)), gram.shape), atol=atol * 10)


@pytest.mark.parametrize("fn", [nr.sqrtm, nr.logm, nr.signm, lambda A: nr.fractional_matrix_power(A, 0.5)])
@pytest.mark.parametrize("shape", [(0, 0), (2, 0, 0)])
def test_empty(device, fn, shape):
    dtype = _dt(device)
    out = fn(nr.zeros(shape, dtype=dtype, device=device))
    assert out.shape == shape and out.dtype == nr.dtype(dtype)


def test_polar_empty(device):
    U, P = nr.linalg.polar(nr.zeros((3, 0), dtype=_dt(device), device=device))
    assert U.shape == (3, 0) and P.shape == (0, 0)


def test_views(device):
    """Transposed, sliced (offset) and flipped inputs give the results of their copies."""
    dtype = _dt(device)
    big = _rand((5, 5), 8, 0.2) + 2 * np.eye(5)
    t = _t(big, device, dtype)
    rtol, atol = _tol(dtype)
    for view, ref in [(t.mT, big.T), (t[1:4, 1:4], big[1:4, 1:4]), (nr.flip(t, (0, 1)), big[::-1, ::-1])]:
        assert not view.is_contiguous() or view.offset
        assert_close(nr.sqrtm(view), sl.sqrtm(np.ascontiguousarray(ref)), dtype=dtype, rtol=rtol, atol=atol)
        assert_close(nr.logm(view), sl.logm(np.ascontiguousarray(ref)), dtype=dtype, rtol=rtol, atol=atol)
    small = t[:3, :3]
    wide = small.unsqueeze(0).expand((2, 3, 3))  # a broadcast (stride-0) batch
    assert_close(nr.sqrtm(wide), np.stack([sl.sqrtm(big[:3, :3])] * 2), dtype=dtype, rtol=rtol, atol=atol)
    assert_close(small.sqrtm(), sl.sqrtm(big[:3, :3]), dtype=dtype, rtol=rtol, atol=atol)  # the Tensor method


def test_nan_input(device):
    """A NaN matrix gives NaN (no hang, no error), without spoiling the rest of its batch."""
    dtype = _dt(device)
    A = np.stack([MATRICES["batch"][0], np.full((3, 3), np.nan), np.eye(3) * 4])
    A[1, 0, 0] = 1.0
    t = _t(A, device, dtype)
    rtol, atol = _tol(dtype)
    for fn, ref in [(nr.sqrtm, sl.sqrtm), (nr.logm, sl.logm), (nr.signm, _sign_oracle)]:
        out = fn(t).numpy()
        assert np.isnan(out[1]).all()
        np.testing.assert_allclose(out[[0, 2]], _batched(ref, A[[0, 2]]), rtol=rtol, atol=atol * 10)
    assert np.isnan(nr.sqrtm(_t(np.array([[np.inf]]), device, dtype)).numpy()).all()


def test_real_without_real_root(device):
    """A real matrix with a negative real eigenvalue has no real principal root/logarithm: NaN
    (scipy switches to complex; numr keeps the dtype), its batch mates unharmed; -I: NaN on the CPU
    (Schur), LinAlgError from the GPUs' Denman-Beavers iteration."""
    dtype = _dt(device)
    A = np.stack([np.array([[-2.0, 1.0], [0.0, 3.0]]), np.array([[4.0, 1.0], [0.0, 9.0]])])
    t = _t(A, device, dtype)
    for fn in (nr.sqrtm, nr.logm, lambda x: nr.fractional_matrix_power(x, 0.5)):
        out = fn(t).numpy()
        assert np.isnan(out[0]).all() and np.isfinite(out[1]).all()
    assert_close(nr.sqrtm(t)[1], sl.sqrtm(A[1]), dtype=dtype, rtol=_tol(dtype)[0], atol=_tol(dtype)[1])
    if device == "cpu":  # the Schur method: NaN as any real matrix without a real root
        assert np.isnan(nr.sqrtm(_t(-np.eye(2), device, dtype)).numpy()).all()
        return
    with pytest.raises(nr.errors.LinAlgError, match="sqrtm"):  # Denman-Beavers: an iterate is singular
        nr.sqrtm(_t(-np.eye(2), device, dtype))


def test_singular(device):
    dtype = _dt(device)
    if device == "cpu":  # the Schur method roots a singular (semisimple) matrix, as scipy
        assert_close(nr.sqrtm(_t(np.diag([0.0, 1.0]), device, dtype)), np.diag([0.0, 1.0]), dtype=dtype)
    else:
        with pytest.raises(nr.errors.LinAlgError, match="sqrtm.*singular"):
            nr.sqrtm(_t(np.diag([0.0, 1.0]), device, dtype))
    with pytest.raises(nr.errors.LinAlgError, match="logm.*singular"):
        nr.logm(_t([[0.0, 1.0], [0.0, 0.0]], device, dtype))
    # eigenvalues on the imaginary axis: no sign; an iterate is exactly singular (LinAlgError) or the
    # iteration never settles (NaN)
    with pytest.raises(nr.errors.LinAlgError, match="signm"):
        nr.signm(_t([[0.0, 1.0], [-1.0, 0.0]], device, dtype))
    assert np.isnan(nr.signm(_t([[0.0, 2.0], [-1.0, 0.0]], device, dtype)).numpy()).all()


def _complex_device(device):
    if device == "wgpu":
        pytest.skip("wgpu has no complex dtypes")


def test_complex(device):
    """Complex input: scipy's values; a negative real eigenvalue gets the complex principal root.
    cuda runs the complex decomposition composites."""
    _complex_device(device)
    rng = np.random.default_rng(9)
    A = rng.standard_normal((3, 4, 4)) + 1j * rng.standard_normal((3, 4, 4)) + 3 * np.eye(4)
    A[1] = rng.standard_normal((4, 4)) + 1j * rng.standard_normal((4, 4))
    A[2] = np.array([[-2.0, 1, 0, 0], [0, 3, 1, 0], [0, 0, -1, 2], [0, 0, 0, 5]])
    t = _t(A, device, "complex128")
    rtol, atol = 1e-9, 1e-10
    assert_close(nr.sqrtm(t), _batched(sl.sqrtm, A), dtype="complex128", rtol=rtol, atol=atol)
    assert_close(nr.logm(t), _batched(sl.logm, A), dtype="complex128", rtol=rtol, atol=atol)
    assert_close(nr.fractional_matrix_power(t, 0.25), _batched(lambda a: sl.fractional_matrix_power(a, 0.25), A),
                 dtype="complex128", rtol=1e-8, atol=1e-9)
    X = nr.sqrtm(t)
    assert_close(X @ X, A, dtype="complex128", rtol=rtol, atol=atol)
    # -I: the principal root i I (numpy's sqrt(-1+0j) = 1j; scipy's Schur path returns -i I)
    assert_close(nr.sqrtm(_t(-np.eye(3), device, "complex128")), 1j * np.eye(3), dtype="complex128",
                 rtol=rtol, atol=atol)
    assert_close(nr.signm(t[:2]), _batched(lambda a: (lambda w, V: V @ np.diag(np.sign(w.real)) @ np.linalg.inv(V))(
        *np.linalg.eig(a)), A[:2]), dtype="complex128", rtol=1e-8, atol=1e-9)
    c64 = _t(A[0], device, "complex64")
    assert_close(nr.sqrtm(c64), sl.sqrtm(A[0]), dtype="complex64", rtol=2e-4, atol=2e-5)
    U, P = nr.linalg.polar(t[1])
    u, p = sl.polar(A[1])
    assert_close(U, u, dtype="complex128", rtol=rtol, atol=atol)
    assert_close(P, p, dtype="complex128", rtol=rtol, atol=atol)


def test_half_dtypes():
    """float16/bfloat16 compute in float32 and return their own dtype."""
    A = MATRICES["well"]
    for dtype, tol in (("float16", 4e-3), ("bfloat16", 3e-2)):
        t = nr.tensor(A, dtype=dtype)
        for fn, ref in [(nr.sqrtm, sl.sqrtm), (nr.logm, sl.logm)]:
            out = fn(t)
            assert out.dtype == nr.dtype(dtype)
            np.testing.assert_allclose(nr.cast(out, nr.float64).numpy(), ref(nr.cast(t, nr.float64).numpy()),
                                       rtol=tol, atol=tol)


def test_errors():
    A = nr.tensor(np.eye(3))
    for fn in (nr.sqrtm, nr.logm, nr.signm):
        with pytest.raises(nr.errors.ShapeError, match=fn.__name__):
            fn(nr.zeros((2, 3), dtype=nr.float64))
        with pytest.raises(nr.errors.DTypeError, match=fn.__name__):
            fn(nr.tensor(np.eye(2, dtype=np.int64)))
    with pytest.raises(nr.errors.DTypeError, match="fractional_matrix_power"):
        nr.fractional_matrix_power(A, "half")
    with pytest.raises(ValueError, match="side"):
        nr.linalg.polar(A, "up")
    with pytest.raises(nr.errors.ShapeError, match="polar"):
        nr.linalg.polar(nr.zeros((3,), dtype=nr.float64))


def test_khatri_rao(device):
    dtype = _dt(device)
    a, b = _rand((3, 4), 10), _rand((2, 4), 11)
    assert_close(nr.linalg.khatri_rao(_t(a, device, dtype), _t(b, device, dtype)), sl.khatri_rao(a, b), dtype=dtype)
    ab = _rand((2, 3, 4), 12)  # a batch of a beside one b: broadcast
    out = nr.khatri_rao(_t(ab, device, dtype), _t(b, device, dtype).mT.mT)
    assert_close(out, np.stack([sl.khatri_rao(x, b) for x in ab]), dtype=dtype)
    assert nr.khatri_rao(nr.zeros((3, 0), dtype=dtype, device=device),
                         nr.zeros((2, 0), dtype=dtype, device=device)).shape == (6, 0)
    with pytest.raises(nr.errors.ShapeError, match="columns"):
        nr.khatri_rao(_t(a, device, dtype), _t(_rand((2, 3), 0), device, dtype))
    with pytest.raises(nr.errors.ShapeError, match="2-d"):
        nr.khatri_rao(_t(a[0], device, dtype), _t(b, device, dtype))


def _dense(ab, lo, up):
    n = ab.shape[1]
    A = np.zeros((n, n), ab.dtype)
    for j in range(n):
        for i in range(max(0, j - up), min(n, j + lo + 1)):
            A[i, j] = ab[up + i - j, j]
    return A


def _band(A, lo, up):
    n = A.shape[0]
    ab = np.zeros((lo + up + 1, n), A.dtype)
    for j in range(n):
        for i in range(max(0, j - up), min(n, j + lo + 1)):
            ab[up + i - j, j] = A[i, j]
    return ab


BANDED = [((1, 1), 6, 2), ((2, 1), 7, None), ((0, 2), 5, 1), ((3, 0), 6, 3), ((0, 0), 4, None),
          ((2, 3), 8, 2), ((3, 1), 2, None), ((1, 1), 1, 1), ((2, 1), 70, 1), ((40, 3), 90, None)]


@pytest.mark.parametrize("lu_n_k", BANDED, ids=[f"l{c[0][0]}u{c[0][1]}n{c[1]}k{c[2]}" for c in BANDED])
def test_solve_banded(device, lu_n_k):
    """Against scipy.linalg.solve_banded; rows needing pivots (a small diagonal)."""
    (lo, up), n, k = lu_n_k
    dtype = _dt(device)
    rng = np.random.default_rng(n + 10 * lo + up)
    ab = rng.standard_normal((lo + up + 1, n))
    ab[up, ::2] *= 1e-3  # force row exchanges
    b = rng.standard_normal((n,) if k is None else (n, k))
    out = nr.linalg.solve_banded((lo, up), _t(ab, device, dtype), _t(b, device, dtype))
    rtol, atol = _tol(dtype)
    want = sl.solve_banded((lo, up), ab, b)
    if n > 32 and device == "wgpu":
        pytest.skip("wgpu (a software driver): the small cases suffice")
    A = _dense(ab, lo, up)  # backward stable: a residual of rounding size (the solution may be ill-conditioned)
    x = out.numpy().astype(np.float64).reshape(want.shape)
    resid = np.abs(A @ x - b).max() / (np.abs(A).max() * np.abs(x).max() * n)
    assert resid < (1e-15 if dtype == "float64" else 1e-6), resid
    if np.linalg.cond(A) < 1e6:
        assert_close(out, want, dtype=dtype, rtol=rtol * 10, atol=atol * 10 * max(1.0, np.abs(want).max()))


def test_solve_banded_views_and_complex(device):
    dtype = _dt(device)
    rng = np.random.default_rng(3)
    abT = rng.standard_normal((6, 4)) + np.array([0, 0, 3, 0])  # (n, l+u+1): its .mT is a strided ab
    b = rng.standard_normal(8)[::-1][1:7]
    out = nr.solve_banded((2, 1), _t(abT, device, dtype).mT, nr.flip(_t(b[::-1].copy(), device, dtype), (0,)))
    assert_close(out, sl.solve_banded((2, 1), abT.T, b), dtype=dtype, rtol=_tol(dtype)[0], atol=_tol(dtype)[1] * 10)
    assert nr.solve_banded((1, 1), nr.zeros((3, 0), dtype=dtype, device=device),
                           nr.zeros((0, 2), dtype=dtype, device=device)).shape == (0, 2)
    if device == "cpu":  # complex decompositions (lu) run on the CPU only
        A = rng.standard_normal((5, 5)) + 1j * rng.standard_normal((5, 5)) + 2 * np.eye(5)
        A = np.triu(np.tril(A, 1), -2)
        ab = _band(A, 2, 1)
        bc = rng.standard_normal((5, 2)) + 1j
        assert_close(nr.solve_banded((2, 1), _t(ab, device, "complex128"), _t(bc, device, "complex128")),
                     np.linalg.solve(A, bc), dtype="complex128")


def test_solve_banded_errors(device):
    dtype = _dt(device)
    ab = _t(np.ones((3, 4)), device, dtype)
    with pytest.raises(nr.errors.ShapeError, match="l\\+u\\+1"):
        nr.solve_banded((1, 2), ab, _t(np.ones(4), device, dtype))
    with pytest.raises(nr.errors.ShapeError, match="not compatible"):
        nr.solve_banded((1, 1), ab, _t(np.ones(3), device, dtype))
    with pytest.raises(nr.errors.ShapeError, match=">= 0"):
        nr.solve_banded((-1, 3), ab, _t(np.ones(4), device, dtype))
    singular = _band(np.array([[1.0, 2, 0], [2, 4, 0], [0, 1, 1]]), 1, 1)
    with pytest.raises(nr.errors.LinAlgError, match="singular"):
        nr.solve_banded((1, 1), _t(singular, device, dtype), _t(np.ones(3), device, dtype))
    with pytest.raises(nr.errors.DTypeError, match="solve_banded"):
        nr.solve_banded((1, 1), nr.tensor(np.ones((3, 4), np.int64), device=device), _t(np.ones(4), device, dtype))
    nan_ab = np.ones((3, 4)) * 3
    nan_ab[1, 2] = np.nan
    assert np.isnan(nr.solve_banded((1, 1), _t(nan_ab, device, dtype), _t(np.ones(4), device, dtype)).numpy()).any()


_A3 = _rand((3, 3), 20, 0.3) + 1.5 * np.eye(3)
GRADS = {
    "sqrtm": (nr.sqrtm, [_A3]),
    "sqrtm_batch": (nr.sqrtm, [np.stack([_A3, np.diag([1.0, 2.0, 5.0]) + np.eye(3, k=1)])]),
    "logm": (nr.logm, [_A3]),
    "signm": (nr.signm, [_A3 - 1.5 * np.diag([1.0, 2.0, 0.0])]),
    "fmp": (lambda A: nr.fractional_matrix_power(A, 0.4), [_A3]),
    "khatri_rao": (nr.khatri_rao, [_rand((2, 3), 21), _rand((3, 3), 22)]),
    "solve_banded": (lambda ab, b: nr.solve_banded((1, 2), ab, b),
                     [_rand((4, 5), 23) + np.array([[0], [0], [4], [0]]), _rand((5, 2), 24)]),
}


@pytest.mark.parametrize("case", list(GRADS))
def test_grads(device, case):
    """Reverse mode and jvp through the composites against central differences (float64)."""
    if _dt(device) != "float64":
        pytest.skip(f"{device} has no float64")
    f, arrays = GRADS[case]
    check_grads(device, f, [a.copy() for a in arrays], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("side", ["right", "left"])
def test_polar_grad(device, side):
    """Reverse and forward mode through the SVD (U and P together) against central differences."""
    if _dt(device) != "float64":
        pytest.skip(f"{device} has no float64")

    def both(a):
        U, P = nr.linalg.polar(a, side)
        return nr.cat([U.reshape(-1), P.reshape(-1)])

    check_grads(device, both, [_rand((3, 2), 25)], rtol=1e-5, atol=1e-6)
