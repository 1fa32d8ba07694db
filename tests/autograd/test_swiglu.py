"""The seed's SwiGLU tests, in numr's Python API, plus the explicit var_* forms."""

from __future__ import annotations

import math

import numpy as np
import pytest
from _ag_helpers import rand64

import numr as nr
from numr import autograd as ag
from numr.autograd import Var, backward, var_swiglu


def _sig(x):
    return 1.0 / (1.0 + math.exp(-x))


def test_swiglu_forward():
    gate = Var(nr.tensor([0.0, 1.0, -1.0], dtype=nr.float32), requires_grad=False)
    up = Var(nr.tensor([1.0, 2.0, 3.0], dtype=nr.float32), requires_grad=False)
    out = var_swiglu(gate, up).numpy()
    assert abs(out[0]) < 1e-6
    assert abs(out[1] - _sig(1.0) * 2.0) < 1e-6
    assert abs(out[2] - (-1.0 * _sig(-1.0)) * 3.0) < 1e-6


def test_swiglu_backward_gate_and_up():
    gate = Var(nr.tensor([1.0, -1.0], dtype=nr.float32))
    up = Var(nr.tensor([2.0, 3.0], dtype=nr.float32))
    out = var_swiglu(gate, up)
    assert out.grad_fn.name == "SiluMulBackward"
    grads = backward(ag.var_sum(out, None, False))
    d_gate, d_up = grads[gate].numpy(), grads[up].numpy()
    for i, (g, u) in enumerate([(1.0, 2.0), (-1.0, 3.0)]):
        s = _sig(g)
        assert abs(d_up[i] - g * s) < 1e-6
        assert abs(d_gate[i] - u * s * (1 + g - g * s)) < 1e-6
    assert grads[gate].dtype == nr.float32


def test_swiglu_no_grad():
    gate = Var(nr.tensor([1.0]), requires_grad=False)
    up = Var(nr.tensor([2.0]), requires_grad=False)
    assert not var_swiglu(gate, up).requires_grad


def test_swiglu_saves_only_its_inputs():
    g, u = Var(rand64((4, 4))), Var(rand64((4, 4), seed=1))
    out = var_swiglu(g, u)
    assert [t.shape for t in out.grad_fn.saved_tensors] == [(4, 4), (4, 4)]


def test_explicit_var_functions():
    x = Var(rand64((3, 4), seed=2))
    np.testing.assert_allclose(ag.var_sum(x, dim=None, keepdim=False).numpy(), x.numpy().sum())
    np.testing.assert_allclose(ag.var_mean(x, 1).numpy(), x.numpy().mean(1))
    np.testing.assert_allclose(ag.var_var(x, 0).numpy(), x.numpy().var(0))
    np.testing.assert_allclose(ag.var_std(x, 0, 1).numpy(), x.numpy().std(0, ddof=1))
    sm = ag.var_softmax(x, 1).numpy()
    np.testing.assert_allclose(sm.sum(1), np.ones(3))
    np.testing.assert_allclose(ag.var_log_softmax(x, 1).numpy(), np.log(sm), rtol=1e-12)
    assert ag.var_transpose(x, 0, 1).shape == (4, 3)
    assert ag.var_permute(x, (1, 0)).shape == (4, 3)
    assert ag.var_narrow(x, 1, 1, 2).shape == (3, 2)
    assert ag.var_matmul(x, x.T).shape == (3, 3)
    assert ag.var_add(x, 1.0).shape == (3, 4) and ag.var_pow(x, 2.0).grad_fn.name == "PowBackward"
    for f in (ag.var_relu, ag.var_sigmoid, ag.var_silu, ag.var_softplus, ag.var_tanh, ag.var_exp):
        assert f(x).requires_grad
    y = ag.var_dropout(x, 0.5, True, 3)
    assert y.shape == x.shape


@pytest.mark.parametrize("fn", ["reshape", "transpose", "permute", "squeeze", "unsqueeze", "flip", "flatten",
                                "narrow", "broadcast_to", "clip"])
def test_public_view_functions_accept_vars(fn):
    x = Var(rand64((2, 1, 3), seed=3))
    args = {"reshape": ((3, 2),), "transpose": (0, 2), "permute": ((2, 0, 1),), "squeeze": (1,), "unsqueeze": (0,),
            "flip": (0,), "flatten": (), "narrow": (2, 1, 2), "broadcast_to": ((4, 2, 1, 3),),
            "clip": (-0.5, 0.5)}[fn]
    out = getattr(nr, fn)(x, *args)
    assert isinstance(out, Var) and out.requires_grad
    g = backward(out.sum())[x]
    assert g.shape == x.shape
