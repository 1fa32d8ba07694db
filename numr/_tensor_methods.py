"""Python operators and NumPy/PyTorch-style methods on Tensor.

Operators call the device's client directly (the per-call fast path); other
types go through ``numr.ops.api.call`` so autograd Vars and DualTensors win.
"""

from __future__ import annotations

from typing import Any

from . import dtypes as dt
from .errors import DTypeError, UnsupportedOperation
from .ops import api
from .tensor import Tensor

_FAST = (Tensor, bool, int, float, complex)
api._Tensor = Tensor  # bound now: the dispatcher's per-call type tests need no import check


def _client_op(self: Tensor, name: str) -> Any:
    """The client's method ``name``, or UnsupportedOperation naming backend, op and dtype."""
    fn = getattr(self.device.client, name, None)
    if fn is None:
        raise UnsupportedOperation(self.device.runtime_name, name, self.dtype)
    return fn


def _binary(name: str, reflected: bool = False, equality: bool = False):
    def op(self: Tensor, other: Any) -> Any:
        if other.__class__ in _FAST:  # the per-call fast path: no helper calls before the client's
            dev = self.device
            fn = getattr(dev._client or dev.client, name, None)
            if fn is None:
                raise UnsupportedOperation(dev.runtime_name, name, self.dtype)
            return fn(other, self) if reflected else fn(self, other)
        if type(other) in api._tracers:
            return NotImplemented
        if equality and other is None:  # ``x == None`` is False (Python's identity fallback), not an error
            return NotImplemented
        return api.call(name, (other, self) if reflected else (self, other), {})

    op.__name__ = name
    return op


# bool < integers < floats < complex: in-place ops may narrow inside a category (float32 += float64,
# int8 += int64 as NumPy's same_kind and PyTorch allow) but never store into a lower one (int += 1.5)
_CATEGORY = {"b": 0, "i": 1, "u": 1, "f": 2, "c": 3}


def _written(t: Tensor, out: Any) -> Any:
    """Count one in-place write of t (shared with its views) for autograd's saved-tensor
    check; returns ``out``."""
    t._version[0] += 1
    return out


def _inplace(name: str):
    def op(self: Tensor, other: Any) -> Tensor:
        result = _client_op(self, name)(self, other)
        if _CATEGORY[result.dtype.kind] > _CATEGORY[self.dtype.kind]:
            raise DTypeError(f"{name} in place: result dtype {result.dtype} cannot be stored in {self.dtype} "
                             f"(shapes {self.shape} and {getattr(other, 'shape', type(other).__name__)})")
        if result.shape != self.shape:
            from .errors import ShapeError
            raise ShapeError(f"{name} in place: result shape {result.shape} does not fit the tensor's shape "
                             f"{self.shape}")
        self.device.client.copy_(self, result)
        return _written(self, self)

    return op


_PLAIN = frozenset({Tensor, bool, int, float, complex, type(None), str, dt.DType})


def _plain(a: Any) -> bool:
    """An argument no tracer (autograd Var, DualTensor) can hide in: the client may take the call."""
    t = type(a)
    return t in _PLAIN or (t is tuple and all(type(b) is int for b in a))


def _method(name: str):
    def m(self: Tensor, *args: Any, **kwargs: Any) -> Any:
        if (not args or all(map(_plain, args))) and (not kwargs or all(map(_plain, kwargs.values()))):
            dev = self.device
            fn = getattr(dev._client or dev.client, name, None)
            if fn is not None:
                return fn(self, *args, **kwargs)
        return api.call(name, (self, *args), kwargs)

    if name.endswith("_"):  # in place (index_put_): a write autograd must know about
        plain = m

        def m(self: Tensor, *args: Any, **kwargs: Any) -> Any:
            return _written(self, plain(self, *args, **kwargs))

    m.__name__ = name
    m.__doc__ = api.OPS[name].__doc__ if name in api.OPS else None
    return m


_OPERATORS = {
    "add": "add", "sub": "sub", "mul": "mul", "truediv": "div", "floordiv": "floor_divide",
    "mod": "remainder", "pow": "pow", "matmul": "matmul", "and": "bitwise_and", "or": "bitwise_or",
    "xor": "bitwise_xor",
}
for _py, _op in _OPERATORS.items():
    setattr(Tensor, f"__{_py}__", _binary(_op))
    setattr(Tensor, f"__r{_py}__", _binary(_op, reflected=True))
    if _py != "matmul":
        setattr(Tensor, f"__i{_py}__", _inplace(_op))
for _py, _op in {"eq": "eq", "ne": "ne", "lt": "lt", "le": "le", "gt": "gt", "ge": "ge"}.items():
    setattr(Tensor, f"__{_py}__", _binary(_op, equality=_py in ("eq", "ne")))


def _neg(self: Tensor) -> Tensor:
    return _client_op(self, "neg")(self)


def _invert(self: Tensor) -> Tensor:
    return _client_op(self, "logical_not" if self.dtype is dt.bool_ else "bitwise_not")(self)


Tensor.__neg__ = _neg
Tensor.__pos__ = lambda self: self
Tensor.__abs__ = lambda self: _client_op(self, "abs")(self)
Tensor.__invert__ = _invert
Tensor.__hash__ = object.__hash__

#: functional ops whose method name means something else in torch (Tensor.unfold(dim, size, step)),
#: or that torch has only as functions (torch.nn.grad.conv2d_weight, torch.complex, torch.polar,
#: torch.view_as_real, torch.view_as_complex, torch.nn.functional.embedding, led by the indices)
NOT_METHODS = frozenset({"unfold", "fold", "conv2d_weight_grad", "complex", "polar", "view_as_real",
                         "view_as_complex", "embedding"})


def _takes_tensor_first(name: str) -> bool:
    """False for ops led by a string (einsum's subscripts) or by *tensors (meshgrid)."""
    if name in NOT_METHODS:
        return False
    first = next(iter(api.OPS[name].__signature__.parameters.values()), None)
    return first is not None and first.kind is not first.VAR_POSITIONAL and first.annotation not in ("str", str)


# every public op whose first argument is a tensor is also a method
for _name in api.OPS:
    if not hasattr(Tensor, _name) and _takes_tensor_first(_name):
        setattr(Tensor, _name, _method(_name))


def _clip(self: Tensor, min: Any = None, max: Any = None) -> Any:
    return api.call("clamp", (self, min, max), {})


def _fill_(self: Tensor, value: Any) -> Tensor:
    return _written(self, self.device.client.fill_(self, value))


def _zero_(self: Tensor) -> Tensor:
    return _written(self, self.device.client.fill_(self, 0))


def _copy_(self: Tensor, src: Any) -> Tensor:
    from .ops.prepare import to_operand
    c = self.device.client
    src = to_operand("copy_", c, src)
    return _written(self, c.fill_(self, src) if not isinstance(src, Tensor) else c.copy_(self, src))


def _where(self: Tensor, condition: Any, other: Any) -> Any:
    """PyTorch's ``x.where(cond, y)``: x where cond is true, else y (``nr.where(cond, x, y)``)."""
    return api.call("where", (condition, self, other), {})


def _round(self: Tensor, ndigits: Any = None) -> Any:
    """``round(x)``: round half to even, element-wise (as NumPy's rint); ndigits is not supported."""
    if ndigits is not None:
        raise UnsupportedOperation(self.device.runtime_name, "round(x, ndigits)", self.dtype)
    return api.call("round", (self,), {})


Tensor.where = _where
Tensor.__round__ = _round
Tensor.clip = _clip
Tensor.fill_ = _fill_
Tensor.zero_ = _zero_
Tensor.copy_ = _copy_
Tensor.div_ = Tensor.__itruediv__
Tensor.add_ = Tensor.__iadd__
Tensor.mul_ = Tensor.__imul__
Tensor.sub_ = Tensor.__isub__
