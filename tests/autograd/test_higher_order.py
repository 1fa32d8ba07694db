"""Second order: Hessians from backward_with_graph / hvp against finite
differences of the first-order gradient (float64)."""

from __future__ import annotations

import numpy as np
import pytest
from _ag_helpers import rand64

import numr as nr
from numr.autograd import Var, backward, backward_with_graph, hessian, hvp

W = nr.from_numpy(np.random.default_rng(5).uniform(-1, 1, (4, 3)))
B = nr.from_numpy(np.random.default_rng(6).uniform(-1, 1, (3,)))

FUNCS = {
    "arith": lambda x: (x * x * x / (x * x + 1.0) - x ** 3.0 + 2.0 ** x).sum(),
    "unary": lambda x: (nr.exp(x) * nr.sin(x) + nr.log1p(x * x) + nr.tanh(x) * nr.cos(x) + nr.sqrt(x * x + 1.0)
                        + nr.atan(x) + nr.square(x) * nr.reciprocal(x * x + 2.0)).sum(),
    "matmul": lambda x: (nr.tanh(x.reshape(2, 4) @ W) @ B).sum() + nr.matmul_bias(x.reshape(2, 4), W, B).prod(),
    "reduce": lambda x: x.reshape(2, 4).sum(dim=1).prod() + x.var() * x.mean() + x.std(correction=1)
                        + nr.max(x * x) + x.reshape(4, 2).amin(dim=0).sum() + nr.cumsum(x * x, 0).sum()
                        + nr.cumprod(x * 0.5 + 2.0, 0)[-1],
    "views": lambda x: (x.reshape(2, 4).T @ x.reshape(2, 4)).flip(0)[1:, ::2].sum()
                       + (x.unsqueeze(0).expand(3, 8) * x).permute(1, 0)[2].sum()
                       + nr.cat([x[:3], x[5:]]).pow(2.0).sum() + nr.stack([x, x * x]).sum()
                       + (x[nr.tensor([1, 1, 6])] ** 3.0).sum()
                       + (nr.index_select(x, 0, nr.tensor([2, 5])) ** 3.0).sum(),
    "activations": lambda x: (nr.sigmoid(x) * nr.tanh(x) + nr.silu(x) * x + nr.softplus(x) * nr.softplus(-x)
                              + nr.gelu(x) * x + nr.gelu(x, approximate="tanh") * x + nr.elu(x) * x
                              + nr.leaky_relu(x, 0.1) * x).sum(),
    "softmax": lambda x: (nr.softmax(x.reshape(2, 4), -1) * nr.arange(4, dtype=nr.float64)).sum()
                         + (nr.log_softmax(x.reshape(2, 4), 0) * x.reshape(2, 4)).sum()
                         + nr.softmax(x, 0)[0] ** 2.0,
    "gated": lambda x: (nr.silu_mul(x, x * x) + nr.gelu_mul(x, nr.sin(x)) + nr.sigmoid_mul(x * 2.0, x)
                        + nr.relu_mul(x, x * x)).sum(),
    "where_clamp": lambda x: (nr.where(x.tensor > 0 if isinstance(x, Var) else x > 0, x * x * x, nr.exp(x))
                              + nr.clamp(x, -0.5, 0.5) * x + nr.maximum(x, x * x) + nr.hypot(x, x + 2.0)).sum(),
}


def _grad(f, x):
    v = Var(x)
    return backward(f(v))[v].numpy()


def _fd_hessian(f, x, eps=1e-5):
    base = x.numpy().astype(np.float64)
    n = base.size
    h = np.zeros((n, n))
    for j in range(n):
        p = base.copy().reshape(-1)
        m = p.copy()
        p[j] += eps
        m[j] -= eps
        gp = _grad(f, nr.from_numpy(p.reshape(base.shape)))
        gm = _grad(f, nr.from_numpy(m.reshape(base.shape)))
        h[:, j] = (gp - gm).reshape(-1) / (2 * eps)
    return h


@pytest.mark.parametrize("name", sorted(FUNCS))
def test_hessian_matches_finite_differences(name):
    f = FUNCS[name]
    x = rand64((8,), seed=7, lo=-1.5, hi=1.5)
    h = hessian(f, x).numpy().reshape(8, 8)
    fd = _fd_hessian(f, x)
    np.testing.assert_allclose(h, fd, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(h, h.T, rtol=1e-8, atol=1e-9)


def test_backward_with_graph_gives_differentiable_vars():
    x = Var(rand64((3,), seed=8))
    y = (nr.exp(x) * x).sum()
    g = backward_with_graph(y)[x]
    assert isinstance(g, Var) and g.requires_grad and g.shape == (3,)
    xn = x.numpy()
    np.testing.assert_allclose(g.numpy(), np.exp(xn) * (1 + xn))
    gg = backward(g.sum())[x]  # d/dx sum(e^x (1 + x)) = e^x (2 + x)
    np.testing.assert_allclose(gg.numpy(), np.exp(xn) * (2 + xn), rtol=1e-12)
    # third order through the same machinery
    g2 = backward_with_graph(g.sum())[x]
    g3 = backward(g2.sum())[x]
    np.testing.assert_allclose(g3.numpy(), np.exp(xn) * (3 + xn), rtol=1e-12)


def test_hvp_automatic():
    x = rand64((5,), seed=9)
    v = rand64((5,), seed=10)
    f = FUNCS["unary"]
    hv = hvp(f, x, v).numpy()
    np.testing.assert_allclose(hv, _fd_hessian(f, x) @ v.numpy(), rtol=1e-5, atol=1e-6)
    assert hvp(lambda z: z.sum(), x, v).numpy().tolist() == [0.0] * 5


def test_hessian_of_swiglu_mlp_entries():
    from numr.autograd import var_swiglu
    wg = nr.from_numpy(np.random.default_rng(11).uniform(-1, 1, (4, 3)))
    wu = nr.from_numpy(np.random.default_rng(12).uniform(-1, 1, (4, 3)))

    def f(x):
        h = var_swiglu(x.reshape(2, 4) @ wg, x.reshape(2, 4) @ wu)
        return (h * h).sum()
    x = rand64((8,), seed=13)
    np.testing.assert_allclose(hessian(f, x).numpy().reshape(8, 8), _fd_hessian(f, x), rtol=1e-5, atol=1e-6)
