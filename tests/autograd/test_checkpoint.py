"""checkpoint: same gradients, fewer saved tensors; gradcheck through it."""

from __future__ import annotations

import numpy as np
import pytest
from _ag_helpers import rand64

import numr as nr
from numr.autograd import Var, backward, backward_with_graph, checkpoint, gradcheck, saved_tensor_stats


def block(x, w):
    h = x
    for _ in range(6):
        h = nr.tanh(h @ w) + nr.sin(h) * nr.exp(h * 0.1)
    return h


def test_checkpoint_same_gradients_fewer_saved_tensors():
    x0, w0 = rand64((4, 5), seed=1, lo=-1, hi=1), rand64((5, 5), seed=2, lo=-0.5, hi=0.5)
    x, w = Var(x0), Var(w0)
    plain = (block(x, w) ** 2.0).sum()
    g_plain = backward(plain)
    xc, wc = Var(x0), Var(w0)
    ck = (checkpoint(block, xc, wc) ** 2.0).sum()
    g_ck = backward(ck)
    np.testing.assert_allclose(ck.numpy(), plain.numpy(), rtol=1e-12)
    np.testing.assert_allclose(g_ck[xc].numpy(), g_plain[x].numpy(), rtol=1e-12)
    np.testing.assert_allclose(g_ck[wc].numpy(), g_plain[w].numpy(), rtol=1e-12)
    n_plain, bytes_plain = saved_tensor_stats(plain)
    n_ck, bytes_ck = saved_tensor_stats(ck)
    assert n_ck <= 4 and n_plain >= 20, (n_plain, n_ck)
    assert bytes_ck * 5 < bytes_plain, (bytes_plain, bytes_ck)


def test_checkpoint_gradcheck_and_second_order():
    w = rand64((3, 3), seed=3, lo=-0.5, hi=0.5)
    assert gradcheck(lambda x, ww: checkpoint(block, x, ww).sum(), [rand64((2, 3), seed=4, lo=-1, hi=1), w])
    x = Var(rand64((2, 3), seed=5, lo=-1, hi=1))
    wv = Var(w)
    g = backward_with_graph(checkpoint(block, x, wv).sum())[x]
    gg = backward(g.sum())[x]
    x2 = Var(x.tensor)
    g2 = backward_with_graph(block(x2, wv).sum())[x2]
    np.testing.assert_allclose(gg.numpy(), backward(g2.sum())[x2].numpy(), rtol=1e-10)


def test_checkpoint_input_used_twice_and_constant_inputs():
    a = Var(rand64((3,), seed=6))
    out = checkpoint(lambda p, q, c: p * q * c, a, a, nr.full((3,), 2.0, dtype=nr.float64))
    g = backward(out.sum())[a]
    np.testing.assert_allclose(g.numpy(), 4 * a.numpy(), rtol=1e-12)
    const = checkpoint(lambda p: p * 2.0, Var(rand64((3,)), requires_grad=False))
    assert not const.requires_grad


def test_checkpoint_input_written_in_place_raises(device):
    # the backward re-runs f on the inputs it kept: an input written in place meanwhile would give
    # the gradient at the new values; it raises as a saved tensor does (version counter)
    from numr.autograd import SavedTensorModifiedError
    x = Var(nr.tensor([1.0, 2.0], dtype=nr.float64, device=device))
    y = checkpoint(lambda v: (v * v).sum(), x)
    x.tensor.mul_(3.0)
    with pytest.raises(SavedTensorModifiedError, match="CheckpointBackward"):
        backward(y)
