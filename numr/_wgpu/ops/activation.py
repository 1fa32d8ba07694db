"""wgpu activations: fused element-wise kernels and softmax row kernels (activation.wgsl)
computed in float64, rounded once to the result dtype. Without shader-f64 the generic
composites (numr/ops/generic/activation.py) run instead; dropout is the generic composite."""

from __future__ import annotations

import inspect
from typing import Any

from ...errors import UnsupportedOperation
from ...layout import coalesce
from ...ops import prepare
from ...ops import prepare_activation as pa
from ...ops.generic import activation as generic
from ...ops.traits.activation import ActivationOps
from ...tensor import Tensor
from .. import launch
from .. import template as tpl
from ..device import MAXD, ParamSpec, dispatch_shape, window

ROW_FIELDS = [("nrows", "i32"), ("n", "i32"), ("kdim", "i32"), ("xoff", "i32"), ("goff", "i32"), ("yoff", "i32"),
              ("xsd", "i32"), ("gsd", "i32"), ("ysd", "i32"), ("kshape", "ivec"), ("kxs", "ivec"), ("kgs", "ivec"),
              ("kys", "ivec")]

FILE = "activation.wgsl"
ACT = {"silu": "silu_", "gelu": "gelu_", "gelut": "gelut_", "relu": "relu_", "sigmoid": "sigmoid_"}


def _fused(client: Any) -> bool:
    return "shader-f64" in client.gpu.features


def _run(client: Any, name: str, section: str, operands: list[Any], prm: float = 0.0,
         act: str = "", outputs: int = 1) -> list[Tensor]:
    ins, shape, _, out_dtype = pa.elementwise(name, client, operands)
    k = launch.kind(client, out_dtype, name)
    parts = [tpl.find("common.wgsl", "consts", "d"), tpl.sections(FILE)["helpers"]]
    secs = [section] if outputs == 1 else ["bwd_gate", "bwd_up"]
    outs = []
    for sec in secs:
        body = tpl.sections(FILE)[sec].replace("DACT", f"d{ACT[act]}" if act else "").replace(
            "ACT", ACT[act] if act else "")
        out = client.empty(shape, out_dtype)
        use = ins if sec != "bwd_up" else ins[:2]
        launch.elementwise(client, ("act", sec, act), out, use,
                           lambda body=body: {"body": body, "parts": parts, "fields": [("prm", "f64")]},
                           values={"prm": float(prm)}, kinds=[k] * (len(use) + 1))
        outs.append(out)
    return outs


def _method(name: str, section: str, act: str = "", n_in: int = 1, outputs: int = 1, param: str | None = None,
            default: float = 0.0, approx: bool = False):
    fallback = getattr(generic, name)
    sig = inspect.signature(getattr(ActivationOps, name))

    def f(self, *args: Any, **kwargs: Any):
        if not _fused(self):
            return fallback(self, *args, **kwargs)
        if kwargs:  # the protocol's keywords (silu_mul(g, up=u), gelu(x=t)) in positional order
            ba = sig.bind(self, *args, **kwargs)
            args, kwargs = ba.args[1:], ba.kwargs
        tensors = list(args[:n_in])
        rest = list(args[n_in:])
        sec, a = section, act
        if approx:
            ap = rest[0] if rest else kwargs.get("approximate", "none")
            if generic.check_approximate(name, ap):
                sec, a = (section.replace("gelu", "gelut"), "gelut") if n_in == 1 else (section, "gelut")
        prm = rest[0] if (param and rest) else kwargs.get(param, default) if param else 0.0
        outs = _run(self, name, sec, tensors, prm, a, outputs)
        return outs[0] if outputs == 1 else tuple(outs)

    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"{name} as one fused wgpu kernel (float64 compute)."
    return f


def _rows(client: Any, mode: str, x: Tensor, d: int, grad: Tensor | None = None) -> Tensor:
    """softmax/log_softmax/softmax_bwd along dim d: one workgroup per row, strided reads."""
    gpu = client.gpu
    y = client.empty(x.shape, x.dtype)
    if y.size == 0:
        return y
    ops = [x, y] + ([grad] if grad is not None else [])
    keep = [i for i in range(x.ndim) if i != d]
    kshape, kst = coalesce([x.shape[i] for i in keep], *[[t.strides[i] for i in keep] for t in ops])
    if len(kshape) > MAXD:
        raise UnsupportedOperation("wgpu", mode, reason=f"more than {MAXD} non-mergeable dims in {x.shape}")
    k = launch.kind(client, x.dtype, mode)

    def build():
        spec = ParamSpec(ROW_FIELDS)
        parts = [tpl.find("common.wgsl", "consts", "d")]
        operands = [("o", k, True), ("a", k, False)] + ([("b", k, False)] if grad is not None else [])
        src = tpl.build((FILE, "rows"), parts, operands, {"TO": k.ct}, spec.wgsl,
                        {"MODE": tpl.sections(FILE)[mode]})
        return src, spec

    pipe, spec = gpu.pipeline(("rows", mode, k.name), build)
    binds, offs = [], []
    for t in [y, x] + ([grad] if grad is not None else []):
        lo, hi = t._layout.extent()
        if (hi - lo) * t.dtype.itemsize > gpu.max_binding - gpu.offset_align:
            raise UnsupportedOperation("wgpu", mode, t.dtype, "an operand exceeds the binding limit")
        b, base = window(t._storage, lo, hi, t.dtype.itemsize, gpu.offset_align)
        binds.append(b)
        offs.append(t._layout.offset - base)
    n = x.shape[d]
    p = {"nrows": y.size // n, "n": n, "kdim": len(kshape), "yoff": offs[0], "xoff": offs[1],
         "xsd": x.strides[d], "ysd": y.strides[d], "kshape": list(kshape), "kxs": list(kst[0]), "kys": list(kst[1])}
    if grad is not None:
        p.update(goff=offs[2], gsd=grad.strides[d], kgs=list(kst[2]))
    gpu.run([(pipe, spec, p, binds, dispatch_shape(y.size // n))])
    return y


def _fits(client: Any, *tensors: Tensor) -> bool:
    """Whether every operand (and a dense result) fits one storage binding; the row kernel
    binds whole operands, larger ones go through the generic composite of chunked ops."""
    gpu = client.gpu
    room = gpu.max_binding - gpu.offset_align
    for t in tensors:
        lo, hi = t._layout.extent()
        if max(hi - lo, t.size) * t.dtype.itemsize > room:
            return False
    return True


#: the row kernel's loops: softmax/log_softmax walk the row 3 times (max, sum, write),
#: softmax_bwd twice, ceil(n / 256) iterations each per invocation (exp_d/log_d have no loops);
#: ROW_RESERVE covers the two 8-step trees and the 3 row walks (<= 8 dims). Measured on main:
#: softmax of one row of 8M zeros wrote 771328 elements (2 * 31250 + 3013 + 22 = 65535).
ROW_PASSES = {"softmax": 3, "log_softmax": 3, "softmax_bwd": 2}
ROW_RESERVE = 64


def _short(client: Any, mode: str, n: int) -> bool:
    """Whether a row of n fits the loop budget of one invocation; longer rows take the generic
    composite (reductions and element-wise kernels, each with a bounded loop)."""
    room = client.gpu.loop_room(ROW_RESERVE)
    return room is None or ROW_PASSES[mode] * -(-n // 256) <= room


def _row_op(client: Any, mode: str, x: Any, dim: int) -> Tensor:
    x = generic._float_input(client, mode, x)
    d = prepare.single_dim(mode, x, dim)
    if x.ndim == 0 or x.size == 0 or not _fits(client, x) or not _short(client, mode, x.shape[d]):
        return getattr(generic, mode)(client, x, dim)
    return _rows(client, mode, x, d)


class ActivationWgpu:
    """Mixin of WgpuClient: the activation ops."""

    relu = _method("relu", "relu")
    leaky_relu = _method("leaky_relu", "leaky_relu", param="negative_slope", default=0.01)
    elu = _method("elu", "elu", param="alpha", default=1.0)
    sigmoid = _method("sigmoid", "sigmoid")
    silu = _method("silu", "silu")
    gelu = _method("gelu", "gelu", approx=True)
    softplus = _method("softplus", "softplus")
    silu_mul = _method("silu_mul", "gated", "silu", n_in=2)
    gelu_mul = _method("gelu_mul", "gated", "gelu", n_in=2, approx=True)
    relu_mul = _method("relu_mul", "gated", "relu", n_in=2)
    sigmoid_mul = _method("sigmoid_mul", "gated", "sigmoid", n_in=2)
    silu_mul_bwd = _method("silu_mul_bwd", "bwd", "silu", n_in=3, outputs=2)
    gelu_mul_bwd = _method("gelu_mul_bwd", "bwd", "gelu", n_in=3, outputs=2, approx=True)
    relu_mul_bwd = _method("relu_mul_bwd", "bwd", "relu", n_in=3, outputs=2)
    sigmoid_mul_bwd = _method("sigmoid_mul_bwd", "bwd", "sigmoid", n_in=3, outputs=2)

    def softmax(self, x: Any, dim: int = -1) -> Tensor:
        if not _fused(self):
            return generic.softmax(self, x, dim)
        return _row_op(self, "softmax", x, dim)

    def log_softmax(self, x: Any, dim: int = -1) -> Tensor:
        if not _fused(self):
            return generic.log_softmax(self, x, dim)
        return _row_op(self, "log_softmax", x, dim)

    def softmax_bwd(self, grad: Any, out: Any, dim: int = -1) -> Tensor:
        grad = prepare.to_operand("softmax_bwd", self, grad)
        out = prepare.to_operand("softmax_bwd", self, out)
        if (not _fused(self) or not isinstance(grad, Tensor) or not isinstance(out, Tensor)
                or grad.shape != out.shape or grad.dtype is not out.dtype or out.ndim == 0 or out.size == 0
                or out.dtype.kind != "f" or not _fits(self, grad, out)
                or not _short(self, "softmax_bwd", out.shape[prepare.single_dim("softmax_bwd", out, dim)])):
            return generic.softmax_bwd(self, grad, out, dim)
        d = prepare.single_dim("softmax_bwd", out, dim)
        return _rows(self, "softmax_bwd", out, d, grad)
