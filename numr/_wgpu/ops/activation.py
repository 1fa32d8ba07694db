"""wgpu activations: fused element-wise kernels (activation.wgsl) computed in float64,
rounded once to the result dtype. Without shader-f64 the generic composites
(numr/ops/generic/activation.py) run instead. softmax, log_softmax, softmax_bwd
and dropout are the generic composites over the wgpu kernels."""

from __future__ import annotations

from typing import Any

from ...ops import prepare
from ...ops.generic import activation as generic
from ...tensor import Tensor
from .. import launch
from .. import template as tpl

FILE = "activation.wgsl"
ACT = {"silu": "silu_", "gelu": "gelu_", "gelut": "gelut_", "relu": "relu_", "sigmoid": "sigmoid_"}


def _fused(client: Any) -> bool:
    return "shader-f64" in client.gpu.features


def _run(client: Any, name: str, section: str, operands: list[Any], prm: float = 0.0,
         act: str = "", outputs: int = 1) -> list[Tensor]:
    ops = [prepare.to_operand(name, client, x) for x in operands]
    _, out_dtype = generic.act_dtypes(name, prepare.promoted(name, ops))
    ins, shape, _, _ = prepare.elementwise(name, client, ops, compute=out_dtype)
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

    def f(self, *args: Any, **kwargs: Any):
        if not _fused(self):
            return fallback(self, *args, **kwargs)
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
