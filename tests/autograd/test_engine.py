"""Reverse-mode engine: Var identity, GradStore, accumulation, broadcasting,
dtypes, hooks, the public API accepting Vars, and a 100,000-op chain."""

from __future__ import annotations

import numpy as np
import pytest
from _ag_helpers import rand64

import numr as nr
from numr.autograd import GradStore, Var, backward, backward_with_hooks, no_grad


def test_var_identity_alias_detach():
    x = Var(nr.ones((2, 2)))
    assert x.requires_grad and x.is_leaf and x.grad_fn is None
    a = x.alias()
    assert a.id == x.id and a.tensor is x.tensor
    d = x.detach()
    assert d.id != x.id and not d.requires_grad
    y = (a * 3.0).sum()
    g = backward(y)
    np.testing.assert_allclose(g[x].numpy(), np.full((2, 2), 3.0))
    assert g[x.id] is g[x] and x in g and g.get(d) is None
    with pytest.raises(KeyError):
        g[d]
    assert isinstance(g, GradStore) and len(g) >= 2


def test_grad_fn_interface():
    x, w = Var(rand64((2, 3))), Var(rand64((3, 4), seed=1))
    y = nr.matmul(x, w)
    fn = y.grad_fn
    assert fn.name == "MatmulBackward"
    assert fn.inputs == (x.id, w.id)
    assert fn.input_grad_fns == (None, None)
    assert len(fn.saved_tensors) == 2
    gs = fn.backward(nr.ones((2, 4), dtype=nr.float64))
    assert [g.shape for g in gs] == [(2, 3), (3, 4)]
    gv = fn.backward_var(Var(nr.ones((2, 4), dtype=nr.float64), requires_grad=False))
    assert all(isinstance(g, Var) for g in gv)
    z = nr.exp(y)
    assert z.grad_fn.input_grad_fns == (fn,)


def test_public_api_records_graph():
    x = Var(rand64((3, 4)))
    w = Var(rand64((4, 2), seed=2))
    g_, u_ = Var(rand64((3, 2), seed=3)), Var(rand64((3, 2), seed=4))
    parts = [nr.exp(x).sum(), nr.matmul(x, w).sum(), x.sum(dim=0).sum(), nr.silu_mul(g_, u_).sum(),
             x.mean(), x.var(dim=1).sum(), nr.softmax(x, -1)[0, 0],
             (x.T @ x).sum()]
    loss = parts[0]
    for p in parts[1:]:
        loss = loss + p
    assert isinstance(loss, Var) and loss.requires_grad
    grads = backward(loss)
    for v in (x, w, g_, u_):
        assert grads[v].shape == v.shape and grads[v].dtype == v.dtype
    # tensor + var and tensor methods route to the tracer
    t = nr.ones((3, 4), dtype=nr.float64)
    assert isinstance(t + x, Var) and isinstance(t * x, Var) and isinstance(nr.add(t, x), Var)
    # non-differentiable ops give plain tensors
    assert isinstance(x > 0, nr.Tensor) and isinstance(nr.argmax(x, 1), nr.Tensor)
    assert not nr.floor(x).requires_grad


def test_accumulation_and_broadcast_reduction():
    x = Var(rand64((3, 1)))
    b = Var(rand64((4,), seed=1))
    y = (x * b + x * x + b).sum()  # x used three times, broadcast both ways
    g = backward(y)
    xn, bn = x.numpy(), b.numpy()
    np.testing.assert_allclose(g[x].numpy(), (bn.sum() + 4 * 2 * xn), rtol=1e-12)
    np.testing.assert_allclose(g[b].numpy(), xn.sum() + 3.0, rtol=1e-12)
    assert g[x].shape == (3, 1) and g[b].shape == (4,)


def test_float32_and_mixed_dtypes():
    x = Var(nr.ones((2, 3), dtype=nr.float32))
    y = (x * nr.ones((2, 3), dtype=nr.float64)).sum()  # promotes to float64
    assert y.dtype == nr.float64
    g = backward(y)[x]
    assert g.dtype == nr.float32 and g.shape == (2, 3)
    h = nr.ones((2,), dtype=nr.float16)
    v = Var(h)
    gv = backward(nr.exp(v).sum())[v]
    assert gv.dtype == nr.float16
    with pytest.raises(nr.DTypeError):
        Var(nr.ones((2,), dtype=nr.int32))


def test_noncontiguous_incoming_gradient():
    x = Var(rand64((4, 3)))
    y = x.T  # the gradient reaching x arrives transposed
    g = backward((y * nr.arange(4, dtype=nr.float64)).sum())[x]
    np.testing.assert_allclose(g.numpy(), np.broadcast_to(np.arange(4.0)[:, None], (4, 3)))
    s = Var(rand64((6,)))
    g2 = backward(s[::-2].sum() + s.flip(0)[1:4].sum())[s]
    np.testing.assert_allclose(g2.numpy(), [0, 1, 1, 2, 1, 1])


def test_backward_with_explicit_grad_and_errors():
    x = Var(rand64((2, 3)))
    y = x * 2.0
    g = backward(y, grad=nr.full((2, 3), 0.5, dtype=nr.float64))
    np.testing.assert_allclose(g[x].numpy(), np.ones((2, 3)))
    with pytest.raises(nr.ShapeError):
        backward(y)
    with pytest.raises(ValueError):
        backward(Var(nr.ones(()), requires_grad=False))
    with no_grad():
        z = x * 2.0
    assert not z.requires_grad and z.grad_fn is None


def test_long_chain_is_iterative():
    x = Var(nr.tensor([1.0], dtype=nr.float64))
    y = x
    n = 100_000
    for _ in range(n):
        y = y * 1.0000001
    g = backward(y.sum())[x]
    np.testing.assert_allclose(g.numpy(), [1.0000001 ** n], rtol=1e-9)


def test_hooks_fire_once_when_final():
    class Hook:
        def __init__(self):
            self.calls = []

        def on_leaf_grad_ready(self, id_, grad):
            self.calls.append((id_, grad.numpy().copy()))

    a, b = Var(rand64((3,))), Var(rand64((3,), seed=1))
    h = (a * b).sum() + (a * a).sum() + b.sum()
    hook = Hook()
    grads = backward_with_hooks(h, hook)
    ids = [c[0] for c in hook.calls]
    assert sorted(ids) == sorted([a.id, b.id])
    for id_, val in hook.calls:
        np.testing.assert_allclose(val, grads[id_].numpy())


def test_unsupported_and_inplace():
    x = Var(rand64((3,)))
    with pytest.raises(TypeError):
        x[0] = 1.0
    with pytest.raises(nr.UnsupportedOperation):
        nr.fill_(x, 1.0)


def test_retain_intermediate():
    x = Var(rand64((3,)))
    h = nr.exp(x)
    y = (h * h).sum()
    full = backward(y)
    lean = backward(y, retain_intermediate=False)
    assert h in full and h not in lean and x in lean
    np.testing.assert_allclose(lean[x].numpy(), full[x].numpy())


def test_no_graph_truncation_through_casts_and_views():
    """The Rust crate lost the graph when a backward dropped an input's grad_fn (unary -> cast)."""
    x = Var(rand64((2, 3)))
    y = nr.cast(nr.sin(nr.cast(nr.exp(x), nr.float32)).T.reshape(-1), nr.float64)
    g = backward((y * y).sum())[x]
    xn = x.numpy()
    e = np.exp(xn).astype(np.float32).astype(np.float64)
    np.testing.assert_allclose(g.numpy(), 2 * np.sin(e) * np.cos(e) * np.exp(xn), rtol=1e-5)
    assert g.dtype == nr.float64


def test_var_operand_of_plain_tensor_inplace_raises(device):
    # t += v, t.copy_(v), t[i] = v went to the client, which read the Var's values through
    # __array__ (a host round trip on GPUs) and dropped its gradient silently; they raise now,
    # before writing (found by the in-place checks of tools/fuzz). Out-of-place ops trace.
    from numr.autograd import DualTensor
    t = nr.zeros((3,), dtype=nr.float64, device=device)
    v = Var(nr.tensor([1.0, 2.0, 3.0], dtype=nr.float64, device=device))
    d = DualTensor(nr.tensor([1.0, 2.0, 3.0], dtype=nr.float64, device=device))
    for op in (lambda: t.__iadd__(v), lambda: t.add_(v), lambda: t.copy_(v), lambda: t.__setitem__(slice(None), v),
               lambda: t.__setitem__([0, 1, 2], v), lambda: t.__setitem__(slice(None), d)):
        with pytest.raises(nr.errors.DTypeError, match="derivative"):
            op()
    np.testing.assert_array_equal(t.numpy(), [0.0, 0.0, 0.0])
    y = t + v
    assert isinstance(y, Var)
    np.testing.assert_array_equal(backward(y.sum())[v].numpy(), [1.0, 1.0, 1.0])


def test_inplace_write_of_saved_tensor_raises(device):
    # like PyTorch's version counter: a tensor a node saved and then written in place (directly,
    # through a view, by setitem, index_put_, fill_ or an in-place operator) makes backward raise
    # instead of returning a wrong gradient (it silently used the new values)
    from numr.autograd import SavedTensorModifiedError, backward_with_graph

    def x_and_c():
        x = Var(nr.tensor([1.0, 2.0, 3.0], dtype=nr.float64, device=device))
        c = nr.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype=nr.float64, device=device)
        return x, c

    writes = [lambda c, x: c.add_(1.0), lambda c, x: c.__imul__(2.0), lambda c, x: c[0].fill_(0.0),
              lambda c, x: c.T[1, 0].zero_(), lambda c, x: c.__setitem__((0, [0, 2]), 9.0),
              lambda c, x: c[0].copy_(c[1]), lambda c, x: nr.index_put_(c[0], 0, nr.tensor([1], device=device),
                                                                          nr.tensor([7.0], device=device)),
              lambda c, x: x.tensor.add_(1.0)]
    for write in writes:
        x, c = x_and_c()
        y = (x * c[0]).sum()          # mul saves both operands; c[0] is a view of c
        write(c, x)
        with pytest.raises(SavedTensorModifiedError, match="MulBackward"):
            backward(y)
        x, c = x_and_c()
        y = (x * c[0]).sum()
        write(c, x)
        with pytest.raises(SavedTensorModifiedError):
            backward_with_graph(y)
    # a saved output written in place
    x, _ = x_and_c()
    y = nr.exp(x)
    y.tensor[1:] = 0.0
    with pytest.raises(SavedTensorModifiedError, match="ExpBackward"):
        backward(y.sum())
    # writes before the op, or to tensors nobody saved, are fine (views of one tensor share its
    # version, as in PyTorch: writing c[1] would count for a saved c[0] too)
    x, c = x_and_c()
    d = nr.tensor([1.0, 1.0, 1.0], dtype=nr.float64, device=device)
    c[0].add_(1.0)
    y = (x * c[0]).sum() + (x + d).sum()
    d.fill_(0.0)                      # add saves neither operand
    np.testing.assert_array_equal(backward(y)[x].numpy(), [3.0, 4.0, 5.0])


def test_slice_gradients_add_up_lazily():
    """Gradients of many slices of one tensor (unbind, overlapping slices, an int index, a slice
    also used whole) are added by the engine without a zeroed full-size tensor per slice; the
    values match NumPy's accumulation, and hooks and intermediate nodes see dense tensors."""
    a = rand64((6, 4), seed=3)
    v = Var(nr.tensor(a))
    rows = nr.unbind(v, 0)
    loss = nr.sum(rows[0] * rows[0]) + nr.sum(v[1:4] * 2.0) + nr.sum(v[2:5]) + nr.sum(v[5] * v[5]) + nr.sum(v)
    g = backward(loss)[v]
    exp = np.ones_like(a)
    exp[0] += 2 * a[0]
    exp[1:4] += 2.0
    exp[2:5] += 1.0
    exp[5] += 2 * a[5]
    assert isinstance(g, nr.Tensor) and g.shape == (6, 4) and g.dtype == nr.float64
    np.testing.assert_allclose(g.numpy(), exp, rtol=1e-12)
    seen = {}

    class Hook:
        def on_leaf_grad_ready(self, id_, grad):
            seen[id_] = grad

    w = Var(nr.tensor(a))
    mid = w * 3.0  # an intermediate node whose incoming gradient is sliced
    grads = backward_with_hooks(nr.sum(mid[0]) + nr.sum(mid[1:3] * mid[1:3]), Hook())
    exp = np.zeros_like(a)
    exp[0] = 3.0
    exp[1:3] = 18 * a[1:3]
    assert isinstance(seen[w.id], nr.Tensor)
    np.testing.assert_allclose(grads[w].numpy(), exp, rtol=1e-12)
    np.testing.assert_allclose(seen[w.id].numpy(), exp, rtol=1e-12)
