"""Preparation shared by every backend's sorting kernels: argument checks and the dim."""

from __future__ import annotations

from typing import Any

from ..errors import UnsupportedDType
from . import prepare


def sort_dim(op: str, client: Any, x: Any, dim: Any) -> int:
    """Check x (on the client's device, not complex) and return dim normalised (a 0-d tensor
    accepts 0 and -1)."""
    prepare.check_device(op, client, x)
    if x.dtype.is_complex:
        raise UnsupportedDType(client.device.runtime_name, op, x.dtype,
                               reason="complex numbers have no order")
    return prepare.single_dim(op, x, dim)


def searchsorted_operands(op: str, client: Any, sorted_sequence: Any, values: Any,
                          contiguous: bool = True) -> tuple[Any, Any]:
    """sorted_sequence and values (a scalar becomes a 0-d tensor) in their promoted dtype (and
    contiguous when asked: the GPUs), after the shape check: sorted_sequence 1-d, or N-d with
    values' leading dims."""
    from ..errors import ShapeError
    from ..tensor import Tensor
    ss = prepare.to_operand(op, client, sorted_sequence)
    if not isinstance(ss, Tensor):
        raise ShapeError(f"{op}: sorted_sequence must be a tensor, got {type(ss).__name__}")
    vals = prepare.to_operand(op, client, values)
    d = prepare.promoted(op, [ss, vals])
    if d.is_complex:
        raise UnsupportedDType(client.device.runtime_name, op, d, reason="complex numbers have no order")
    if not isinstance(vals, Tensor):
        vals = client.full((), vals, d)
    if ss.ndim == 0:
        raise ShapeError(f"{op}: sorted_sequence must have at least one dim, got a 0-d tensor")
    if ss.ndim > 1 and (vals.ndim != ss.ndim or vals.shape[:-1] != ss.shape[:-1]):
        raise ShapeError(f"{op}: an N-d sorted_sequence {ss.shape} needs values with the same leading "
                         f"dims, got {vals.shape}")
    ss = ss if ss.dtype is d else client.cast(ss, d)
    vals = vals if vals.dtype is d else client.cast(vals, d)
    return (ss.contiguous(), vals.contiguous()) if contiguous else (ss, vals)
