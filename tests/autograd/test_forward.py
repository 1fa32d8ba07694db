"""Forward mode: jvp against finite differences, jacobian_forward against the
reverse-mode Jacobian, DualTensor through the public API."""

from __future__ import annotations

import numpy as np
import pytest
from _ag_helpers import rand64

import numr as nr
from numr.autograd import DualTensor, Var, backward, jacobian_forward, jvp

W = nr.from_numpy(np.random.default_rng(3).uniform(-1, 1, (4, 3)))

FUNCS = {
    "arith": lambda x: x * x / (x * x + 1.0) - x ** 3.0 + 2.0 ** x + nr.maximum(x, 0.1) - abs(x),
    "unary": lambda x: nr.exp(x) * nr.sin(x) + nr.log1p(x * x) + nr.tanh(x) + nr.sqrt(x * x + 1.0) + nr.atan(x),
    "matmul": lambda x: nr.tanh(x.reshape(2, 4) @ W) + nr.matmul_bias(x.reshape(2, 4), W, W[0]),
    "reduce": lambda x: nr.stack([x.sum(), x.mean(), x.var(), x.std(correction=1), nr.prod(x), x.max(),
                                  x.reshape(2, 4).amin(dim=1).sum(), nr.cumsum(x, 0)[-1], nr.cumprod(x + 3.0, 0)[3]]),
    "views": lambda x: nr.cat([x.reshape(2, 4).T.flip(0)[1:, :].reshape(-1), x.unsqueeze(0).expand(2, 8)[1, ::3],
                               nr.index_select(x, 0, nr.tensor([1, 1, 7]))]),
    "activations": lambda x: nr.cat([nr.sigmoid(x), nr.silu(x), nr.gelu(x), nr.gelu(x, approximate="tanh"),
                                     nr.softplus(x), nr.relu(x), nr.elu(x), nr.leaky_relu(x, 0.2)]),
    "softmax": lambda x: nr.cat([nr.softmax(x.reshape(2, 4), 1).reshape(-1),
                                 nr.log_softmax(x.reshape(2, 4), 0).reshape(-1)]),
    "gated": lambda x: nr.silu_mul(x, x * x) + nr.gelu_mul(x, nr.sin(x)) + nr.sigmoid_mul(x, 2.0 * x)
                       + nr.relu_mul(x, x),
    "where_clamp": lambda x: nr.where(nr.arange(8) > 3, x * x, nr.exp(x)) + nr.clamp(x, -0.5, 0.5),
}


def _primal(y):
    return y.primal if isinstance(y, DualTensor) else y


@pytest.mark.parametrize("name", sorted(FUNCS))
def test_jvp_matches_finite_differences(name):
    f = FUNCS[name]
    x = rand64((8,), seed=1, lo=-1.5, hi=1.5)
    t = rand64((8,), seed=2)
    y, ty = jvp(f, (x,), (t,))
    np.testing.assert_allclose(y.numpy(), f(x).numpy(), rtol=1e-12)
    eps = 1e-6
    fd = (f(x + t * eps).numpy() - f(x - t * eps).numpy()) / (2 * eps)
    np.testing.assert_allclose(ty.numpy(), fd, rtol=1e-5, atol=1e-6)
    assert ty.shape == y.shape and ty.dtype == y.dtype


@pytest.mark.parametrize("name", ["unary", "matmul", "softmax", "gated"])
def test_jacobian_forward_equals_reverse(name):
    f = FUNCS[name]
    x = rand64((8,), seed=3)
    jf = jacobian_forward(f, x).numpy()
    out = f(x)
    rows = []
    for k in range(out.size):
        v = Var(x)
        seed = np.zeros(out.size)
        seed[k] = 1.0
        rows.append(backward(f(v), grad=nr.from_numpy(seed.reshape(out.shape)))[v].numpy())
    np.testing.assert_allclose(jf.reshape(out.size, 8), np.stack(rows), rtol=1e-10, atol=1e-12)
    assert jacobian_forward(f, x).shape == out.shape + x.shape


def test_jvp_multiple_inputs_and_outputs():
    a, b = rand64((3,), seed=4), rand64((3,), seed=5)
    ta, tb = rand64((3,), seed=6), rand64((3,), seed=7)
    (y1, y2), (t1, t2) = jvp(lambda p, q: (p * q, nr.exp(p) + q), (a, b), (ta, tb))
    np.testing.assert_allclose(t1.numpy(), (ta * b + a * tb).numpy(), rtol=1e-12)
    np.testing.assert_allclose(t2.numpy(), (nr.exp(a) * ta + tb).numpy(), rtol=1e-12)


def test_dual_tensor_api():
    d = DualTensor(nr.ones((2, 3), dtype=nr.float64), nr.full((2, 3), 2.0, dtype=nr.float64))
    e = (d * 3.0).sum(dim=0)
    assert isinstance(e, DualTensor) and e.shape == (3,)
    np.testing.assert_allclose(e.tangent.numpy(), [12.0, 12.0, 12.0])
    assert isinstance(d > 0, nr.Tensor)
    z = DualTensor(nr.ones((2,), dtype=nr.float64))
    assert nr.exp(z).tangent is None
    with pytest.raises(ValueError):
        jvp(lambda p: p, (nr.ones(2),), ())


@pytest.mark.parametrize("dim", [None, 0, 1])
def test_cumprod_jvp_with_zeros(dim):
    x = nr.tensor([[0.0, 2.0, 3.0], [1.5, 0.0, 4.0]], dtype=nr.float64)
    t = rand64((2, 3), seed=9)
    _, ty = jvp(lambda v: nr.cumprod(v, dim), (x,), (t,))
    eps = 1e-6
    fd = (nr.cumprod(x + t * eps, dim).numpy() - nr.cumprod(x - t * eps, dim).numpy()) / (2 * eps)
    np.testing.assert_allclose(ty.numpy(), fd, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("op", ["cat", "stack"])
def test_jvp_cat_stack_with_constant_pieces(device, op):
    # a plain Tensor piece of cat/stack has a zero tangent (its values used to be taken as the
    # tangent; found by tools/fuzz/fuzz_autograd.py)
    c = nr.tensor([[5.0, -6.0]], dtype=nr.float64, device=device)
    x = nr.tensor([[1.0, 2.0]], dtype=nr.float64, device=device)
    t = nr.tensor([[0.5, -1.5]], dtype=nr.float64, device=device)
    f = getattr(nr, op)
    y, ty = jvp(lambda v: f([c, v, c], dim=1), (x,), (t,))
    zero = np.zeros((1, 2))
    want = np.concatenate if op == "cat" else np.stack
    assert ty.shape == y.shape and ty.dtype == nr.float64
    np.testing.assert_array_equal(ty.numpy(), want([zero, t.numpy(), zero], axis=1))
    np.testing.assert_array_equal(y.numpy(), want([c.numpy(), x.numpy(), c.numpy()], axis=1))


def test_inplace_op_on_dual_raises_before_writing(device):
    # fill_/index_put_ have no jvp rule: they raised only after writing into the primal
    # (found by the in-place checks of tools/fuzz)
    d = DualTensor(nr.tensor([1.0, 2.0], device=device), nr.ones((2,), dtype=nr.float64, device=device))
    with pytest.raises(nr.errors.UnsupportedOperation):
        d.fill_(0.0)
    np.testing.assert_array_equal(d.primal.numpy(), [1.0, 2.0])
    x = nr.tensor([1.0, 2.0], device=device)
    vals = DualTensor(nr.tensor([5.0], device=device), nr.ones((1,), dtype=nr.float64, device=device))
    with pytest.raises(nr.errors.UnsupportedOperation):
        nr.index_put_(x, 0, nr.tensor([0], device=device), vals)
    np.testing.assert_array_equal(x.numpy(), [1.0, 2.0])
    # without a tangent the op runs (a constant)
    c = DualTensor(nr.tensor([1.0, 2.0], device=device))
    assert c.fill_(3.0).tangent is None
    np.testing.assert_array_equal(c.primal.numpy(), [3.0, 3.0])


def test_jvp_operands_by_keyword(device):
    # DualTensors given by keyword (nr.clamp(x, min=d), nr.gelu_mul(g, up=d)) raised DTypeError,
    # and a plain Tensor bound by keyword (nr.clamp(d, max=t)) an IndexError (found by tools/fuzz)
    x = nr.tensor([0.3, -1.2, 0.7], dtype=nr.float64, device=device)
    one = nr.ones((3,), dtype=nr.float64, device=device)
    _, t = jvp(lambda v: nr.clamp(v, min=v * 0.5), (x,), (one,))
    np.testing.assert_allclose(t.numpy(), [1.0, 0.5, 1.0])
    _, t = jvp(lambda v: nr.clamp(x, min=v), (x * 0.0 + 0.5,), (one,))
    np.testing.assert_allclose(t.numpy(), [1.0, 1.0, 0.0])
    _, t = jvp(lambda v: nr.clamp(v, max=x * 0.0), (x,), (one,))
    np.testing.assert_allclose(t.numpy(), [0.0, 1.0, 0.0])
    _, t1 = jvp(lambda v: nr.gelu_mul(v, up=v), (x,), (one,))
    _, t2 = jvp(lambda v: nr.gelu_mul(v, v), (x,), (one,))
    np.testing.assert_allclose(t1.numpy(), t2.numpy(), rtol=1e-15)
    _, t = jvp(lambda v: nr.cat(tensors=[v, x]), (x,), (one,))
    np.testing.assert_array_equal(t.numpy(), [1.0, 1.0, 1.0, 0.0, 0.0, 0.0])
