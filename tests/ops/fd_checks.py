"""Central-difference checks shared by the op tests: reverse mode against the numerical gradient
of sum(f(*args) * w), forward mode (jvp) against the directional difference."""

from __future__ import annotations

import numpy as np
from conftest import assert_close

import numr as nr
from numr.autograd import Var, backward, jvp


def check_grads(device, f, arrays, seed=0, rtol=1e-6, atol=1e-6, eps=1e-6):
    """Every float64 array argument of f (on ``device``): its gradient and f's jvp."""
    def make(a):
        return nr.tensor(a, device=device)

    rng = np.random.default_rng(seed)
    out = f(*[make(a) for a in arrays])
    w = make(rng.standard_normal(out.shape))

    def loss(*arrs):
        return (f(*[make(a) for a in arrs]) * w).sum().item()

    vs = [Var(make(a)) for a in arrays]
    g = backward((f(*vs) * w).sum())
    for i, a in enumerate(arrays):
        num = np.zeros_like(a)
        for k in np.ndindex(a.shape):
            hi, lo = [b.copy() for b in arrays], [b.copy() for b in arrays]
            hi[i][k] += eps
            lo[i][k] -= eps
            num[k] = (loss(*hi) - loss(*lo)) / (2 * eps)
        assert_close(g[vs[i]], num, rtol=rtol, atol=atol)
    ts = [rng.standard_normal(a.shape) for a in arrays]
    _, tan = jvp(f, tuple(make(a) for a in arrays), tuple(make(t) for t in ts))
    hi = f(*[make(a + eps * t) for a, t in zip(arrays, ts, strict=True)]).numpy()
    lo = f(*[make(a - eps * t) for a, t in zip(arrays, ts, strict=True)]).numpy()
    assert_close(tan, (hi - lo) / (2 * eps), rtol=rtol, atol=atol)
