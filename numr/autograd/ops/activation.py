"""Activations, softmax/log_softmax, dropout and the fused gated forms.

First-order backward uses the fused kernels (``silu_mul_bwd`` & co., one pass
over memory; ``softmax_bwd``). ``backward_var`` uses the same derivative as a
formula of differentiable ops, so second order works through every
activation; GELU's derivative is itself a recorded op (``var_gelu_grad``)
whose own derivative is written out in primitives.
"""

from __future__ import annotations

import math
from typing import Any

import numr as nr

from ...ops.generic.activation import check_approximate, dropout_mask
from ..var import Var
from ._common import record, register, tensor_call, unwrap

K = math.sqrt(2.0 / math.pi)
C = 0.044715


def _isvar(g: Any) -> bool:
    return isinstance(g, Var)


def _ones_like(t: Any) -> Any:
    t = unwrap(t)
    return nr.ones((), dtype=t.dtype, device=t.device)


# ---- derivative formulas in differentiable primitives (for backward_var / forward mode) ----

def dsilu(x: Any) -> Any:
    s = nr.sigmoid(x)
    return s * (1.0 + x * (1.0 - s))


def dgelu_formula_second(x: Any, tanh: bool) -> Any:
    """gelu''(x) in primitives."""
    if not tanh:
        return nr.exp(x * x * -0.5) * (1.0 / math.sqrt(2.0 * math.pi)) * (2.0 - x * x)
    t = nr.tanh((x + x * x * x * C) * K)
    du = (1.0 + x * x * (3.0 * C)) * K
    return (1.0 - t * t) * (du - x * t * du * du + x * x * (K * 3.0 * C))


def _gelu_grad_vjp(g, args, out, need, extra):
    return [g * dgelu_formula_second(args[0], extra)]


def var_gelu_grad(x: Any, approximate: str = "none") -> Any:
    """gelu'(x) as a recorded op (forward by the fused kernel, derivative gelu'' in primitives)."""
    tanh = check_approximate("gelu", approximate)
    t = unwrap(x)
    out = tensor_call("gelu_mul_bwd", (_ones_like(t), t, _ones_like(t)), {"approximate": approximate})[0]
    return record("gelu_grad", (x,), out, _gelu_grad_vjp, extra=tanh)


def dgelu(x: Any, approximate: str) -> Any:
    return var_gelu_grad(x, approximate) if _isvar(x) else \
        tensor_call("gelu_mul_bwd", (_ones_like(x), x, _ones_like(x)), {"approximate": approximate})[0]


# ---- unary activations ----

def _relu_vjp(g, args, out, need, extra):
    return [nr.where(args[0] > 0, g, g * 0.0)]


@register("relu")
def var_relu(x: Any) -> Var:
    return record("relu", (x,), tensor_call("relu", (x,)), _relu_vjp)


def _leaky_vjp(g, args, out, need, extra):
    return [nr.where(args[0] > 0, g, g * extra)]


@register("leaky_relu")
def var_leaky_relu(x: Any, negative_slope: float = 0.01) -> Var:
    return record("leaky_relu", (x,), tensor_call("leaky_relu", (x, negative_slope)), _leaky_vjp,
                  extra=negative_slope)


def _elu_vjp(g, args, out, need, extra):
    x = args[0]
    return [nr.where(x > 0, g, g * nr.exp(x) * extra)]


@register("elu")
def var_elu(x: Any, alpha: float = 1.0) -> Var:
    return record("elu", (x,), tensor_call("elu", (x, alpha)), _elu_vjp, extra=alpha)


def _sigmoid_vjp(g, args, out, need, extra):
    return [g * out * (1.0 - out)]


@register("sigmoid")
def var_sigmoid(x: Any) -> Var:
    return record("sigmoid", (x,), tensor_call("sigmoid", (x,)), _sigmoid_vjp, save_args=False, save_out=True)


def _silu_vjp(g, args, out, need, extra):
    x = args[0]
    if _isvar(g) or _isvar(x):
        return [g * dsilu(x)]
    return [tensor_call("silu_mul_bwd", (g, x, _ones_like(x)))[0]]


@register("silu")
def var_silu(x: Any) -> Var:
    return record("silu", (x,), tensor_call("silu", (x,)), _silu_vjp)


def _gelu_vjp(g, args, out, need, extra):
    x = args[0]
    if _isvar(g) or _isvar(x):
        return [g * dgelu(x, extra)]
    return [tensor_call("gelu_mul_bwd", (g, x, _ones_like(x)), {"approximate": extra})[0]]


@register("gelu")
def var_gelu(x: Any, approximate: str = "none") -> Var:
    check_approximate("gelu", approximate)
    return record("gelu", (x,), tensor_call("gelu", (x,), {"approximate": approximate}), _gelu_vjp,
                  extra=approximate)


def _softplus_vjp(g, args, out, need, extra):
    return [g * nr.sigmoid(args[0])]


@register("softplus")
def var_softplus(x: Any) -> Var:
    return record("softplus", (x,), tensor_call("softplus", (x,)), _softplus_vjp)


def _softmax_vjp(g, args, out, need, extra):
    if _isvar(g) or _isvar(out):
        return [out * (g - nr.sum(g * out, dim=extra, keepdim=True))]
    return [tensor_call("softmax_bwd", (g, out, extra))]


@register("softmax")
def var_softmax(x: Any, dim: int = -1) -> Var:
    """Softmax along dim; first-order backward by the fused softmax_bwd kernel."""
    return record("softmax", (x,), tensor_call("softmax", (x, dim)), _softmax_vjp, save_args=False,
                  save_out=True, extra=dim)


def _log_softmax_vjp(g, args, out, need, extra):
    return [g - nr.exp(out) * nr.sum(g, dim=extra, keepdim=True)]


@register("log_softmax")
def var_log_softmax(x: Any, dim: int = -1) -> Var:
    return record("log_softmax", (x,), tensor_call("log_softmax", (x, dim)), _log_softmax_vjp, save_args=False,
                  save_out=True, extra=dim)


def _dropout_vjp(g, args, out, need, extra):
    keep, scale = extra
    if isinstance(keep, bool):
        return [g * scale]
    return [nr.where(keep, g * scale, g * 0.0)]


@register("dropout")
def var_dropout(x: Any, p: float = 0.5, training: bool = True, seed: int | None = None) -> Var:
    """Dropout with the same mask as ``nr.dropout`` for the same seed/stream; the mask is saved."""
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"dropout: p must be in [0, 1], got {p}")
    t = unwrap(x)
    if not training or p == 0.0:
        return record("dropout", (x,), tensor_call("dropout", (x, p, training, seed)), _dropout_vjp,
                      save_args=False, extra=(True, 1.0))
    c = t.client
    keep = dropout_mask(c, t.shape, p, seed) if p < 1.0 else False
    scale = 1.0 / (1.0 - p) if p < 1.0 else 0.0
    out = c.where(keep, c.mul(t, scale), 0) if p < 1.0 else c.mul(t, 0.0)
    return record("dropout", (x,), out, _dropout_vjp, save_args=False, extra=(keep, scale))


# ---- fused gated forms: out = act(gate) * up ----

def _gated_formula(kind: str, g: Any, gate: Any, up: Any, need: list[bool], approximate: str) -> list[Any]:
    if kind == "silu":
        act, dact = (lambda: nr.silu(gate)), (lambda: dsilu(gate))
    elif kind == "gelu":
        act, dact = (lambda: nr.gelu(gate, approximate=approximate)), (lambda: dgelu(gate, approximate))
    elif kind == "relu":
        act = lambda: nr.relu(gate)  # noqa: E731
        dact = lambda: nr.cast(gate > 0, unwrap(gate).dtype)  # noqa: E731
    else:
        def act():
            return nr.sigmoid(gate)

        def dact():
            s = nr.sigmoid(gate)
            return s * (1.0 - s)
    return [g * up * dact() if need[0] else None, g * act() if need[1] else None]


def _make_gated(kind: str):
    name = f"{kind}_mul"

    def vjp(g, args, out, need, extra):
        gate, up = args
        if _isvar(g) or _isvar(gate) or _isvar(up):
            return _gated_formula(kind, g, gate, up, need, extra)
        kw = {"approximate": extra} if kind == "gelu" else {}
        return list(tensor_call(f"{name}_bwd", (g, gate, up), kw))

    def var_fn(gate: Any, up: Any, approximate: str = "none") -> Var:
        kw = {}
        if kind == "gelu":
            check_approximate(name, approximate)
            kw = {"approximate": approximate}
        return record(name, (gate, up), tensor_call(name, (gate, up), kw), vjp, extra=approximate)

    var_fn.__name__ = f"var_{name}"
    var_fn.__doc__ = f"{kind}(gate) * up in one fused pass; backward by the fused {name}_bwd kernel."
    return var_fn


var_silu_mul = register("silu_mul")(_make_gated("silu"))
var_gelu_mul = register("gelu_mul")(_make_gated("gelu"))
var_relu_mul = register("relu_mul")(_make_gated("relu"))
var_sigmoid_mul = register("sigmoid_mul")(_make_gated("sigmoid"))


def var_swiglu(gate: Any, up: Any) -> Var:
    """SwiGLU(gate, up) = silu(gate) * up: the fused silu_mul kernel forward (one pass, saves
    gate and up only) and the fused silu_mul_bwd kernel backward (one pass, both gradients);
    differentiable again through backward_var (the Rust seed's backward_var was not)."""
    return var_silu_mul(gate, up)


__all__ = ["var_relu", "var_leaky_relu", "var_elu", "var_sigmoid", "var_silu", "var_gelu", "var_softplus",
           "var_softmax", "var_log_softmax", "var_dropout", "var_silu_mul", "var_gelu_mul", "var_relu_mul",
           "var_sigmoid_mul", "var_swiglu", "var_gelu_grad", "dsilu", "dgelu"]
