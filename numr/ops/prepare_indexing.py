"""Preparation of the indexing ops (index_select, index_put_, index_add_) shared by every
backend: argument checks, the index vector, the values to scatter and the out-of-range error."""

from __future__ import annotations

from typing import Any

from .. import dtypes as dt
from ..dtypes import DType
from ..errors import DTypeError, IndexOutOfRange, ShapeError
from ..shapes import normalize_dim
from . import prepare


def target_dim(op: str, client: Any, x: Any, dim: int) -> int:
    """Check x (on the client's device, at least 1-d) and return dim normalised."""
    prepare.check_device(op, client, x)
    if x.ndim == 0:
        raise ShapeError(f"{op}: needs a tensor with at least 1 dim, got a 0-d tensor")
    return normalize_dim(dim, x.ndim, op)


def index_vector(op: str, client: Any, index: Any, keep: tuple[DType, ...] = (dt.int64,),
                 to: DType = dt.int64) -> Any:
    """``index`` as a 0-d or 1-d integer tensor; cast to ``to`` unless its dtype is in ``keep``."""
    from ..tensor import Tensor
    idx = prepare.to_operand(op, client, index)
    if isinstance(idx, prepare.SCALAR_TYPES) or not isinstance(idx, Tensor):
        raise DTypeError(f"{op}: index must be an integer tensor, got {type(index).__name__}")
    if not idx.dtype.is_integer:
        raise DTypeError(f"{op}: index must have an integer dtype, got {idx.dtype}")
    if idx.ndim > 1:
        raise ShapeError(f"{op}: index must be 0-d or 1-d, got shape {idx.shape}")
    return idx if idx.dtype in keep else client.cast(idx, to)


def put_values(client: Any, x: Any, dim: int, k: int, values: Any,
               op: str = "index_put_") -> tuple[tuple[int, ...], Any]:
    """index_put_'s (or index_add_'s) (indexed shape, values) with the values checked to broadcast
    to that shape (not broadcast yet) and x checked to be writable (no stride-0 dims)."""
    target = x.shape[:dim] + (k,) + x.shape[dim + 1:]
    v = prepare.to_operand(op, client, values)
    if isinstance(v, prepare.SCALAR_TYPES):
        v = client.full((), v, x.dtype)
    try:
        v.broadcast_to(target)
    except ShapeError:
        raise ShapeError(f"{op}: values of shape {v.shape} cannot be broadcast to the indexed shape "
                         f"{target} (tensor shape {x.shape}, dim {dim}, {k} indices)") from None
    if any(st == 0 and n > 1 for n, st in zip(x.shape, x.strides, strict=True)):
        raise ShapeError(f"{op}: tensor of shape {x.shape} with strides {x.strides} has broadcast "
                         "(stride 0) dims and cannot be written")
    return target, v


def add_source(client: Any, x: Any, dim: int, k: int, source: Any, alpha: Any) -> tuple[tuple[int, ...], Any]:
    """index_add_'s (indexed shape, source) with the checks of ``put_values``, bool x refused
    (there is no addition of bools), and ``alpha * source`` computed in x's dtype (alpha must
    be a Python scalar that x's dtype holds)."""
    if x.dtype is dt.bool_:
        raise DTypeError("index_add_: bool tensors cannot be added to (use index_put_ or logical_or)")
    if not isinstance(alpha, prepare.SCALAR_TYPES) or isinstance(alpha, bool):
        raise DTypeError(f"index_add_: alpha must be a Python int, float or complex, got {type(alpha).__name__}")
    if isinstance(alpha, complex) and not x.dtype.is_complex:
        raise DTypeError(f"index_add_: a complex alpha needs a complex tensor, got {x.dtype}")
    if isinstance(alpha, float) and x.dtype.kind in "iu":
        raise DTypeError(f"index_add_: a float alpha needs a float or complex tensor, got {x.dtype}")
    target, v = put_values(client, x, dim, k, source, "index_add_")
    if v.dtype is not x.dtype:
        v = client.cast(v, x.dtype)
    if alpha != 1:
        v = client.mul(v, alpha)
    return target, v


def out_of_range(op: str, value: int, dim: int, size: int, shape: tuple[int, ...]) -> IndexOutOfRange:
    """The error for an index outside [-size, size) (raised before anything is written)."""
    return IndexOutOfRange(f"{op}: index {value} is out of range for dim {dim} of size {size} "
                           f"(tensor shape {shape})")
