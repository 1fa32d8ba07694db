"""eig and eigvals (the general eigendecomposition, CPU kernel numr/_cpu/kernels/linalg_eig.h)
against numpy.linalg.eig in float64: eigenvalues matched (the order is free) within a tolerance
scaled by each eigenvalue's condition number, and A V = V diag(w) with unit columns checked
instead of V itself (its phases are free), real (Francis double shift) and complex (single
shift) input: random, symmetric/Hermitian, defective-ish, rotations,
triangular, diagonal, 1x1, 0x0, batched, views, low precision, NaN/inf, 200x200, errors and the
GPUs' UnsupportedOperation."""

from __future__ import annotations

import numpy as np
import pytest

import numr as nr

RNG = np.random.default_rng(11)
EPS = {"float32": np.finfo(np.float32).eps, "float64": np.finfo(np.float64).eps}
CDT = {"float32": nr.complex64, "float64": nr.complex128, "float16": nr.complex64, "bfloat16": nr.complex64,
       "complex64": nr.complex64, "complex128": nr.complex128}


def _match(got, ref):
    """got's eigenvalues reordered to pair with ref's (greedy nearest, each used once)."""
    got = list(np.asarray(got, np.complex128))
    out = []
    for r in ref:
        i = int(np.argmin([abs(g - r) for g in got]))
        out.append(got.pop(i))
    return np.array(out)


def check(A, w, V=None, dtype="float64", slack=100.0):
    """w (and V) of numr against numpy.linalg.eig of the float64 A (one matrix or a batch)."""
    a = np.asarray(A, np.complex128 if np.iscomplexobj(A) else np.float64)
    assert w.dtype == CDT[dtype] and w.shape == a.shape[:-1]
    if V is not None:
        assert V.dtype == CDT[dtype] and V.shape == a.shape
    wn = w.numpy().astype(np.complex128).reshape(-1, a.shape[-1])
    Vn = None if V is None else V.numpy().astype(np.complex128).reshape((-1,) + a.shape[-2:])
    eps = EPS["float64" if dtype in ("float64", "complex128") else "float32"]
    for b, ab in enumerate(a.reshape((-1,) + a.shape[-2:])):
        n = ab.shape[-1]
        if n == 0:
            continue
        wr, vr = np.linalg.eig(ab)
        cond = np.linalg.norm(np.linalg.inv(vr), axis=1)  # |y_i| with y_i^H x_i = 1, |x_i| = 1
        nrm = max(np.linalg.norm(ab, 2), np.finfo(float).tiny)
        tol_w = slack * eps * nrm * np.maximum(cond, 1.0)
        err = np.abs(_match(wn[b], wr) - wr)
        assert np.all(err <= tol_w), (err, tol_w)
        if Vn is not None:
            v = Vn[b]
            np.testing.assert_allclose(np.linalg.norm(v, axis=0), 1.0, atol=slack * eps * n)
            res = np.abs(ab @ v - v * wn[b]).max()
            assert res <= slack * eps * nrm * n, res


def rand(shape, dtype):
    a = RNG.standard_normal(shape)
    if "complex" in dtype:
        a = a + 1j * RNG.standard_normal(shape)
    return a.astype(dtype)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("n", [1, 2, 3, 5, 8, 16])
def test_random(dtype, n):
    A = rand((n, n), dtype)
    w, V = nr.eig(nr.tensor(A))
    check(A, w, V, dtype)
    wv = nr.eigvals(nr.tensor(A))
    check(A, wv, None, dtype)
    assert nr.linalg.eig is nr.eig and nr.linalg.eigvals is nr.eigvals


def test_lapack_conventions():
    """Pairs conjugate with the positive imaginary part first; each vector's largest component real."""
    A = RNG.standard_normal((9, 9))
    w, V = nr.eig(nr.tensor(A))
    w, V = w.numpy(), V.numpy()
    i = 0
    while i < len(w):
        if w[i].imag != 0:
            assert w[i].imag > 0 and w[i + 1] == np.conj(w[i])
            np.testing.assert_array_equal(V[:, i + 1], np.conj(V[:, i]))
            i += 2
        else:
            assert np.all(V[:, i].imag == 0)
            i += 1
    big = np.argmax(np.abs(V), axis=0)
    assert np.all(V[big, np.arange(9)].imag == 0)


def test_complex_conventions_and_hermitian():
    """Complex input: unit columns with the largest component real; a Hermitian matrix's eigenvalues
    real (to rounding) and equal to eigvalsh's; a unitary's on the unit circle."""
    A = rand((2, 6, 6), "complex128")
    w, V = nr.eig(nr.tensor(A))
    check(A, w, V, "complex128")
    v = V.numpy()
    big = np.argmax(np.abs(v), axis=-2)
    for b in range(2):
        assert np.all(v[b][big[b], np.arange(6)].imag == 0)
    Hm = A[0] + A[0].conj().T
    w = nr.eigvals(nr.tensor(Hm))
    np.testing.assert_allclose(w.numpy().imag, 0, atol=1e-13)
    np.testing.assert_allclose(np.sort(w.numpy().real), np.linalg.eigvalsh(Hm), atol=1e-13)
    Q = np.linalg.qr(A[1])[0].astype(np.complex64)
    w, V = nr.eig(nr.tensor(Q))
    check(Q, w, V, "complex64")
    np.testing.assert_allclose(np.abs(w.numpy()), 1, atol=1e-5)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_symmetric(dtype):
    a = RNG.standard_normal((7, 7))
    A = (a + a.T).astype(dtype)
    w, V = nr.eig(nr.tensor(A))
    check(A, w, V, dtype)
    np.testing.assert_allclose(w.numpy().imag, 0, atol=0)
    np.testing.assert_allclose(np.sort(w.numpy().real), np.linalg.eigvalsh(A.astype(np.float64)),
                               atol=50 * EPS[dtype] * np.abs(A).sum())


def test_defective_ish():
    """A Jordan block plus a tiny perturbation: eigenvalues of condition ~1e5, A V = V W still holds."""
    J = 2.0 * np.eye(4) + np.eye(4, k=1)
    Q = np.linalg.qr(RNG.standard_normal((4, 4)))[0]
    A = Q @ (J + 1e-10 * RNG.standard_normal((4, 4))) @ Q.T
    w, V = nr.eig(nr.tensor(A))
    check(A, w, V)
    np.testing.assert_allclose(w.numpy(), 2.0, atol=1e-2)  # the cluster stays around 2
    B = np.diag([1.0, 1.0, 3.0]) + np.eye(3, k=1)  # an exactly defective matrix: no NaN, residual small
    w, V = nr.eig(nr.tensor(B))
    assert np.all(np.isfinite(V.numpy()))
    np.testing.assert_allclose(np.sort(w.numpy().real), [1, 1, 3], atol=1e-7)
    assert np.abs(B @ V.numpy() - V.numpy() * w.numpy()).max() < 1e-12


def test_rotations():
    """Pure complex pairs: a plane rotation, the 90-degree one, a 3-d rotation."""
    for t in (0.3, np.pi / 2, 2.5):
        R = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
        w, V = nr.eig(nr.tensor(R))
        check(R, w, V)
        np.testing.assert_allclose(w.numpy(), [np.exp(1j * t), np.exp(-1j * t)], atol=1e-15)
    w = nr.eigvals(nr.tensor(np.array([[0.0, -1.0], [1.0, 0.0]], np.float32)))
    assert w.dtype == nr.complex64
    np.testing.assert_allclose(w.numpy(), [1j, -1j], atol=1e-7)
    Q = np.linalg.qr(RNG.standard_normal((3, 3)))[0]
    R3 = Q @ np.array([[1, 0, 0], [0, np.cos(1.0), -np.sin(1.0)], [0, np.sin(1.0), np.cos(1.0)]]) @ Q.T
    w, V = nr.eig(nr.tensor(R3))
    check(R3, w, V)
    np.testing.assert_allclose(np.sort_complex(w.numpy()), np.sort_complex([1, np.exp(1j), np.exp(-1j)]),
                               atol=1e-14)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_triangular_and_diagonal(dtype):
    U = np.triu(RNG.standard_normal((6, 6))).astype(dtype)
    for A in (U, U.T.copy()):
        w, V = nr.eig(nr.tensor(A))
        check(A, w, V, dtype)
        np.testing.assert_allclose(np.sort(w.numpy().real), np.sort(np.diag(A)),
                                   atol=50 * EPS[dtype] * np.abs(A).sum())
        assert np.all(w.numpy().imag == 0)
    np.testing.assert_array_equal(nr.eigvals(nr.tensor(U)).numpy(), np.diag(U))  # already Schur: exact, in order
    D = np.diag([3.0, -1.0, 0.5, 2.0]).astype(dtype)
    w, V = nr.eig(nr.tensor(D))
    np.testing.assert_array_equal(w.numpy(), np.diag(D))  # exact, in the diagonal's order
    np.testing.assert_array_equal(np.abs(V.numpy()), np.eye(4))


def test_sizes_1_and_0_and_batched():
    w, V = nr.eig(nr.tensor([[2.5]]))
    assert w.shape == (1,) and V.shape == (1, 1) and w.dtype == nr.complex128
    assert w.numpy()[0] == 2.5 and V.numpy()[0, 0] == 1
    for shape in [(0, 0), (3, 0, 0), (0, 4, 4)]:
        w, V = nr.eig(nr.zeros(shape, dtype=nr.float32))
        assert w.shape == shape[:-1] and V.shape == shape and w.dtype == V.dtype == nr.complex64
        assert nr.eigvals(nr.zeros(shape)).shape == shape[:-1]
    A = RNG.standard_normal((2, 3, 5, 5))
    w, V = nr.eig(nr.tensor(A))
    check(A, w, V)
    np.testing.assert_allclose(nr.eigvals(nr.tensor(A)).numpy(), w.numpy(), atol=1e-12)


def test_views():
    """Transposed, sliced (offset) and flipped (negative strides) inputs read as their values."""
    base = RNG.standard_normal((2, 7, 7))
    t = nr.tensor(base)
    for view, ref in [(t.mT, np.swapaxes(base, -1, -2)), (t[1, 1:6, 2:7], base[1, 1:6, 2:7]),
                      (nr.flip(t, (-1, -2)), base[:, ::-1, ::-1])]:
        w, V = nr.eig(view)
        check(ref, w, V)
        np.testing.assert_allclose(nr.eigvals(view).numpy(), w.numpy(), atol=1e-12)
    b = nr.broadcast_to(nr.tensor(base[0]), (3, 7, 7))
    w, V = nr.eig(b)
    check(np.broadcast_to(base[0], (3, 7, 7)), w, V)
    c = rand((6, 6), "complex128")
    tc = nr.tensor(c)
    for view, ref in [(tc.mT, c.T), (tc[1:, :-1], c[1:, :-1]), (nr.flip(tc, (0,)), c[::-1])]:
        w, V = nr.eig(view)
        check(ref, w, V, "complex128")


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_low_precision(dtype):
    A = RNG.standard_normal((4, 4))
    x = nr.tensor(A, dtype=dtype)
    a = x.to(nr.float64).numpy() if hasattr(x, "to") else nr.cast(x, nr.float64).numpy()
    w, V = nr.eig(x)
    check(a, w, V, dtype)
    assert nr.eigvals(x).dtype == nr.complex64


@pytest.mark.parametrize("dtype", ["float64", "complex64"])
def test_nan_inf(dtype):
    """A non-finite entry makes that batch element's outputs all NaN; the others are unaffected."""
    A = rand((3, 4, 4), dtype)
    A[1, 2, 3] = np.nan
    A[2, 0, 0] = np.inf
    w, V = nr.eig(nr.tensor(A))
    for b in (1, 2):
        assert np.all(np.isnan(w.numpy()[b])) and np.all(np.isnan(V.numpy()[b]))
    check(A[0], w[0], V[0], dtype)
    assert np.all(np.isnan(nr.eigvals(nr.tensor(A)).numpy()[1:]))


def test_large():
    A = RNG.standard_normal((200, 200))
    w, V = nr.eig(nr.tensor(A))
    check(A, w, V, slack=1000.0)
    A32 = A.astype(np.float32)
    check(A32, nr.eigvals(nr.tensor(A32)), None, "float32", slack=1000.0)
    C = rand((120, 120), "complex128")
    w, V = nr.eig(nr.tensor(C))
    check(C, w, V, "complex128", slack=1000.0)


def test_graded_and_scaled():
    """Entries near the overflow/underflow limits: the kernel scales by a power of two."""
    A = RNG.standard_normal((5, 5))
    for s in (1e300, 1e-300):
        w, V = nr.eig(nr.tensor(A * s))
        np.testing.assert_allclose(_match(w.numpy() / s, np.linalg.eigvals(A)), np.linalg.eigvals(A), atol=1e-12)
        assert np.all(np.isfinite(V.numpy()))


HARD = {
    "zero": np.zeros((5, 5)),
    "nilpotent": np.eye(6, k=1),
    "permutation": np.roll(np.eye(7), 1, axis=0),  # the 7th roots of unity: shifts stall without exceptions
    "companion": np.vstack([-np.poly(np.arange(1.0, 9.0))[1:], np.eye(7, 8)]),
    "ones": np.ones((7, 7)),
    "wilkinson21": np.diag(np.abs(np.arange(-10.0, 11.0))) + np.eye(21, k=1) + np.eye(21, k=-1),
    "repeated_pairs": np.kron(np.eye(3), np.array([[0.0, 1.0], [-1.0, 0.0]])),
}


@pytest.mark.parametrize("dtype", ["float64", "float32", "complex128", "complex64"])
@pytest.mark.parametrize("name", sorted(HARD))
def test_hard_cases(name, dtype):
    """Zero and nilpotent matrices (a zero subdiagonal must deflate; repeated eigenvalues in the
    back-substitution), roots of unity, a companion matrix, rank one, repeated complex pairs."""
    A = HARD[name]
    w, V = nr.eig(nr.tensor(A.astype(dtype)))
    assert np.all(np.isfinite(w.numpy())) and np.all(np.isfinite(V.numpy()))
    eps = EPS["float64" if dtype in ("float64", "complex128") else "float32"]
    v, wn = V.numpy().astype(np.complex128), w.numpy().astype(np.complex128)
    np.testing.assert_allclose(np.linalg.norm(v, axis=0), 1.0, atol=100 * eps)
    assert np.abs(A @ v - v * wn).max() <= 100 * eps * max(np.abs(A).sum(), 1)
    if name in ("zero", "nilpotent"):
        assert np.all(wn == 0)
    if name in ("permutation", "repeated_pairs"):
        check(A.astype(dtype), w, None, dtype)


@pytest.mark.parametrize("dtype", ["float64", "complex128"])
def test_badly_scaled(dtype):
    """B = D A D^-1 with D spanning 1e-8..1e6: balancing recovers A's eigenvalues to ~eps ||A||
    (not eps ||B|| ~ 1e-2), as LAPACK's geev; the vectors still satisfy B V = V W."""
    A = rand((8, 8), dtype)
    D = np.diag(10.0 ** np.arange(-8, 8, 2))
    B = D @ A @ np.linalg.inv(D)
    w, V = nr.eig(nr.tensor(B))
    wr = np.linalg.eigvals(A)
    assert np.abs(_match(w.numpy(), wr) - wr).max() < 1e-12 * np.abs(A).sum()
    v = V.numpy()
    assert np.abs(B @ v - v * w.numpy()).max() < 1e-14 * np.abs(B).max()


def test_errors():
    with pytest.raises(nr.ShapeError, match="eig.*square"):
        nr.eig(nr.zeros((3, 4)))
    with pytest.raises(nr.ShapeError, match="eigvals"):
        nr.eigvals(nr.zeros(3))
    with pytest.raises(nr.DTypeError, match="eig.*int64"):
        nr.eig(nr.tensor([[1, 2], [3, 4]]))
    with pytest.raises(nr.DTypeError, match="eigvals.*bool"):
        nr.eigvals(nr.tensor([[True]]))


def test_gpus_raise(device):
    """wgpu has no eig (no complex results): UnsupportedDType naming backend, op and dtype; cuda runs
    the composite (tests/ops/test_eig_gpu.py)."""
    if device != "wgpu":
        pytest.skip("the CPU runs the kernel, cuda the composite")
    x = nr.tensor(np.eye(3, dtype=np.float32), device=device)
    for op in ("eig", "eigvals"):
        with pytest.raises(nr.UnsupportedDType) as e:
            getattr(nr, op)(x)
        assert all(s in str(e.value) for s in (device, op, "float32", "complex"))


# ---- autograd: the eigenvalue gradient (numr/autograd/ops/decomp_eig.py)

def test_eigvals_gradient():
    """g_A = V^-T diag(g_w) V^T against central differences, real (batched) and complex input."""
    from numr.autograd import gradcheck
    c1, c2 = nr.tensor(RNG.standard_normal(4)), nr.tensor(RNG.standard_normal(4))

    def f(a):
        w = nr.eigvals(a)
        return nr.abs(w) ** 2 + nr.real(w) * c1 + nr.imag(w) * c2
    assert gradcheck(f, [nr.tensor(RNG.standard_normal((2, 4, 4)))])
    assert gradcheck(f, [nr.tensor(rand((4, 4), "complex128"))])
    a = RNG.standard_normal((3, 3))
    # symmetric: V diag(g) V^T; an order-free function (the Schur order may change between differences)
    assert gradcheck(lambda x: nr.sum(nr.real(nr.eigvals(x + x.mT)) ** 3), [nr.tensor(a)])


def test_eig_autograd_limits():
    """eig's eigenvectors differentiate (tests/autograd/test_decomp_forward2.py); second derivatives
    of eigvals: tests/autograd/test_fwd_complex.py."""
    from numr.autograd import Var
    w, V = nr.eig(Var(nr.tensor(np.eye(2)), requires_grad=False))  # no gradient needed: constants
    np.testing.assert_array_equal(w.tensor.numpy(), [1, 1])


@pytest.mark.parametrize("dtype", ["float64", "complex128"])
def test_eigvals_jvp(dtype):
    """Forward mode: dw = diag(V^-1 dA V) against central differences (the order is stable for h
    small); eig's w carries the same tangent."""
    from numr.autograd import jvp
    A, T, h = rand((2, 4, 4), dtype), rand((2, 4, 4), dtype), 1e-6
    w, t = jvp(nr.eigvals, (nr.tensor(A),), (nr.tensor(T),))
    num = (nr.eigvals(nr.tensor(A + h * T)).numpy() - nr.eigvals(nr.tensor(A - h * T)).numpy()) / (2 * h)
    assert t.dtype == CDT[dtype] and t.shape == (2, 4)
    np.testing.assert_allclose(t.numpy(), num, atol=1e-6 * np.abs(num).max())
    np.testing.assert_allclose(w.numpy(), nr.eigvals(nr.tensor(A)).numpy())
    np.testing.assert_allclose(jvp(lambda a: nr.eig(a)[0], (nr.tensor(A),), (nr.tensor(T),))[1].numpy(), t.numpy())
