"""Preparation shared by every backend: device checks, dtype promotion,
broadcasting and output shapes. Backends call these, then only launch kernels."""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

from .. import dtypes as dt
from ..dtypes import DType
from ..errors import DeviceError, DTypeError, ShapeError
from ..layout import contiguous_strides
from ..shapes import broadcast_shapes, normalize_dim, normalize_dims, numel
from . import dtype_rules

SCALAR_TYPES = (bool, int, float, complex)


_T: Any = None  # numr.tensor.Tensor once imported (it imports this module indirectly)


def _tensor_type():
    global _T
    from ..tensor import Tensor
    _T = Tensor
    return Tensor


def check_device(op: str, client: Any, *tensors: Any) -> None:
    dev = client.device
    for t in tensors:
        if t.device is not dev and t.device != dev:
            devs = ", ".join(str(x.device) for x in tensors)
            raise DeviceError(f"{op}: expected every tensor on {dev}, got tensors on {devs}")


def to_operand(op: str, client: Any, x: Any) -> Any:
    """Tensors pass through (device checked); Python scalars stay scalars;
    lists and NumPy arrays become tensors on the client's device."""
    Tensor = _T or _tensor_type()
    if isinstance(x, Tensor):
        dev = client.device
        if x.device is not dev and x.device != dev:
            raise DeviceError(f"{op}: tensor on {x.device} used with tensors on {client.device}")
        return x
    if isinstance(x, SCALAR_TYPES):
        return x
    from .api import _tracers
    if type(x) in _tracers:  # a Var/DualTensor reaching a client (t += v, t[i] = v, t.copy_(v))
        raise DTypeError(f"{op}: a {type(x).__name__} cannot be an operand of a plain-tensor op, which would "
                         f"drop its derivative; use an out-of-place op (t = t + v, nr.where), or its "
                         f"tensor for a constant")
    from ..creation import tensor as make_tensor
    try:
        return make_tensor(x, device=client.device)
    except Exception as e:
        raise DTypeError(f"{op}: cannot use {type(x).__name__} as an operand ({e})") from None


def as_tensor(op: str, client: Any, x: Any) -> Any:
    """to_operand, with a Python scalar made a 0-d tensor too (ops that need a tensor: sort,
    cumsum, where's condition)."""
    x = to_operand(op, client, x)
    if isinstance(x, SCALAR_TYPES):
        from ..creation import tensor as make_tensor
        x = make_tensor(x, device=client.device)
    return x


def promoted(op: str, operands: Sequence[Any]) -> DType:
    try:
        return dt.result_type(*operands)
    except DTypeError as e:
        raise DTypeError(f"{op}: {e}") from None


def materialize(client: Any, x: Any, dtype: DType, shape: tuple[int, ...]) -> Any:
    """``x`` (tensor or scalar) as a tensor of ``dtype`` broadcast (stride 0) to ``shape``."""
    if isinstance(x, SCALAR_TYPES):
        t = client.full((), x, dtype)
    else:
        t = x if x.dtype is dtype else client.cast(x, dtype)
    return t if t.shape == shape else t._view(t._layout.expand(shape))


_BINARY: dict[tuple[str, int], tuple[DType, DType]] = {}  # (op, promoted dtype code) -> (compute, result)


def elementwise(op: str, client: Any, operands: Sequence[Any], compute: DType | None = None):
    """Inputs of an n-ary element-wise op, cast to the compute dtype and
    broadcast to the output shape. Returns (inputs, out_shape, compute, out_dtype)."""
    ops = [to_operand(op, client, x) for x in operands]
    shapes = [x.shape for x in ops if not isinstance(x, SCALAR_TYPES)]
    out_shape = broadcast_shapes(*shapes, op=op) if shapes else ()
    if compute is None:
        common = promoted(op, ops)
        r = _BINARY.get((op, common.code))  # keyed by code: DType.__hash__ is Python code
        if r is None:
            r = _BINARY[op, common.code] = dtype_rules.binary_dtypes(op, common)
        compute, out_dtype = r
    else:
        out_dtype = compute
    return [materialize(client, x, compute, out_shape) for x in ops], out_shape, compute, out_dtype


def unary(op: str, client: Any, x: Any):
    """(input cast to the compute dtype, compute dtype, result dtype) of a unary op."""
    x = to_operand(op, client, x)
    if isinstance(x, SCALAR_TYPES):
        from ..creation import tensor as make_tensor
        x = make_tensor(x, device=client.device)
    compute, out = dtype_rules.unary_dtypes(op, x.dtype)
    return (x if x.dtype is compute else client.cast(x, compute)), compute, out


def cast_input(client: Any, x: Any, dtype: Any) -> tuple[DType, Any, bool]:
    """(target dtype, x, done) of cast: x a tensor on the client's device, or for a Python
    scalar the 0-d result already made (``done``)."""
    d = dt.dtype(dtype)
    Tensor = _T or _tensor_type()
    if not isinstance(x, Tensor):
        x = to_operand("cast", client, x)
        if isinstance(x, SCALAR_TYPES):
            return d, client.full((), x, d), True
    check_device("cast", client, x)
    return d, x, False


def copy_source(client: Any, dst: Any, src: Any) -> tuple[Any, Any]:
    """copy_'s (src, src layout broadcast to dst's shape); (scalar, None) for a Python scalar."""
    Tensor = _T or _tensor_type()
    if not isinstance(src, Tensor):
        src = to_operand("copy_", client, src)
        if isinstance(src, SCALAR_TYPES):
            return src, None
    check_device("copy_", client, dst, src)
    slay = src._layout
    if slay.shape != dst.shape:
        try:
            slay = slay.expand(dst.shape)
        except ShapeError:
            raise ShapeError(f"copy_: source of shape {src.shape} ({src.dtype}) cannot be broadcast to the "
                             f"destination shape {dst.shape} ({dst.dtype})") from None
    return src, slay


def plain(x: Any) -> Any:
    """The tensor under autograd's wrappers (a Var's ``.tensor``, a DualTensor's ``.primal``, nested
    ones too); anything else as it is. For values that only steer an algorithm (masks, shifts,
    counts, pivots, rejection tests), through which no gradient flows."""
    while True:
        for attr in ("tensor", "primal"):
            inner = getattr(x, attr, None)
            if inner is not None and not callable(inner):
                x = inner
                break
        else:
            return x


def check_copy_destination(dst: Any, op: str = "copy_") -> None:
    """An in-place write (copy_, fill_) cannot target a view whose stride-0 dims alias one memory
    location (torch: "more than one element of the written-to tensor refers to a single memory
    location"; NumPy's broadcast views are read-only)."""
    if any(st == 0 and n > 1 for n, st in zip(dst.shape, dst.strides, strict=True)):
        raise ShapeError(f"{op}: destination of shape {dst.shape} with strides {dst.strides} has broadcast "
                         "(stride 0) dims, so several elements share one memory location")


def number(op: str, v: Any) -> Any:
    """A creation op's start/stop/step as a Python number (NumPy scalars and 0-d arrays unwrapped)."""
    if hasattr(v, "item") and not isinstance(v, SCALAR_TYPES):
        v = v.item()
    if not isinstance(v, SCALAR_TYPES):
        raise DTypeError(f"{op}: expected a number, got {type(v).__name__}")
    return v


def wrap_i64(v: int) -> int:
    """An int as the int64 with the same low 64 bits (wrapping arithmetic, so uint64 ranges work)."""
    v &= (1 << 64) - 1
    return v - (1 << 64) if v >= 1 << 63 else v


class ReducePlan:
    """Which dims a reduction removes and the shapes it produces."""

    __slots__ = ("dims", "out_shape", "keep_shape", "kept_dims", "out_numel", "out_strides")

    def __init__(self, shape: tuple[int, ...], dims: tuple[int, ...]):
        self.dims = dims
        self.kept_dims = tuple(i for i in range(len(shape)) if i not in dims)
        self.keep_shape = tuple(1 if i in dims else s for i, s in enumerate(shape))
        self.out_shape = tuple(shape[i] for i in self.kept_dims)
        self.out_numel = numel(self.out_shape)
        self.out_strides = contiguous_strides(self.out_shape)  # a fresh result's, row-major

    def result_shape(self, keepdim: bool) -> tuple[int, ...]:
        return self.keep_shape if keepdim else self.out_shape


_PLANS: dict[tuple, ReducePlan] = {}  # (shape, dim) -> plan: reductions are called per step in loops


def reduction(op: str, x: Any, dim: Any, *, needs_identity: bool = False) -> ReducePlan:
    """Normalise ``dim`` (None | int | tuple) and check empty reductions without an identity."""
    shape = x.shape
    key = (shape, dim) if dim is None or type(dim) is int or type(dim) is tuple else None
    try:
        plan = _PLANS.get(key) if key is not None else None
    except TypeError:  # a tuple holding something unhashable: no caching (normalize_dims reports it)
        key = plan = None
    if plan is None:
        plan = ReducePlan(shape, normalize_dims(dim, len(shape), op))
        if key is not None:
            if len(_PLANS) > 2048:
                _PLANS.clear()
            _PLANS[key] = plan
    dims = plan.dims
    if needs_identity and any(x.shape[d] == 0 for d in dims) or (needs_identity and x.size == 0 and not dims):
        raise ShapeError(f"{op}: cannot reduce an empty dimension (shape {x.shape}, dim {dim}): no identity")
    return plan


REDUCE_ORDERED = ("max", "min", "argmax", "argmin")  # undefined for complex numbers
REDUCE_ARG = ("argmax", "argmin")  # one dim or None
REDUCE_IDENTITY = ("sum", "prod", "any", "all")  # defined on empty inputs


def _as_dims(op: str, dim: Any) -> Any:
    """NumPy integers and lists of ints as dims."""
    try:
        return operator.index(dim)
    except TypeError:
        pass
    try:
        return tuple(operator.index(d) for d in dim)
    except TypeError:
        raise DTypeError(f"{op}: dim must be None, an int or a tuple of ints, got {dim!r}") from None


def reduce_input(op: str, client: Any, x: Any, dim: Any) -> tuple[Any, Any]:
    """(x as a tensor on the client's device, dim as None | int | tuple) of a reduction kernel op
    (sum prod max min argmax argmin any all), with the op's dtype and dim checks."""
    Tensor = _T or _tensor_type()
    if type(x) is not Tensor or x.device is not client.device:
        x = to_operand(op, client, x)
        if not isinstance(x, Tensor):
            from ..creation import tensor as make_tensor
            x = make_tensor(x, device=client.device)
    if op in REDUCE_ORDERED and x.dtype.is_complex:
        raise DTypeError(f"{op}: dtype {x.dtype} is not supported: complex numbers are not ordered")
    if dim is not None and not isinstance(dim, (int, tuple)):
        dim = _as_dims(op, dim)
    if op in REDUCE_ARG and dim is not None and not isinstance(dim, int):
        raise DTypeError(f"{op}: dim must be an int or None, got {dim!r}")
    return x, dim


def reduce_plan(op: str, x: Any, dim: Any) -> ReducePlan:
    """reduction() for a reduction kernel op (only sum/prod/any/all accept empty inputs)."""
    return reduction(op, x, dim, needs_identity=op not in REDUCE_IDENTITY)


def reduce_mixin(run: Any) -> type:
    """Base of a backend's reduce mixin: sum prod max min argmax argmin any all, each calling
    ``run(client, op, x, dim, keepdim)`` (the backend's reduction launcher)."""

    class ReduceMixin:
        def sum(self, x: Any, dim: Any = None, keepdim: bool = False) -> Any:
            return run(self, "sum", x, dim, keepdim)

        def prod(self, x: Any, dim: Any = None, keepdim: bool = False) -> Any:
            return run(self, "prod", x, dim, keepdim)

        def max(self, x: Any, dim: Any = None, keepdim: bool = False) -> Any:
            return run(self, "max", x, dim, keepdim)

        def min(self, x: Any, dim: Any = None, keepdim: bool = False) -> Any:
            return run(self, "min", x, dim, keepdim)

        def argmax(self, x: Any, dim: int | None = None, keepdim: bool = False) -> Any:
            return run(self, "argmax", x, dim, keepdim)

        def argmin(self, x: Any, dim: int | None = None, keepdim: bool = False) -> Any:
            return run(self, "argmin", x, dim, keepdim)

        def any(self, x: Any, dim: Any = None, keepdim: bool = False) -> Any:
            return run(self, "any", x, dim, keepdim)

        def all(self, x: Any, dim: Any = None, keepdim: bool = False) -> Any:
            return run(self, "all", x, dim, keepdim)

    return ReduceMixin


def single_dim(op: str, x: Any, dim: Any) -> int:
    """cumsum/cumprod/softmax-style ops: one dim; None flattens (handled by caller)."""
    if not isinstance(dim, int):
        try:
            dim = operator.index(dim)  # NumPy integers
        except TypeError:
            raise ShapeError(f"{op}: dim must be an int, got {dim!r}") from None
    return normalize_dim(dim, x.ndim, op)  # a 0-d tensor accepts 0 and -1 only


def matmul_shapes(op: str, a_shape: tuple[int, ...], b_shape: tuple[int, ...]):
    """NumPy matmul shape rules. Returns (batch_shape, m, k, n, out_shape)."""
    if len(a_shape) == 2 and len(b_shape) == 2 and a_shape[1] == b_shape[0]:  # the common case, fast
        return (), a_shape[0], a_shape[1], b_shape[1], (a_shape[0], b_shape[1])
    if not a_shape or not b_shape:
        raise ShapeError(f"{op}: both operands need at least 1 dim, got shapes {a_shape} and {b_shape}")
    a2 = (1,) + a_shape if len(a_shape) == 1 else a_shape
    b2 = b_shape + (1,) if len(b_shape) == 1 else b_shape
    m, k = a2[-2:]
    k2, n = b2[-2:]
    if k != k2:
        raise ShapeError(f"{op}: inner dims differ: shapes {a_shape} and {b_shape} ({k} != {k2})")
    try:
        batch = broadcast_shapes(a2[:-2], b2[:-2], op=op)
    except ShapeError:
        raise ShapeError(f"{op}: batch dims of shapes {a_shape} and {b_shape} cannot be broadcast together") from None
    out = batch + ((m,) if len(a_shape) > 1 else ()) + ((n,) if len(b_shape) > 1 else ())
    return batch, m, k, n, out
