"""numr.optim: each optimizer's 5-step trajectory against a NumPy float64 re-implementation of
torch.optim's documented update (and torch.optim itself where installed), state_dict round trips,
the schedulers' closed forms, in-place updates on the parameter's device, errors, and a small
regression problem that converges."""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import assert_close

import numr as nr
from numr.autograd import Var, backward
from numr.optim import SGD, Adagrad, Adam, AdamW, RMSprop, lr_scheduler

C = np.array([1.0, 2.0, 0.5, 3.0, 0.2, 1.5])
D = np.array([0.3, -1.0, 2.0, 0.1, -0.4, 0.0])
P0 = np.array([1.0, -2.0, 0.5, 0.0, 3.0, -1.0])


def grad_np(p):
    """The gradient of the test objective 0.5 sum(C p^2) + sum(D p) + sum(p^3) / 6."""
    return C * p + D + 0.5 * p * p


def loss_nr(p):
    return nr.sum(0.5 * nr.tensor(C, device=p.device) * p * p + nr.tensor(D, device=p.device) * p + p * p * p / 6)


def np_sgd(p, g, s, lr=1e-3, momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False, maximize=False):
    g = -g if maximize else g
    g = g + weight_decay * p
    if momentum:
        s["buf"] = g.copy() if "buf" not in s else momentum * s["buf"] + (1 - dampening) * g
        g = g + momentum * s["buf"] if nesterov else s["buf"]
    return p - lr * g


def np_adam(p, g, s, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0, amsgrad=False, maximize=False,
            decoupled=False):
    g = -g if maximize else g
    if decoupled:
        p = p * (1 - lr * weight_decay)
    else:
        g = g + weight_decay * p
    t = s["t"] = s.get("t", 0) + 1
    s["m"] = betas[0] * s.get("m", 0) + (1 - betas[0]) * g
    s["v"] = betas[1] * s.get("v", 0) + (1 - betas[1]) * g * g
    v = s["vmax"] = np.maximum(s.get("vmax", 0), s["v"]) if amsgrad else s["v"]
    denom = np.sqrt(v) / math.sqrt(1 - betas[1] ** t) + eps
    return p - lr / (1 - betas[0] ** t) * s["m"] / denom


def np_adamw(p, g, s, weight_decay=1e-2, **kw):
    return np_adam(p, g, s, weight_decay=weight_decay, decoupled=True, **kw)


def np_rmsprop(p, g, s, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0.0, momentum=0.0, centered=False,
               maximize=False):
    g = -g if maximize else g
    g = g + weight_decay * p
    s["sq"] = alpha * s.get("sq", 0) + (1 - alpha) * g * g
    avg = s["sq"]
    if centered:
        s["ga"] = alpha * s.get("ga", 0) + (1 - alpha) * g
        avg = avg - s["ga"] ** 2
    avg = np.sqrt(avg) + eps
    if momentum > 0:
        s["buf"] = momentum * s.get("buf", 0) + g / avg
        return p - lr * s["buf"]
    return p - lr * g / avg


def np_adagrad(p, g, s, lr=1e-2, lr_decay=0.0, weight_decay=0.0, initial_accumulator_value=0.0, eps=1e-10,
               maximize=False):
    g = -g if maximize else g
    g = g + weight_decay * p
    t = s["t"] = s.get("t", 0) + 1
    s["sum"] = s.get("sum", initial_accumulator_value) + g * g
    return p - lr / (1 + (t - 1) * lr_decay) * g / (np.sqrt(s["sum"]) + eps)


CASES = [
    (SGD, np_sgd, dict(lr=0.1)),
    (SGD, np_sgd, dict(lr=0.05, momentum=0.9, dampening=0.1, weight_decay=0.01)),
    (SGD, np_sgd, dict(lr=0.05, momentum=0.8, nesterov=True, maximize=True)),
    (Adam, np_adam, dict(lr=0.1)),
    (Adam, np_adam, dict(lr=0.05, betas=(0.8, 0.9), weight_decay=0.1, amsgrad=True)),
    (Adam, np_adam, dict(lr=0.05, maximize=True, eps=1e-3)),
    (AdamW, np_adamw, dict(lr=0.1)),
    (AdamW, np_adamw, dict(lr=0.05, weight_decay=0.3, amsgrad=True)),
    (RMSprop, np_rmsprop, dict()),
    (RMSprop, np_rmsprop, dict(lr=0.02, momentum=0.5, centered=True, weight_decay=0.1)),
    (Adagrad, np_adagrad, dict(lr=0.1, lr_decay=0.1, weight_decay=0.05, initial_accumulator_value=0.2)),
]
IDS = [f"{c.__name__}-{i}" for i, (c, _, _) in enumerate(CASES)]


def _run(cls, kw, steps, device="cpu", dtype="float64"):
    p = Var(nr.tensor(P0, dtype=dtype, device=device))
    opt = cls([p], **kw)
    traj = []
    for _ in range(steps):
        opt.zero_grad()
        opt.backward(loss_nr(p))
        opt.step()
        traj.append(p.tensor.numpy().astype(np.float64))
    return p, opt, traj


@pytest.mark.parametrize("case", range(len(CASES)), ids=IDS)
def test_trajectory_matches_numpy(case):
    cls, ref, kw = CASES[case]
    _, _, traj = _run(cls, kw, 5)
    p, s = P0.copy(), {}
    for got in traj:
        p = ref(p, grad_np(p), s, **kw)
        np.testing.assert_allclose(got, p, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("case", range(len(CASES)), ids=IDS)
def test_trajectory_matches_torch(case):
    torch = pytest.importorskip("torch")
    cls, _, kw = CASES[case]
    _, _, traj = _run(cls, kw, 5)
    tp = torch.tensor(P0, requires_grad=True)
    opt = getattr(torch.optim, cls.__name__)([tp], **kw)
    for got in traj:
        opt.zero_grad()
        g = torch.tensor(grad_np(tp.detach().numpy()))
        tp.grad = g
        opt.step()
        np.testing.assert_allclose(got, tp.detach().numpy(), rtol=1e-10, atol=1e-13)


def test_on_device_in_place(device):
    """The update writes the parameter's own tensor on its device, float32 stays float32."""
    p, opt, traj = _run(Adam, dict(lr=0.1, amsgrad=True), 2, device=device, dtype="float32")
    before = p.tensor
    _, _, ref = _run(Adam, dict(lr=0.1, amsgrad=True), 2)
    np.testing.assert_allclose(traj[-1], ref[-1], rtol=1e-5, atol=1e-6)
    st = opt.state[p]
    assert st["step"] == 2 and st["exp_avg"].device == p.device and st["exp_avg"].dtype == nr.float32
    opt.step(grads={p: nr.ones((6,), dtype="float32", device=device)})  # explicit gradients
    assert p.tensor is before and p.tensor.device == before.device and p.dtype == nr.float32
    assert p.is_leaf and p.grad_fn is None  # no graph recorded by the update


def test_state_dict_round_trip():
    cls, kw = Adam, dict(lr=0.1, amsgrad=True, weight_decay=0.01)
    _, _, full = _run(cls, kw, 5)
    p, opt, _ = _run(cls, kw, 3)
    sd = opt.state_dict()
    assert sd["param_groups"][0]["params"] == [0] and sd["state"][0]["step"] == 3
    saved = {k: (v.clone() if isinstance(v, nr.Tensor) else v) for k, v in sd["state"][0].items()}
    q = Var(nr.tensor(p.tensor.numpy()))
    opt2 = cls([q], lr=1.0)  # the loaded hyper-parameters replace these
    opt2.load_state_dict({"state": {0: saved}, "param_groups": sd["param_groups"]})
    assert opt2.param_groups[0]["lr"] == 0.1
    for want in full[3:]:
        opt2.zero_grad()
        opt2.backward(loss_nr(q))
        opt2.step()
        np.testing.assert_allclose(q.tensor.numpy(), want, rtol=1e-14, atol=0)
    with pytest.raises(nr.ShapeError, match="groups"):
        SGD([Var(nr.zeros(2)), ], lr=0.1).load_state_dict({"state": {}, "param_groups": sd["param_groups"] * 2})


def test_groups_accumulation_and_step_grads():
    a, b = Var(nr.tensor([1.0, 2.0])), Var(nr.tensor([3.0]))
    opt = SGD([{"params": [a]}, {"params": b, "lr": 0.5}], lr=0.1)
    assert [g["lr"] for g in opt.param_groups] == [0.1, 0.5]
    opt.backward(nr.sum(a * a) + nr.sum(b))
    opt.backward(nr.sum(a))  # gradients add up until zero_grad
    assert_close(opt.grad(a), [3.0, 5.0])
    opt.step()
    assert_close(a.tensor, [0.7, 1.5])
    assert_close(b.tensor, [2.5])
    opt.zero_grad()
    assert opt.grad(a) is None
    opt.step()  # no gradients: nothing moves
    assert_close(b.tensor, [2.5])
    opt.step(grads=backward(nr.sum(b * b)))  # or a GradStore
    assert_close(b.tensor, [0.0])
    assert_close(a.tensor, [0.7, 1.5])


def test_errors():
    p = Var(nr.zeros(3))
    with pytest.raises(nr.DTypeError, match="Var"):
        SGD([nr.zeros(3)], lr=0.1)
    with pytest.raises(nr.ShapeError, match="leaf"):
        SGD([p * 2], lr=0.1)
    with pytest.raises(nr.ShapeError, match="more than one group"):
        SGD([{"params": [p]}, {"params": [p]}], lr=0.1)
    with pytest.raises(nr.ShapeError, match="empty"):
        Adam([])
    with pytest.raises(nr.DomainError, match="lr"):
        Adam([p], lr=-1.0)
    with pytest.raises(nr.DomainError, match="betas"):
        Adam([p], betas=(0.9, 1.0))
    with pytest.raises(nr.DomainError, match="nesterov"):
        SGD([p], lr=0.1, nesterov=True)
    with pytest.raises(nr.ShapeError, match="gradient shape"):
        SGD([p], lr=0.1).step(grads={p: nr.zeros(2)})


def test_schedulers():
    def lrs(make, n=7):
        opt = SGD([Var(nr.zeros(1))], lr=0.5)
        sch = make(opt)
        out = [sch.get_last_lr()[0]]
        for _ in range(n):
            opt.step()
            sch.step()
            out.append(opt.param_groups[0]["lr"])
        return out
    e = np.arange(8)
    np.testing.assert_allclose(lrs(lambda o: lr_scheduler.StepLR(o, 3, 0.5)), 0.5 * 0.5 ** (e // 3), rtol=1e-15)
    np.testing.assert_allclose(lrs(lambda o: lr_scheduler.ExponentialLR(o, 0.9)), 0.5 * 0.9 ** e, rtol=1e-15)
    np.testing.assert_allclose(lrs(lambda o: lr_scheduler.CosineAnnealingLR(o, 5, 0.01)),
                               0.01 + 0.49 * (1 + np.cos(np.pi * e / 5)) / 2, rtol=1e-14)
    np.testing.assert_allclose(lrs(lambda o: lr_scheduler.LambdaLR(o, lambda k: 1 / (k + 1))), 0.5 / (e + 1),
                               rtol=1e-15)
    torch = pytest.importorskip("torch")
    t = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.5)
    ts = torch.optim.lr_scheduler.CosineAnnealingLR(t, 5, 0.01)
    want = [ts.get_last_lr()[0]]
    for _ in range(7):
        t.step()
        ts.step()
        want.append(ts.get_last_lr()[0])
    np.testing.assert_allclose(lrs(lambda o: lr_scheduler.CosineAnnealingLR(o, 5, 0.01)), want, rtol=1e-12)


@pytest.mark.parametrize("cls,kw", [(Adam, dict(lr=0.05)), (SGD, dict(lr=0.05, momentum=0.9))])
def test_regression_converges(cls, kw):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(64, 3))
    y = x @ np.array([[1.5], [-2.0], [0.5]]) + 0.3
    w, b = Var(nr.zeros((3, 1))), Var(nr.zeros((1,)))
    opt = cls([w, b], **kw)
    xt, yt = nr.tensor(x), nr.tensor(y)
    for _ in range(300):
        opt.zero_grad()
        loss = opt.backward(nr.mse_loss(xt @ w + b, yt))
        opt.step()
    assert float(loss) < 1e-4
    np.testing.assert_allclose(w.tensor.numpy().ravel(), [1.5, -2.0, 0.5], atol=1e-2)
