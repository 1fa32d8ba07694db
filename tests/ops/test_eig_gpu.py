"""eig and eigvals on every backend: the CPU kernel, on cuda the composite of
numr/ops/generic/decomp_eig_gpu.py (Hessenberg + batched shifted complex QR + Schur
back-substitution), and wgpu raising UnsupportedDType (its results would be complex). Against
numpy.linalg.eig in float64 with test_linalg_eig.check (eigenvalues matched within their condition
numbers, A V = V diag(w) with unit columns): random real/complex, batched, 0x0/1x1, views, low
precision, NaN/inf, the hard cases (zero, nilpotent, roots of unity, companion, rank one, repeated
pairs), the vector convention, no convergence, and the eigenvalue gradient on the device."""

from __future__ import annotations

import numpy as np
import pytest
from test_linalg_eig import EPS, HARD, check, rand

import numr as nr
from numr.autograd import gradcheck


def _host(x):
    return x.to("cpu")


def _skip_wgpu(device):
    if device == "wgpu":
        pytest.skip("wgpu holds no complex results (test_linalg_eig.py::test_gpus_raise)")


def test_dispatch(device):
    """The CPU keeps its kernel; the GPUs get the composite."""
    c = type(nr.tensor([1.0], device=device).client)
    for op in ("eig", "eigvals"):
        mod = getattr(c, op).__module__
        assert mod == ("numr._cpu.ops.decomp" if device == "cpu" else "numr.ops.generic.decomp_eig_gpu")


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("n", [1, 2, 3, 6])
def test_random(device, dtype, n):
    _skip_wgpu(device)
    A = rand((2, n, n), dtype)
    w, V = nr.eig(nr.tensor(A, device=device))
    check(A, _host(w), _host(V), dtype)
    check(A, _host(nr.eigvals(nr.tensor(A, device=device))), None, dtype)


def test_sizes_0_and_1_and_batch(device):
    _skip_wgpu(device)
    for shape in ((0, 0), (3, 0, 0), (1, 1), (2, 3, 1, 1), (2, 1, 3, 3)):
        A = rand(shape, "float64")
        w, V = nr.eig(nr.tensor(A, device=device))
        assert w.shape == shape[:-1] and V.shape == shape and w.dtype == V.dtype == nr.complex128
        if A.size:
            check(A, _host(w), _host(V))
    A = rand((2, 1, 1), "complex64")
    w, V = nr.eig(nr.tensor(A, device=device))
    np.testing.assert_allclose(w.numpy(), A[..., 0], rtol=1e-6)
    np.testing.assert_allclose(V.numpy(), 1, rtol=1e-6)


def test_views(device):
    _skip_wgpu(device)
    base = rand((6, 6), "complex128")
    x = nr.tensor(base, device=device)
    for v, ref in ((x.mT, base.T), (x[1:5, 2:6], base[1:5, 2:6]), (nr.flip(x, 0), base[::-1])):
        w, V = nr.eig(v)
        check(np.ascontiguousarray(ref), _host(w), _host(V), "complex128")


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_low_precision(device, dtype):
    _skip_wgpu(device)
    x = nr.tensor(rand((4, 4), "float64"), dtype=dtype, device=device)
    w, V = nr.eig(x)
    check(nr.cast(x, nr.float64).numpy(), _host(w), _host(V), dtype)
    assert nr.eigvals(x).dtype == nr.complex64


@pytest.mark.parametrize("dtype", ["float64", "complex64"])
def test_nan_inf(device, dtype):
    """A non-finite entry makes that batch element's outputs all NaN; the others are unaffected."""
    _skip_wgpu(device)
    A = rand((3, 4, 4), dtype)
    A[1, 2, 3] = np.nan
    A[2, 0, 0] = np.inf
    w, V = nr.eig(nr.tensor(A, device=device))
    w, V = _host(w), _host(V)
    for b in (1, 2):
        assert np.all(np.isnan(w.numpy()[b])) and np.all(np.isnan(V.numpy()[b]))
    check(A[0], w[0], V[0], dtype)


@pytest.mark.parametrize("dtype", ["float64", "complex64"])
@pytest.mark.parametrize("name", sorted(k for k, a in HARD.items() if a.shape[0] <= 8))
def test_hard_cases(device, name, dtype):
    """Exact zeros that must deflate, repeated eigenvalues in the back-substitution, roots of unity
    (plain shifts stall), a companion matrix, rank one, repeated complex pairs."""
    _skip_wgpu(device)
    A = HARD[name]
    w, V = nr.eig(nr.tensor(A.astype(dtype), device=device))
    v, wn = V.numpy().astype(np.complex128), w.numpy().astype(np.complex128)
    assert np.all(np.isfinite(wn)) and np.all(np.isfinite(v))
    eps = EPS["float64" if dtype == "float64" else "float32"]
    np.testing.assert_allclose(np.linalg.norm(v, axis=0), 1.0, atol=100 * eps)
    assert np.abs(A @ v - v * wn).max() <= 100 * eps * max(np.abs(A).sum(), 1)
    if name in ("zero", "nilpotent"):
        assert np.all(wn == 0)
    if name in ("permutation", "repeated_pairs", "companion"):
        check(A.astype(dtype), w, None, dtype, slack=1000.0)


def test_conventions(device):
    """Unit columns with the largest component real; a Hermitian matrix's eigenvalues real."""
    _skip_wgpu(device)
    A = rand((2, 5, 5), "complex128")
    V = nr.eig(nr.tensor(A, device=device))[1].numpy()
    big = np.argmax(np.abs(V), axis=-2)
    for b in range(2):
        np.testing.assert_allclose(V[b][big[b], np.arange(5)].imag, 0, atol=1e-15)
        assert np.all(V[b][big[b], np.arange(5)].real > 0)
    Hm = A[0] + A[0].conj().T
    w = nr.eigvals(nr.tensor(Hm, device=device)).numpy()
    np.testing.assert_allclose(w.imag, 0, atol=1e-12)
    np.testing.assert_allclose(np.sort(w.real), np.linalg.eigvalsh(Hm), atol=1e-12)


def test_no_convergence(device, monkeypatch):
    """No iteration allowed: LinAlgError naming the op and the batch element."""
    if device != "cuda":
        pytest.skip("the composite's iteration limit")
    from numr.ops.generic import decomp_eig_gpu
    monkeypatch.setattr(decomp_eig_gpu, "MAX_STEPS", 0)
    A = np.stack([np.eye(3), rand((3, 3), "float64")])
    with pytest.raises(nr.LinAlgError, match=r"eigvals.*did not converge.*batch element \(1,\)"):
        nr.eigvals(nr.tensor(A, device=device))


def test_errors(device):
    _skip_wgpu(device)
    with pytest.raises(nr.ShapeError, match="eig.*square"):
        nr.eig(nr.zeros((3, 4), device=device))
    with pytest.raises(nr.DTypeError, match="eigvals.*int64"):
        nr.eigvals(nr.tensor([[1, 2], [3, 4]], device=device))


def test_eigvals_gradient(device):
    """The eigenvalue gradient (V^-H diag(g) V^H) on the device: real and complex input."""
    _skip_wgpu(device)
    rng = np.random.default_rng(3)
    c1 = nr.tensor(rng.standard_normal(3), device=device)

    def f(a):
        w = nr.eigvals(a)
        return nr.abs(w) ** 2 + nr.real(w) * c1
    assert gradcheck(f, [nr.tensor(rng.standard_normal((3, 3)), device=device)])
    assert gradcheck(f, [nr.tensor(rand((3, 3), "complex128"), device=device)])
