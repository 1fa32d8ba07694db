"""CPU implementation of the activation op family (see numr/ops/traits/activation.py).

Element-wise activations, the gated forms and their backward run in one fused
pass (numr/_cpu/kernels/activation_loops.h); softmax, log_softmax and
softmax_bwd have a row kernel (activation_softmax.h). dropout is the generic
composite. float32/float64/float16/bfloat16 run natively (the 16-bit types
compute in float32); float8 computes in float32 and rounds once at the end.
"""

from __future__ import annotations

from typing import Any

from ... import dtypes as dt
from ...errors import UnsupportedDType
from ...layout import Layout, coalesce_in_order
from ...ops import prepare
from ...ops import prepare_activation as pa
from ...ops.generic import activation as generic
from ...tensor import Tensor
from .. import storage
from . import lazy_kernels
from .binary import dense

_k = lazy_kernels("activation")


# loop indices of activation_loops.h's tables
_OPS = {name: i for i, name in enumerate(
    "relu leaky_relu elu sigmoid silu gelu gelu_tanh softplus silu_mul gelu_mul gelu_tanh_mul relu_mul "
    "sigmoid_mul silu_mul_bwd gelu_mul_bwd gelu_tanh_mul_bwd relu_mul_bwd sigmoid_mul_bwd".split())}
_NATIVE = frozenset((dt.float32, dt.float64, dt.float16, dt.bfloat16))
_NATIVE_CODES = frozenset(d.code for d in _NATIVE)  # DType.__hash__ is Python code: test codes per call


def _dense_operands(client: Any, operands: list[Any]) -> bool:
    """True when every operand is a row-major tensor of this device with one native dtype and shape."""
    x = operands[0]
    if x.__class__ is not Tensor or x.device is not client.device or x.dtype.code not in _NATIVE_CODES:
        return False
    lay = x._layout
    if lay.strides != dense(lay.shape)[0]:
        return False
    return len(operands) == 1 or all(o.__class__ is Tensor and o.device is x.device and o.dtype is x.dtype
               and o._layout.shape == lay.shape and o._layout.strides == lay.strides for o in operands[1:])


def _launch(client: Any, name: str, kernel: str, operands: list[Any], nout: int, prm: float = 0.0) -> list[Tensor]:
    """Promote and broadcast ``operands``, run the fused loop, return the ``nout`` outputs."""
    x = operands[0]
    if len(operands) == 1 and x.__class__ is Tensor and x.device is client.device and x.dtype.code in _NATIVE_CODES:
        lay = x._layout  # the per-call fast path of a one-input activation, inlined (relu on 100
        strides, n = dense(lay.shape)  # elements: 1.35 us; through _dense_operands: 1.5 us)
        if lay.strides == strides and nout == 1:
            kd = x.dtype
            y = Tensor(storage.allocate(n, kd), Layout(lay.shape, strides, 0), kd, client.device)
            if n and not _k().contig1(_OPS[kernel], kd.code, x._storage, lay.offset, y._storage, n, float(prm)):
                raise UnsupportedDType("cpu", name, kd)
            return [y]
    if _dense_operands(client, operands):  # the per-call fast path: no promotion, broadcast or cast
        ins, kd = operands, operands[0].dtype
        shape, out_dtype = ins[0].shape, kd
        n = dense(shape)[1]
        outs = [Tensor(storage.allocate(n, kd), Layout(shape), kd, client.device) for _ in range(nout)]
        every = ins + outs
        cshape, cstrides = (n,), [(1,)] * len(every)
    else:
        ins, shape, kd, out_dtype = pa.elementwise(name, client, operands, _NATIVE)
        in_strides = [t.strides for t in ins]
        outs = [storage.empty_for(client.device, shape, kd, in_strides) for _ in range(nout)]
        every = ins + outs
        cshape, cstrides = coalesce_in_order(shape, outs[0].strides, *[t.strides for t in every])
    if not _k().elementwise(_OPS[kernel], kd.code, [t._storage for t in every],
                            [t._layout.offset for t in every], cshape, list(cstrides), float(prm)):
        raise UnsupportedDType("cpu", name, kd)
    if kd is not out_dtype:
        outs = [client.cast(o, out_dtype) for o in outs]
    return outs


def _rows(client: Any, name: str, x: Any, dim: int, run: Any) -> Tensor:
    """Apply a row kernel along ``dim``: the dim is moved last and made contiguous."""
    if _dense_operands(client, [x]) and x._layout.shape and type(dim) is int and dim in (-1, x._layout.ndim - 1):
        n = x._layout.shape[-1]  # the per-call fast path: a row-major input reduced along its last dim
        y = Tensor(storage.allocate(x._layout.numel, x.dtype), Layout(x._layout.shape), x.dtype, client.device)
        if y.size and not run(x.dtype.code, x, y, y.size // n, n):
            raise UnsupportedDType("cpu", name, x.dtype)
        return y
    x, d, kd, out_dtype = pa.rows(name, client, x, dim, _NATIVE)
    zero_d = x.ndim == 0
    if zero_d:
        x = x.reshape(1)
    last = x.ndim - 1
    xt = (x if d == last else x.transpose(d, last)).contiguous()
    y = storage.empty(client.device, xt.shape, kd)
    if y.size:
        n = xt.shape[-1]
        if not run(kd.code, xt, y, y.size // n, n):
            raise UnsupportedDType("cpu", name, kd)
    if d != last:
        y = y.transpose(d, last).contiguous()
    if zero_d:
        y = y.reshape(())
    return y if kd is out_dtype else client.cast(y, out_dtype)


class ActivationCpu(pa.gated_mixin(_launch)):
    """Mixin of CpuClient: the activation ops."""

    def relu(self, x: Any) -> Tensor:
        return _launch(self, "relu", "relu", [x], 1)[0]

    def leaky_relu(self, x: Any, negative_slope: float = 0.01) -> Tensor:
        return _launch(self, "leaky_relu", "leaky_relu", [x], 1, negative_slope)[0]

    def elu(self, x: Any, alpha: float = 1.0) -> Tensor:
        return _launch(self, "elu", "elu", [x], 1, alpha)[0]

    def sigmoid(self, x: Any) -> Tensor:
        return _launch(self, "sigmoid", "sigmoid", [x], 1)[0]

    def silu(self, x: Any) -> Tensor:
        return _launch(self, "silu", "silu", [x], 1)[0]

    def gelu(self, x: Any, approximate: str = "none") -> Tensor:
        k = pa.gelu_kernel("gelu", approximate)
        return _launch(self, "gelu", k, [x], 1)[0]

    def softplus(self, x: Any) -> Tensor:
        return _launch(self, "softplus", "softplus", [x], 1)[0]

    def softmax(self, x: Any, dim: int = -1) -> Tensor:
        return _rows(self, "softmax", x, dim, lambda code, xt, y, rows, n: _k().softmax(
            code, xt._storage, xt._layout.offset, y._storage, 0, rows, n, 0))

    def log_softmax(self, x: Any, dim: int = -1) -> Tensor:
        return _rows(self, "log_softmax", x, dim, lambda code, xt, y, rows, n: _k().softmax(
            code, xt._storage, xt._layout.offset, y._storage, 0, rows, n, 1))

    def softmax_bwd(self, grad: Any, out: Any, dim: int = -1) -> Tensor:
        grad = prepare.to_operand("softmax_bwd", self, grad)
        out = prepare.to_operand("softmax_bwd", self, out)
        if not isinstance(grad, Tensor) or grad.shape != out.shape or grad.dtype is not out.dtype:
            return generic.softmax_bwd(self, grad, out, dim)

        def run(code: int, yt: Tensor, gx: Tensor, rows: int, n: int) -> bool:
            d = prepare.single_dim("softmax_bwd", out, dim)
            g = grad if grad.ndim else grad.reshape(1)
            last = g.ndim - 1
            gt = (g if d == last else g.transpose(d, last)).contiguous()
            if gt.dtype.code != code:
                gt = self.cast(gt, yt.dtype)
            return _k().softmax_bwd(code, gt._storage, gt._layout.offset, yt._storage, yt._layout.offset,
                                    gx._storage, 0, rows, n)

        return _rows(self, "softmax_bwd", out, dim, run)
