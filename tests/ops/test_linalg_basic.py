"""tensordot, outer, inner, kron, trace, diagonal (a view), diag, diag_embed, tril and triu
against NumPy: offsets (positive, negative, past the edge), batched and view inputs, dtypes,
NaN/inf, errors; gradients by central differences (float64) and jvp."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_close

import numr as nr
from numr.autograd import Var, backward, gradcheck, jvp


def make(a, device, dtype=None):
    try:
        return nr.tensor(a, dtype=dtype, device=device)
    except nr.UnsupportedOperation as e:
        pytest.skip(str(e))


def ints(shape, seed=0):
    return np.random.default_rng(seed).integers(-3, 4, shape).astype(np.float64)


def diag_embed_np(a, k=0):
    n = a.shape[-1] + abs(k)
    out = np.zeros(a.shape[:-1] + (n, n), a.dtype)
    i = np.arange(a.shape[-1])
    out[..., i + max(-k, 0), i + max(k, 0)] = a
    return out


@pytest.mark.parametrize("dtype", ["float32", "int32", "float16"])
def test_tensordot(device, dtype):
    a, b = ints((2, 3, 4), 1), ints((3, 4, 5), 2)
    x, y = make(a, device, dtype), make(b, device, dtype)
    for dims in (0, 1, 2):
        bb = b if dims != 1 else ints((4, 5), 3)
        yy = y if dims != 1 else make(bb, device, dtype)
        assert_close(nr.tensordot(x, yy, dims), np.tensordot(a, bb, dims), dtype=dtype, rtol=0, atol=0)
    c = ints((4, 2, 6), 4)
    z = make(c, device, dtype)
    for dims in (([0, 2], [1, 0]), ([-1], [0]), ((2, 0), (0, 1)), ([], [])):
        got = nr.tensordot(x, z, dims)
        assert_close(got, np.tensordot(a, c, (list(dims[0]), list(dims[1]))), dtype=dtype, rtol=0, atol=0)
    assert_close(x.T.tensordot(x.T, ([0, 1], [0, 1])), np.tensordot(a.T, a.T, ([0, 1], [0, 1])), rtol=0, atol=0)
    with pytest.raises(nr.ShapeError, match="tensordot"):
        nr.tensordot(x, y, 3)
    with pytest.raises(nr.ShapeError, match="tensordot"):
        nr.tensordot(x, z, ([0], [0]))  # sizes 2 and 4
    with pytest.raises(nr.ShapeError, match="tensordot"):
        nr.tensordot(x, z, ([0, 0], [1, 1]))
    with pytest.raises(nr.ShapeError, match="tensordot"):
        nr.tensordot(x, z, ([0], [1, 2]))


def test_outer_inner_kron(device):
    a, b = ints((3,), 1), ints((4,), 2)
    x, y = make(a, device, "float32"), make(b, device, "float32")
    assert_close(nr.outer(x, y), np.outer(a, b), dtype="float32", rtol=0, atol=0)
    assert_close(nr.outer(make(a, device, "int32"), y), np.outer(a, b), dtype="float32", rtol=0, atol=0)
    assert_close(nr.outer(x.flip(0), y[1:]), np.outer(a[::-1], b[1:]), rtol=0, atol=0)
    assert nr.outer(x[:0], y).shape == (0, 4)
    with pytest.raises(nr.ShapeError, match="outer"):
        nr.outer(x.reshape(3, 1), y)
    m, n = ints((2, 3, 4), 3), ints((5, 4), 4)
    xm, xn = make(m, device, "float32"), make(n, device, "float32")
    assert_close(nr.inner(xm, xn), np.inner(m, n), dtype="float32", rtol=0, atol=0)
    assert_close(nr.inner(x, x), np.inner(a, a), rtol=0, atol=0)
    s = make(np.array(2.0), device, "float32")
    assert_close(nr.inner(s, xm), 2 * m, rtol=0, atol=0)
    with pytest.raises(nr.ShapeError, match="inner"):
        nr.inner(xm, x)
    for sa, sb in (((2, 3), (2, 2)), ((3,), (2, 2)), ((2, 1, 2), (3, 2)), ((2,), ()), ((0, 2), (2, 3))):
        p, q = ints(sa, 5), ints(sb, 6)
        for dtype in ("float32", "int64"):
            assert_close(nr.kron(make(p, device, dtype), make(q, device, dtype)), np.kron(p, q), dtype=dtype,
                         rtol=0, atol=0)


def test_trace(device):
    a = ints((3, 5), 1)
    for dtype, out in (("float32", "float32"), ("int32", "int64"), ("float64", "float64")):
        x = make(a, device, dtype)
        assert_close(nr.trace(x), np.trace(a), dtype=out, rtol=0, atol=0)
        assert_close(x.T.trace(), np.trace(a.T), dtype=out, rtol=0, atol=0)
    assert_close(nr.trace(make(np.zeros((0, 3)), device, "float32")), 0.0, rtol=0, atol=0)
    with pytest.raises(nr.ShapeError, match="trace"):
        nr.trace(make(np.zeros((2, 2, 2)), device, "float32"))


def test_diagonal_is_a_view(device):
    a = np.arange(60.0).reshape(3, 4, 5)
    x = make(a, device, "float32")
    for off in (-4, -3, -1, 0, 1, 2, 4, 5, 7):
        for d1, d2 in ((0, 1), (1, 0), (0, 2), (2, 1), (-1, -3)):
            got = nr.diagonal(x, off, d1, d2)
            exp = np.diagonal(a, off, d1, d2)
            assert_close(got, exp, dtype="float32", rtol=0, atol=0)
    v = x[:, 1:, ::-1].diagonal(1, 1, 2)  # a view of an offset, flipped view
    assert_close(v, np.diagonal(a[:, 1:, ::-1], 1, 1, 2), rtol=0, atol=0)
    d = x.diagonal()
    d[...] = -1.0  # writes through to x: it is a view
    a2 = a.copy()
    np.einsum("iij->ij", a2[:, :3])[...] = -1.0
    assert_close(x, a2, rtol=0, atol=0)
    with pytest.raises(nr.ShapeError, match="diagonal"):
        nr.diagonal(x, 0, 1, 1)
    with pytest.raises((nr.ShapeError, nr.IndexOutOfRange)):
        nr.diagonal(x, 0, 0, 3)


def test_diag_and_diag_embed(device):
    v = ints((4,), 1)
    m = ints((3, 5), 2)
    for dtype in ("float32", "int32", "bool"):
        vv = v != 0 if dtype == "bool" else v
        mm = m != 0 if dtype == "bool" else m
        xv, xm = make(vv, device, dtype), make(mm, device, dtype)
        for k in (-5, -2, -1, 0, 1, 3):
            assert_close(nr.diag(xv, k), np.diag(vv, k), dtype=dtype, rtol=0, atol=0)
            got = nr.diag(xm, k)
            assert_close(got, np.diag(mm, k), dtype=dtype, rtol=0, atol=0)
            assert got.is_contiguous()
    b = ints((2, 3, 4), 3)
    xb = make(b, device, "float32")
    for k in (-2, 0, 1):
        assert_close(nr.diag_embed(xb, k), diag_embed_np(b, k), rtol=0, atol=0)
    assert_close(nr.diag_embed(xb, 1, 0, 2), np.moveaxis(diag_embed_np(b, 1), (2, 3), (0, 2)), rtol=0, atol=0)
    assert_close(nr.diag_embed(xb.flip(2), 0, -1, 1), np.moveaxis(diag_embed_np(b[..., ::-1]), (2, 3), (3, 1)),
                 rtol=0, atol=0)
    with pytest.raises(nr.ShapeError, match="diag"):
        nr.diag(xb)
    with pytest.raises(nr.ShapeError, match="diag_embed"):
        nr.diag_embed(xb, 0, 1, 1)


@pytest.mark.parametrize("dtype", ["float32", "int64", "float16", "bool", "uint8"])
def test_tril_triu(device, dtype):
    a = ints((2, 3, 4, 5), 1)
    a = a != 0 if dtype == "bool" else np.abs(a) if dtype == "uint8" else a
    x = make(a, device, dtype)
    for k in (-6, -2, -1, 0, 1, 3, 7):
        assert_close(nr.tril(x, k), np.tril(a, k), dtype=dtype, rtol=0, atol=0)
        assert_close(nr.triu(x, k), np.triu(a, k), dtype=dtype, rtol=0, atol=0)
    t = x[0].transpose(-1, -2)[:, ::-1]  # a non-contiguous flipped view, 3-d
    assert_close(t.tril(1), np.tril(a[0].swapaxes(-1, -2)[:, ::-1], 1), rtol=0, atol=0)
    assert nr.triu(x[:, :, :0]).shape == (2, 3, 0, 5)
    with pytest.raises(nr.ShapeError, match="tril"):
        nr.tril(x[0, 0, 0])


def test_tril_triu_nan_inf(device):
    a = np.array([[np.nan, np.inf], [-np.inf, 1.0]])
    x = make(a, device, "float32")
    assert_close(nr.tril(x), np.tril(a), rtol=0, atol=0)
    assert_close(nr.triu(x), np.triu(a), rtol=0, atol=0)


def _f64(device):
    if make(np.zeros(1), device).dtype != nr.float64:
        pytest.skip(f"{device} has no float64")


CASES = [
    ("tensordot", lambda a, b: nr.tensordot(a, b, ([0, 2], [1, 0])), [(3, 2, 4), (4, 3, 2)]),
    ("outer", lambda a, b: nr.outer(a, b), [(3,), (2,)]),
    ("inner", lambda a, b: nr.inner(a, b), [(2, 3), (4, 3)]),
    ("kron", lambda a, b: nr.kron(a, b), [(2, 3), (2, 2)]),
    ("trace", lambda a: nr.trace(a), [(3, 4)]),
    ("diagonal", lambda a: nr.diagonal(a, -1, 2, 0), [(4, 2, 3)]),
    ("diagonal_method", lambda a: a.diagonal(1) * a.diagonal(1), [(3, 4)]),
    ("diag1", lambda a: nr.diag(a, -2), [(3,)]),
    ("diag2", lambda a: nr.diag(a, 1), [(3, 4)]),
    ("diag_embed", lambda a: nr.diag_embed(a, 1, 0, 2), [(2, 3)]),
    ("tril", lambda a: nr.tril(a, -1), [(2, 3, 4)]),
    ("triu", lambda a: nr.triu(a, 1) ** 2.0, [(3, 4)]),
]


@pytest.mark.parametrize("name,fn,shapes", CASES, ids=[c[0] for c in CASES])
def test_gradients(device, name, fn, shapes):
    """Reverse mode against central differences of sum(w * f); forward mode against the
    directional derivative by central differences."""
    _f64(device)
    rng = np.random.default_rng(9)
    arrs = [rng.standard_normal(s) for s in shapes]
    out0 = fn(*[make(a, device) for a in arrs])
    w = make(rng.standard_normal(out0.shape), device)

    def loss(*xs):
        return (fn(*xs) * w).sum()

    assert gradcheck(loss, [make(a, device) for a in arrs], atol=1e-6, rtol=1e-6)
    eps = 1e-6
    tans = [rng.standard_normal(s) for s in shapes]
    out, tan = jvp(fn, tuple(make(a, device) for a in arrs), tuple(make(t, device) for t in tans))
    hi = fn(*[make(a + eps * t, device) for a, t in zip(arrs, tans, strict=True)]).numpy()
    lo = fn(*[make(a - eps * t, device) for a, t in zip(arrs, tans, strict=True)]).numpy()
    assert_close(out, out0.numpy(), dtype="float64", rtol=0, atol=0)
    assert_close(tan, (hi - lo) / (2 * eps), dtype="float64", rtol=1e-6, atol=1e-6)


def test_diagonal_double_backward(device):
    """The diagonal's gradient (written into zeros) is itself differentiable."""
    _f64(device)
    from numr.autograd import backward_with_graph
    a = np.arange(9.0).reshape(3, 3) / 4
    x = Var(make(a, device))
    gx = backward_with_graph((nr.diagonal(x) ** 3.0).sum())[x]
    assert_close(gx.tensor, np.diag(3 * np.diag(a) ** 2), rtol=1e-12, atol=1e-12)
    ggx = backward(gx.sum())[x]
    assert_close(ggx, np.diag(6 * np.diag(a)), rtol=1e-12, atol=1e-12)
