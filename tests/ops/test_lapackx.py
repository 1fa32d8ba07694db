"""The CPU kernels behind solve_banded (LAPACK gbtf2/gbtrs, numr/_cpu/kernels/linalg_banded.h),
ldl_factor (Bunch-Kaufman sytf2/hetf2, linalg_ldl.h) and ldl_solve (sytrs) against the generic composites they replace
(called directly: the GPUs and autograd keep them) and SciPy/LAPACK; CPU only."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg as sl
from conftest import assert_close
from scipy.linalg import lapack

import numr as nr
from numr.ops.generic.decomp_ldl import ldl_factor_ex_any, ldl_solve_any
from numr.ops.generic.matfunc_banded import solve_banded_any

BANDS = [(0, 0), (1, 1), (3, 1), "full"]


def _band(rng, lo, up, n, cplx=False):
    ab = rng.standard_normal((lo + up + 1, n)) + (1j * rng.standard_normal((lo + up + 1, n)) if cplx else 0)
    ab[up] += 3  # a dominant diagonal keeps the comparisons well conditioned
    return ab


@pytest.mark.parametrize("n", [0, 1, 2, 5, 64])
@pytest.mark.parametrize("band", BANDS)
def test_solve_banded_kernel(n, band):
    rng = np.random.default_rng(n)
    lo, up = (max(n - 1, 0),) * 2 if band == "full" else band
    ab, b = _band(rng, lo, up, n), rng.standard_normal((n, 2))
    x = nr.linalg.solve_banded((lo, up), nr.tensor(ab), nr.tensor(b))
    assert x.shape == (n, 2) and x.dtype == nr.float64
    assert_close(x, solve_banded_any((lo, up), nr.tensor(ab), nr.tensor(b)), rtol=1e-10, atol=1e-12)
    if n:
        assert_close(x, sl.solve_banded((lo, up), ab, b), rtol=1e-10, atol=1e-12)
        x1 = nr.linalg.solve_banded((lo, up), nr.tensor(ab), nr.tensor(b[:, 0]))
        assert x1.shape == (n,)
        assert_close(x1, sl.solve_banded((lo, up), ab, b[:, 0]), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("dtype", ["float32", "complex64", "complex128", "float16", "bfloat16"])
def test_solve_banded_dtypes(dtype):
    rng = np.random.default_rng(1)
    cplx = dtype.startswith("complex")
    ab, b = _band(rng, 2, 1, 9, cplx), rng.standard_normal((9, 3))
    A, B = nr.tensor(ab, dtype=dtype), nr.tensor(b, dtype=dtype)
    x = nr.linalg.solve_banded((2, 1), A, B)
    assert x.dtype == nr.dtype(dtype) and x.shape == (9, 3)
    ref = sl.solve_banded((2, 1), nr.cast(A, "complex128" if cplx else "float64").numpy(),
                          nr.cast(B, "complex128" if cplx else "float64").numpy())
    tol = {"float16": 1e-2, "bfloat16": 5e-2}.get(dtype, 1e-5)
    assert_close(nr.cast(x, "complex128" if cplx else "float64"), ref, rtol=tol, atol=tol)
    assert_close(x, solve_banded_any((2, 1), A, B), rtol=tol, atol=tol)


def test_solve_banded_layouts():
    """Strided, offset and flipped views give the contiguous copies' result; mixed dtypes promote."""
    rng = np.random.default_rng(2)
    big, b = rng.standard_normal((9, 16)), rng.standard_normal(8)
    big[1::2][1] += 4
    A = nr.tensor(big)[1::2, 3:11]  # offset and strided: (4, 8), l + u + 1 = 4
    B = nr.tensor(b).flip(0)
    x = nr.linalg.solve_banded((2, 1), A, B)
    assert_close(x, sl.solve_banded((2, 1), big[1::2, 3:11], b[::-1].copy()), rtol=1e-10, atol=1e-12)
    xm = nr.linalg.solve_banded((2, 1), nr.tensor(big[1::2, 3:11], dtype="float32"), nr.tensor(b, dtype="complex64"))
    assert xm.dtype == nr.complex64


def test_solve_banded_singular_and_nan():
    # a zero pivot found only after elimination, as the composite reports it
    ab = np.array([[0.0, 1.0, 0.0], [1.0, 1.0, 1.0], [1.0, 0.0, 0.0]])  # (1, 1): A = [[1,1,0],[1,1,0],[0,0,1]]
    b = nr.ones(3, dtype=nr.float64)
    with pytest.raises(nr.LinAlgError) as kernel:
        nr.linalg.solve_banded((1, 1), nr.tensor(ab), b)
    with pytest.raises(nr.LinAlgError) as composite:
        solve_banded_any((1, 1), nr.tensor(ab), b)
    assert str(kernel.value) == str(composite.value) == "solve_banded: singular matrix (U[1, 1] is zero)"
    with pytest.raises(nr.LinAlgError, match=r"U\[0, 0\]"):
        nr.linalg.solve_banded((0, 0), nr.zeros((1, 2), dtype=nr.float64), nr.ones(2, dtype=nr.float64))
    nan = _band(np.random.default_rng(3), 1, 1, 6)
    nan[1, 2] = np.nan
    x = nr.linalg.solve_banded((1, 1), nr.tensor(nan), nr.ones(6, dtype=nr.float64))
    ref = solve_banded_any((1, 1), nr.tensor(nan), nr.ones(6, dtype=nr.float64))
    assert_close(x, ref, rtol=1e-10, atol=1e-12)
    assert np.isnan(x.numpy()).any()
    with pytest.raises(nr.ShapeError):
        nr.linalg.solve_banded((1, 1), nr.zeros((2, 4)), nr.zeros(4))
    with pytest.raises(nr.DTypeError):
        nr.linalg.solve_banded((0, 0), nr.ones((1, 3), dtype=nr.int32), nr.ones(3))


def _sym(rng, shape, kind):
    a = rng.standard_normal(shape) + (1j * rng.standard_normal(shape) if kind != "real" else 0)
    at = np.swapaxes(a, -1, -2)
    return a + (np.conj(at) if kind == "herm" else at)


def _sytrf(a, kind):
    f = {"real": lapack.dsytrf, "sym": lapack.zsytrf, "herm": lapack.zhetrf}[kind]
    ld, piv, info = f(a, lower=1)
    return np.tril(ld), piv, info


@pytest.mark.parametrize("n", [0, 1, 2, 5, 64])
@pytest.mark.parametrize("kind", ["real", "sym", "herm"])
def test_ldl_kernel(n, kind):
    """Symmetric indefinite (1x1 and 2x2 pivots, interchanges): LAPACK's LD and pivots exactly."""
    rng = np.random.default_rng(10 + n)
    A = _sym(rng, (2, n, n), kind)
    herm = kind == "herm"
    LD, piv, info = nr.linalg.ldl_factor_ex(nr.tensor(A), hermitian=herm)
    assert LD.shape == (2, n, n) and piv.shape == (2, n) and info.shape == (2,)
    assert LD.dtype == (nr.float64 if kind == "real" else nr.complex128) and piv.dtype == info.dtype == nr.int32
    if n <= 5 or kind == "real":  # the composite's 64 steps of complex ops: the real case is enough
        LDc, pc, ic = ldl_factor_ex_any(nr.tensor(A), hermitian=herm)
        assert_close(LD, LDc, rtol=1e-9, atol=1e-9)
        assert_close(piv, pc)
        assert_close(info, ic)
    for i in range(2):
        if n:
            ld, p, inf = _sytrf(A[i], kind)
            assert_close(piv[i], p)
            assert_close(LD[i], ld, rtol=1e-8, atol=1e-8)
            assert int(info[i].item()) == inf == 0


def test_ldl_layouts_and_low_precision():
    rng = np.random.default_rng(4)
    A = _sym(rng, (3, 6, 6), "real")
    ref = nr.linalg.ldl_factor(nr.tensor(A))
    T = nr.tensor(np.ascontiguousarray(np.swapaxes(A, -1, -2)[::-1])).mT.flip(0)  # strided, negative batch stride
    for got, want in zip(nr.linalg.ldl_factor(T), ref, strict=True):
        assert_close(got, want)
    big = nr.tensor(np.pad(A, ((0, 0), (1, 0), (2, 0))))[:, 1:, 2:]  # offset rows and columns
    assert_close(nr.linalg.ldl_factor(big)[0], ref[0])
    w = nr.tensor(np.broadcast_to(A[0], (2, 6, 6)))
    assert_close(nr.linalg.ldl_factor(w)[1], np.broadcast_to(ref[1].numpy()[0], (2, 6)))
    for dt in ("float16", "bfloat16", "float32"):
        h = nr.tensor(A, dtype=dt)
        LD, piv = nr.linalg.ldl_factor(h)
        LD32, piv32, _ = ldl_factor_ex_any(nr.cast(h, "float32"))
        assert LD.dtype == nr.dtype(dt)
        assert_close(piv, piv32)
        assert_close(nr.cast(LD, "float32"), nr.cast(nr.cast(LD32, dt), "float32"), rtol=2e-2, atol=2e-2)


def test_ldl_singular_nan_and_fallback():
    Z = np.zeros((2, 3, 3))
    Z[1] = np.diag([1.0, 0.0, 2.0])
    LD, piv, info = nr.linalg.ldl_factor_ex(nr.tensor(Z))
    assert_close(info, [1, 2])
    assert_close(piv, [[1, 2, 3], [1, 2, 3]])
    with pytest.raises(nr.LinAlgError, match="batch element 0"):
        nr.linalg.ldl_factor_ex(nr.tensor(Z), check_errors=True)
    N = _sym(np.random.default_rng(5), (4, 4), "real")
    N[0, 0] = np.nan
    N[2, 1] = N[1, 2] = np.nan
    got, want = nr.linalg.ldl_factor_ex(nr.tensor(N)), ldl_factor_ex_any(nr.tensor(N))
    # the lower triangles agree; above it the kernel keeps zeros where the composite's 0 / NaN gives NaN
    assert_close(got[0], np.tril(want[0].numpy()), rtol=1e-10, atol=1e-10)
    assert_close(got[1], want[1])
    assert_close(got[2], want[2])
    assert np.isnan(got[0].numpy()).any() and int(got[2].item()) == 1
    ints = np.array([[0, 2], [2, 1]])  # integers: the composite, unchanged
    for g, w in zip(nr.linalg.ldl_factor_ex(nr.tensor(ints)), ldl_factor_ex_any(nr.tensor(ints)), strict=True):
        assert_close(g, w)
    E = nr.linalg.ldl_factor_ex(nr.zeros((2, 0, 0)))
    assert E[0].shape == (2, 0, 0) and E[1].shape == (2, 0) and E[2].shape == (2,)
    with pytest.raises(nr.ShapeError):
        nr.linalg.ldl_factor(nr.zeros((2, 3)))


def test_cpu_dispatch():
    """The CPU client takes the kernels (the comparisons above would pass on the composites too)."""
    from numr._cpu.ops.decomp_ldl import LdlCpu
    from numr._cpu.ops.matfunc_banded import BandedCpu
    client = type(nr.zeros(1).client)
    assert client.ldl_factor_ex is LdlCpu.ldl_factor_ex and client.ldl_factor is LdlCpu.ldl_factor
    assert client.solve_banded is BandedCpu.solve_banded and client.ldl_solve is LdlCpu.ldl_solve


@pytest.mark.parametrize("n", [0, 1, 2, 5, 33])
@pytest.mark.parametrize("kind", ["real", "sym", "herm"])
def test_ldl_solve_kernel(n, kind):
    rng = np.random.default_rng(20 + n)
    A, B = _sym(rng, (2, n, n), kind), rng.standard_normal((2, n, 3))
    herm = kind == "herm"
    LD, piv = nr.linalg.ldl_factor(nr.tensor(A), hermitian=herm)
    X = nr.linalg.ldl_solve(LD, piv, nr.tensor(B), hermitian=herm)
    assert X.shape == (2, n, 3) and X.dtype == LD.dtype
    assert_close(X, np.linalg.solve(A, B) if n else np.zeros((2, 0, 3)), rtol=1e-9, atol=1e-9)
    if n <= 5:
        assert_close(X, ldl_solve_any(LD, piv, nr.tensor(B), hermitian=herm), rtol=1e-10, atol=1e-10)


def test_ldl_solve_broadcast_dtypes_errors():
    rng = np.random.default_rng(6)
    A = _sym(rng, (5, 5), "real")
    LD, piv = nr.linalg.ldl_factor(nr.tensor(A))
    B = rng.standard_normal((3, 5, 2))
    Bv = nr.tensor(np.pad(B, ((0, 0), (0, 0), (1, 0))))[:, :, 1:].flip(0)  # offset, negative batch stride
    X = nr.linalg.ldl_solve(LD, piv, Bv)  # one LD for a batch of B
    assert X.shape == (3, 5, 2)
    assert_close(X, np.linalg.solve(A, B[::-1]), rtol=1e-10, atol=1e-10)
    assert nr.linalg.ldl_solve(LD, piv, nr.zeros((5, 0), dtype=nr.float64)).shape == (5, 0)
    h = nr.linalg.ldl_solve(nr.cast(LD, "float16"), piv, nr.tensor(B[0], dtype="float16"))
    assert h.dtype == nr.float16
    assert_close(nr.cast(h, "float64"), np.linalg.solve(A, B[0]), rtol=5e-2, atol=5e-2)
    c = nr.linalg.ldl_solve(LD, piv, nr.tensor(B[0] + 1j, dtype="complex128"))
    assert c.dtype == nr.complex128
    assert_close(c, np.linalg.solve(A, B[0] + 1j), rtol=1e-10, atol=1e-10)
    with pytest.raises(nr.ShapeError):
        nr.linalg.ldl_solve(LD, nr.zeros(5, dtype=nr.int32), nr.tensor(B[0]))
    with pytest.raises(nr.ShapeError):
        nr.linalg.ldl_solve(LD, piv, nr.zeros((4, 2), dtype=nr.float64))
