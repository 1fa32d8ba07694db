"""End to end: a small SwiGLU MLP trained by plain gradient descent; every
step's loss follows a hand-derived NumPy float64 reference."""

from __future__ import annotations

import numpy as np
import pytest

import numr as nr
from numr.autograd import Var, backward, var_swiglu


def _data(seed=0, n=32, d=6, h=8):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, d))
    y = np.sin(x[:, :1]) + 0.5 * x[:, 1:2] * x[:, 2:3]
    params = {"wg": rng.normal(size=(d, h)) * 0.4, "wu": rng.normal(size=(d, h)) * 0.4,
              "bu": np.zeros(h), "wd": rng.normal(size=(h, 1)) * 0.4}
    return x, y, params


def _numpy_step(x, y, p, lr):
    """Forward, loss and a hand-written backward of the same model in NumPy float64."""
    a = x @ p["wg"]
    b = x @ p["wu"] + p["bu"]
    s = 1 / (1 + np.exp(-a))
    h = a * s * b
    pred = h @ p["wd"]
    r = pred - y
    loss = np.mean(r * r)
    dpred = 2 * r / r.size
    dwd = h.T @ dpred
    dh = dpred @ p["wd"].T
    da = dh * b * s * (1 + a * (1 - s))
    db = dh * a * s
    grads = {"wg": x.T @ da, "wu": x.T @ db, "bu": db.sum(0), "wd": dwd}
    return loss, {k: p[k] - lr * grads[k] for k in p}


@pytest.mark.parametrize("dtype,rtol", [("float64", 1e-10), ("float32", 2e-4)])
def test_swiglu_mlp_training_follows_numpy(dtype, rtol):
    x, y, p_np = _data()
    lr, steps = 0.2, 40
    xt = nr.tensor(x, dtype=dtype)
    yt = nr.tensor(y, dtype=dtype)
    params = {k: Var(nr.tensor(v, dtype=dtype)) for k, v in p_np.items()}
    losses, ref = [], []
    for _ in range(steps):
        gate = xt @ params["wg"]
        up = nr.matmul_bias(xt, params["wu"], params["bu"])
        pred = var_swiglu(gate, up) @ params["wd"]
        loss = ((pred - yt) ** 2.0).mean()
        grads = backward(loss)
        for k, v in params.items():
            g = grads[v]
            assert g.shape == v.shape and g.dtype == v.dtype
            params[k] = Var(v.tensor - g * lr)
        losses.append(float(loss.item()))
        r, p_np = _numpy_step(x, y, p_np, lr)
        ref.append(r)
    np.testing.assert_allclose(losses, ref, rtol=rtol)
    assert losses[-1] < 0.5 * losses[0]
