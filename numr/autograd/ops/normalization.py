"""Normalization ops. layer_norm and rms_norm have an analytic rule: the forward runs the backend's
op (the CPU's fused row kernel), the first-order backward its ``*_norm_bwd`` (a fused kernel on the
CPU; mean and rstd are recomputed from x, nothing but x and the weight is saved), and
``backward_var`` the same formula written with nr.* functions, so higher orders work. group_norm,
batch_norm and the fused residual forms are composites: the Var flows through their public
functions (the residual forms through nr.layer_norm / nr.rms_norm, so through the rules here), as
are layer_norm_bwd/rms_norm_bwd when differentiated themselves."""

from __future__ import annotations

from typing import Any

from ...ops.generic import normalization as gn
from ..var import Var
from ._common import record, register, tensor_call


def _cast_like(t: Any, ref: Any) -> Any:
    import numr as nr
    return t if t is None or ref is None or t.dtype is ref.dtype else nr.cast(t, ref.dtype)


def _norm_vjp(g, args, out, need, extra):
    rms = extra
    x, ns, w = args[0], args[1], args[2]
    eps = args[-1]
    if isinstance(g, Var) or any(isinstance(a, Var) for a in args):  # backward_var: differentiable formula
        gx, gw, gb = gn.norm_bwd("rms_norm_bwd" if rms else "layer_norm_bwd", g, x, ns, w, eps, rms)
    elif rms:
        (gx, gw), gb = tensor_call("rms_norm_bwd", (g, x, ns, w, eps)), None
    else:
        gx, gw, gb = tensor_call("layer_norm_bwd", (g, x, ns, w, eps))
    grads = [gx if need[0] else None, None, _cast_like(gw, w) if need[2] else None]
    if not rms:
        grads.append(_cast_like(gb, args[3]) if need[3] else None)
    return grads + [None]


@register("layer_norm")
def var_layer_norm(x: Any, normalized_shape: Any, weight: Any = None, bias: Any = None, eps: float = 1e-5) -> Var:
    """layer_norm with the analytic backward (layer_norm_bwd)."""
    out = tensor_call("layer_norm", (x, normalized_shape, weight, bias, eps))
    return record("layer_norm", (x, normalized_shape, weight, bias, eps), out, _norm_vjp, extra=False)


@register("rms_norm")
def var_rms_norm(x: Any, normalized_shape: Any, weight: Any = None, eps: float | None = None) -> Var:
    """rms_norm with the analytic backward (rms_norm_bwd)."""
    out = tensor_call("rms_norm", (x, normalized_shape, weight, eps))
    return record("rms_norm", (x, normalized_shape, weight, eps), out, _norm_vjp, extra=True)


for _name in ("group_norm", "batch_norm", "fused_add_rms_norm", "fused_add_layer_norm", "layer_norm_bwd",
              "rms_norm_bwd"):
    register(_name)(gn.ANY[_name])
