"""CPU convolution: depthwise convolutions (one input channel per output channel's group) run the
direct kernel of numr/_cpu/kernels/conv_depthwise.h, forward, input gradient (conv_transpose2d
with one output channel per group) and weight gradient. The composite (unfold + batched matmul)
copies the input kernel-size times and runs C matrix-vector products: 8x64x56x56 3x3 depthwise
took 5.3 ms against torch's 1.0 ms. Other convolutions, other dtypes than float32/float64 and
Vars go to the generic composites (numr/ops/generic/conv.py)."""

from __future__ import annotations

from typing import Any

from ... import dtypes as dt
from ...errors import UnsupportedDType
from ...ops.generic import conv as gc
from ...tensor import Tensor
from .. import storage
from . import lazy_kernels

_k = lazy_kernels("conv")

_NATIVE = frozenset((dt.float32, dt.float64))
_FORWARD, _INPUT_GRAD, _WEIGHT_GRAD = 0, 1, 2
_MAX_KW = 64  # conv_depthwise.h's NCD_MAX_KW


def _direct(w_shape: Any) -> bool:
    """Whether a weight of this shape fits the direct kernels: 4-d, one channel per group, at most
    _MAX_KW wide."""
    return len(w_shape) == 4 and w_shape[1] == 1 and w_shape[3] <= _MAX_KW


def _takes(client: Any, *ts: Any) -> bool:
    """Tensors of this device of one kernel dtype (None allowed after the first)."""
    x = ts[0]
    if x.__class__ is not Tensor or x.device is not client.device or x.dtype not in _NATIVE:
        return False
    return all(t is None or (t.__class__ is Tensor and t.device is x.device and t.dtype is x.dtype) for t in ts[1:])


def _run(op: str, mode: int, geom: tuple, a: Tensor, w: Any, b: Any, shape: tuple) -> Tensor:
    """The kernel's result of `shape`; operands made contiguous."""
    a, w, b = (None if t is None else t.contiguous() for t in (a, w, b))
    out = storage.empty(a.device, shape, a.dtype)
    if out.size and not _k().depthwise(a.dtype.code, mode, geom, a._storage, a._layout.offset,
                                       None if w is None else w._storage, 0 if w is None else w._layout.offset,
                                       None if b is None else b._storage, 0 if b is None else b._layout.offset,
                                       out._storage):
        raise UnsupportedDType("cpu", op, a.dtype)
    return out


class ConvCpu:
    """Mixin of CpuClient: the direct depthwise kernels."""

    def conv2d(self, x: Any, weight: Any, bias: Any = None, stride: Any = 1, padding: Any = 0, dilation: Any = 1,
               groups: int = 1) -> Any:
        if not _takes(self, x, weight, bias) or not _direct(weight.shape):
            return gc.conv2d_any(x, weight, bias, stride, padding, dilation, groups)
        x4, added, g, k, d, s, pads, oh, ow = gc.conv2d_plan("conv2d", x, weight, bias, stride, padding, dilation,
                                                             groups)
        n, c, h, w = x4.shape
        o = weight.shape[0]
        geom = (n, c, o // c, h, w, oh, ow, k[0], k[1], s[0], s[1], pads[0], pads[2], d[0], d[1])
        out = _run("conv2d", _FORWARD, geom, x4, weight, bias, (n, o, oh, ow))
        return out[0] if added else out

    def conv2d_weight_grad(self, x: Any, weight_shape: Any, grad_output: Any, stride: Any = 1, padding: Any = 0,
                           dilation: Any = 1, groups: int = 1) -> Any:
        op = "conv2d_weight_grad"
        if not _takes(self, x, grad_output) or not _direct(tuple(weight_shape)):
            return gc.conv2d_weight_grad_any(x, weight_shape, grad_output, stride, padding, dilation, groups)
        x4, g4, g, k, d, s, pads, oh, ow = gc.weight_grad_plan(op, x, weight_shape, grad_output, stride, padding,
                                                               dilation, groups)
        n, c, h, w = x4.shape
        o = int(weight_shape[0])
        geom = (n, c, o // c, h, w, oh, ow, k[0], k[1], s[0], s[1], pads[0], pads[2], d[0], d[1])
        if not x4.size:
            return self.full((o, 1, k[0], k[1]), 0, x.dtype)
        return _run(op, _WEIGHT_GRAD, geom, x4, None, g4, (o, 1, k[0], k[1]))

    def conv_transpose2d(self, x: Any, weight: Any, bias: Any = None, stride: Any = 1, padding: Any = 0,
                         output_padding: Any = 0, groups: int = 1, dilation: Any = 1) -> Any:
        op = "conv_transpose2d"
        if not _takes(self, x, weight, bias) or not _direct(weight.shape):
            return gc.conv_transpose2d_any(x, weight, bias, stride, padding, output_padding, groups, dilation)
        x4, added, g, k, d, s, p, opad, full = gc.transpose_plan(op, x, weight, bias, stride, padding,
                                                                 output_padding, groups, dilation)
        n, c, h, w = x4.shape
        size = [f + o_ - 2 * p_ for f, o_, p_ in zip(full, opad, p, strict=True)]
        # the adjoint of a depthwise conv2d from `g` planes to `c` = g * mult planes
        geom = (n, g, c // g, size[0], size[1], h, w, k[0], k[1], s[0], s[1], p[0], p[1], d[0], d[1])
        out = _run(op, _INPUT_GRAD, geom, x4, weight, None, (n, g, size[0], size[1]))
        if bias is not None:
            out.add_(bias.reshape(g, 1, 1))
        return out[0] if added else out
