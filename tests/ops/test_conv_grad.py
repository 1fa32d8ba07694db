"""conv2d's gradient rule and conv2d_weight_grad on every backend, and the CPU's direct
depthwise kernels (forward, input gradient = conv_transpose2d with one output channel per
group, weight gradient) against float64 NumPy loops, torch.nn.grad.conv2d_weight and central
differences: strides, dilations, "same" padding with an odd total, channel multipliers, views,
unbatched and empty inputs, NaN, errors."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_close
from hypothesis import given, settings
from hypothesis import strategies as st
from test_conv import f64, make, np_conv2d, np_conv_transpose2d, pair

import numr as nr
from numr.autograd import Var, backward, gradcheck, hvp

try:
    import torch
except ImportError:  # the NumPy oracle still runs
    torch = None


def np_conv2d_weight_grad(x, wshape, g, stride=1, padding=0, dilation=1, groups=1):
    """gw[o, c, i, j] = sum over n, y, z of g[n, o, y, z] * xpad[n, group(o) * cg + c, s*y + d*i, s*z + d*j]."""
    x, g = x.astype(np.float64), g.astype(np.float64)
    (sh, sw), (dh, dw) = pair(stride), pair(dilation)
    o, cg, kh, kw = wshape
    if padding == "same":
        th, tw = dh * (kh - 1), dw * (kw - 1)
        pads = ((th // 2, th - th // 2), (tw // 2, tw - tw // 2))
    else:
        ph, pw = pair(padding)
        pads = ((ph, ph), (pw, pw))
    xp = np.pad(x, ((0, 0), (0, 0)) + pads)
    n, oh, ow = g.shape[0], g.shape[2], g.shape[3]
    og = o // groups
    gw = np.zeros(wshape)
    for i in range(kh):
        for j in range(kw):
            patch = xp[:, :, i * dh: i * dh + sh * (oh - 1) + 1: sh, j * dw: j * dw + sw * (ow - 1) + 1: sw]
            pg = patch.reshape(n, groups, cg, oh, ow)
            gg = g.reshape(n, groups, og, oh, ow)
            gw[..., i, j] = np.einsum("ngchw,ngohw->goc", pg, gg).reshape(o, cg)
    return gw


#: (x shape, weight shape, kwargs): dense, grouped and depthwise (the CPU kernel's) geometries
CASES = [
    ((2, 3, 6, 5), (4, 3, 3, 3), {"padding": 1}),
    ((1, 4, 7, 6), (6, 2, 3, 2), {"stride": (2, 1), "padding": (1, 0), "dilation": (1, 2), "groups": 2}),
    ((2, 4, 5, 5), (4, 1, 3, 3), {"padding": 1, "groups": 4}),
    ((2, 4, 7, 6), (8, 1, 3, 2), {"stride": 2, "padding": (0, 1), "dilation": (2, 1), "groups": 4}),
    ((2, 3, 5, 6), (3, 1, 2, 4), {"padding": "same", "groups": 3}),
    ((3, 6, 5), (3, 1, 3, 3), {"padding": 2, "stride": 3, "groups": 3}),  # unbatched; padding > what is read
    ((0, 4, 5, 5), (4, 1, 3, 3), {"padding": 1, "groups": 4}),  # N = 0
]


def _operands(device, xs, ws, dtype="float64", seed=0):
    rng = np.random.default_rng(seed)
    x, w, b = rng.standard_normal(xs), rng.standard_normal(ws), rng.standard_normal(ws[0])
    return (x, w, b), [make(a, device, dtype) for a in (x, w, b)]


@pytest.mark.parametrize("xs,ws,kw", CASES)
def test_conv2d_weight_grad(device, xs, ws, kw):
    (x, w, _), (tx, _, _) = _operands(device, xs, ws)
    x4 = x if len(xs) == 4 else x[None]
    out = np_conv2d(x4, w, **kw)
    gy = np.random.default_rng(1).standard_normal(out.shape)
    want = np_conv2d_weight_grad(x4, ws, gy, **kw)
    gyt = make(gy if len(xs) == 4 else gy[0], device, "float64")
    got = nr.conv2d_weight_grad(tx, ws, gyt, **kw)
    assert got.shape == tuple(ws) and got.dtype == nr.float64
    assert_close(got, want, rtol=1e-10, atol=1e-10)
    got32 = nr.conv2d_weight_grad(make(x, device, "float32"), list(ws), make(gy if len(xs) == 4 else gy[0], device,
                                                                             "float32"), **kw)
    assert got32.dtype == nr.float32
    assert_close(got32, want, rtol=1e-4, atol=1e-4)
    if torch is not None and device == "cpu" and kw.get("padding") != "same":
        ref = torch.nn.grad.conv2d_weight(torch.tensor(x4), ws, torch.tensor(gy), **kw).numpy()
        assert_close(got, ref, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("xs,ws,kw", CASES[2:])
def test_depthwise_forward_and_transpose(device, xs, ws, kw):
    """Depthwise forward in float32 and float64 and conv_transpose2d with one output channel
    per group (the input-gradient kernel on the CPU)."""
    (x, w, b), _ = _operands(device, xs, ws)
    x4 = x if len(xs) == 4 else x[None]
    want = np_conv2d(x4, w, b, **kw)
    for dtype, tol in (("float32", 1e-5), ("float64", 1e-12)):
        got = nr.conv2d(*(make(a, device, dtype) for a in (x, w, b)), **kw)
        assert got.dtype == getattr(nr, dtype) and got.shape == (want.shape if len(xs) == 4 else want.shape[1:])
        assert_close(got, want if len(xs) == 4 else want[0], rtol=tol, atol=tol)
    if kw.get("padding") == "same":
        return
    groups = kw["groups"]
    wt = w.reshape(groups, ws[0] // groups, *ws[2:]).reshape(ws[0], 1, *ws[2:])  # (C_in, 1, kh, kw)
    y = np.random.default_rng(2).standard_normal((x4.shape[0], ws[0], 4, 3))
    tkw = {k_: v for k_, v in kw.items() if k_ != "padding"}
    tkw["padding"] = tuple(min(p, (k_ - 1) * d) for p, k_, d in zip(pair(kw.get("padding", 0)), ws[2:],
                                                                     pair(kw.get("dilation", 1)), strict=True))
    tb = np.random.default_rng(3).standard_normal(groups)
    want_t = np_conv_transpose2d(y, wt, tb, **tkw)
    got_t = nr.conv_transpose2d(make(y, device, "float64"), make(wt, device, "float64"), make(tb, device, "float64"),
                                **tkw)
    assert got_t.shape == want_t.shape
    assert_close(got_t, want_t, rtol=1e-12, atol=1e-12)


def test_depthwise_views_and_nan(device):
    """Flipped, offset and transposed operands; a NaN reaches exactly the outputs whose window holds it."""
    rng = np.random.default_rng(4)
    x, w = rng.standard_normal((2, 3, 8, 7)), rng.standard_normal((3, 1, 3, 4))
    xv, wv = x[:, :, ::-1, 1:], w.transpose(0, 1, 3, 2)[:, :, :3, :3]
    tx, tw = make(x, device, "float64"), make(w, device, "float64")
    got = nr.conv2d(tx[:, :, ::-1, 1:], tw.transpose(2, 3)[:, :, :3, :3], padding=1, groups=3)
    assert_close(got, np_conv2d(xv, wv, padding=1, groups=3), rtol=1e-12, atol=1e-12)
    xn = x.copy()
    xn[1, 2, 4, 3] = np.nan
    xn[0, 0, 0, 0] = np.inf
    got = nr.conv2d(make(xn, device, "float32"), make(w[:, :, :3, :3], device, "float32"), padding=1, groups=3)
    want = np_conv2d(xn, w[:, :, :3, :3], padding=1, groups=3)
    assert np.array_equal(np.isnan(got.numpy()), np.isnan(want))
    assert_close(got, want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("kw", [{"stride": 2, "padding": 1, "dilation": 2}, {"padding": "same"},
                                {"stride": (1, 2), "padding": (2, 0)}])
def test_depthwise_gradcheck(device, kw):
    rng = np.random.default_rng(5)
    x = f64(rng.standard_normal((2, 3, 6, 5)), device)
    w, b = f64(rng.standard_normal((6, 1, 2, 3)), device), f64(rng.standard_normal(6), device)
    assert gradcheck(lambda a, c, d: nr.conv2d(a, c, d, groups=3, **kw), (x, w, b))
    assert gradcheck(lambda a, c: nr.conv2d(a, c, groups=3, **kw), (x[0, :, ::-1], w[:, :, :, 1:]))


def _grads_match_torch(name, arrays, kw, seed):
    """numr's gradients of sum(op(*arrays) * gy) in x, w and b against torch's autograd."""
    vs = [Var(nr.tensor(a), requires_grad=True) for a in arrays]
    y = getattr(nr, name)(*vs, **kw)
    gy = np.random.default_rng(seed).standard_normal(y.shape)
    grads = backward(nr.sum(y * nr.tensor(gy)))
    ts = [torch.tensor(a, requires_grad=True) for a in arrays]
    (getattr(torch.nn.functional, name)(*ts, **kw) * torch.tensor(gy)).sum().backward()
    for v, t in zip(vs, ts, strict=True):
        assert_close(grads[v], t.grad.numpy(), rtol=1e-10, atol=1e-10)


def test_grad_matches_torch():
    """conv2d's rule (conv_transpose2d and conv2d_weight_grad) against torch's autograd, dense and depthwise."""
    if torch is None:
        pytest.skip("torch is not installed")
    rng = np.random.default_rng(6)
    for ws, kw in (((4, 2, 3, 3), {"groups": 2, "stride": 2, "padding": 1}),
                   ((8, 1, 3, 3), {"groups": 4, "padding": "same", "dilation": 2})):
        _grads_match_torch("conv2d", (rng.standard_normal((2, 4, 7, 6)), rng.standard_normal(ws),
                                      rng.standard_normal(ws[0])), kw, 1)


def test_depthwise_second_order(device):
    """The rule's gradients are public ops, so a Hessian-vector product goes through them."""
    rng = np.random.default_rng(7)
    x, w = f64(rng.standard_normal((1, 3, 5, 5)), device), f64(rng.standard_normal((3, 1, 3, 3)), device)
    v = f64(rng.standard_normal(x.shape), device)
    hv = hvp(lambda a: nr.sum(nr.conv2d(a, w, padding=1, groups=3) ** 2), x, v)
    wn = w.numpy()
    want = 2 * np_conv_transpose2d(np_conv2d(v.numpy(), wn, padding=1, groups=3), wn, padding=1, groups=3)
    assert_close(hv, want, rtol=1e-10, atol=1e-10)
    assert gradcheck(lambda c: nr.sum(nr.conv2d(x, c, stride=2, groups=3) ** 2), (w,))


def test_conv2d_weight_grad_errors(device):
    x = make(np.zeros((1, 4, 5, 5)), device, "float32")
    g = make(np.zeros((1, 4, 3, 3)), device, "float32")
    with pytest.raises(nr.ShapeError, match="weight_shape"):
        nr.conv2d_weight_grad(x, (4, 1, 3), g, groups=4)
    with pytest.raises(nr.ShapeError, match="weight_shape"):
        nr.conv2d_weight_grad(x, (4, 0, 3, 3), g)
    with pytest.raises(nr.ShapeError, match="grad_output"):
        nr.conv2d_weight_grad(x, (4, 1, 3, 3), g, padding=1, groups=4)  # output is 5x5
    with pytest.raises(nr.ShapeError, match="groups"):
        nr.conv2d_weight_grad(x, (4, 1, 3, 3), g, groups=2)
    with pytest.raises(nr.DTypeError):
        nr.conv2d_weight_grad(x, (4, 1, 3, 3), make(np.zeros((1, 4, 3, 3)), device, "float64"), groups=4)
    with pytest.raises(nr.DTypeError):
        nr.conv2d_weight_grad(make(np.zeros((1, 4, 5, 5)), device, "int32"), (4, 1, 3, 3), g, groups=4)
    assert not hasattr(x, "conv2d_weight_grad")  # torch has it only as a function


_small = st.integers(1, 3)


@settings(max_examples=50, deadline=None)
@given(n=st.integers(0, 2), c=st.integers(1, 3), mult=st.integers(1, 2), h=st.integers(1, 7), w=st.integers(1, 7),
       k=st.tuples(_small, _small), s=st.tuples(_small, _small), d=st.tuples(st.integers(1, 2), st.integers(1, 2)),
       p=st.tuples(st.integers(0, 3), st.integers(0, 3)), seed=st.integers(0, 2**16))
def test_depthwise_kernels_hypothesis(n, c, mult, h, w, k, s, d, p, seed):
    """The CPU's three depthwise kernels (float64) against the NumPy loops over random geometry."""
    if any(hw + 2 * pp < dd * (kk - 1) + 1 for hw, pp, dd, kk in zip((h, w), p, d, k, strict=True)):
        return
    rng = np.random.default_rng(seed)
    x, wt = rng.standard_normal((n, c, h, w)), rng.standard_normal((c * mult, 1, *k))
    y = np_conv2d(x, wt, None, s, p, d, c)
    assert_close(nr.conv2d(nr.tensor(x), nr.tensor(wt), None, s, p, d, c), y, rtol=1e-12, atol=1e-12)
    gy = rng.standard_normal(y.shape)
    assert_close(nr.conv2d_weight_grad(nr.tensor(x), wt.shape, nr.tensor(gy), s, p, d, c),
                 np_conv2d_weight_grad(x, wt.shape, gy, s, p, d, c), rtol=1e-10, atol=1e-10)
    opad = tuple(hw + 2 * pp - dd * (kk - 1) - 1 - (o - 1) * ss
                 for hw, pp, dd, kk, o, ss in zip((h, w), p, d, k, y.shape[2:], s, strict=True))
    if all(pp <= dd * (kk - 1) for pp, dd, kk in zip(p, d, k, strict=True)):
        gx = nr.conv_transpose2d(nr.tensor(gy), nr.tensor(wt), None, s, p, opad, c, d)
        assert_close(gx, np_conv_transpose2d(gy, wt, None, s, p, opad, c, d), rtol=1e-12, atol=1e-12)


def test_conv_transpose2d_grad_matches_torch():
    """conv_transpose2d's rule (conv2d and conv2d_weight_grad with the roles swapped) against torch."""
    if torch is None:
        pytest.skip("torch is not installed")
    rng = np.random.default_rng(8)
    for ws, kw in (((4, 3, 3, 2), {"groups": 2, "stride": 2, "padding": 1, "output_padding": 1}),
                   ((4, 1, 3, 3), {"groups": 4, "stride": (2, 1), "dilation": 2, "output_padding": (1, 0)}),
                   ((4, 1, 3, 3), {"groups": 2, "padding": (2, 0)})):
        _grads_match_torch("conv_transpose2d", (rng.standard_normal((2, 4, 5, 6)), rng.standard_normal(ws),
                                                rng.standard_normal(ws[1] * kw["groups"])), kw, 2)


def test_conv_transpose2d_gradcheck(device):
    rng = np.random.default_rng(9)
    x = f64(rng.standard_normal((1, 4, 3, 4)), device)
    w, b = f64(rng.standard_normal((4, 1, 2, 3)), device), f64(rng.standard_normal(2), device)
    assert gradcheck(lambda a, c, d: nr.conv_transpose2d(a, c, d, stride=2, padding=1, output_padding=1, groups=2),
                     (x, w, b))
    assert gradcheck(lambda a, c: nr.sum(nr.conv_transpose2d(a, c, groups=4, dilation=2) ** 2), (x[0], w))


def test_depthwise_conv1d(device):
    """conv1d and conv_transpose1d go through the public 2-d ops (the CPU's depthwise kernels and
    conv2d's rule): a causal depthwise conv1d (kernel 4, padding 3) with its gradients, and
    conv1d's own names in errors."""
    rng = np.random.default_rng(10)
    x, w, b = rng.standard_normal((2, 3, 9)), rng.standard_normal((3, 1, 4)), rng.standard_normal(3)
    got = nr.conv1d(*(make(a, device, "float32") for a in (x, w, b)), padding=3, groups=3)
    want = np_conv2d(x[:, :, None], w[:, :, None], b, padding=(0, 3), groups=3)[:, :, 0]
    assert got.shape == (2, 3, 12)
    assert_close(got, want, rtol=1e-5, atol=1e-5)
    xt, wt = f64(x, device), f64(w, device)
    assert gradcheck(lambda a, c: nr.conv1d(a, c, padding=3, dilation=2, groups=3), (xt, wt))
    assert gradcheck(lambda a, c: nr.conv_transpose1d(a, c, stride=2, groups=3), (xt, wt))
    with pytest.raises(nr.ShapeError, match="conv1d"):
        nr.conv1d(xt, f64(np.zeros((3, 1, 4)), device), groups=2)
    with pytest.raises(nr.ShapeError, match="conv_transpose1d"):
        nr.conv_transpose1d(xt, f64(np.zeros((3, 1, 4)), device), groups=2)


def test_depthwise_wide_kernel(device):
    """A kernel wider than the direct path's 64 taps takes the composite, with the same result."""
    rng = np.random.default_rng(11)
    x, w = rng.standard_normal((1, 2, 2, 70)), rng.standard_normal((2, 1, 1, 65))
    got = nr.conv2d(make(x, device, "float32"), make(w, device, "float32"), padding=(0, 1), groups=2)
    assert got.shape == (1, 2, 2, 8)
    assert_close(got, np_conv2d(x, w, padding=(0, 1), groups=2), rtol=1e-4, atol=1e-4)
