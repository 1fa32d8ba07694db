"""Function transforms (numr.autograd.grad, value_and_grad, vjp, jacobian, jacrev, jacfwd, vhp,
hessian): against central differences in float64 on every backend, tuple inputs/outputs, has_aux,
nesting, errors, shapes and dtypes; against torch.func when torch is installed (an extra)."""

from __future__ import annotations

import numpy as np
import pytest
from _ag_helpers import dt_of

import numr as nr
from numr.autograd import Var, grad, hessian, jacfwd, jacobian, jacrev, value_and_grad, vhp, vjp

RNG = np.random.default_rng(0)


_dt = dt_of


def _t(shape, device="cpu", dtype="float64"):
    return nr.tensor(RNG.standard_normal(shape), dtype=dtype, device=device)


def _fd_jac(f, xs, i, out_index=None, eps=1e-6):
    """Central-difference Jacobian of f(*xs) (output out_index when f returns a tuple) in input i."""
    x = xs[i].numpy().astype(np.float64)
    cols = []
    for j in range(x.size):
        vals = []
        for s in (eps, -eps):
            p = x.copy().reshape(-1)
            p[j] += s
            args = list(xs)
            args[i] = nr.tensor(p.reshape(x.shape), dtype=xs[i].dtype, device=xs[i].device)
            r = f(*args)
            vals.append((r[out_index] if out_index is not None else r).numpy().astype(np.float64))
        cols.append((vals[0] - vals[1]) / (2 * eps))
    out_shape = vals[0].shape
    return np.stack(cols, -1).reshape(out_shape + x.shape) if cols else np.zeros(out_shape + x.shape)


def _mlp(W, b, x):
    return nr.tanh(W @ x + b)


def test_grad_matches_central_differences(device):
    if _dt(device) != "float64":
        pytest.skip("central differences need float64")
    x = _t((2, 3), device)
    f = lambda x: nr.sum(nr.sin(x) * x)  # noqa: E731
    g = grad(f)(x)
    assert isinstance(g, nr.Tensor) and g.shape == (2, 3) and g.dtype == nr.float64 and g.device == x.device
    xn = x.numpy()
    np.testing.assert_allclose(g.numpy(), np.cos(xn) * xn + np.sin(xn), rtol=1e-12)
    v, g2 = value_and_grad(f)(x)
    assert v.ndim == 0 and abs(v.item() - np.sum(np.sin(xn) * xn)) < 1e-12
    np.testing.assert_allclose(g2.numpy(), g.numpy())


def test_grad_argnums_aux_and_dtype():
    W, b, x = _t((3, 4)), _t((3,)), _t((4,))
    f = lambda W, b, x: (nr.sum(_mlp(W, b, x) ** 2), _mlp(W, b, x))  # noqa: E731
    (gW, gx), aux = grad(f, argnums=(0, -1), has_aux=True)(W, b, x)
    assert gW.shape == (3, 4) and gx.shape == (4,) and isinstance(aux, nr.Tensor) and aux.shape == (3,)
    loss = lambda *a: f(*a)[0]  # noqa: E731
    np.testing.assert_allclose(gW.numpy(), _fd_jac(loss, [W, b, x], 0), rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(gx.numpy(), _fd_jac(loss, [W, b, x], 2), rtol=1e-6, atol=1e-8)
    (val, aux2), gb = value_and_grad(f, argnums=1, has_aux=True)(W, b, x)
    assert val.ndim == 0 and np.allclose(aux2.numpy(), aux.numpy())
    np.testing.assert_allclose(gb.numpy(), _fd_jac(loss, [W, b, x], 1), rtol=1e-6, atol=1e-8)
    x32 = _t((3,), dtype="float32")
    g32 = grad(lambda x: nr.sum(x * x))(x32)
    assert g32.dtype == nr.float32 and np.allclose(g32.numpy(), 2 * x32.numpy())
    zero = grad(lambda x, y: nr.sum(y))(x, b)  # f does not depend on x: zeros
    assert zero.shape == x.shape and not zero.numpy().any()


def test_grad_nests():
    x = _t((3,))
    g2 = grad(lambda x: nr.sum(grad(lambda y: nr.sum(y ** 3))(x)))(x)  # d/dx sum(3x^2) = 6x
    np.testing.assert_allclose(g2.numpy(), 6 * x.numpy(), rtol=1e-12)
    v = Var(x)  # a caller's Var: the gradient keeps its graph
    assert isinstance(grad(lambda y: nr.sum(y ** 3))(v), Var)


def test_grad_errors():
    x = _t((3,))
    with pytest.raises(nr.ShapeError, match="grad.*scalar"):
        grad(lambda x: x * 2)(x)
    with pytest.raises(nr.ShapeError, match="scalar"):
        grad(lambda x: nr.sum(x, keepdim=True, dim=0))(x)  # one element but 1-d
    with pytest.raises(nr.DTypeError, match="argument 0.*int64"):
        grad(lambda x: nr.sum(x))(nr.tensor([1, 2]))
    with pytest.raises(nr.IndexOutOfRange, match="argnums"):
        grad(lambda x: nr.sum(x), argnums=1)(x)
    with pytest.raises(ValueError, match="repeats"):
        grad(lambda x, y: nr.sum(x * y), argnums=(0, 0))(x, x)
    with pytest.raises(TypeError, match="pair"):
        grad(lambda x: nr.sum(x), has_aux=True)(x)
    with pytest.raises(TypeError, match="Tensor"):
        grad(lambda x: nr.sum(x))([1.0, 2.0])
    with pytest.raises(nr.UnsupportedOperation, match="forward mode"):
        jacfwd(grad(lambda x: nr.sum(x ** 3)))(x)
    with pytest.raises(nr.UnsupportedOperation, match="outer_jacobian_strategy"):
        hessian(lambda x: nr.sum(x ** 3), x, outer_jacobian_strategy="forward-mode")


def test_vjp_tuple_outputs(device):
    dt = _dt(device)
    a, b = _t((2, 3), device, dt), _t((2, 3), device, dt)
    out, fn = vjp(lambda a, b: (a * b, nr.sum(a, dim=0)), a, b)
    assert isinstance(out, tuple) and out[0].shape == (2, 3) and out[1].shape == (3,)
    ca, cb = _t((2, 3), device, dt), _t((3,), device, dt)
    ga, gb = fn((ca, cb))
    an, bn, can, cbn = a.numpy(), b.numpy(), ca.numpy(), cb.numpy()
    tol = 1e-12 if dt == "float64" else 1e-5
    np.testing.assert_allclose(ga.numpy(), can * bn + cbn[None, :], rtol=tol, atol=tol)
    np.testing.assert_allclose(gb.numpy(), can * an, rtol=tol, atol=tol)
    assert ga.dtype == a.dtype and ga.device == a.device
    ga2, _ = fn(ca, cb)  # callable again, cotangents also as separate arguments
    np.testing.assert_allclose(ga2.numpy(), ga.numpy())


def test_vjp_aux_and_errors():
    x = _t((3,))
    out, fn, aux = vjp(lambda x: (x * 2, {"n": nr.sum(x)}), x, has_aux=True)
    assert isinstance(aux["n"], nr.Tensor)
    (g,) = fn(nr.ones((3,), dtype=nr.float64))
    np.testing.assert_allclose(g.numpy(), [2, 2, 2])
    with pytest.raises(nr.ShapeError, match="cotangent 0"):
        fn(nr.ones((4,), dtype=nr.float64))
    _, fn2 = vjp(lambda x: (x, x), x)
    with pytest.raises(ValueError, match="2 outputs"):
        fn2((x,))
    with pytest.raises(ValueError, match="primal"):
        vjp(lambda: 0)


@pytest.mark.parametrize("strategy", ["reverse-mode", "forward-mode"])
def test_jacobian_tuple_inputs_outputs(device, strategy):
    if _dt(device) != "float64":
        pytest.skip("central differences need float64")
    W, b, x = _t((3, 4), device), _t((3,), device), _t((4,), device)
    f = lambda W, x: (_mlp(W, b, x), nr.sum(W * W))  # noqa: E731
    J = jacobian(f, (W, x), strategy=strategy)
    assert len(J) == 2 and all(len(r) == 2 for r in J)
    assert J[0][0].shape == (3, 3, 4) and J[0][1].shape == (3, 4) and J[1][0].shape == (3, 4) and J[1][1].shape == (4,)
    for o in range(2):
        for i in range(2):
            assert J[o][i].dtype == nr.float64
            np.testing.assert_allclose(J[o][i].numpy(), _fd_jac(f, [W, x], i, o), rtol=1e-6, atol=1e-8)
    single = jacobian(lambda x: _mlp(W, b, x), x, strategy=strategy)
    assert isinstance(single, nr.Tensor) and single.shape == (3, 4)
    np.testing.assert_allclose(single.numpy(), J[0][1].numpy(), rtol=1e-12)


@pytest.mark.parametrize("strategy", ["reverse-mode", "forward-mode"])
def test_jacobian_edge_shapes(strategy):
    s = _t(())  # 0-d in, 0-d out
    j = jacobian(lambda s: s * s, s, strategy=strategy)
    assert j.shape == () and abs(j.item() - 2 * s.item()) < 1e-12
    e = nr.zeros((0, 2), dtype=nr.float64)  # empty input
    j = jacobian(lambda e: nr.sum(e, dim=0) + 1, e, strategy=strategy)
    assert j.shape == (2, 0, 2)
    x = _t((4,))[::2]  # strided input, broadcast output
    j = jacobian(lambda x: x.unsqueeze(0).broadcast_to((3, 2)) * 2, x, strategy=strategy)
    assert j.shape == (3, 2, 2) and np.allclose(j.numpy(), np.broadcast_to(2 * np.eye(2), (3, 2, 2)))


def test_jacobian_options():
    x = _t((3,))
    j = jacobian(lambda x: x * x, x, create_graph=True)
    assert isinstance(j, Var) and j.requires_grad
    j2 = jacobian(lambda x: x * x, x, vectorize=True)
    np.testing.assert_allclose(j2.numpy(), np.diag(2 * x.numpy()))
    with pytest.raises(ValueError, match="strategy"):
        jacobian(nr.sin, x, strategy="sideways")
    with pytest.raises(ValueError, match="create_graph"):
        jacobian(nr.sin, x, create_graph=True, strategy="forward-mode")
    with pytest.raises(nr.DTypeError, match="int64"):
        jacobian(nr.sin, nr.tensor([1, 2]), strategy="forward-mode")


def test_jacrev_jacfwd_hessian():
    W, b, x = _t((3, 4)), _t((3,)), _t((4,))
    jr = jacrev(_mlp, argnums=(0, 2))(W, b, x)
    jf = jacfwd(_mlp, argnums=(0, 2))(W, b, x)
    assert isinstance(jr, tuple) and jr[0].shape == (3, 3, 4) and jr[1].shape == (3, 4)
    for a, c in zip(jr, jf, strict=True):
        np.testing.assert_allclose(a.numpy(), c.numpy(), rtol=1e-12, atol=1e-14)
    j, aux = jacrev(lambda x: (nr.sin(x), nr.cos(x)), has_aux=True)(x)
    assert np.allclose(j.numpy(), np.diag(np.cos(x.numpy()))) and np.allclose(aux.numpy(), np.cos(x.numpy()))
    j, aux = jacfwd(lambda x: (nr.sin(x), nr.cos(x)), has_aux=True)(x)
    assert np.allclose(j.numpy(), np.diag(np.cos(x.numpy()))) and isinstance(aux, nr.Tensor)
    f = lambda x: nr.sum(nr.tanh(W @ x) ** 2)  # noqa: E731
    H = jacrev(jacrev(f))(x)
    H2 = hessian(f, x)
    gfd = _fd_jac(lambda x: grad(f)(x), [x], 0)
    assert H.shape == (4, 4)
    np.testing.assert_allclose(H.numpy(), gfd, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(H2.numpy(), H.numpy(), rtol=1e-12, atol=1e-14)


def test_vhp_and_tuple_hessian(device):
    if _dt(device) != "float64":
        pytest.skip("central differences need float64")
    a, b = _t((3,), device), _t((2, 3), device)
    f = lambda a, b: nr.sum(nr.exp(a) * b * b)  # noqa: E731
    H = hessian(f, (a, b))
    assert H[0][0].shape == (3, 3) and H[0][1].shape == (3, 2, 3) and H[1][0].shape == (2, 3, 3)
    assert H[1][1].shape == (2, 3, 2, 3)
    gi = [lambda a, b, i=i: grad(f, argnums=(0, 1))(a, b)[i] for i in range(2)]
    for i in range(2):
        for j in range(2):
            np.testing.assert_allclose(H[i][j].numpy(), _fd_jac(gi[i], [a, b], j), rtol=1e-6, atol=1e-8)
    va, vb = _t((3,), device), _t((2, 3), device)
    out, (ha, hb) = vhp(f, (a, b), (va, vb))
    assert abs(out.item() - f(a, b).item()) < 1e-12 and ha.shape == (3,) and hb.shape == (2, 3)
    Hm = np.block([[H[0][0].numpy(), H[0][1].numpy().reshape(3, 6)],
                   [H[1][0].numpy().reshape(6, 3), H[1][1].numpy().reshape(6, 6)]])
    ref = np.concatenate([va.numpy(), vb.numpy().reshape(-1)]) @ Hm
    np.testing.assert_allclose(np.concatenate([ha.numpy(), hb.numpy().reshape(-1)]), ref, rtol=1e-10, atol=1e-12)
    _, h = vhp(lambda a: nr.sum(a * 3.0), a, va)  # linear: a zero vhp
    assert h.shape == (3,) and not h.numpy().any()
    with pytest.raises(nr.ShapeError, match="v\\[0\\]"):
        vhp(f, (a, b), (vb, va))


def test_against_torch_func():
    torch = pytest.importorskip("torch")
    from torch import func as tf
    W, b, x = _t((3, 4)), _t((3,)), _t((4,))
    tW, tb, tx = (torch.tensor(t.numpy()) for t in (W, b, x))

    def tmlp(W, b, x):
        return torch.tanh(W @ x + b)
    np.testing.assert_allclose(jacrev(_mlp, argnums=0)(W, b, x).numpy(), tf.jacrev(tmlp)(tW, tb, tx).numpy(),
                               rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(jacfwd(_mlp, argnums=2)(W, b, x).numpy(),
                               tf.jacfwd(tmlp, argnums=2)(tW, tb, tx).numpy(), rtol=1e-12, atol=1e-14)
    g = grad(lambda x: nr.sum(_mlp(W, b, x) ** 2))(x)
    np.testing.assert_allclose(g.numpy(), tf.grad(lambda x: (tmlp(tW, tb, x) ** 2).sum())(tx).numpy(), rtol=1e-12)


def test_complex_inputs():
    """numr's convention g = dL/dx - i dL/dy; a holomorphic f's Jacobian is f' by both strategies."""
    zn = np.array([1 + 2j, -0.5 + 0.3j])
    z = nr.tensor(zn)
    g = grad(lambda z: nr.sum(nr.abs(z) ** 2))(z)
    assert g.dtype == nr.complex128
    np.testing.assert_allclose(g.numpy(), 2 * np.conj(zn))
    for strategy in ("reverse-mode", "forward-mode"):
        j = jacobian(lambda z: z * z, z, strategy=strategy)
        np.testing.assert_allclose(j.numpy(), np.diag(2 * zn))
