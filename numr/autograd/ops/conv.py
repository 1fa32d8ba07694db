"""Reverse mode for convolution and pooling. unfold and fold are each other's adjoint, so each
has a rule calling the other (through the public function: a Var gradient stays
differentiable, for higher order); the convs and pools are composites of public ops and
take their gradients from those rules (conv2d: pad, unfold, matmul, reshape, add)."""

from __future__ import annotations

from typing import Any

from ...ops import api
from ...ops.generic.conv import COMPOSITES as CONV
from ...ops.generic.conv import conv2d_any, conv2d_plan, conv_transpose2d_any, transpose_plan
from ...ops.generic.conv_pool import COMPOSITES as POOL
from ..var import Var
from ._common import record, register, tensor_call, unwrap

for _name, _fn in {**CONV, **POOL}.items():
    register(_name)(_fn)


def _conv2d_vjp(g, args, out, need, extra):
    """gx = conv_transpose2d(g, w) (output_padding restores the input size), gw =
    conv2d_weight_grad(x, g), gb = g summed over all but the channel dim: public ops, so the
    backend's kernels (the CPU's direct depthwise ones) run and the rule differentiates again."""
    x, w = args[0], args[1]
    s, p, d, groups, hw = extra
    gx = gw = gb = None
    if need[0]:
        k, ohw = w.shape[-2:], g.shape[-2:]
        opad = tuple(hw[i] + 2 * p[i] - d[i] * (k[i] - 1) - 1 - (ohw[i] - 1) * s[i] for i in (0, 1))
        gx = api.call("conv_transpose2d", (g, w, None, s, p, opad, groups, d), {})
    if need[1]:
        gw = api.call("conv2d_weight_grad", (x, tuple(w.shape), g, s, p, d, groups), {})
    if need[2]:
        gb = g.sum((0, 2, 3) if g.ndim == 4 else (1, 2))
    return [gx, gw, gb]


@register("conv2d")
def var_conv2d(x: Any, weight: Any, bias: Any = None, stride: Any = 1, padding: Any = 0, dilation: Any = 1,
               groups: int = 1) -> Var:
    """With one input channel per group (depthwise), conv2d by the backend's kernel with the
    gradients of _conv2d_vjp; padding="same" with an odd total pads x first (conv_transpose2d
    crops symmetrically). Otherwise the traced composite, whose backward shares one unfold
    between the two gradients (measured: 3x3 and 4x4 transposed convs ~20% faster that way)."""
    if unwrap(weight).ndim != 4 or unwrap(weight).shape[1] != 1:
        return conv2d_any(x, weight, bias, stride, padding, dilation, groups)
    _, _, g, _, d, s, pads, _, _ = conv2d_plan("conv2d", unwrap(x), unwrap(weight), unwrap(bias), stride, padding,
                                               dilation, groups)
    if pads[0] != pads[1] or pads[2] != pads[3]:
        xp = api.call("pad", (x, (pads[2], pads[3], pads[0], pads[1])), {})
        return var_conv2d(xp, weight, bias, stride, 0, dilation, groups)
    out = tensor_call("conv2d", (x, weight, bias, stride, padding, dilation, groups))
    hw = tuple(unwrap(x).shape[-2:])
    return record("conv2d", (x, weight, bias), out, _conv2d_vjp, extra=(s, (pads[0], pads[2]), d, g, hw))


def _unfold_vjp(g, args, out, need, extra):
    return [api.call("fold", (g, *extra), {})]


def _fold_vjp(g, args, out, need, extra):
    return [api.call("unfold", (g, *extra), {})]


@register("unfold")
def var_unfold(x: Any, kernel_size: Any, dilation: Any = 1, padding: Any = 0, stride: Any = 1) -> Var:
    out = tensor_call("unfold", (x, kernel_size, dilation, padding, stride))
    hw = tuple(unwrap(x).shape[-2:])
    return record("unfold", (x,), out, _unfold_vjp, save_args=False, extra=(hw, kernel_size, dilation, padding, stride))


@register("fold")
def var_fold(x: Any, output_size: Any, kernel_size: Any, dilation: Any = 1, padding: Any = 0, stride: Any = 1) -> Var:
    out = tensor_call("fold", (x, output_size, kernel_size, dilation, padding, stride))
    return record("fold", (x,), out, _fold_vjp, save_args=False, extra=(kernel_size, dilation, padding, stride))


def _conv_transpose2d_vjp(g, args, out, need, extra):
    """conv_transpose2d is conv2d's adjoint in the input: gx = conv2d(g, w), and gw is
    conv2d_weight_grad with the roles of input and output gradient swapped."""
    x, w = args[0], args[1]
    s, p, d, groups = extra
    gx = gw = gb = None
    if need[0]:
        gx = api.call("conv2d", (g, w, None, s, p, d, groups), {})
    if need[1]:
        gw = api.call("conv2d_weight_grad", (g, tuple(w.shape), x, s, p, d, groups), {})
    if need[2]:
        gb = g.sum((0, 2, 3) if g.ndim == 4 else (1, 2))
    return [gx, gw, gb]


@register("conv_transpose2d")
def var_conv_transpose2d(x: Any, weight: Any, bias: Any = None, stride: Any = 1, padding: Any = 0,
                         output_padding: Any = 0, groups: int = 1, dilation: Any = 1) -> Var:
    """With one output channel per group, conv_transpose2d by the backend's kernel with the
    gradients of _conv_transpose2d_vjp; otherwise the traced composite (see var_conv2d)."""
    if unwrap(weight).ndim != 4 or unwrap(weight).shape[1] != 1:
        return conv_transpose2d_any(x, weight, bias, stride, padding, output_padding, groups, dilation)
    _, _, g, _, d, s, p, _, _ = transpose_plan("conv_transpose2d", unwrap(x), unwrap(weight), unwrap(bias), stride,
                                               padding, output_padding, groups, dilation)
    out = tensor_call("conv_transpose2d", (x, weight, bias, stride, padding, output_padding, groups, dilation))
    return record("conv_transpose2d", (x, weight, bias), out, _conv_transpose2d_vjp, extra=(s, p, d, g))


__all__ = ["var_unfold", "var_fold", "var_conv2d", "var_conv_transpose2d"]
