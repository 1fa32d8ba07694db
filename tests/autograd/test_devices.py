"""Autograd is backend-generic: the same small graph differentiated on every backend
(float32) agrees with the CPU in float64."""

from __future__ import annotations

import numpy as np
import pytest

import numr as nr
from numr.autograd import Var, backward, jvp


def _model(x, w, g, u):
    h = nr.silu_mul(x @ w, g) + nr.sigmoid(u) * nr.tanh(x @ w)
    return (nr.softmax(h, -1) * nr.log_softmax(h * 0.5, 0)).sum() + nr.relu(h).mean() + (h * h).var()


def _inputs(device, dtype):
    rng = np.random.default_rng(0)
    arrs = [rng.uniform(-1, 1, s) for s in ((3, 4), (4, 5), (3, 5), (1, 5))]
    return [nr.tensor(a, dtype=dtype, device=device) for a in arrs]


def test_backward_and_jvp_on_every_backend(device):
    try:
        ts = _inputs(device, "float32")
        vs = [Var(t) for t in ts]
        grads = backward(_model(*vs))
    except nr.UnsupportedOperation as e:
        if device == "cpu":
            raise
        pytest.skip(str(e))
    ref_vs = [Var(t) for t in _inputs("cpu", "float64")]
    ref = backward(_model(*ref_vs))
    for v, r in zip(vs, ref_vs, strict=True):
        g = grads[v]
        assert g.shape == v.shape and g.dtype == nr.float32 and str(g.device) == str(v.device)
        np.testing.assert_allclose(g.numpy(), ref[r].numpy(), rtol=2e-4, atol=2e-5)
    t = nr.ones((3, 4), dtype=nr.float32, device=device)
    _, tan = jvp(lambda x: _model(x, *ts[1:]), (ts[0],), (t,))
    _, tan_ref = jvp(lambda x: _model(x, *_inputs("cpu", "float64")[1:]), (_inputs("cpu", "float64")[0],),
                     (nr.ones((3, 4), dtype=nr.float64),))
    np.testing.assert_allclose(tan.numpy(), tan_ref.numpy(), rtol=2e-4, atol=2e-5)
