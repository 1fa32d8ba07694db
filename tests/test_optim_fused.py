"""numr.optim's fused steps (the internal client ops _adam_step and _sgd_step): the CPU kernel
(numr/_cpu/kernels/optim_ops.h) against the composite (numr/ops/generic/optim.py) for every fused
dtype and flag, each backend against a NumPy float64 reference, and in-place semantics (the
parameter's and the state's storage are written; views, offsets, strided and mixed-dtype inputs)."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_close
from test_optim import np_adam, np_sgd

import numr as nr
from numr.autograd import Var
from numr.ops.generic import optim as generic
from numr.optim import SGD, Adam, AdamW

ADAM = [dict(), dict(weight_decay=0.1, amsgrad=True, maximize=True), dict(weight_decay=0.3, decoupled=True),
        dict(weight_decay=0.2, decoupled=True, amsgrad=True)]
SGDS = [dict(), dict(momentum=0.9, dampening=0.1, weight_decay=0.01), dict(momentum=0.8, nesterov=True,
                                                                            maximize=True)]


def _adam(client, fn, p, gs, kw, lr=0.05, b=(0.8, 0.95), eps=1e-3):
    m, v = nr.zeros_like(p), nr.zeros_like(p)
    vmax = nr.zeros_like(p) if kw.get("amsgrad") else None
    for t, g in enumerate(gs, 1):
        fn(client, p, g, m, v, vmax, lr, b[0], b[1], eps, kw.get("weight_decay", 0.0), kw.get("decoupled", False),
           kw.get("maximize", False), t)
    return p, m, v


def _sgd(client, fn, p, gs, kw, lr=0.05):
    buf = nr.empty_like(p) if kw.get("momentum") else None
    for t, g in enumerate(gs):
        fn(client, p, g, buf, lr, kw.get("momentum", 0.0), kw.get("dampening", 0.0), kw.get("weight_decay", 0.0),
           kw.get("nesterov", False), kw.get("maximize", False), t == 0)
    return p, buf


RMS = [dict(), dict(weight_decay=0.1, centered=True, maximize=True), dict(momentum=0.5),
       dict(momentum=0.5, centered=True)]


def _rms(client, fn, p, gs, kw, lr=0.02, alpha=0.9, eps=1e-3):
    sq = nr.zeros_like(p)
    ga = nr.zeros_like(p) if kw.get("centered") else None
    buf = nr.zeros_like(p) if kw.get("momentum") else None
    for g in gs:
        fn(client, p, g, sq, ga, buf, lr, alpha, eps, kw.get("weight_decay", 0.0), kw.get("momentum", 0.0),
           kw.get("maximize", False))
    return p, sq, ga, buf


def _data(n, dtype, steps=3, device="cpu", seed=0):
    rng = np.random.default_rng(seed)
    p = rng.standard_normal(n)
    gs = [rng.standard_normal(n) for _ in range(steps)]
    return p, gs, nr.tensor(p, dtype=dtype, device=device), [nr.tensor(g, dtype=dtype, device=device) for g in gs]


def _fused_vs_composite(device, dtype, n, adams, sgds, tol=0.0, rmss=()):
    """Each Adam (adams), SGD (sgds) and RMSprop (rmss) configuration, 3 steps, by the client's op
    and by the composite from the same data: every result tensor equal within tol (0: bit for bit)."""
    client = nr.zeros(1, device=device).client
    runs = ([(_adam, "_adam_step", kw) for kw in adams] + [(_sgd, "_sgd_step", kw) for kw in sgds]
            + [(_rms, "_rmsprop_step", kw) for kw in rmss])
    for run, name, kw in runs:
        _, _, p1, gs = _data(n, dtype, device=device)
        _, _, p2, _ = _data(n, dtype, device=device)
        got = run(client, getattr(type(client), name), p1, gs, kw)
        want = run(client, getattr(generic, name), p2, gs, kw)
        for a, b in zip(got, want, strict=True):
            if a is not None:
                assert a.dtype == nr.dtype(dtype) and a.device == p1.device
                np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", ["float64", "float32", "float16", "bfloat16"])
def test_cpu_kernel_matches_composite(dtype):
    """The one-pass kernel writes what the composite computes, bit for bit (op for op, no fma
    contraction, float16/bfloat16 rounded where the composite stores; 5000 elements: two blocks and
    a tail)."""
    _fused_vs_composite("cpu", dtype, 5000, ADAM, SGDS, rmss=RMS)


@pytest.mark.parametrize("dtype", ["float64", "float32", "float16", "bfloat16"])
def test_gpu_kernel_matches_composite(device, dtype):
    """A GPU's fused step writes what its composite computes: CUDA (kernels/optim.cu, _rn
    intrinsics) bit for bit, wgpu (shaders/optim.wgsl, float32) to rounding (an adapter may fuse
    a multiply-add; lavapipe's results are bit-identical). cpu: test_cpu_kernel_matches_composite."""
    if device == "cpu" or (device == "wgpu" and dtype != "float32"):
        pytest.skip("cpu: tested above; wgpu: the float32 shader (other dtypes run the composite)")
    _fused_vs_composite(device, dtype, 300, ADAM[1:], SGDS[1:], tol=0.0 if device == "cuda" else 1e-6)


def test_step_matches_numpy(device):
    """Each backend's _adam_step/_sgd_step (kernel or composite) against the float64 NumPy reference."""
    client = nr.zeros(1, device=device).client
    for kw in ADAM[1:3]:
        p0, g0, p, gs = _data(7, "float32", device=device)
        _adam(client, type(client)._adam_step, p, gs, kw)
        s, ref = {}, p0
        for g in g0:
            ref = np_adam(ref, g, s, lr=0.05, betas=(0.8, 0.95), eps=1e-3, **kw)
        assert p.dtype == nr.float32 and p.device == nr.zeros(1, device=device).device
        assert_close(p, ref, rtol=1e-5, atol=1e-6)
    kw = SGDS[2]
    p0, g0, p, gs = _data(7, "float32", device=device)
    _sgd(client, type(client)._sgd_step, p, gs, kw)
    s, ref = {}, p0
    for g in g0:
        ref = np_sgd(ref, g, s, lr=0.05, **kw)
    assert_close(p, ref, rtol=1e-5, atol=1e-6)


def test_in_place_views_and_layouts():
    """Offset, strided and flipped parameters update their own storage; mixed dtypes and empty work."""
    runs = {"offset": lambda b: b[2:8], "strided": lambda b: b[1:12:2], "flipped": lambda b: b[10:4:-1]}
    for name, make in runs.items():
        base = nr.tensor(np.arange(13.0))
        view = make(base)
        untouched = np.setdiff1d(np.arange(13), make(np.arange(13)))
        want_p = view.numpy().copy()
        p = Var(view)
        g = nr.tensor(np.linspace(-1, 1, 6))
        opt = Adam([p], lr=0.1, amsgrad=name == "strided")
        opt.step(grads={p: g})
        s = {}
        want = np_adam(want_p, np.linspace(-1, 1, 6), s, lr=0.1, amsgrad=name == "strided")
        assert_close(p.tensor, want, rtol=1e-12, atol=1e-14)
        assert p.tensor is view, name
        assert_close(make(base), want, rtol=1e-12, atol=1e-14)  # the base's storage holds the update
        assert base.numpy()[untouched].tolist() == untouched.tolist()  # and nothing outside the view
    # float32 parameter with a float64 gradient, and an empty parameter: the composite's casts
    p = Var(nr.tensor([1.0, -2.0], dtype="float32"))
    AdamW([p], lr=0.1).step(grads={p: nr.tensor([0.5, 0.5])})
    assert p.dtype == nr.float32
    assert_close(p.tensor, np_adam(np.array([1.0, -2.0]), np.array([0.5, 0.5]), {}, lr=0.1, weight_decay=1e-2,
                                   decoupled=True), rtol=1e-6, atol=1e-7)
    e = Var(nr.zeros((0, 3)))
    SGD([e], lr=0.1, momentum=0.9).step(grads={e: nr.zeros((0, 3))})
    assert tuple(e.shape) == (0, 3)


def test_state_buffers_written_in_place():
    """The moment buffers keep their identity across steps (the kernel writes them)."""
    p = Var(nr.tensor(np.linspace(-1, 1, 10), dtype="float32"))
    opt = Adam([p], lr=0.1, amsgrad=True)
    opt.step(grads={p: nr.ones((10,), dtype="float32")})
    bufs = [opt.state[p][k] for k in ("exp_avg", "exp_avg_sq", "max_exp_avg_sq")]
    opt.step(grads={p: nr.ones((10,), dtype="float32")})
    assert [opt.state[p][k] for k in ("exp_avg", "exp_avg_sq", "max_exp_avg_sq")] == bufs
    assert_close(bufs[0], np.full(10, 0.1 + 0.9 * 0.1), rtol=1e-6)
