"""The per-op fast paths of recording and the backward engine give what the general paths
give: operand bookkeeping of FormulaFn (Vars mixed with tensors and scalars), saved-tensor
version checks, sum_to_shape for every broadcast pattern, the no_grad context manager used
nested, reused and as a decorator, and strided same-shape binary ops (the broadcast gradient
of a sum) on every backend."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from _ag_helpers import rand64
from conftest import assert_close

import numr as nr
from numr.autograd import SavedTensorModifiedError, Var, backward, is_grad_enabled, no_grad, sum_to_shape
from numr.autograd.grad_fn import FormulaFn


def test_formula_fn_operands_mixed_var_tensor_scalar():
    x, t = Var(rand64((2, 3))), rand64((2, 3), seed=1)
    c = Var(rand64((2, 3), seed=2), requires_grad=False)
    fn = FormulaFn("mul", (t, x, 2.0, c), lambda g, a, o, n, e: [None] * 4)
    assert [e.id for e in fn.edges] == [x.id, c.id] and fn._pos == [1, 3]
    assert fn._need() == [False, True, False, False]
    assert [s is u for s, u in zip(fn.saved_tensors, (t, x.tensor, c.tensor), strict=True)] == [True] * 3
    kept = FormulaFn("mul", (t, x, 2.0), None, save_args=False)._args
    assert kept == [None, None, 2.0]


def test_gradients_through_mixed_operands():
    x = Var(rand64((3, 4)))
    t = rand64((3, 4), seed=1)
    y = nr.where(t > 0, x * t, 2.0 - x)  # Tensor condition, Var/scalar operands
    g = backward(y.sum())[x]
    tn = t.numpy()
    assert g.shape == (3, 4) and g.dtype == nr.float64
    np.testing.assert_allclose(g.numpy(), np.where(tn > 0, tn, -1.0))


def test_saved_tensor_modified_still_raises():
    x = Var(rand64((4,)))
    t = rand64((4,), seed=3)
    y = (x * t).sum()
    t += 1.0
    with pytest.raises(SavedTensorModifiedError, match="MulBackward"):
        backward(y)


@pytest.mark.parametrize("gshape,shape", [((2, 3, 4), (3, 1)), ((5, 3), (3,)), ((4, 1, 3), (1, 1, 3)),
                                          ((2, 3), (2, 3)), ((3,), (2, 3)), ((2, 1), (1,)), ((0, 3), (3,)),
                                          ((2, 3), ())])
def test_sum_to_shape_matches_numpy(gshape, shape):
    g = rand64(gshape, seed=5)
    out = sum_to_shape(g, shape)
    gn = g.numpy()
    if len(gshape) < len(shape):
        want = np.broadcast_to(gn, shape)
    else:
        lead = len(gshape) - len(shape)
        want = gn.sum(axis=tuple(range(lead))) if lead else gn
        inner = tuple(i for i, s in enumerate(shape) if s == 1 and want.shape[i] != 1)
        want = want.sum(axis=inner, keepdims=True) if inner else want
    assert out.shape == shape and out.dtype == nr.float64
    np.testing.assert_allclose(out.numpy(), want.reshape(shape))
    gv = Var(g)  # the Var path (create_graph) agrees
    np.testing.assert_allclose(sum_to_shape(gv, shape).numpy(), want.reshape(shape))


def test_bias_gradient_summed_over_batch():
    x, w, b = Var(rand64((5, 3))), Var(rand64((3, 2), seed=1)), Var(rand64((2,), seed=2))
    grads = backward(nr.relu(x @ w + b).sum())
    mask = (x.numpy() @ w.numpy() + b.numpy()) > 0
    np.testing.assert_allclose(grads[b].numpy(), mask.sum(axis=0))
    assert grads[b].shape == (2,)


def test_no_grad_nested_reused_and_decorator():
    cm = no_grad()
    with cm:
        assert not is_grad_enabled()
        with nr.autograd.enable_grad():
            assert is_grad_enabled()
            with cm:  # the same object entered again inside itself
                assert not is_grad_enabled()
            assert is_grad_enabled()
        assert not is_grad_enabled()
    assert is_grad_enabled()

    @no_grad()
    def depth(n: int) -> int:
        assert not is_grad_enabled()
        return depth(n - 1) + 1 if n else 0

    assert depth(3) == 3 and is_grad_enabled()
    with pytest.raises(KeyError), no_grad():
        raise KeyError("x")
    assert is_grad_enabled()
    x = Var(rand64((2,)))
    with no_grad():
        y = x * 2.0
    assert not y.requires_grad and y.grad_fn is None


def test_no_grad_one_object_in_two_threads():
    """a enters, then b (whose mode was off), then a leaves first: each gets its own mode back."""
    cm, seen = no_grad(), {}
    step = [threading.Event() for _ in range(3)]

    def a() -> None:
        with cm:
            step[0].set()
            step[1].wait()
            seen["a"] = is_grad_enabled()
        seen["a after"] = is_grad_enabled()
        step[2].set()

    def b() -> None:
        with no_grad():
            step[0].wait()
            with cm:
                step[1].set()
                step[2].wait()
                seen["b"] = is_grad_enabled()
            seen["b after"] = is_grad_enabled()

    ts = [threading.Thread(target=f) for f in (a, b)]
    for t in ts:
        t.start()
    for t in ts:
        t.join(timeout=30)
    assert seen == {"a": False, "b": False, "a after": True, "b after": False}
    assert is_grad_enabled()


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32"])
def test_strided_same_shape_binary(device, dtype):
    rng = np.random.default_rng(0)
    a = (rng.standard_normal((4, 3)) * 4).astype(dtype)
    b = (rng.standard_normal((3, 4)) * 4).astype(dtype)
    s = np.asarray(2.5 if dtype != "int32" else 3, dtype)
    ta, tb = nr.tensor(a, device=device), nr.tensor(b, device=device)
    ts = nr.tensor(s, device=device)
    cases = [
        (ta.T * tb, a.T * b),  # transposed with contiguous
        (ta.T + ta.T, a.T + a.T),  # both transposed: the result keeps their order
        (ts.reshape((1, 1)).broadcast_to((3, 4)) * tb, s * b),  # expanded (stride 0)
        (tb.flip(1) - tb, b[:, ::-1] - b),  # negative strides
        (tb[:, 1:] - tb[:, :3], b[:, 1:] - b[:, :3]),  # offset views
        (ta[:0].T + ta[:0].T, a[:0].T + a[:0].T),  # empty
    ]
    for got, want in cases:
        assert got.shape == want.shape and got.dtype == nr.dtype(dtype)
        assert_close(got, want)
