"""Convolution written once: unfold (im2col) is a strided VIEW of the padded input (window
dims beside output dims; the reshape to columns is the only copy, and none for a 1x1 kernel
with stride 1); fold (col2im) adds each kernel offset's slab into a strided view of a zero
output. conv2d is unfold + one batched matmul with the weight (groups a batch dim);
conv_transpose2d is its adjoint, a matmul then fold. The convs use public functions only, so
every backend runs them and autograd differentiates them: unfold and fold have their own
rules (each the other's adjoint, numr/autograd/ops/conv.py), matmul, reshape and pad theirs."""

from __future__ import annotations

from typing import Any

from ... import dtypes as dt
from ...errors import DTypeError, ShapeError
from ...layout import Layout
from .. import api

Pair = tuple[int, int]


def tup(op: str, name: str, v: Any, n: int = 2, lo: int = 1) -> tuple[int, ...]:
    """An int or a length-n sequence of ints, each >= lo, as a tuple."""
    scalar = isinstance(v, int) or hasattr(v, "__index__")
    vals = [v] * n if scalar else list(v) if isinstance(v, (list, tuple)) else None
    if vals is None or len(vals) != n or any(isinstance(a, bool) or not hasattr(a, "__index__") for a in vals):
        raise ShapeError(f"{op}: {name} must be an int or {n} ints, got {v!r}")
    vals = [int(a) for a in vals]
    if any(a < lo for a in vals):
        raise ShapeError(f"{op}: {name} must be >= {lo}, got {v!r}")
    return tuple(vals)


def out_len(op: str, size: int, k: int, d: int, s: int, what: str) -> int:
    """Windows along one dim of the (padded) size; the kernel must fit."""
    span = d * (k - 1) + 1
    if span > size:
        raise ShapeError(f"{op}: the kernel (size {k}, dilation {d}: span {span}) is larger than the "
                         f"padded input ({size}) along {what}")
    return (size - span) // s + 1


def need_float(op: str, *ts: Any) -> None:
    for t in ts:
        if t is not None and t.dtype.kind not in "f":
            raise DTypeError(f"{op}: needs floating tensors (as torch), got {t.dtype} for shape {t.shape}")


def batched(op: str, x: Any, nd: int) -> tuple[Any, bool]:
    """x with a batch dim (unbatched inputs get one), and whether it was added."""
    if x.ndim == nd + 1:
        return x.unsqueeze(0), True
    if x.ndim != nd + 2:
        raise ShapeError(f"{op}: input must be {nd + 1}-d (unbatched) or {nd + 2}-d (batched), got shape {x.shape}")
    return x, False


def patches(t: Any, k: tuple[int, int], d: tuple[int, int], s: tuple[int, int]) -> Any:
    """The (N, C, kh, kw, oh, ow) strided view of a 4-d tensor's windows (no copy)."""
    lay = t._layout
    n, c, h, w = lay.shape
    oh, ow = (h - d[0] * (k[0] - 1) - 1) // s[0] + 1, (w - d[1] * (k[1] - 1) - 1) // s[1] + 1
    sn, sc, sh, sw = lay.strides
    return t._view(Layout((n, c, k[0], k[1], oh, ow), (sn, sc, sh * d[0], sw * d[1], sh * s[0], sw * s[1]), lay.offset))


def unfold(self: Any, x: Any, kernel_size: Any, dilation: Any = 1, padding: Any = 0, stride: Any = 1) -> Any:
    """im2col: the window view of the (zero-)padded input, reshaped to (N, C*kh*kw, L)."""
    op = "unfold"
    k, d = tup(op, "kernel_size", kernel_size), tup(op, "dilation", dilation)
    p, s = tup(op, "padding", padding, lo=0), tup(op, "stride", stride)
    x4, added = batched(op, x, 2)
    n, c, h, w = x4.shape
    oh = out_len(op, h + 2 * p[0], k[0], d[0], s[0], "height")
    ow = out_len(op, w + 2 * p[1], k[1], d[1], s[1], "width")
    if p[0] or p[1]:
        x4 = self.pad(x4, (p[1], p[1], p[0], p[0]))
    cols = patches(x4, k, d, s).reshape(n, c * k[0] * k[1], oh * ow)
    return cols[0] if added else cols


def fold(self: Any, x: Any, output_size: Any, kernel_size: Any, dilation: Any = 1, padding: Any = 0,
         stride: Any = 1) -> Any:
    """col2im: each kernel offset's (N, C, oh, ow) slab added into a strided view of a zero
    output (float32 for the 16-bit and 8-bit floats, rounded once at the end), then cropped."""
    op = "fold"
    hw, k = tup(op, "output_size", output_size), tup(op, "kernel_size", kernel_size)
    d, p, s = tup(op, "dilation", dilation), tup(op, "padding", padding, lo=0), tup(op, "stride", stride)
    x3, added = batched(op, x, 1)
    n, ckk, L = x3.shape
    kk = k[0] * k[1]
    hp, wp = hw[0] + 2 * p[0], hw[1] + 2 * p[1]
    oh = out_len(op, hp, k[0], d[0], s[0], "height")
    ow = out_len(op, wp, k[1], d[1], s[1], "width")
    if ckk % kk or L != oh * ow:
        raise ShapeError(f"{op}: input of shape {x.shape} must be (N, C*{kk}, {oh * ow}) for kernel {k}, "
                         f"output_size {hw}, padding {p}, dilation {d}, stride {s}")
    c = ckk // kk
    low = x3.dtype.is_low_precision
    out = self.full((n, c, hp, wp), 0, dt.float32 if low else x3.dtype)
    if out.size:
        cols = x3.reshape(n, c, k[0], k[1], oh, ow)
        view = patches(out, k, d, s)
        lay = view._layout
        for i in range(k[0]):
            for j in range(k[1]):
                off = lay.offset + i * lay.strides[2] + j * lay.strides[3]
                region = out._view(Layout((n, c, oh, ow), lay.strides[:2] + lay.strides[4:], off))
                region.add_(cols[:, :, i, j])
    if p[0] or p[1]:
        out = out[:, :, p[0]:p[0] + hw[0], p[1]:p[1] + hw[1]]
    if low:
        out = self.cast(out, x3.dtype)
    return out[0] if added else out


def conv_padding(op: str, padding: Any, k: tuple[int, ...], d: tuple[int, ...], s: tuple[int, ...]) -> list[int]:
    """(before, after) per spatial dim, flattened: ints, "valid" or "same"."""
    if isinstance(padding, str):
        if padding == "valid":
            return [0] * (2 * len(k))
        if padding != "same":
            raise ValueError(f"{op}: padding must be an int, a tuple, 'valid' or 'same', got {padding!r}")
        if any(v != 1 for v in s):
            raise ShapeError(f"{op}: padding='same' needs stride 1, got stride {s}")
        out: list[int] = []
        for ki, di in zip(k, d, strict=True):
            total = di * (ki - 1)
            out += [total // 2, total - total // 2]
        return out
    p = tup(op, "padding", padding, len(k), lo=0)
    return [v for pi in p for v in (pi, pi)]


def _conv_check(op: str, x: Any, weight: Any, bias: Any, groups: Any, c_axis_w: int, nd: int) -> int:
    need_float(op, x, weight, bias)
    if x.dtype != weight.dtype or (bias is not None and bias.dtype != x.dtype):
        raise DTypeError(f"{op}: input ({x.dtype}), weight ({weight.dtype})"
                         + (f" and bias ({bias.dtype})" if bias is not None else "") + " must have one dtype")
    if weight.ndim != nd + 2:
        raise ShapeError(f"{op}: weight must be {nd + 2}-d, got shape {weight.shape}")
    if isinstance(groups, bool) or not hasattr(groups, "__index__") or int(groups) < 1:
        raise ShapeError(f"{op}: groups must be a positive int, got {groups!r}")
    return int(groups)


def conv2d_plan(op: str, x: Any, weight: Any, bias: Any, stride: Any, padding: Any, dilation: Any,
                groups: Any) -> tuple[Any, bool, int, Pair, Pair, Pair, list[int], int, int]:
    """The checked geometry of conv2d: (x batched, whether a batch dim was added, groups, kernel,
    dilation, stride, [top, bottom, left, right] padding, output height, output width)."""
    g = _conv_check(op, x, weight, bias, groups, 1, 2)
    x4, added = batched(op, x, 2)
    n, c, h, w = x4.shape
    o, cg, kh, kw = weight.shape
    k, d, s = (kh, kw), tup(op, "dilation", dilation), tup(op, "stride", stride)
    if c != cg * g or o % g:
        raise ShapeError(f"{op}: input with {c} channels (shape {x.shape}) and weight of shape {weight.shape} "
                         f"do not fit groups={g} (needs C = weight.shape[1] * groups, O divisible by groups)")
    if bias is not None and tuple(bias.shape) != (o,):
        raise ShapeError(f"{op}: bias must have shape ({o},), got {bias.shape}")
    pads = conv_padding(op, padding, k, d, s)
    oh = out_len(op, h + pads[0] + pads[1], kh, d[0], s[0], "height")
    ow = out_len(op, w + pads[2] + pads[3], kw, d[1], s[1], "width")
    return x4, added, g, k, d, s, pads, oh, ow


def conv2d_any(x: Any, weight: Any, bias: Any = None, stride: Any = 1, padding: Any = 0, dilation: Any = 1,
               groups: int = 1) -> Any:
    """torch.nn.functional.conv2d (cross-correlation)."""
    op = "conv2d"
    x4, added, g, k, d, s, pads, oh, ow = conv2d_plan(op, x, weight, bias, stride, padding, dilation, groups)
    n = x4.shape[0]
    o, cg, kh, kw = weight.shape
    if any(pads):
        x4 = api.call("pad", (x4, (pads[2], pads[3], pads[0], pads[1])), {})
    cols = api.call("unfold", (x4, k, d, 0, s), {})  # (N, C*kh*kw, L)
    if g == 1:
        out = weight.reshape(o, cg * kh * kw) @ cols
    else:
        out = weight.reshape(g, o // g, cg * kh * kw) @ cols.reshape(n, g, cg * kh * kw, oh * ow)
    out = out.reshape(n, o, oh, ow)
    if bias is not None:
        out = out + bias.reshape(o, 1, 1)
    return out[0] if added else out


def weight_grad_plan(op: str, x: Any, weight_shape: Any, grad_output: Any, stride: Any, padding: Any,
                     dilation: Any, groups: Any) -> tuple[Any, Any, int, Pair, Pair, Pair, list[int], int, int]:
    """conv2d_weight_grad's checked geometry: (x batched, grad batched, then as conv2d_plan)."""
    ws = tuple(weight_shape) if isinstance(weight_shape, (list, tuple)) else ()
    if len(ws) != 4 or any(isinstance(v, bool) or not hasattr(v, "__index__") or int(v) < 1 for v in ws):
        raise ShapeError(f"{op}: weight_shape must be 4 positive ints (O, C/groups, kh, kw), got {weight_shape!r}")
    need_float(op, grad_output)
    probe = _ShapeOnly(tuple(int(v) for v in ws), x.dtype)
    x4, added, g, k, d, s, pads, oh, ow = conv2d_plan(op, x, probe, None, stride, padding, dilation, groups)
    if grad_output.dtype != x.dtype:
        raise DTypeError(f"{op}: input ({x.dtype}) and grad_output ({grad_output.dtype}) must have one dtype")
    want = (x4.shape[0], probe.shape[0], oh, ow)
    g4 = grad_output.unsqueeze(0) if added and grad_output.ndim == 3 else grad_output
    if tuple(g4.shape) != want:
        raise ShapeError(f"{op}: grad_output must have shape {want[int(added):]} for input {tuple(x.shape)} and "
                         f"weight_shape {probe.shape}, got {tuple(grad_output.shape)}")
    return x4, g4, g, k, d, s, pads, oh, ow


class _ShapeOnly:
    """A weight stand-in for the geometry checks: a shape and a dtype."""

    def __init__(self, shape: tuple[int, ...], dtype: Any):
        self.shape, self.dtype, self.ndim = shape, dtype, len(shape)


def conv2d_weight_grad_any(x: Any, weight_shape: Any, grad_output: Any, stride: Any = 1, padding: Any = 0,
                           dilation: Any = 1, groups: int = 1) -> Any:
    """conv2d's gradient in the weight (torch.nn.grad.conv2d_weight): per group, grad_output's rows
    times unfold's columns of x, summed over the batch."""
    op = "conv2d_weight_grad"
    x4, g4, g, k, d, s, pads, oh, ow = weight_grad_plan(op, x, weight_shape, grad_output, stride, padding,
                                                        dilation, groups)
    n = x4.shape[0]
    o, cg, kh, kw = (int(v) for v in weight_shape)
    if any(pads):
        x4 = api.call("pad", (x4, (pads[2], pads[3], pads[0], pads[1])), {})
    cols = api.call("unfold", (x4, k, d, 0, s), {})  # (N, C*kh*kw, L)
    kk = cg * kh * kw
    gw = g4.reshape(n, g, o // g, oh * ow) @ cols.reshape(n, g, kk, oh * ow).mT  # (N, g, O/g, kk)
    return gw.sum(0).reshape(o, cg, kh, kw)


def conv_transpose2d_any(x: Any, weight: Any, bias: Any = None, stride: Any = 1, padding: Any = 0,
                         output_padding: Any = 0, groups: int = 1, dilation: Any = 1) -> Any:
    """torch.nn.functional.conv_transpose2d: columns W^T x, then fold, then crop the padding."""
    op = "conv_transpose2d"
    x4, added, g, k, d, s, p, opad, full = transpose_plan(op, x, weight, bias, stride, padding, output_padding,
                                                          groups, dilation)
    n, c, h, w = x4.shape
    ci, og, kh, kw = weight.shape
    o = og * g
    cig, kk = c // g, kh * kw
    wt = weight.reshape(g, cig, og * kk).transpose(-1, -2)  # (g, O/g*kk, C/g)
    cols = wt @ x4.reshape(n, g, cig, h * w)  # (N, g, O/g*kk, H*W)
    out = api.call("fold", (cols.reshape(n, o * kk, h * w), tuple(full), k, d, 0, s), {})
    if any(p) or any(opad):
        out = api.call("pad", (out, (-p[1], opad[1] - p[1], -p[0], opad[0] - p[0])), {})
    if bias is not None:
        out = out + bias.reshape(o, 1, 1)
    return out[0] if added else out


def transpose_plan(op: str, x: Any, weight: Any, bias: Any, stride: Any, padding: Any, output_padding: Any,
                   groups: Any, dilation: Any) -> tuple[Any, bool, int, Pair, Pair, Pair, Pair, Pair, list[int]]:
    """conv_transpose2d's checked geometry: (x batched, whether a batch dim was added, groups,
    kernel, dilation, stride, padding, output_padding, uncropped output size)."""
    g = _conv_check(op, x, weight, bias, groups, 0, 2)
    x4, added = batched(op, x, 2)
    n, c, h, w = x4.shape
    ci, og, kh, kw = weight.shape
    k, d, s = (kh, kw), tup(op, "dilation", dilation), tup(op, "stride", stride)
    p, opad = tup(op, "padding", padding, lo=0), tup(op, "output_padding", output_padding, lo=0)
    if c != ci or c % g:
        raise ShapeError(f"{op}: input with {c} channels (shape {x.shape}) and weight of shape {weight.shape} "
                         f"do not fit groups={g} (needs C = weight.shape[0], divisible by groups)")
    if any(o_ >= s_ and o_ >= d_ for o_, s_, d_ in zip(opad, s, d, strict=True)):
        raise ShapeError(f"{op}: output_padding {opad} must be smaller than the stride {s} or the dilation {d}")
    o = og * g
    if bias is not None and tuple(bias.shape) != (o,):
        raise ShapeError(f"{op}: bias must have shape ({o},), got {bias.shape}")
    full = [(hw - 1) * s_ + d_ * (k_ - 1) + 1 for hw, s_, d_, k_ in zip((h, w), s, d, k, strict=True)]
    size = [f + o_ - 2 * p_ for f, o_, p_ in zip(full, opad, p, strict=True)]
    if min(size) < 1:
        raise ShapeError(f"{op}: the output size {tuple(size)} is not positive (input {x.shape}, kernel {k}, "
                         f"stride {s}, padding {p}, dilation {d}, output_padding {opad})")
    return x4, added, g, k, d, s, p, opad, full


def _check_1d(op: str, x: Any, weight: Any) -> None:
    if x.ndim not in (2, 3) or weight.ndim != 3:
        raise ShapeError(f"{op}: input must be 2-d or 3-d and weight 3-d, got shapes {x.shape} and {weight.shape}")


def _one(op: str, name: str, v: Any, lo: int) -> int:
    return tup(op, name, v, 1, lo)[0]


def conv1d_any(x: Any, weight: Any, bias: Any = None, stride: Any = 1, padding: Any = 0, dilation: Any = 1,
               groups: int = 1) -> Any:
    """torch.nn.functional.conv1d: conv2d of height 1, through the public conv2d so that a
    backend's kernels and conv2d's autograd rule serve it (checked first, for conv1d's messages)."""
    op = "conv1d"
    _check_1d(op, x, weight)
    pad = padding if isinstance(padding, str) else (0, _one(op, "padding", padding, 0))
    args = (x.unsqueeze(-2), weight.unsqueeze(2), bias, (1, _one(op, "stride", stride, 1)), pad,
            (1, _one(op, "dilation", dilation, 1)), groups)
    conv2d_plan(op, *args)
    return api.call("conv2d", args, {}).squeeze(-2)


def conv_transpose1d_any(x: Any, weight: Any, bias: Any = None, stride: Any = 1, padding: Any = 0,
                         output_padding: Any = 0, groups: int = 1, dilation: Any = 1) -> Any:
    """torch.nn.functional.conv_transpose1d: conv_transpose2d of height 1 (as conv1d)."""
    op = "conv_transpose1d"
    _check_1d(op, x, weight)
    args = (x.unsqueeze(-2), weight.unsqueeze(2), bias, (1, _one(op, "stride", stride, 1)),
            (0, _one(op, "padding", padding, 0)), (0, _one(op, "output_padding", output_padding, 0)),
            groups, (1, _one(op, "dilation", dilation, 1)))
    transpose_plan(op, *args)
    return api.call("conv_transpose2d", args, {}).squeeze(-2)


#: public name -> the composite taking the public arguments (autograd registers these)
COMPOSITES = {"conv1d": conv1d_any, "conv2d": conv2d_any, "conv2d_weight_grad": conv2d_weight_grad_any,
              "conv_transpose1d": conv_transpose1d_any, "conv_transpose2d": conv_transpose2d_any}
