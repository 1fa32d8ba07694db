"""Makes the public API accept Vars: ``register_tracer(Var, handle)`` routes every
``numr.<op>`` call that receives a Var to its var_* function, and Var gets the
Tensor's operators and methods."""

from __future__ import annotations

from typing import Any

from ..errors import UnsupportedOperation
from ..ops import api
from ..tensor import Tensor
from .ops import (  # noqa: F401  (register the var ops)
    activation,
    complex,
    conv,
    decomp,
    decomp_eig,
    elementwise,
    fft,
    indexing,
    linalg,
    loss,
    matfunc,
    mathx,
    matmul,
    normalization,
    numeric,
    parity,
    reduce,
    shape,
    sorting,
    sparse,
    special,
    special3,
    statistics,
)
from .ops._common import VAR_OPS, tensor_call
from .var import Var

#: results are bool/int or otherwise not differentiable: computed on the tensors, returned as Tensors
NON_DIFF = frozenset(
    "eq ne lt le gt ge isclose allclose logical_and logical_or logical_xor logical_not isnan isinf isfinite "
    "argmax argmin any all nonzero bitwise_and bitwise_or bitwise_xor bitwise_not".split()
)


def handle(name: str, args: tuple, kwargs: dict) -> Any:
    """The tracer: numr.<name>(*args) where some argument is a Var."""
    fn = VAR_OPS.get(name)
    if fn is not None:
        return fn(*args, **kwargs)
    if name in NON_DIFF:
        return tensor_call(name, args, kwargs)
    if name in elementwise.ZERO_GRAD:
        return Var.constant(tensor_call(name, args, kwargs))
    raise UnsupportedOperation("autograd", name, reason="no gradient rule; use v.tensor for a constant result")


api.register_tracer(Var, handle)


def _binary(name: str, reflected: bool = False):
    def op(self: Any, other: Any) -> Any:
        return api.call(name, (other, self) if reflected else (self, other), {})
    op.__name__ = name
    return op


def _var_binary(name: str, reflected: bool = False):
    """Var operators call the var op directly (skipping the dispatcher's tracer search)."""
    fn = VAR_OPS[name]

    def op(self: Var, other: Any) -> Any:
        if other.__class__ not in _PLAIN:
            return api.call(name, (other, self) if reflected else (self, other), {})
        return fn(other, self) if reflected else fn(self, other)
    op.__name__ = name
    return op


_PLAIN = (Var, Tensor, bool, int, float)


_OPERATORS = {"add": "add", "sub": "sub", "mul": "mul", "truediv": "div", "floordiv": "floor_divide",
              "mod": "remainder", "pow": "pow", "matmul": "matmul"}
for _py, _op in _OPERATORS.items():
    maker = _var_binary if _op in VAR_OPS else _binary
    setattr(Var, f"__{_py}__", maker(_op))
    setattr(Var, f"__r{_py}__", maker(_op, reflected=True))
for _py in ("eq", "ne", "lt", "le", "gt", "ge"):
    setattr(Var, f"__{_py}__", _binary(_py))
Var.__hash__ = object.__hash__
Var.__array_ufunc__ = None  # ndarray (op) Var defers to Var's reflected operator
Var.__neg__ = lambda self: handle("neg", (self,), {}) if self.__class__ is Var else api.call("neg", (self,), {})
Var.__pos__ = lambda self: self
Var.__abs__ = lambda self: api.call("abs", (self,), {})


def _method(name: str):
    def m(self: Any, *args: Any, **kwargs: Any) -> Any:
        if not kwargs and self.__class__ is Var:  # what api.call would pick: the first operand's tracer
            return handle(name, (self, *args), kwargs)
        return api.call(name, (self, *args), kwargs)
    m.__name__ = name
    m.__doc__ = api.OPS[name].__doc__
    return m


def _no_setitem(self: Var, index: Any, value: Any) -> None:
    raise TypeError("Var does not support in-place assignment (it would invalidate saved values); "
                    "build the new value with nr.where / nr.cat, or assign into v.tensor for a constant")


_VIEWS = {
    "reshape": shape.var_reshape, "view": shape.var_reshape, "transpose": shape.var_transpose,
    "permute": shape.var_permute, "squeeze": shape.var_squeeze, "unsqueeze": shape.var_unsqueeze,
    "expand": shape.var_expand, "broadcast_to": shape.var_broadcast_to, "flip": shape.var_flip,
    "flatten": shape.var_flatten, "narrow": shape.var_narrow, "contiguous": shape.var_contiguous,
    "clone": shape.var_clone, "__getitem__": shape.var_getitem,
}


def attach_methods(cls: type, views: dict[str, Any]) -> None:
    """Give ``cls`` the Tensor's op methods and views (shared by Var and DualTensor)."""
    for name in api.OPS:
        if not hasattr(cls, name):
            setattr(cls, name, _method(name))
    for name, fn in views.items():
        setattr(cls, name, fn)
    cls.T = property(lambda self: self.permute(tuple(range(self.ndim))[::-1]))
    cls.real = property(lambda self: api.call("real", (self,), {}))  # views, as Tensor.real/imag
    cls.imag = property(lambda self: api.call("imag", (self,), {}))
    cls.is_complex = lambda self: self.dtype.is_complex
    cls.mT = property(lambda self: self.transpose(-2, -1))
    cls.ravel = lambda self: self.reshape(-1)
    cls.expand_as = lambda self, other: self.broadcast_to(other.shape)
    cls.astype = lambda self, dtype, copy=True: api.call("cast", (self, _dtype(dtype)), {})
    cls.clip = lambda self, min=None, max=None: api.call("clamp", (self, min, max), {})  # noqa: A002


def _dtype(d: Any) -> Any:
    from ..dtypes import dtype
    return dtype(d)


attach_methods(Var, _VIEWS)
Var.__setitem__ = _no_setitem
