"""Helpers shared by the var_* ops."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ...ops import api
from ...tensor import Tensor
from ..grad_fn import FormulaFn
from ..var import Var, _ids, _mode, is_grad_enabled

#: public op name -> function taking the same arguments as ``numr.<name>`` (Vars allowed)
VAR_OPS: dict[str, Callable[..., Any]] = {}


def register(*names: str) -> Callable[[Callable], Callable]:
    def deco(fn: Callable) -> Callable:
        for n in names:
            VAR_OPS[n] = fn
        return fn
    return deco


def unwrap(a: Any) -> Any:
    if isinstance(a, Var):
        return a.tensor
    if isinstance(a, (list, tuple)):
        return type(a)(unwrap(b) for b in a)
    return a


def tensor_call(name: str, args: Sequence[Any], kwargs: dict | None = None) -> Any:
    """Run the op on the underlying tensors (no recording): straight to the client of the
    first tensor argument (the per-op fast path), else through the public dispatcher."""
    a = [x.tensor if x.__class__ is Var or isinstance(x, Var) else x for x in args]
    for x in a:
        if x.__class__ is Tensor:
            dev = x.device
            fn = getattr(dev._client or dev.client, name, None)
            if fn is not None:
                return fn(*a, **{k: unwrap(v) for k, v in kwargs.items()}) if kwargs else fn(*a)
            break
    kw = {k: unwrap(v) for k, v in kwargs.items()} if kwargs else {}
    return api.call(name, tuple(unwrap(x) for x in a), kw)


def wants_grad(args: Sequence[Any]) -> bool:
    return is_grad_enabled() and any(isinstance(a, Var) and a.requires_grad for a in args)


_new = object.__new__


def record(name: str, args: Sequence[Any], out: Tensor, vjp: Callable, *, save_args: bool = True,
           save_out: bool = False, extra: Any = None) -> Var:
    """Wrap ``out`` as a Var; when an input needs a gradient, attach a FormulaFn."""
    for a in args:  # wants_grad(args), inlined: this runs once per recorded op
        if (a.__class__ is Var or isinstance(a, Var)) and a.requires_grad:
            if out.dtype.kind in "fc" and getattr(_mode, "enabled", True):
                fn = FormulaFn(name, args, vjp, out, save_args, save_out, extra)
                v = _new(Var)  # Var.from_op(out, fn), inlined
                v.tensor, v.id, v.requires_grad, v.grad_fn = out, next(_ids), True, fn
                fn.output_id = v.id
                return v
            break
    return Var.constant(out)


def is_var(x: Any) -> bool:
    return isinstance(x, Var)
