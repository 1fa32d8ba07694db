"""torch.linalg's everyday extras (numr/ops/generic/linalg_extra.py) on every backend: values against
numpy.linalg/scipy.linalg in float64 (float32 where a GPU lacks it), batched and broadcast, 0x0/1x1,
views, errors naming op and shapes, and central-difference gradients and jvps in float64."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg as sl
from conftest import assert_close
from fd_checks import check_grads

import numr as nr


def _dt(device, want="float64"):
    """float64 where the backend has it (wgpu needs shader-f64), else float32."""
    try:
        return "float64" if nr.tensor([1.0], dtype=want, device=device).dtype == nr.float64 else "float32"
    except nr.UnsupportedDType:
        return "float32"


def _t(a, device, dtype):
    return nr.tensor(np.asarray(a).astype(dtype), device=device)


def _rtol(dtype):
    return 1e-10 if dtype == "float64" else 2e-4


def _rand(shape, seed=0, shift=0.0):
    a = np.random.default_rng(seed).standard_normal(shape)
    return a + shift * np.eye(shape[-1]) if shift else a


def _need_f64(device):
    if _dt(device) != "float64":
        pytest.skip(f"{device} has no float64")


EXPM_CASES = {
    "small": _rand((4, 4)) * 0.1,
    "unit": _rand((5, 5), 1),
    "large": _rand((4, 4), 2) * 20,  # s > 0: scaled and squared
    "nilpotent": np.triu(_rand((4, 4), 3), 1),
    "diagonal": np.diag([-3.0, 0.5, 2.0, 7.0]),
    "badly_scaled": np.array([[1.0, 1e4, 0.0], [0.0, -2.0, 1e-3], [0.0, 0.0, 0.5]]),
}


@pytest.mark.parametrize("case", sorted(EXPM_CASES))
def test_matrix_exp_values(device, case):
    dtype = _dt(device)
    A = EXPM_CASES[case]
    want = sl.expm(A)
    out = nr.matrix_exp(_t(A, device, dtype))
    tol = 1e-12 if dtype == "float64" else 5e-4  # measured: <= 2e-13 (float64), 1.8e-4 (float32, badly scaled)
    assert_close(out, want, dtype=dtype, rtol=tol, atol=tol * np.abs(want).max())


def test_matrix_exp_batched_and_views(device):
    """Each matrix of a batch gets its own scaling (a tiny one next to a large one stays exact)."""
    dtype = _dt(device)
    A = np.stack([_rand((3, 3), 4) * 1e-3, _rand((3, 3), 5) * 30, np.zeros((3, 3))])
    want = np.stack([sl.expm(a) for a in A])
    rt = _rtol(dtype) * 100
    assert_close(nr.matrix_exp(_t(A, device, dtype)), want, dtype=dtype, rtol=rt, atol=rt * np.abs(want).max())
    assert_close(nr.matrix_exp(_t(A[0], device, dtype)), want[0], dtype=dtype, rtol=rt, atol=rt)
    big = _t(np.ascontiguousarray(A[:, ::-1, ::-1].transpose(0, 2, 1)), device, dtype)
    view = _t(A, device, dtype).flip(-1).flip(-2).mT  # negative strides, transposed
    assert_close(nr.matrix_exp(view), nr.matrix_exp(big).numpy(), rtol=rt, atol=rt * np.abs(want).max())


def test_matrix_exp_edges(device):
    dtype = _dt(device)
    e = nr.matrix_exp(nr.zeros((2, 0, 0), dtype=dtype, device=device))
    assert e.shape == (2, 0, 0) and e.dtype == nr.dtype(dtype)
    assert_close(nr.matrix_exp(_t([[2.0]], device, dtype)), [[np.exp(2.0)]], dtype=dtype, rtol=_rtol(dtype))
    assert np.isnan(nr.matrix_exp(_t([[np.nan, 0], [0, 1.0]], device, dtype)).numpy()).any()
    assert np.isnan(nr.matrix_exp(_t([[np.inf, 0], [0, 1.0]], device, dtype)).numpy()).any()
    with pytest.raises(nr.ShapeError, match=r"matrix_exp.*\(2, 3\)"):
        nr.matrix_exp(nr.zeros((2, 3), device=device))
    with pytest.raises(nr.DTypeError, match="matrix_exp"):
        nr.matrix_exp(nr.zeros((2, 2), dtype="int32", device=device))


@pytest.mark.parametrize("n", range(-3, 6))
def test_matrix_power(device, n):
    dtype = _dt(device)
    A = _rand((2, 3, 3), 6, shift=2.0)
    out = nr.matrix_power(_t(A, device, dtype), n)
    want = np.linalg.matrix_power(A, n)
    assert_close(out, want, dtype=dtype, rtol=_rtol(dtype) * 10, atol=_rtol(dtype) * 10 * np.abs(want).max())


def test_matrix_power_int_and_errors(device):
    A = np.array([[1, 2], [3, 4]], np.int32)
    assert_close(nr.matrix_power(nr.tensor(A, device=device), 3), np.linalg.matrix_power(A, 3), dtype="int32")
    assert nr.matrix_power(nr.zeros((0, 0), device=device), 2).shape == (0, 0)
    with pytest.raises(nr.DTypeError, match="matrix_power"):
        nr.matrix_power(nr.tensor(A, device=device), 1.5)
    with pytest.raises(nr.ShapeError, match=r"matrix_power.*\(2, 3\)"):
        nr.matrix_power(nr.zeros((2, 3), device=device), 2)


@pytest.mark.parametrize("k", [2, 3, 4, 5])
@pytest.mark.parametrize("ends", ["mm", "vm", "mv", "vv"])
def test_multi_dot(device, k, ends):
    dtype = _dt(device)
    rng = np.random.default_rng(k)
    dims = [int(d) for d in rng.integers(1, 7, k + 1)]
    ms = [rng.standard_normal((dims[i], dims[i + 1])) for i in range(k)]
    if ends[0] == "v":
        ms[0] = ms[0][0]
    if ends[1] == "v":
        ms[-1] = ms[-1][:, 0]
    want = np.linalg.multi_dot(ms)
    out = nr.multi_dot([_t(m, device, dtype) for m in ms])
    assert_close(out, want, dtype=dtype, rtol=_rtol(dtype), atol=_rtol(dtype) * 10)


def test_multi_dot_errors(device):
    a = nr.zeros((2, 3), device=device)
    with pytest.raises(nr.ShapeError, match=r"multi_dot.*\(2, 3\)"):
        nr.multi_dot([a, a])
    with pytest.raises(nr.ShapeError, match="at least 2"):
        nr.multi_dot([a])
    with pytest.raises(nr.ShapeError, match="2-d"):
        nr.multi_dot([a, nr.zeros((3,), device=device), a.mT])


@pytest.mark.parametrize("left", [True, False])
@pytest.mark.parametrize("adjoint", [True, False])
def test_lu_solve(device, left, adjoint):
    dtype = _dt(device)
    A = _rand((2, 5, 5), 7, shift=3.0)
    B = _rand((2, 5, 3) if left else (2, 3, 5), 8)
    LU, piv = nr.lu_factor(_t(A, device, dtype))
    M = A.transpose(0, 2, 1) if adjoint else A
    if left:
        want = np.linalg.solve(M, B)
    else:
        want = np.linalg.solve(M.transpose(0, 2, 1), B.transpose(0, 2, 1)).transpose(0, 2, 1)
    out = nr.lu_solve(LU, piv, _t(B, device, dtype), left=left, adjoint=adjoint)
    assert_close(out, want, dtype=dtype, rtol=_rtol(dtype) * 10, atol=_rtol(dtype) * 10)


def test_lu_solve_broadcast_and_errors(device):
    dtype = _dt(device)
    A = _rand((4, 4), 9, shift=3.0)
    B = _rand((3, 4, 2), 10)
    LU, piv = nr.lu_factor(_t(A, device, dtype))
    assert_close(nr.lu_solve(LU, piv, _t(B, device, dtype)), np.linalg.solve(A, B), dtype=dtype,
                 rtol=_rtol(dtype) * 10, atol=_rtol(dtype) * 10)
    with pytest.raises(nr.ShapeError, match=r"lu_solve.*pivots.*\(3,\)"):
        nr.lu_solve(LU, piv[:3], _t(B, device, dtype))
    with pytest.raises(nr.ShapeError, match=r"lu_solve.*\(3, 2\)"):
        nr.lu_solve(LU, piv, _t(B[0, :3], device, dtype))
    for bad in (0, 5):
        with pytest.raises(nr.IndexOutOfRange, match=r"lu_solve.*\[1, 4\]"):
            nr.lu_solve(LU, nr.tensor(np.array([1, bad, 3, 4], np.int32), device=device), _t(B, device, dtype))
    with pytest.raises(nr.DTypeError, match="lu_solve"):
        nr.lu_solve(LU, nr.cast(piv, nr.float32), _t(B, device, dtype))
    e = nr.zeros((0, 0), dtype=dtype, device=device)
    assert nr.lu_solve(e, nr.zeros((0,), dtype="int32", device=device), nr.zeros((0, 2), dtype=dtype,
                       device=device)).shape == (0, 2)


@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_solve_inverse(device, upper):
    dtype = _dt(device)
    G = _rand((2, 4, 4), 11)
    S = G @ G.transpose(0, 2, 1) + np.eye(4)
    L = np.linalg.cholesky(S)
    F = _t(np.ascontiguousarray(L.transpose(0, 2, 1)) if upper else L, device, dtype)
    B = _rand((2, 4, 3), 12)
    rt = _rtol(dtype) * 100
    assert_close(nr.cholesky_solve(_t(B, device, dtype), F, upper=upper), np.linalg.solve(S, B), dtype=dtype,
                 rtol=rt, atol=rt)
    assert_close(nr.cholesky_inverse(F, upper=upper), np.linalg.inv(S), dtype=dtype, rtol=rt, atol=rt)
    with pytest.raises(nr.ShapeError, match=r"cholesky_solve.*\(2, 3, 3\)"):
        nr.cholesky_solve(_t(B[:, :3], device, dtype), F)


def test_logdet(device):
    dtype = _dt(device)
    A = np.stack([_rand((3, 3), 13, shift=3.0), -_rand((3, 3), 13, shift=3.0), np.ones((3, 3))])
    sign, la = np.linalg.slogdet(A)
    want = np.where(sign < 0, np.nan, la)
    assert_close(nr.logdet(_t(A, device, dtype)), want, dtype=dtype, rtol=_rtol(dtype) * 10)


def test_cross_vecdot(device):
    dtype = _dt(device)
    a, b = _rand((2, 1, 3), 14), _rand((4, 3), 15)
    assert_close(nr.cross(_t(a, device, dtype), _t(b, device, dtype)), np.cross(a, b), dtype=dtype,
                 rtol=_rtol(dtype), atol=_rtol(dtype))
    c, d = _rand((3, 5), 16), _rand((3, 1), 17)
    assert_close(nr.cross(_t(c, device, dtype), _t(d, device, dtype), dim=0), np.cross(c, d, axis=0), dtype=dtype,
                 rtol=_rtol(dtype), atol=_rtol(dtype))
    assert_close(nr.vecdot(_t(a, device, dtype), _t(b, device, dtype)), (a * b).sum(-1), dtype=dtype,
                 rtol=_rtol(dtype), atol=_rtol(dtype))
    assert_close(nr.vecdot(_t(c, device, dtype), _t(d, device, dtype), dim=0), (c * d).sum(0), dtype=dtype,
                 rtol=_rtol(dtype), atol=_rtol(dtype))
    with pytest.raises(nr.ShapeError, match=r"cross.*\(2, 4\)"):
        nr.cross(nr.zeros((2, 4), device=device), nr.zeros((2, 4), device=device))


def test_vecdot_complex():
    x, y = _rand((2, 3), 18) + 1j * _rand((2, 3), 19), _rand((2, 3), 20) - 0.5j
    assert_close(nr.vecdot(nr.tensor(x), nr.tensor(y)), (np.conj(x) * y).sum(-1), dtype="complex128")


@pytest.mark.parametrize("N", [None, 0, 1, 5])
def test_vander(device, N):
    dtype = _dt(device)
    x = _rand((2, 4), 21)
    n = 4 if N is None else N
    want = np.stack([np.vander(r, n, increasing=True) for r in x])
    assert_close(nr.vander(_t(x, device, dtype), N=N), want, dtype=dtype, rtol=_rtol(dtype), atol=_rtol(dtype))


def test_tensorsolve_tensorinv(device):
    dtype = _dt(device)
    a = _rand((2, 3, 6), 22)
    b = _rand((2, 3), 23)
    rt = _rtol(dtype) * 100
    assert_close(nr.tensorsolve(_t(a, device, dtype), _t(b, device, dtype)), np.linalg.tensorsolve(a, b), dtype=dtype,
                 rtol=rt, atol=rt)
    a2 = _rand((6, 2, 3), 24)
    assert_close(nr.tensorsolve(_t(a2, device, dtype), _t(b, device, dtype), dims=(0,)),
                 np.linalg.tensorsolve(a2, b, axes=(0,)), dtype=dtype, rtol=rt, atol=rt)
    t = _rand((4, 6, 8, 3), 25)
    assert_close(nr.tensorinv(_t(t, device, dtype)), np.linalg.tensorinv(t), dtype=dtype, rtol=rt, atol=rt)
    with pytest.raises(nr.ShapeError, match="tensorinv"):
        nr.tensorinv(nr.zeros((2, 3), device=device), 1)
    with pytest.raises(nr.ShapeError, match="tensorsolve"):
        nr.tensorsolve(nr.zeros((2, 3), device=device), nr.zeros((3,), device=device))


def test_complex(device):
    """Complex where the backend holds it (CPU kernels; cuda's composites): expm, the adjoint
    lu_solve (A^H), cholesky_solve with a complex factor, logdet = log(sign) + log|det|."""
    if device.startswith("wgpu"):
        pytest.skip("wgpu holds no complex dtype (test_wgpu_complex_raises)")

    def t(a):
        return nr.tensor(a, device=device)

    A = _rand((3, 3), 50) + 1j * _rand((3, 3), 51)
    assert_close(nr.matrix_exp(t(A)), sl.expm(A), dtype="complex128", rtol=1e-10, atol=1e-12)
    B = _rand((3, 2), 52) - 1j * _rand((3, 2), 53)
    LU, piv = nr.lu_factor(t(A))
    assert_close(nr.lu_solve(LU, piv, t(B), adjoint=True), np.linalg.solve(A.conj().T, B), rtol=1e-10,
                 atol=1e-12)
    S = A @ A.conj().T + np.eye(3)
    L = np.linalg.cholesky(S)
    assert_close(nr.cholesky_solve(t(B), t(L)), np.linalg.solve(S, B), rtol=1e-10, atol=1e-12)
    sign, la = np.linalg.slogdet(A)
    assert_close(nr.logdet(t(A)), np.log(sign) + la, dtype="complex128", rtol=1e-10)


def test_wgpu_complex_raises(device):
    """wgpu has no complex dtype: complex raises UnsupportedDType naming the backend."""
    if not device.startswith("wgpu"):
        pytest.skip("cpu and cuda compute complex (test_complex)")
    with pytest.raises(nr.UnsupportedDType) as e:
        nr.matrix_exp(nr.tensor(np.eye(2) * 1j, device=device))
    assert device in str(e.value) and "complex" in str(e.value)


def test_low_precision_and_1x1(device):
    """float16/bfloat16 compute in float32 and come back in their dtype; 1x1 everywhere."""
    A = _rand((3, 3), 54) * 0.5
    for d in ("float16", "bfloat16"):
        out = nr.matrix_exp(nr.tensor(A, device=device).to(d))
        assert out.dtype == nr.dtype(d)
        np.testing.assert_allclose(out.to("float32").numpy(), sl.expm(A), rtol=3e-2, atol=3e-2)
    dtype = _dt(device)
    one = _t([[2.0]], device, dtype)
    assert_close(nr.matrix_power(one, -2), [[0.25]], dtype=dtype)
    LU, piv = nr.lu_factor(one)
    assert_close(nr.lu_solve(LU, piv, _t([[4.0]], device, dtype)), [[2.0]], dtype=dtype)
    assert_close(nr.cholesky_inverse(one), [[0.25]], dtype=dtype)
    assert_close(nr.logdet(one), np.log(2.0), dtype=dtype)
    sliced = _t(_rand((4, 6, 3), 55), device, dtype)[1:3, ::2]  # offset and strided
    want = np.linalg.matrix_power(_rand((4, 6, 3), 55)[1:3, ::2], 2)
    assert_close(nr.matrix_power(sliced, 2), want, dtype=dtype, rtol=_rtol(dtype), atol=_rtol(dtype) * 10)


def test_float32(device):
    A = _rand((3, 3), 26)
    out = nr.matrix_exp(_t(A, device, "float32"))
    assert_close(out, sl.expm(A), dtype="float32", rtol=1e-4, atol=1e-4 * np.abs(sl.expm(A)).max())


GRADS = {
    "matrix_exp": (lambda A: nr.matrix_exp(A), [_rand((3, 3), 30) * 2]),
    "matrix_exp_batched": (lambda A: nr.matrix_exp(A), [np.stack([_rand((2, 2), 31) * 5, _rand((2, 2), 32) * .1])]),
    "matrix_power": (lambda A: nr.matrix_power(A, 3), [_rand((3, 3), 33)]),
    "matrix_power_neg": (lambda A: nr.matrix_power(A, -2), [_rand((3, 3), 34, shift=3.0)]),
    "multi_dot": (lambda a, b, c: nr.multi_dot([a, b, c]), [_rand((3,), 35), _rand((3, 4), 36), _rand((4, 2), 37)]),
    "lu_solve": (lambda LU, B: nr.lu_solve(LU, nr.tensor(np.array([2, 2, 3], np.int32), device=LU.device), B),
                 [_rand((3, 3), 38, shift=3.0), _rand((3, 2), 39)]),
    "cholesky_solve": (lambda B, L: nr.cholesky_solve(B, nr.tril(L) + 3 * nr.eye(3, dtype=nr.float64, device=L.device)),
                       [_rand((3, 2), 40), _rand((3, 3), 41)]),
    "cross": (lambda a, b: nr.cross(a, b), [_rand((2, 3), 42), _rand((3,), 43)]),
    "vecdot": (lambda a, b: nr.vecdot(a, b, dim=0), [_rand((3, 2), 44), _rand((3, 1), 45)]),
    "vander": (lambda x: nr.vander(x, N=4), [_rand((2, 3), 46)]),
    "logdet": (lambda A: nr.logdet(A), [_rand((3, 3), 47, shift=4.0)]),
    "tensorinv": (lambda A: nr.tensorinv(A, 1), [_rand((4, 2, 2), 48, shift=0.0) + np.eye(4).reshape(4, 2, 2) * 3]),
}


@pytest.mark.parametrize("case", sorted(GRADS))
def test_grads(device, case):
    """Reverse mode and jvp against central differences (float64)."""
    _need_f64(device)
    f, arrays = GRADS[case]
    check_grads(device, f, [a.copy() for a in arrays], rtol=1e-5, atol=1e-6)
