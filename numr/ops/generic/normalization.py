"""Normalization composites written once with numr's public functions (mean, rsqrt, mul, ...), so
they run on every backend and, given autograd Vars or DualTensors, are differentiated through the
ops they are made of. Half and float8 inputs compute in float32 and return their own dtype."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ... import dtypes as dt
from ...errors import DTypeError, ShapeError
from ...shapes import numel
from ..prepare import plain
from .methods import client_methods


def compute_dtypes(op: str, x: Any) -> tuple[dt.DType, dt.DType]:
    """(dtype computed in, result dtype) of a normalization of x: floats only."""
    d = x.dtype
    if not d.is_floating_point:
        raise DTypeError(f"{op}: needs a float tensor, got dtype {d} (shape {x.shape})")
    return (d, d) if d in (dt.float32, dt.float64) else (dt.float32, d)


def _input(op: str, x: Any) -> tuple[Any, dt.DType]:
    """x (a tensor, Var or DualTensor; anything else becomes a tensor) cast to its compute dtype,
    and the result dtype."""
    import numr as nr
    if not hasattr(x, "dtype"):
        x = nr.tensor(x)
    ct, out = compute_dtypes(op, x)
    return (x if x.dtype is ct else nr.cast(x, ct)), out


def affine_operand(op: str, name: str, t: Any, shape: tuple[int, ...], ct: dt.DType, x_shape: tuple[int, ...]) -> Any:
    """weight/bias checked to have exactly ``shape`` and a float dtype, cast to ct (None stays None)."""
    import numr as nr
    if t is None:
        return None
    if not hasattr(t, "dtype"):
        t = nr.tensor(t)
    if tuple(t.shape) != tuple(shape):
        raise ShapeError(f"{op}: {name} must have shape {tuple(shape)} (for input shape {x_shape}), "
                         f"got {tuple(t.shape)}")
    if not t.dtype.is_floating_point:
        raise DTypeError(f"{op}: {name} needs a float dtype, got {t.dtype}")
    return t if t.dtype is ct else nr.cast(t, ct)


def trailing_dims(op: str, x: Any, normalized_shape: int | Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(normalized_shape as a tuple, the dims it covers); ShapeError unless x's trailing dims match."""
    ns = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    if not ns or not all(isinstance(n, int) and n >= 0 for n in ns):
        raise ShapeError(f"{op}: normalized_shape must be a non-empty list of sizes, got {normalized_shape!r}")
    if len(ns) > x.ndim or tuple(x.shape[x.ndim - len(ns):]) != ns:
        raise ShapeError(f"{op}: normalized_shape {ns} does not match the trailing dims of input shape "
                         f"{tuple(x.shape)}")
    return ns, tuple(range(x.ndim - len(ns), x.ndim))


def _finish(y: Any, w: Any, b: Any, out: dt.DType) -> Any:
    import numr as nr
    if w is not None:
        y = y * w
    if b is not None:
        y = y + b
    return y if y.dtype is out else nr.cast(y, out)


def _standardize(xc: Any, dims: tuple[int, ...], eps: float) -> Any:
    """(x - mean) / sqrt(biased var + eps) over dims."""
    import numr as nr
    c = xc - nr.mean(xc, dims, keepdim=True)
    return c * nr.rsqrt(nr.mean(c * c, dims, keepdim=True) + eps)


def layer_norm_any(x: Any, normalized_shape: int | Sequence[int], weight: Any = None, bias: Any = None,
                   eps: float = 1e-5, op: str = "layer_norm") -> Any:
    xc, out = _input(op, x)
    ns, dims = trailing_dims(op, xc, normalized_shape)
    w = affine_operand(op, "weight", weight, ns, xc.dtype, tuple(xc.shape))
    b = affine_operand(op, "bias", bias, ns, xc.dtype, tuple(xc.shape))
    return _finish(_standardize(xc, dims, eps), w, b, out)


def rms_norm_any(x: Any, normalized_shape: int | Sequence[int], weight: Any = None,
                 eps: float | None = None, op: str = "rms_norm") -> Any:
    import numr as nr
    xc, out = _input(op, x)
    ns, dims = trailing_dims(op, xc, normalized_shape)
    w = affine_operand(op, "weight", weight, ns, xc.dtype, tuple(xc.shape))
    if eps is None:  # torch: the epsilon of the dtype computed in
        eps = float(dt.finfo(xc.dtype).eps)
    y = xc * nr.rsqrt(nr.mean(xc * xc, dims, keepdim=True) + eps)
    return _finish(y, w, None, out)


def _channels(op: str, x: Any) -> int:
    if x.ndim < 2:
        raise ShapeError(f"{op}: input must have shape (N, C, *), got {tuple(x.shape)}")
    return x.shape[1]


def group_norm_any(x: Any, num_groups: int, weight: Any = None, bias: Any = None, eps: float = 1e-5) -> Any:
    xc, out = _input("group_norm", x)
    c = _channels("group_norm", xc)
    if not isinstance(num_groups, int) or num_groups <= 0 or c % num_groups:
        raise ShapeError(f"group_norm: num_groups {num_groups!r} must be positive and divide the "
                         f"{c} channels of input shape {tuple(xc.shape)}")
    shape = tuple(xc.shape)
    per_channel = (c,) + (1,) * (xc.ndim - 2)
    w = affine_operand("group_norm", "weight", weight, (c,), xc.dtype, shape)
    b = affine_operand("group_norm", "bias", bias, (c,), xc.dtype, shape)
    xg = xc.reshape(shape[0], num_groups, (c // num_groups) * numel(shape[2:]))
    y = _standardize(xg, (2,), eps).reshape(shape)
    return _finish(y, None if w is None else w.reshape(per_channel), None if b is None else b.reshape(per_channel), out)


def _update(stat: Any, batch: Any, momentum: float) -> None:
    """stat = (1 - momentum) * stat + momentum * batch, in place."""
    import numr as nr
    s = plain(stat)
    new = s * (1.0 - momentum) + nr.cast(batch, s.dtype) * momentum
    s.device.client.copy_(s, nr.cast(new, s.dtype))
    s._version[0] += 1


def batch_norm_any(x: Any, running_mean: Any, running_var: Any, weight: Any = None, bias: Any = None,
                   training: bool = False, momentum: float = 0.1, eps: float = 1e-5) -> Any:
    import numr as nr
    xc, out = _input("batch_norm", x)
    c = _channels("batch_norm", xc)
    shape = tuple(xc.shape)
    per_channel = (1, c) + (1,) * (xc.ndim - 2)
    dims = (0,) + tuple(range(2, xc.ndim))
    w = affine_operand("batch_norm", "weight", weight, (c,), xc.dtype, shape)
    b = affine_operand("batch_norm", "bias", bias, (c,), xc.dtype, shape)
    for name, s in (("running_mean", running_mean), ("running_var", running_var)):
        if s is not None and (tuple(s.shape) != (c,) or not s.dtype.is_floating_point):
            raise ShapeError(f"batch_norm: {name} must be a float tensor of shape ({c},) for input shape "
                             f"{shape}, got {s.dtype} {tuple(s.shape)}")
    if training:
        if not isinstance(momentum, (int, float)) or isinstance(momentum, bool):
            raise ValueError(f"batch_norm: momentum must be a number, got {momentum!r}")
        n = numel(shape) // c if c else 0
        if n <= 1:
            raise ShapeError(f"batch_norm: training needs more than 1 value per channel, got input shape {shape}")
        mean = nr.mean(xc, dims, keepdim=True)
        centred = xc - mean
        var = nr.mean(centred * centred, dims, keepdim=True)
        if running_mean is not None:
            _update(running_mean, plain(mean).reshape(c), momentum)
        if running_var is not None:
            _update(running_var, plain(var).reshape(c) * (n / (n - 1)), momentum)
        y = centred * nr.rsqrt(var + eps)
    else:
        if running_mean is None or running_var is None:
            raise ValueError("batch_norm: running_mean and running_var are needed when not training")
        rm = nr.cast(plain(running_mean), xc.dtype).reshape(per_channel)
        rv = nr.cast(plain(running_var), xc.dtype).reshape(per_channel)
        y = (xc - rm) * nr.rsqrt(rv + eps)
    return _finish(y, None if w is None else w.reshape(per_channel), None if b is None else b.reshape(per_channel), out)


def _residual_sum(op: str, x: Any, residual: Any, weight: Any = None, bias: Any = None) -> Any:
    """x + residual, after the checks of the fused forms (errors name the fused op)."""
    check_residual(op, x, residual, weight, bias)
    return x + residual


def check_residual(op: str, x: Any, residual: Any, weight: Any = None, bias: Any = None) -> None:
    """Shapes and dtypes of a fused residual form: x and residual alike, floats, weight/bias (last dim,)."""
    if not hasattr(x, "shape") or not hasattr(residual, "shape"):
        raise DTypeError(f"{op}: x and residual must be tensors, got {type(x).__name__}, {type(residual).__name__}")
    if tuple(x.shape) != tuple(residual.shape):
        raise ShapeError(f"{op}: x shape {tuple(x.shape)} and residual shape {tuple(residual.shape)} differ")
    if x.ndim == 0:
        raise ShapeError(f"{op}: needs at least 1 dim, got a 0-d tensor")
    ct = compute_dtypes(op, x)[0]
    compute_dtypes(op, residual)
    affine_operand(op, "weight", weight, x.shape[-1:], ct, tuple(x.shape))
    affine_operand(op, "bias", bias, x.shape[-1:], ct, tuple(x.shape))


def fused_add_rms_norm_any(x: Any, residual: Any, weight: Any = None, eps: float | None = None) -> tuple[Any, Any]:
    """rms_norm of x + residual through the public nr.rms_norm (a backend's kernel, autograd's rule)."""
    import numr as nr
    s = _residual_sum("fused_add_rms_norm", x, residual, weight)
    return nr.rms_norm(s, s.shape[-1], weight, eps), s


def fused_add_layer_norm_any(x: Any, residual: Any, weight: Any = None, bias: Any = None,
                             eps: float = 1e-5) -> tuple[Any, Any]:
    import numr as nr
    s = _residual_sum("fused_add_layer_norm", x, residual, weight, bias)
    return nr.layer_norm(s, s.shape[-1], weight, bias, eps), s


def norm_bwd(op: str, grad: Any, x: Any, normalized_shape: int | Sequence[int], weight: Any, eps: float | None,
              rms: bool) -> tuple[Any, Any, Any]:
    """The analytic gradients of layer_norm/rms_norm (x's dtype): dx = rstd * (g*w - mean(g*w)
    - xhat * mean(g*w*xhat)) (rms_norm: no mean(g*w)), dw = sum(g * xhat), db = sum(g) over the
    leading dims. Written with nr.* functions, so it is differentiable again (second order)."""
    import numr as nr
    xc, out = _input(op, x)
    ns, dims = trailing_dims(op, xc, normalized_shape)
    w = affine_operand(op, "weight", weight, ns, xc.dtype, tuple(xc.shape))
    if tuple(grad.shape) != tuple(xc.shape):
        raise ShapeError(f"{op}: grad shape {tuple(grad.shape)} != input shape {tuple(xc.shape)}")
    g = grad if grad.dtype is xc.dtype else nr.cast(grad, xc.dtype)
    if eps is None:
        eps = float(dt.finfo(xc.dtype).eps)
    c = xc if rms else xc - nr.mean(xc, dims, keepdim=True)
    rstd = nr.rsqrt(nr.mean(c * c, dims, keepdim=True) + eps)
    xhat = c * rstd
    gw = g if w is None else g * w
    inner = gw - xhat * nr.mean(gw * xhat, dims, keepdim=True)
    if not rms:
        inner = inner - nr.mean(gw, dims, keepdim=True)
    lead = tuple(range(xc.ndim - len(ns)))
    dw = nr.sum(g * xhat, lead) if lead else g * xhat
    db = None if rms else (nr.sum(g, lead) if lead else g)
    res = [inner * rstd, dw, db]
    return tuple(r if r is None or r.dtype is out else nr.cast(r, out) for r in res)


def layer_norm_bwd_any(grad: Any, x: Any, normalized_shape: int | Sequence[int], weight: Any = None,
                       eps: float = 1e-5) -> tuple[Any, Any, Any]:
    return norm_bwd("layer_norm_bwd", grad, x, normalized_shape, weight, eps, False)


def rms_norm_bwd_any(grad: Any, x: Any, normalized_shape: int | Sequence[int], weight: Any = None,
                     eps: float | None = None) -> tuple[Any, Any]:
    return norm_bwd("rms_norm_bwd", grad, x, normalized_shape, weight, eps, True)[:2]


#: the public composite of each op (reverse and forward mode register these)
ANY = {"layer_norm": layer_norm_any, "rms_norm": rms_norm_any, "group_norm": group_norm_any,
       "batch_norm": batch_norm_any, "fused_add_rms_norm": fused_add_rms_norm_any,
       "fused_add_layer_norm": fused_add_layer_norm_any, "layer_norm_bwd": layer_norm_bwd_any,
       "rms_norm_bwd": rms_norm_bwd_any}
#: the client methods GenericOps exposes
METHODS = client_methods(ANY)
