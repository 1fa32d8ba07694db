"""conv1d/2d, conv_transpose1d/2d, unfold/fold and pooling against float64 NumPy loops written
here (and torch.nn.functional as a second oracle on the CPU): shapes, strides, padding
(ints, "valid", "same", ceil_mode), dilation, groups, N=0, views, low-precision dtypes,
integers, errors; gradients by central differences (gradcheck, float64) and jvp."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_close
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import numr as nr
from numr.autograd import Var, backward, gradcheck, jvp

try:
    import torch
    import torch.nn.functional as F
except ImportError:  # the NumPy oracle still runs
    torch = None


def make(a, device, dtype=None):
    try:
        return nr.tensor(a, dtype=dtype, device=device)
    except (nr.UnsupportedOperation, nr.UnsupportedDType) as e:
        pytest.skip(str(e))


def pair(v):
    return (v, v) if isinstance(v, int) else tuple(v)


# ---------------------------------------------------------------- NumPy oracles (float64)

def np_conv2d(x, w, b=None, stride=1, padding=0, dilation=1, groups=1):
    """Direct sum over kernel offsets: out[n, o] += w[o, c, i, j] * xpad[n, c, s*y + d*i, s*x + d*j]."""
    x, w = x.astype(np.float64), w.astype(np.float64)
    (sh, sw), (dh, dw) = pair(stride), pair(dilation)
    o, cg, kh, kw = w.shape
    if padding == "same":
        th, tw = dh * (kh - 1), dw * (kw - 1)
        pads = ((th // 2, th - th // 2), (tw // 2, tw - tw // 2))
    elif padding == "valid":
        pads = ((0, 0), (0, 0))
    else:
        ph, pw = pair(padding)
        pads = ((ph, ph), (pw, pw))
    xp = np.pad(x, ((0, 0), (0, 0)) + pads)
    n, c, hp, wp = xp.shape
    oh, ow = (hp - dh * (kh - 1) - 1) // sh + 1, (wp - dw * (kw - 1) - 1) // sw + 1
    g = groups
    out = np.zeros((n, g, o // g, oh, ow))
    wg = w.reshape(g, o // g, cg, kh, kw)
    for i in range(kh):
        for j in range(kw):
            patch = xp[:, :, i * dh: i * dh + sh * (oh - 1) + 1: sh, j * dw: j * dw + sw * (ow - 1) + 1: sw]
            out += np.einsum("ngchw,goc->ngohw", patch.reshape(n, g, cg, oh, ow), wg[..., i, j])
    out = out.reshape(n, o, oh, ow)
    return out if b is None else out + b.astype(np.float64)[:, None, None]


def np_conv_transpose2d(x, w, b=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """Scatter: each input pixel adds w[c, o] * x[n, c, y, x] at (s*y + d*i, s*x + d*j), then crop."""
    x, w = x.astype(np.float64), w.astype(np.float64)
    (sh, sw), (dh, dw), (ph, pw), (oph, opw) = pair(stride), pair(dilation), pair(padding), pair(output_padding)
    n, c, h, wd = x.shape
    ci, og, kh, kw = w.shape
    g = groups
    fh, fw = (h - 1) * sh + dh * (kh - 1) + 1 + oph, (wd - 1) * sw + dw * (kw - 1) + 1 + opw
    out = np.zeros((n, g, og, fh, fw))
    xg, wg = x.reshape(n, g, c // g, h, wd), w.reshape(g, c // g, og, kh, kw)
    for i in range(kh):
        for j in range(kw):
            out[..., i * dh: i * dh + sh * (h - 1) + 1: sh, j * dw: j * dw + sw * (wd - 1) + 1: sw] += \
                np.einsum("ngchw,gco->ngohw", xg, wg[..., i, j])
    out = out.reshape(n, g * og, fh, fw)[:, :, ph: fh - ph, pw: fw - pw]
    return out if b is None else out + b.astype(np.float64)[:, None, None]


def np_unfold(x, k, d=1, p=0, s=1):
    (kh, kw), (dh, dw), (ph, pw), (sh, sw) = pair(k), pair(d), pair(p), pair(s)
    xp = np.pad(x, ((0, 0), (0, 0), (ph, ph), (pw, pw)))
    n, c, hp, wp = xp.shape
    oh, ow = (hp - dh * (kh - 1) - 1) // sh + 1, (wp - dw * (kw - 1) - 1) // sw + 1
    out = np.zeros((n, c, kh, kw, oh, ow), x.dtype)
    for i in range(kh):
        for j in range(kw):
            for y in range(oh):
                for z in range(ow):
                    out[:, :, i, j, y, z] = xp[:, :, y * sh + i * dh, z * sw + j * dw]
    return out.reshape(n, c * kh * kw, oh * ow)


def np_fold(cols, size, k, d=1, p=0, s=1):
    (h, w), (kh, kw), (dh, dw), (ph, pw), (sh, sw) = pair(size), pair(k), pair(d), pair(p), pair(s)
    n = cols.shape[0]
    c = cols.shape[1] // (kh * kw)
    hp, wp = h + 2 * ph, w + 2 * pw
    oh, ow = (hp - dh * (kh - 1) - 1) // sh + 1, (wp - dw * (kw - 1) - 1) // sw + 1
    cc = cols.reshape(n, c, kh, kw, oh, ow)
    out = np.zeros((n, c, hp, wp), cols.dtype)
    for i in range(kh):
        for j in range(kw):
            for y in range(oh):
                for z in range(ow):
                    out[:, :, y * sh + i * dh, z * sw + j * dw] += cc[:, :, i, j, y, z]
    return out[:, :, ph: ph + h, pw: pw + w]


def _pool_len(size, k, s, p, d, ceil):
    span = d * (k - 1) + 1
    if not ceil:
        return (size + 2 * p - span) // s + 1
    n = -(-(size + 2 * p - span) // s) + 1
    return n - 1 if (n - 1) * s >= size + p else n


def np_max_pool2d(x, k, s=None, p=0, d=1, ceil=False):
    """Values and flat H*W indices per window, torch's loop: from -inf at the window's first position
    inside the input, take a value when it is larger or NaN (so the first maximum, the last NaN);
    -1 for a window wholly in the padding."""
    (kh, kw), (ph, pw), (dh, dw) = pair(k), pair(p), pair(d)
    sh, sw = pair(k if s is None else s)
    n, c, h, w = x.shape
    oh, ow = _pool_len(h, kh, sh, ph, dh, ceil), _pool_len(w, kw, sw, pw, dw, ceil)
    val = np.zeros((n, c, oh, ow), x.dtype)
    idx = np.zeros((n, c, oh, ow), np.int64)
    for a in range(n):
        for b in range(c):
            for y in range(oh):
                for z in range(ow):
                    best, at = (-np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).min), None
                    for i in range(kh):
                        for j in range(kw):
                            r, q = y * sh - ph + i * dh, z * sw - pw + j * dw
                            if 0 <= r < h and 0 <= q < w:
                                v = x[a, b, r, q]
                                if at is None or v > best or np.isnan(v):  # from -inf at the first
                                    best, at = v, r * w + q  # element, as torch (not at the padding)
                    at = -1 if at is None else at  # a window wholly in the padding (torch: past it)
                    val[a, b, y, z], idx[a, b, y, z] = best, at
    return val, idx


def np_avg_pool2d(x, k, s=None, p=0, ceil=False, include_pad=True, divisor=None):
    """torch's avg_pool2d rule, loops: windows clipped to the padded input, divisor per window."""
    (kh, kw), (ph, pw) = pair(k), pair(p)
    sh, sw = pair(k if s is None else s)
    n, c, h, w = x.shape
    oh, ow = _pool_len(h, kh, sh, ph, 1, ceil), _pool_len(w, kw, sw, pw, 1, ceil)
    out = np.zeros((n, c, oh, ow))
    for y in range(oh):
        for z in range(ow):
            h0, w0 = y * sh - ph, z * sw - pw
            h1, w1 = min(h0 + kh, h + ph), min(w0 + kw, w + pw)
            size = (h1 - h0) * (w1 - w0)
            h0, w0, h1, w1 = max(h0, 0), max(w0, 0), min(h1, h), min(w1, w)
            total = x[:, :, h0:h1, w0:w1].astype(np.float64).sum((2, 3))
            div = divisor or (size if include_pad else (h1 - h0) * (w1 - w0))
            out[:, :, y, z] = total / div
    return out


# ---------------------------------------------------------------- conv2d / conv1d

#: (x shape, weight shape, kwargs)
CONV2D = [
    ((2, 3, 6, 5), (4, 3, 3, 3), {}),
    ((2, 3, 6, 5), (4, 3, 3, 3), {"stride": 2, "padding": 1}),
    ((1, 4, 7, 6), (6, 2, 3, 2), {"stride": (2, 1), "padding": (1, 0), "dilation": (1, 2), "groups": 2}),
    ((2, 4, 5, 5), (4, 1, 3, 3), {"padding": 1, "groups": 4}),  # depthwise
    ((2, 4, 5, 5), (8, 1, 3, 3), {"padding": 1, "groups": 4}),  # depthwise, multiplier 2
    ((2, 3, 4, 4), (5, 3, 1, 1), {}),  # 1x1
    ((2, 3, 4, 4), (5, 3, 1, 1), {"stride": 2}),
    ((1, 2, 4, 3), (3, 2, 4, 3), {}),  # full-size kernel: 1x1 output
    ((1, 2, 5, 6), (3, 2, 2, 4), {"padding": "same"}),  # even kernel: the extra pad goes right
    ((1, 2, 5, 6), (3, 2, 3, 2), {"padding": "same", "dilation": 2}),
    ((1, 2, 5, 6), (3, 2, 3, 2), {"padding": "valid", "stride": 2}),
    ((0, 3, 5, 5), (2, 3, 3, 3), {"padding": 1}),  # N = 0
    ((3, 5, 5), (2, 3, 3, 3), {"padding": 1}),  # unbatched
]


@pytest.mark.parametrize("xs,ws,kw", CONV2D)
def test_conv2d(device, xs, ws, kw):
    rng = np.random.default_rng(0)
    x, w, b = rng.standard_normal(xs), rng.standard_normal(ws), rng.standard_normal(ws[0])
    x4 = x if len(xs) == 4 else x[None]
    want = np_conv2d(x4, w, b, **kw)
    want = want if len(xs) == 4 else want[0]
    got = nr.conv2d(make(x, device, "float32"), make(w, device, "float32"), make(b, device, "float32"), **kw)
    assert_close(got, want, dtype="float32", rtol=1e-5, atol=1e-5)
    nob = nr.conv2d(make(x, device, "float32"), make(w, device, "float32"), **kw)
    assert_close(nob, want - b[:, None, None], dtype="float32", rtol=1e-5, atol=1e-5)
    if torch is not None and device == "cpu":
        ref = F.conv2d(torch.tensor(x), torch.tensor(w), torch.tensor(b), **kw).numpy()
        assert_close(nr.conv2d(nr.tensor(x), nr.tensor(w), nr.tensor(b), **kw), ref, dtype="float64")


CONV1D = [
    ((2, 3, 9), (4, 3, 3), {}),
    ((2, 4, 9), (6, 2, 2), {"stride": 2, "padding": 1, "dilation": 2, "groups": 2}),
    ((2, 4, 8), (4, 1, 4), {"padding": "same", "groups": 4}),
    ((3, 7), (2, 3, 7), {}),  # unbatched, full-size kernel
]


@pytest.mark.parametrize("xs,ws,kw", CONV1D)
def test_conv1d(device, xs, ws, kw):
    rng = np.random.default_rng(1)
    x, w, b = rng.standard_normal(xs), rng.standard_normal(ws), rng.standard_normal(ws[0])
    pad = kw.get("padding", 0)
    k2 = {**kw, "stride": (1, kw.get("stride", 1)), "dilation": (1, kw.get("dilation", 1)),
          "padding": pad if isinstance(pad, str) else (0, pad)}
    want = np_conv2d(x[..., None, :] if len(xs) == 3 else x[None, :, None], w[:, :, None], b, **k2)
    want = want[:, :, 0] if len(xs) == 3 else want[0, :, 0]
    got = nr.conv1d(make(x, device, "float32"), make(w, device, "float32"), make(b, device, "float32"), **kw)
    assert_close(got, want, dtype="float32", rtol=1e-5, atol=1e-5)
    if torch is not None and device == "cpu":
        ref = F.conv1d(torch.tensor(x), torch.tensor(w), torch.tensor(b), **kw).numpy()
        assert_close(nr.conv1d(nr.tensor(x), nr.tensor(w), nr.tensor(b), **kw), ref, dtype="float64")


def test_conv2d_views(device):
    """Transposed, flipped, sliced (offset) inputs and weights give the values of their copies."""
    rng = np.random.default_rng(2)
    xb, wb = rng.standard_normal((2, 3, 8, 7)), rng.standard_normal((4, 3, 3, 4))
    x = make(xb, device, "float32")
    w = make(wb, device, "float32")
    xv = x.transpose(2, 3)[:, :, ::-1, 1:]  # (2, 3, 7, 7) with negative stride and offset
    wv = w.flip(3)[:, :, :, 1:]
    want = np_conv2d(xb.transpose(0, 1, 3, 2)[:, :, ::-1, 1:], wb[:, :, :, ::-1][:, :, :, 1:], padding=1)
    assert_close(nr.conv2d(xv, wv, padding=1), want, rtol=1e-5, atol=1e-5)
    bb = rng.standard_normal((4, 2))
    want = np_conv2d(xb, wb, bb[:, 1], stride=2)
    assert_close(nr.conv2d(x, w, make(bb, device, "float32")[:, 1], stride=2), want, rtol=1e-5, atol=1e-5)
    xe = x[:1].expand(3, 3, 8, 7)  # broadcast (stride-0) batch
    want = np_conv2d(np.broadcast_to(xb[:1], (3, 3, 8, 7)), wb, padding=(1, 0))
    assert_close(nr.conv2d(xe, w, padding=(1, 0)), want, rtol=1e-5, atol=1e-5)
    assert_close(nr.max_pool2d(xe, 2), np_max_pool2d(np.broadcast_to(xb[:1], (3, 3, 8, 7)).astype(np.float32), 2)[0],
                 rtol=0, atol=0)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float64"])
def test_conv_dtypes(device, dtype):
    """Low precision accumulates in float32: the error is that of the inputs' rounding."""
    rng = np.random.default_rng(3)
    x = make(rng.standard_normal((2, 4, 6, 6)), device, dtype)
    w = make(rng.standard_normal((4, 2, 3, 3)) * 0.3, device, dtype)
    b = make(rng.standard_normal(4), device, dtype)
    xn, wn, bn = (t.to("cpu").numpy().astype(np.float64) for t in (x, w, b))
    try:
        got = nr.conv2d(x, w, b, padding=1, groups=2)
        gt = nr.conv_transpose2d(x, w, None, stride=2, groups=2)
        gp = nr.max_pool2d(x, 2)
        ga = nr.avg_pool2d(x, 3, 2, 1)
    except (nr.UnsupportedOperation, nr.UnsupportedDType) as e:
        pytest.skip(str(e))
    tol = {"float16": 4e-3, "bfloat16": 3e-2, "float64": 1e-12}[dtype]
    assert_close(got, np_conv2d(xn, wn, bn, padding=1, groups=2), dtype=dtype, rtol=tol, atol=tol * 4)
    assert_close(gt, np_conv_transpose2d(xn, wn, stride=2, groups=2), dtype=dtype,
                 rtol=tol, atol=tol * 4)
    assert_close(gp, np_max_pool2d(xn, 2)[0], dtype=dtype, rtol=0, atol=0)
    assert_close(ga, np_avg_pool2d(xn, 3, 2, 1), dtype=dtype, rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", ["float8_e4m3fn", "float8_e5m2"])
def test_float8(device, dtype):
    """float8 (CPU and CUDA; WebGPU cannot hold it): products summed in float32, one rounding."""
    rng = np.random.default_rng(13)
    x = make(rng.standard_normal((1, 4, 5, 5)), device, dtype)
    w = make(rng.standard_normal((2, 4, 3, 3)) * 0.5, device, dtype)
    xn, wn = (t.to("cpu").numpy().astype(np.float64) for t in (x, w))
    rel = {"float8_e4m3fn": 2.0**-4, "float8_e5m2": 2.0**-3}[dtype]
    assert_close(nr.conv2d(x, w, padding=1), np_conv2d(xn, wn, padding=1), dtype=dtype, rtol=rel, atol=1e-2)
    assert_close(nr.max_pool2d(x, 2), np_max_pool2d(xn, 2)[0], dtype=dtype, rtol=0, atol=0)
    assert_close(nr.avg_pool2d(x, 2, 1), np_avg_pool2d(xn, 2, 1), dtype=dtype, rtol=rel, atol=1e-2)


@pytest.mark.parametrize("dtype,bound", [("float16", 1e-3), ("bfloat16", 8e-3)])
def test_low_precision_accumulates_in_float32(device, dtype, bound):
    """2304 products per output: summed in float16/bfloat16 the error would be ~10x the bound
    (one rounding of the result relative to the largest output)."""
    rng = np.random.default_rng(12)
    x = make(rng.standard_normal((1, 256, 3, 3)), device, dtype)
    w = make(rng.standard_normal((2, 256, 3, 3)), device, dtype)
    ref = np.einsum("nchw,ochw->no", x.to("cpu").numpy().astype(np.float64), w.to("cpu").numpy().astype(np.float64))
    got = nr.conv2d(x, w)
    assert got.shape == (1, 2, 1, 1) and got.dtype == nr.dtype(dtype)
    err = np.abs(got.to("cpu").numpy().astype(np.float64)[:, :, 0, 0] - ref).max() / np.abs(ref).max()
    assert err < bound


def test_fold_avg_pool_low_precision_sum_in_float32(device):
    """2048 (first slab) + fifteen 1s = 2063, 2064 in float16 after one rounding; a float16
    running sum would stay at 2048 (2048 + 1 rounds back to 2048)."""
    a = np.ones((1, 16, 16))
    a[0, 0] = 2048
    out = nr.fold(make(a, device, "float16"), (1, 31), (1, 16))
    assert out.shape == (1, 1, 1, 31) and out.dtype == nr.float16
    assert float(out[0, 0, 0, 15].item()) == 2064.0
    # avg pooling too: 2063 / 16 = 128.9375, 129 after one rounding (a float16 sum: 2048 / 16 = 128)
    row = np.ones((1, 1, 16))
    row[0, 0, 0] = 2048
    got = nr.avg_pool1d(make(row, device, "float16"), 16)
    assert got.dtype == nr.float16 and float(got.item()) == 129.0
    got = nr.adaptive_avg_pool2d(make(row[None], device, "float16"), (1, 1))
    assert got.dtype == nr.float16 and float(got.item()) == 129.0


def test_integers(device):
    """conv and avg pooling refuse integers (as torch); unfold, fold and max pooling take them."""
    a = np.arange(2 * 2 * 5 * 4, dtype=np.int32).reshape(2, 2, 5, 4) % 7 - 3
    x = make(a, device)
    with pytest.raises(nr.DTypeError, match="conv2d"):
        nr.conv2d(x, make(np.ones((1, 2, 2, 2), np.int32), device))
    with pytest.raises(nr.DTypeError, match="avg_pool2d"):
        nr.avg_pool2d(x, 2)
    with pytest.raises(nr.DTypeError, match="conv2d"):  # mixed dtypes
        nr.conv2d(make(a, device, "float32"), make(np.ones((1, 2, 2, 2)), device, "float64"))
    got = nr.unfold(x, 2, padding=1)
    assert_close(got, np_unfold(a, 2, p=1), dtype="int32")
    assert_close(nr.fold(got, (5, 4), 2, padding=1), np_fold(np_unfold(a, 2, p=1), (5, 4), 2, p=1), dtype="int32")
    v, i = nr.max_pool2d(x, 2, 1, 1, return_indices=True)
    wv, wi = np_max_pool2d(a, 2, 1, 1)
    assert_close(v, wv, dtype="int32")
    assert_close(i, wi, dtype="int64")
    e = np.array([[[[np.iinfo(np.int32).min, 5], [2, 1]]]], np.int32)  # the dtype's minimum is a value
    assert_close(nr.max_pool2d(make(e, device), 2, padding=1), np_max_pool2d(e, 2, p=1)[0], dtype="int32")


def test_conv_errors(device):
    x = make(np.zeros((1, 4, 5, 5)), device, "float32")
    w = make(np.zeros((2, 4, 3, 3)), device, "float32")
    with pytest.raises(nr.ShapeError, match="conv2d.*channels"):
        nr.conv2d(x, make(np.zeros((2, 3, 3, 3)), device, "float32"))
    with pytest.raises(nr.ShapeError, match="groups"):
        nr.conv2d(x, make(np.zeros((3, 2, 3, 3)), device, "float32"), groups=2)  # 3 out channels
    with pytest.raises(nr.ShapeError, match="groups"):
        nr.conv2d(x, make(np.zeros((3, 4, 3, 3)), device, "float32"), groups=0)
    with pytest.raises(nr.ShapeError, match="larger than the padded input"):
        nr.conv2d(x, make(np.zeros((2, 4, 6, 3)), device, "float32"))
    nr.conv2d(x, make(np.zeros((2, 4, 6, 3)), device, "float32"), padding=1)  # fits once padded
    with pytest.raises(ValueError, match="padding"):
        nr.conv2d(x, w, padding="full")
    with pytest.raises(nr.ShapeError, match="same"):
        nr.conv2d(x, w, padding="same", stride=2)
    with pytest.raises(nr.ShapeError, match="padding"):
        nr.conv2d(x, w, padding=-1)
    with pytest.raises(nr.ShapeError, match="stride"):
        nr.conv2d(x, w, stride=0)
    with pytest.raises(nr.ShapeError, match="stride"):
        nr.conv2d(x, w, stride=(1, 2, 3))
    with pytest.raises(nr.ShapeError, match="bias"):
        nr.conv2d(x, w, make(np.zeros(3), device, "float32"))
    with pytest.raises(nr.ShapeError, match="input must be"):
        nr.conv2d(x[0, 0], w)
    with pytest.raises(nr.ShapeError, match="weight"):
        nr.conv2d(x, w[0])
    with pytest.raises(nr.ShapeError, match="output_padding"):
        nr.conv_transpose2d(x, make(np.zeros((4, 2, 3, 3)), device, "float32"), stride=2, output_padding=2)
    with pytest.raises(nr.ShapeError, match="conv_transpose2d"):
        nr.conv_transpose2d(x, make(np.zeros((3, 2, 3, 3)), device, "float32"))
    with pytest.raises(nr.ShapeError, match="not positive"):
        nr.conv_transpose2d(x, make(np.zeros((4, 2, 1, 1)), device, "float32"), padding=3)
    with pytest.raises(nr.ShapeError, match="conv1d"):
        nr.conv1d(x, w)
    with pytest.raises(nr.ShapeError, match="fold"):
        nr.fold(make(np.zeros((1, 8, 5)), device, "float32"), (4, 4), 2)  # L should be 9
    with pytest.raises(nr.ShapeError, match="at most half"):
        nr.max_pool2d(x, 2, padding=2)
    with pytest.raises(nr.ShapeError, match="max_pool2d"):
        nr.max_pool2d(x, 6)
    with pytest.raises(nr.ShapeError, match="divisor_override"):
        nr.avg_pool2d(x, 2, divisor_override=0)


# ---------------------------------------------------------------- conv_transpose

#: (x shape, weight shape (C, O/groups, kh, kw), kwargs)
CONVT2D = [
    ((2, 3, 4, 5), (3, 2, 3, 3), {}),
    ((2, 3, 4, 5), (3, 2, 3, 3), {"stride": 2, "padding": 1, "output_padding": 1}),
    ((1, 4, 3, 4), (4, 3, 3, 2), {"stride": (2, 3), "padding": (1, 0), "output_padding": (1, 2),
                                  "groups": 2, "dilation": (1, 2)}),
    ((1, 2, 3, 3), (2, 1, 2, 2), {"stride": 1, "dilation": 3, "output_padding": 2}),  # op < dilation
    ((2, 4, 3, 3), (4, 1, 3, 3), {"groups": 4, "stride": 2}),  # depthwise
    ((2, 3, 4, 4), (3, 5, 1, 1), {}),  # 1x1
    ((0, 3, 4, 4), (3, 2, 2, 2), {"stride": 2}),  # N = 0
    ((3, 4, 4), (3, 2, 2, 2), {"stride": 2, "padding": 1}),  # unbatched
]


@pytest.mark.parametrize("xs,ws,kw", CONVT2D)
def test_conv_transpose2d(device, xs, ws, kw):
    rng = np.random.default_rng(4)
    x, w, b = rng.standard_normal(xs), rng.standard_normal(ws), rng.standard_normal(ws[1] * kw.get("groups", 1))
    x4 = x if len(xs) == 4 else x[None]
    want = np_conv_transpose2d(x4, w, b, **kw)
    want = want if len(xs) == 4 else want[0]
    got = nr.conv_transpose2d(make(x, device, "float32"), make(w, device, "float32"), make(b, device, "float32"), **kw)
    assert_close(got, want, dtype="float32", rtol=1e-5, atol=1e-5)
    if torch is not None and device == "cpu":
        ref = F.conv_transpose2d(torch.tensor(x), torch.tensor(w), torch.tensor(b), **kw).numpy()
        assert_close(nr.conv_transpose2d(nr.tensor(x), nr.tensor(w), nr.tensor(b), **kw), ref, dtype="float64")


def test_conv_transpose1d(device):
    rng = np.random.default_rng(5)
    x, w, b = rng.standard_normal((2, 4, 5)), rng.standard_normal((4, 3, 3)), rng.standard_normal(6)
    kw = {"stride": 3, "padding": 1, "output_padding": 2, "groups": 2, "dilation": 2}
    want = np_conv_transpose2d(x[:, :, None], w[:, :, None], b, stride=(1, 3), padding=(0, 1),
                               output_padding=(0, 2), groups=2, dilation=(1, 2))[:, :, 0]
    got = nr.conv_transpose1d(make(x, device, "float32"), make(w, device, "float32"), make(b, device, "float32"), **kw)
    assert_close(got, want, dtype="float32", rtol=1e-5, atol=1e-5)
    if torch is not None and device == "cpu":
        ref = F.conv_transpose1d(torch.tensor(x), torch.tensor(w), torch.tensor(b), **kw).numpy()
        assert_close(nr.conv_transpose1d(nr.tensor(x), nr.tensor(w), nr.tensor(b), **kw), ref, dtype="float64")


# ---------------------------------------------------------------- unfold / fold

UNFOLD = [((2, 3, 5, 4), 2, {}), ((1, 2, 6, 5), (3, 2), {"dilation": (2, 1), "padding": (1, 2), "stride": (2, 3)}),
          ((2, 2, 3, 3), 3, {}), ((2, 2, 3, 3), 1, {"stride": 2}), ((0, 2, 4, 4), 2, {"padding": 1}),
          ((2, 5, 4), 2, {"stride": 2})]


@pytest.mark.parametrize("xs,k,kw", UNFOLD)
def test_unfold_fold(device, xs, k, kw):
    rng = np.random.default_rng(6)
    a = rng.standard_normal(xs).astype(np.float32)
    a4 = a if len(xs) == 4 else a[None]
    args = (kw.get("dilation", 1), kw.get("padding", 0), kw.get("stride", 1))
    want = np_unfold(a4, k, *args)
    want = want if len(xs) == 4 else want[0]
    got = nr.unfold(make(a, device, "float32"), k, **kw)
    assert_close(got, want, dtype="float32", rtol=0, atol=0)
    cols = rng.standard_normal(want.shape).astype(np.float32)
    c4 = cols if len(xs) == 4 else cols[None]
    fwant = np_fold(c4, xs[-2:], k, *args)
    fwant = fwant if len(xs) == 4 else fwant[0]
    assert_close(nr.fold(make(cols, device, "float32"), xs[-2:], k, **kw), fwant, dtype="float32", rtol=1e-6, atol=1e-6)
    # adjoint: <unfold(x), y> == <x, fold(y)>
    assert np.isclose((want.astype(np.float64) * cols).sum(), (a.astype(np.float64) * fwant).sum())
    if torch is not None and device == "cpu" and len(xs) == 4:
        assert_close(nr.unfold(nr.tensor(a), k, **kw), F.unfold(torch.tensor(a), k, **kw).numpy(), rtol=0, atol=0)
        assert_close(nr.fold(nr.tensor(cols), xs[-2:], k, **kw),
                     F.fold(torch.tensor(cols), xs[-2:], k, **kw).numpy(), rtol=1e-6, atol=1e-6)


def test_unfold_views(device):
    """unfold of a flipped, sliced view; a 1x1 kernel with stride 1 returns a view (no copy)."""
    a = np.arange(2 * 3 * 6 * 5, dtype=np.float32).reshape(2, 3, 6, 5)
    x = make(a, device)
    v = x.flip(2)[:, 1:, 1:, ::2]
    assert_close(nr.unfold(v, 2, padding=1), np_unfold(a[:, :, ::-1][:, 1:, 1:, ::2], 2, p=1), rtol=0, atol=0)
    u = nr.unfold(x, 1)
    assert u.shape == (2, 3, 30)
    assert u._storage is x._storage


# ---------------------------------------------------------------- pooling

MAXPOOL = [((2, 3, 6, 5), 2, {}), ((1, 2, 7, 6), 3, {"stride": 2, "padding": 1}),
           ((1, 2, 7, 6), (3, 2), {"stride": (2, 1), "padding": (1, 1), "dilation": (2, 1)}),
           ((1, 2, 7, 6), 3, {"stride": 2, "padding": 1, "ceil_mode": True}),
           ((1, 2, 6, 6), 2, {"stride": 3, "ceil_mode": True}), ((2, 1, 4, 4), 4, {}),
           ((0, 2, 4, 4), 2, {}), ((3, 5, 4), 2, {"stride": 1})]


@pytest.mark.parametrize("xs,k,kw", MAXPOOL)
def test_max_pool2d(device, xs, k, kw):
    rng = np.random.default_rng(7)
    a = rng.standard_normal(xs).astype(np.float32)
    a4 = a if len(xs) == 4 else a[None]
    v, i = np_max_pool2d(a4, k, kw.get("stride"), kw.get("padding", 0), kw.get("dilation", 1),
                         kw.get("ceil_mode", False))
    if len(xs) == 3:
        v, i = v[0], i[0]
    x = make(a, device)
    assert_close(nr.max_pool2d(x, k, **kw), v, dtype="float32", rtol=0, atol=0)
    gv, gi = nr.max_pool2d(x, k, **kw, return_indices=True)
    assert_close(gv, v, dtype="float32", rtol=0, atol=0)
    assert_close(gi, i, dtype="int64")
    if torch is not None and device == "cpu":
        tv, ti = F.max_pool2d(torch.tensor(a), k, **kw, return_indices=True)
        assert_close(gv, tv.numpy(), rtol=0, atol=0)
        assert_close(gi, ti.numpy())


def test_max_pool_nan_ties_1d(device):
    a = np.array([[[1.0, np.nan, 3.0, 2.0, 2.0, -np.inf, 5.0, 5.0]]], np.float32)
    x = make(a, device)
    v, i = nr.max_pool1d(x, 2, return_indices=True)
    assert_close(v, [[[np.nan, 3.0, 2.0, 5.0]]], dtype="float32", rtol=0, atol=0)
    assert_close(i, [[[1, 2, 4, 6]]], dtype="int64")  # NaN wins, the first of ties
    assert_close(nr.max_pool1d(x, 3, 2, 1, ceil_mode=True), [[[np.nan, np.nan, 2.0, 5.0, 5.0]]], rtol=0, atol=0)
    assert_close(nr.max_pool1d(x, 2, 1, dilation=3), [[[2.0, np.nan, 3.0, 5.0, 5.0]]], rtol=0, atol=0)
    for kw in ({"kernel_size": 3, "stride": 1, "padding": 1}, {"kernel_size": 2, "stride": 3, "ceil_mode": True}):
        v, i = nr.max_pool1d(x, **kw, return_indices=True)
        wv, wi = np_max_pool2d(a[:, :, None], (1, kw["kernel_size"]), (1, kw["stride"]), (0, kw.get("padding", 0)),
                               1, kw.get("ceil_mode", False))
        assert_close(v, wv[:, :, 0], rtol=0, atol=0)
        assert_close(i, wi[:, :, 0])
    assert_close(nr.max_pool1d(x[0], 4), [[np.nan, 5.0]], rtol=0, atol=0)  # unbatched
    two = np.array([[[np.nan, 1.0, np.nan, 2.0, -np.inf, -np.inf]]], np.float32)
    v, i = nr.max_pool1d(make(two, device), 3, return_indices=True)
    assert_close(i, [[[2, 3]]])  # the last NaN (torch's kernel)
    v, i = nr.max_pool1d(make(two[..., 4:], device), 2, 1, 1, return_indices=True)
    assert_close(v, [[[-np.inf, -np.inf, -np.inf]]], rtol=0, atol=0)
    assert_close(i, [[[0, 0, 1]]])  # a tie with the padding goes to the input


def test_max_pool_edge_windows(device):
    """ceil_mode windows larger than the padded input, -inf inputs, windows wholly in the padding
    (index -1: torch gives 3 for a 3-element input, and its backward writes out of bounds)."""
    a = np.full((1, 1, 1, 3), -np.inf, np.float32)
    a[0, 0, 0, 2] = 1.0
    b = np.arange(6, dtype=np.float32).reshape(1, 1, 3, 2)
    c = np.full((1, 1, 4, 4), -np.inf, np.float32)
    for src, args in [(a, ((2, 3), (3, 1), (1, 0), (2, 1), False)), (b, ((4, 2), 2, 0, 1, True)),
                      (c, ((3, 3), 2, 1, 2, True)), (c, (2, 3, 1, 1, True))]:
        v, i = nr.max_pool2d(make(src, device), *args, return_indices=True)
        wv, wi = np_max_pool2d(src, *args)
        assert_close(v, wv, rtol=0, atol=0)
        assert_close(i, wi)
        if torch is not None and device == "cpu":
            tv, ti = F.max_pool2d(torch.tensor(src), *args, return_indices=True)
            assert_close(v, tv.numpy(), rtol=0, atol=0)
            assert_close(i, np.where(wi < 0, -1, ti.numpy()))
    v, i = nr.max_pool2d(make(a, device), (2, 3), (3, 1), (1, 0), (2, 1), return_indices=True)
    assert_close(v, [[[[-np.inf]]]], rtol=0, atol=0)
    assert_close(i, [[[[-1]]]])


AVGPOOL = [((2, 3, 6, 5), 2, {}), ((1, 2, 7, 6), 3, {"stride": 2, "padding": 1}),
           ((1, 2, 7, 6), 3, {"stride": 2, "padding": 1, "count_include_pad": False}),
           ((1, 2, 7, 6), 3, {"stride": 2, "padding": 1, "ceil_mode": True}),
           ((1, 2, 7, 6), 3, {"stride": 2, "padding": 1, "ceil_mode": True, "count_include_pad": False}),
           ((1, 2, 6, 7), (2, 3), {"stride": (3, 2), "ceil_mode": True}),
           ((1, 2, 6, 6), 3, {"padding": 1, "divisor_override": 4}), ((0, 2, 4, 4), 2, {}), ((2, 4, 4), 2, {})]


@pytest.mark.parametrize("xs,k,kw", AVGPOOL)
def test_avg_pool2d(device, xs, k, kw):
    rng = np.random.default_rng(8)
    a = rng.standard_normal(xs).astype(np.float32)
    a4 = a if len(xs) == 4 else a[None]
    want = np_avg_pool2d(a4, k, kw.get("stride"), kw.get("padding", 0), kw.get("ceil_mode", False),
                         kw.get("count_include_pad", True), kw.get("divisor_override"))
    want = want if len(xs) == 4 else want[0]
    got = nr.avg_pool2d(make(a, device), k, **kw)
    assert_close(got, want, dtype="float32", rtol=1e-6, atol=1e-6)
    if torch is not None and device == "cpu":
        assert_close(got, F.avg_pool2d(torch.tensor(a), k, **kw).numpy(), rtol=1e-6, atol=1e-6)


def test_avg_pool1d(device):
    a = np.arange(14, dtype=np.float32).reshape(1, 2, 7) ** 1.5
    x = make(a, device)
    for kw in ({}, {"stride": 2, "padding": 1},
               {"stride": 2, "padding": 1, "ceil_mode": True, "count_include_pad": False}):
        want = np_avg_pool2d(a[:, :, None], (1, 3), None if "stride" not in kw else (1, 2), (0, kw.get("padding", 0)),
                             kw.get("ceil_mode", False), kw.get("count_include_pad", True))[:, :, 0]
        assert_close(nr.avg_pool1d(x, 3, **kw), want, dtype="float32", rtol=1e-6, atol=1e-6)
        if torch is not None and device == "cpu":
            ref = F.avg_pool1d(torch.tensor(a), 3, **kw).numpy()
            assert_close(nr.avg_pool1d(x, 3, **kw), ref, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("size", [(3, 4), 2, (None, 3), (6, 5), (1, 1)])
def test_adaptive_avg_pool2d(device, size):
    rng = np.random.default_rng(9)
    a = rng.standard_normal((2, 3, 6, 5)).astype(np.float32)
    oh, ow = (size, size) if isinstance(size, int) else (6 if size[0] is None else size[0], size[1])
    want = np.zeros((2, 3, oh, ow))
    for y in range(oh):
        for z in range(ow):
            h0, h1 = y * 6 // oh, -(-(y + 1) * 6 // oh)
            w0, w1 = z * 5 // ow, -(-(z + 1) * 5 // ow)
            want[:, :, y, z] = a[:, :, h0:h1, w0:w1].astype(np.float64).mean((2, 3))
    got = nr.adaptive_avg_pool2d(make(a, device), size)
    assert_close(got, want, dtype="float32", rtol=1e-5, atol=1e-6)
    if torch is not None and device == "cpu":
        assert_close(got, F.adaptive_avg_pool2d(torch.tensor(a), size).numpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("size", [(3, 2), (6, 5), 1, (4, None)])
def test_adaptive_max_pool2d(device, size):
    rng = np.random.default_rng(11)
    a = rng.integers(-4, 5, (2, 3, 6, 5)).astype(np.float32)  # small integers: many ties
    a[0, 0, 2, 3] = np.nan
    oh, ow = (size, size) if isinstance(size, int) else (size[0], 5 if size[1] is None else size[1])
    val, idx = np.zeros((2, 3, oh, ow), np.float32), np.zeros((2, 3, oh, ow), np.int64)
    for y in range(oh):
        for z in range(ow):
            h0, h1 = y * 6 // oh, -(-(y + 1) * 6 // oh)
            w0, w1 = z * 5 // ow, -(-(z + 1) * 5 // ow)
            win = a[:, :, h0:h1, w0:w1].reshape(2, 3, -1)
            first = np.argmax(win, -1)  # the first maximum, or the first NaN: a window here has at most one
            val[:, :, y, z] = np.take_along_axis(win, first[..., None], -1)[..., 0]
            r, q = np.divmod(first, w1 - w0)
            idx[:, :, y, z] = (h0 + r) * 5 + w0 + q
    v, i = nr.adaptive_max_pool2d(make(a, device), size, return_indices=True)
    assert_close(v, val, dtype="float32", rtol=0, atol=0)
    assert_close(i, idx, dtype="int64")
    assert_close(nr.adaptive_max_pool2d(make(a[0], device), size), val[0], rtol=0, atol=0)  # unbatched
    if torch is not None and device == "cpu":
        tv, ti = F.adaptive_max_pool2d(torch.tensor(a), size, return_indices=True)
        assert_close(v, tv.numpy(), rtol=0, atol=0)
        assert_close(i, ti.numpy())


_small = st.integers(1, 3)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(0, 2), g=st.integers(1, 3), cg=_small, og=_small, h=st.integers(1, 7), w=st.integers(1, 7),
       k=st.tuples(_small, _small), s=st.tuples(_small, _small), d=st.tuples(st.integers(1, 2), st.integers(1, 2)),
       p=st.tuples(st.integers(0, 2), st.integers(0, 2)), op=st.tuples(st.integers(0, 2), st.integers(0, 2)),
       seed=st.integers(0, 2**16))
def test_conv_hypothesis(n, g, cg, og, h, w, k, s, d, p, op, seed):
    """conv2d and conv_transpose2d (CPU, float64) against the NumPy loops over random geometry."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, g * cg, h, w))
    if all(hw + 2 * pp >= dd * (kk - 1) + 1 for hw, pp, dd, kk in zip((h, w), p, d, k, strict=True)):
        wt = rng.standard_normal((g * og, cg, *k))
        got = nr.conv2d(nr.tensor(x), nr.tensor(wt), None, s, p, d, g)
        assert_close(got, np_conv2d(x, wt, None, s, p, d, g), dtype="float64")
    op = tuple(min(o, max(ss, dd) - 1) for o, ss, dd in zip(op, s, d, strict=True))  # < stride or dilation
    assume(all((hw - 1) * ss + dd * (kk - 1) + 1 + o - 2 * pp >= 1
               for hw, ss, dd, kk, o, pp in zip((h, w), s, d, k, op, p, strict=True)))
    wt = rng.standard_normal((g * cg, og, *k))
    got = nr.conv_transpose2d(nr.tensor(x), nr.tensor(wt), None, s, p, op, g, d)
    assert_close(got, np_conv_transpose2d(x, wt, None, s, p, op, g, d), dtype="float64")


@settings(max_examples=60, deadline=None)
@given(h=st.integers(1, 7), w=st.integers(1, 7), k=st.tuples(_small, _small), s=st.tuples(_small, _small),
       d=st.tuples(st.integers(1, 2), st.integers(1, 2)), ceil=st.booleans(), include=st.booleans(),
       seed=st.integers(0, 2**16))
def test_pool_hypothesis(h, w, k, s, d, ceil, include, seed):
    """max/avg pooling (CPU) against the NumPy loops over random geometry; small integer values,
    so windows tie."""
    rng = np.random.default_rng(seed)
    a = rng.integers(-3, 4, (2, 2, h, w)).astype(np.float32)
    p = (rng.integers(0, k[0] // 2 + 1), rng.integers(0, k[1] // 2 + 1))
    lens = [_pool_len(n_, kk, ss, pp, dd, ceil) for n_, kk, ss, pp, dd in zip((h, w), k, s, p, d, strict=True)]
    assume(min(lens) >= 1 and all(ceil or n_ + 2 * pp >= dd * (kk - 1) + 1
                                  for n_, pp, dd, kk in zip((h, w), p, d, k, strict=True)))
    v, i = nr.max_pool2d(nr.tensor(a), k, s, p, d, ceil, True)
    wv, wi = np_max_pool2d(a, k, s, p, d, ceil)
    assert_close(v, wv, rtol=0, atol=0)
    assert_close(i, wi)
    lens = [_pool_len(n_, kk, ss, pp, 1, ceil) for n_, kk, ss, pp in zip((h, w), k, s, p, strict=True)]
    if min(lens) >= 1 and all(ceil or n_ + 2 * pp >= kk for n_, pp, kk in zip((h, w), p, k, strict=True)):
        assert_close(nr.avg_pool2d(nr.tensor(a), k, s, p, ceil, include), np_avg_pool2d(a, k, s, p, ceil, include),
                     rtol=1e-6, atol=1e-6)


# ---------------------------------------------------------------- gradients

def f64(a, device):
    return make(np.asarray(a, np.float64), device)


def _grad_case(device):
    rng = np.random.default_rng(10)
    return rng, f64(rng.standard_normal((2, 4, 5, 5)), device)


@pytest.mark.parametrize("kw", [{"stride": 2, "padding": 1, "groups": 2}, {"dilation": 2, "padding": "same"},
                                {"padding": (0, 1), "stride": (1, 2)}])
def test_conv2d_grad(device, kw):
    rng, x = _grad_case(device)
    w, b = f64(rng.standard_normal((4, 4 // kw.get("groups", 1), 3, 2)), device), f64(rng.standard_normal(4), device)
    assert gradcheck(lambda a, c, d: nr.conv2d(a, c, d, **kw), (x, w, b))
    assert gradcheck(lambda a, c: nr.conv2d(a, c, **kw), (x[:, :, ::-1, 1:], w.transpose(2, 3)[:, :, :2]))


def test_conv_transpose_grad(device):
    rng, x = _grad_case(device)
    w, b = f64(rng.standard_normal((4, 1, 2, 3)), device), f64(rng.standard_normal(2), device)
    assert gradcheck(lambda a, c, d: nr.conv_transpose2d(a, c, d, stride=2, padding=1, output_padding=1, groups=2),
                     (x, w, b))
    assert gradcheck(lambda a, c: nr.conv_transpose1d(a, c, stride=2, dilation=2), (x[:, :, 0], w[:, :, 0]))
    assert gradcheck(lambda a, c: nr.conv1d(a, c, padding=1), (x[:, :, 0], w.transpose(0, 1)[:, :, 0]))


def test_pool_grad(device):
    rng, x = _grad_case(device)
    assert gradcheck(lambda a: nr.max_pool2d(a, 3, 2, 1, ceil_mode=True), (x,))
    assert gradcheck(lambda a: nr.max_pool2d(a, 2, 1, dilation=2), (x,))
    assert gradcheck(lambda a: nr.avg_pool2d(a, 3, 2, 1, ceil_mode=True, count_include_pad=False), (x,))
    assert gradcheck(lambda a: nr.adaptive_avg_pool2d(a, (3, 2)), (x,))
    assert gradcheck(lambda a: nr.adaptive_max_pool2d(a, (2, 3)), (x,))
    assert gradcheck(lambda a: nr.fold(nr.unfold(a, 2, 2, 1, 1) * 2.0, (5, 5), 2, 2, 1, 1), (x,))


def test_max_pool_grad_ties(device):
    """A tied window sends its whole gradient to its first maximum (as torch), not shared."""
    x = Var(f64(np.ones((1, 1, 3, 4)), device), requires_grad=True)
    y = nr.max_pool2d(x, 2, stride=1)
    g = backward(nr.sum(y * f64(np.arange(1.0, 7.0).reshape(1, 1, 2, 3), device)))
    want = np.zeros((1, 1, 3, 4))
    want[0, 0, 0, :3] = [1, 2, 3]
    want[0, 0, 1, :3] = [4, 5, 6]
    assert_close(g[x], want)
    if torch is not None and device == "cpu":
        t = torch.ones((1, 1, 3, 4), dtype=torch.float64, requires_grad=True)
        scale = torch.arange(1.0, 7.0, dtype=torch.float64).reshape(1, 1, 2, 3)
        (F.max_pool2d(t, 2, stride=1) * scale).sum().backward()
        assert_close(g[x], t.grad.numpy())


def test_second_order(device):
    """unfold's and fold's rules are each other: a gradient of a gradient through conv2d."""
    rng, x = _grad_case(device)
    w = f64(rng.standard_normal((2, 4, 3, 3)), device)
    assert gradcheck(lambda c: nr.sum(nr.conv2d(x, c, padding=1) ** 2), (w,))
    from numr.autograd import hvp
    v = f64(rng.standard_normal(x.shape), device)
    hv = hvp(lambda a: nr.sum(nr.conv2d(a, w, padding=1) ** 2), x, v)
    want = 2 * np_conv_transpose2d(np_conv2d(v.numpy(), w.numpy(), padding=1), w.numpy(), padding=1)
    assert_close(hv, want, rtol=1e-10, atol=1e-10)


def test_jvp(device):
    rng, x = _grad_case(device)
    w, b = f64(rng.standard_normal((4, 2, 3, 3)), device), f64(rng.standard_normal(4), device)
    tx, tw, tb = (f64(rng.standard_normal(t.shape), device) for t in (x, w, b))
    kw = {"stride": 2, "padding": 1, "groups": 2}
    out, tan = jvp(lambda a, c, d: nr.conv2d(a, c, d, **kw), (x, w, b), (tx, tw, tb))
    xn, wn = x.numpy(), w.numpy()
    want = np_conv2d(tx.numpy(), wn, tb.numpy(), **kw) + np_conv2d(xn, tw.numpy(), **kw)
    assert_close(out, np_conv2d(xn, wn, b.numpy(), **kw))
    assert_close(tan, want, rtol=1e-10, atol=1e-10)
    _, tan = jvp(lambda a, c: nr.conv_transpose2d(a, c, stride=2), (x, w), (tx, tw))
    want = np_conv_transpose2d(tx.numpy(), wn, stride=2) + np_conv_transpose2d(xn, tw.numpy(), stride=2)
    assert_close(tan, want, rtol=1e-10, atol=1e-10)
    _, tan = jvp(lambda a: nr.max_pool2d(a, 2, 1), (x,), (tx,))
    _, idx = np_max_pool2d(xn, 2, 1)
    assert_close(tan, np.take_along_axis(tx.numpy().reshape(2, 4, -1), idx.reshape(2, 4, -1), 2).reshape(idx.shape))
    _, tan = jvp(lambda a: nr.adaptive_max_pool2d(a, 2), (x,), (tx,))
    _, idx = nr.adaptive_max_pool2d(x, 2, return_indices=True)
    idx = idx.numpy()
    assert_close(tan, np.take_along_axis(tx.numpy().reshape(2, 4, -1), idx.reshape(2, 4, -1), 2).reshape(idx.shape))
    _, tan = jvp(lambda a: nr.fold(nr.unfold(a, 2, 1, 1, 2) ** 2, (5, 5), 2, 1, 1, 2), (x,), (tx,))
    assert_close(tan, np_fold(2 * np_unfold(xn, 2, 1, 1, 2) * np_unfold(tx.numpy(), 2, 1, 1, 2), (5, 5), 2, 1, 1, 2),
                 rtol=1e-12, atol=1e-12)
    _, tan = jvp(lambda a: nr.avg_pool2d(a, 2, 1, 1, count_include_pad=False), (x,), (tx,))
    assert_close(tan, np_avg_pool2d(tx.numpy(), 2, 1, 1, include_pad=False), rtol=1e-12, atol=1e-12)
