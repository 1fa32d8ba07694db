"""CPU implementation of the normalization family's row ops (see numr/ops/traits/normalization.py).

layer_norm, rms_norm, their fused residual forms and their backward run one fused pass per row
(numr/_cpu/kernels/norm_rows.h: one read of x from memory instead of the composite's ~6 passes).
float32/float64/float16/bfloat16 run natively (the 16-bit types compute in float32); float8 is
cast to float32, computed, and rounded once. Operands the kernel does not take (Vars, weights
of another dtype or device) and group_norm/batch_norm go to the generic composites.
"""

from __future__ import annotations

from typing import Any

from ... import dtypes as dt
from ...errors import UnsupportedDType
from ...ops.generic import normalization as gn
from ...shapes import numel
from ...tensor import Tensor
from .. import storage
from . import lazy_kernels

_k = lazy_kernels("norm")


_NATIVE = frozenset((dt.float32, dt.float64, dt.float16, dt.bfloat16))


def _takes(client: Any, x: Any, *others: Any) -> bool:
    """Whether the kernel takes these operands: tensors of this device, x a float, the others
    (None allowed) of x's dtype."""
    if x.__class__ is not Tensor or x.device is not client.device or not x.dtype.is_floating_point:
        return False
    return all(o is None or (o.__class__ is Tensor and o.device is x.device and o.dtype is x.dtype) for o in others)


def _checked(op: str, x: Tensor, normalized_shape: Any, **affine: Any) -> tuple[int, ...]:
    """normalized_shape as a tuple, after the generic checks of x and the weight/bias."""
    gn.compute_dtypes(op, x)
    ns, _ = gn.trailing_dims(op, x, normalized_shape)
    for name, t in affine.items():
        gn.affine_operand(op, name, t, ns, x.dtype, tuple(x.shape))
    return ns


def _kernel_dtype(x: Tensor) -> dt.DType:
    return x.dtype if x.dtype in _NATIVE else dt.float32


def _prep(client: Any, t: Any, kd: dt.DType) -> Any:
    """t contiguous in the kernel dtype (None stays None)."""
    if t is None:
        return None
    t = t if t.dtype is kd else client.cast(t, kd)
    return t.contiguous()


def _st(t: Any) -> Any:
    return None if t is None else t._storage


def _off(t: Any) -> int:
    return 0 if t is None else t._layout.offset


def _forward(client: Any, op: str, x: Tensor, ns: Any, w: Any, b: Any, eps: float | None, rms: bool,
             residual: Any = None) -> tuple[Tensor, Tensor | None]:
    """(normalized, x + residual or None) by the row kernel; arguments already checked."""
    kd = _kernel_dtype(x)
    xt, rt, wt, bt = (_prep(client, t, kd) for t in (x, residual, w, b))
    n = numel(ns)
    if eps is None:  # torch: the epsilon of the dtype computed in
        eps = float(dt.finfo(dt.float64 if kd is dt.float64 else dt.float32).eps)
    y = storage.empty(client.device, x.shape, kd)
    s = storage.empty(client.device, x.shape, kd) if residual is not None else None
    if y.size and not _k().forward(kd.code, xt._storage, xt._layout.offset, _st(rt), _off(rt), _st(s), _st(wt),
                                   _off(wt), _st(bt), _off(bt), y._storage, y.size // n, n, float(eps), rms):
        raise UnsupportedDType("cpu", op, kd)
    if kd is not x.dtype:
        y = client.cast(y, x.dtype)
        s = None if s is None else client.cast(s, x.dtype)
    return y, s


def _backward(client: Any, op: str, grad: Any, x: Any, ns: Any, w: Any, eps: float | None,
              rms: bool) -> tuple[Any, Any, Any] | None:
    """(dx, dw, db) by the row kernel, or None when the operands are not the kernel's."""
    if not _takes(client, x, w) or grad.__class__ is not Tensor or grad.device is not x.device \
            or tuple(grad.shape) != tuple(x.shape):
        return None
    ns = _checked(op, x, ns, weight=w)
    kd = _kernel_dtype(x)
    gt, xt, wt = (_prep(client, t, kd) for t in (grad, x, w))
    n = numel(ns)
    if eps is None:
        eps = float(dt.finfo(dt.float64 if kd is dt.float64 else dt.float32).eps)
    gx = storage.empty(client.device, x.shape, kd)
    dwdb = storage.empty(client.device, (2, n), dt.float64)
    if gx.size:
        if not _k().backward(kd.code, gt._storage, gt._layout.offset, xt._storage, xt._layout.offset, _st(wt),
                             _off(wt), gx._storage, dwdb._storage, gx.size // n, n, float(eps), rms):
            raise UnsupportedDType("cpu", op, kd)
    else:
        client.fill_(dwdb, 0)
    dw, db = (client.cast(dwdb[i].reshape(ns), x.dtype) for i in (0, 1))
    return (gx if kd is x.dtype else client.cast(gx, x.dtype)), dw, db


class NormalizationCpu:
    """Mixin of CpuClient: the row kernels of the normalization family."""

    def layer_norm(self, x: Any, normalized_shape: Any, weight: Any = None, bias: Any = None,
                   eps: float = 1e-5) -> Tensor:
        if not _takes(self, x, weight, bias):
            return gn.layer_norm_any(x, normalized_shape, weight, bias, eps)
        ns = _checked("layer_norm", x, normalized_shape, weight=weight, bias=bias)
        return _forward(self, "layer_norm", x, ns, weight, bias, eps, False)[0]

    def rms_norm(self, x: Any, normalized_shape: Any, weight: Any = None, eps: float | None = None) -> Tensor:
        if not _takes(self, x, weight):
            return gn.rms_norm_any(x, normalized_shape, weight, eps)
        ns = _checked("rms_norm", x, normalized_shape, weight=weight)
        return _forward(self, "rms_norm", x, ns, weight, None, eps, True)[0]

    def fused_add_rms_norm(self, x: Any, residual: Any, weight: Any = None,
                           eps: float | None = None) -> tuple[Tensor, Tensor]:
        if not _takes(self, x, residual, weight):
            return gn.fused_add_rms_norm_any(x, residual, weight, eps)
        gn.check_residual("fused_add_rms_norm", x, residual, weight)
        return _forward(self, "fused_add_rms_norm", x, x.shape[-1:], weight, None, eps, True, residual)

    def fused_add_layer_norm(self, x: Any, residual: Any, weight: Any = None, bias: Any = None,
                             eps: float = 1e-5) -> tuple[Tensor, Tensor]:
        if not _takes(self, x, residual, weight, bias):
            return gn.fused_add_layer_norm_any(x, residual, weight, bias, eps)
        gn.check_residual("fused_add_layer_norm", x, residual, weight, bias)
        return _forward(self, "fused_add_layer_norm", x, x.shape[-1:], weight, bias, eps, False, residual)

    def layer_norm_bwd(self, grad: Any, x: Any, normalized_shape: Any, weight: Any = None,
                       eps: float = 1e-5) -> tuple[Tensor, Tensor, Tensor]:
        out = _backward(self, "layer_norm_bwd", grad, x, normalized_shape, weight, eps, False)
        return out if out is not None else gn.layer_norm_bwd_any(grad, x, normalized_shape, weight, eps)

    def rms_norm_bwd(self, grad: Any, x: Any, normalized_shape: Any, weight: Any = None,
                     eps: float | None = None) -> tuple[Tensor, Tensor]:
        out = _backward(self, "rms_norm_bwd", grad, x, normalized_shape, weight, eps, True)
        return out[:2] if out is not None else gn.rms_norm_bwd_any(grad, x, normalized_shape, weight, eps)
