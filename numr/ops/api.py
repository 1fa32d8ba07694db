"""The public functions ``numr.<op>``: one dispatcher, signatures and
docstrings taken from the op-family protocols.

An op goes to the client of its first tensor argument. Types registered with
``register_tracer`` (autograd's Var, forward mode's DualTensor) take the call
instead, so one user function runs on tensors, Vars and DualTensors.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from .traits import FAMILIES, protocol_methods

_tracers: dict[type, Callable[[str, tuple, dict], Any]] = {}
#: creation/random ops take no tensor: they are public through numr.creation instead
NOT_PUBLIC = frozenset("empty full arange linspace eye rand randn randint copy_".split())


def register_tracer(cls: type, handler: Callable[[str, tuple, dict], Any]) -> None:
    """Route every public op that receives an instance of ``cls`` to ``handler(name, args, kwargs)``."""
    _tracers[cls] = handler


_Tensor: Any = None  # numr.tensor.Tensor, bound on first use (numr.tensor imports this module)


def _find_client(args: tuple) -> Any:
    global _Tensor
    if _Tensor is None:
        from ..tensor import Tensor
        _Tensor = Tensor
    for a in args:
        if isinstance(a, _Tensor):
            dev = a.device
            return dev._client or dev.client
        if isinstance(a, (list, tuple)):
            for b in a:
                if isinstance(b, _Tensor):
                    return b.device.client
    from ..runtime import device
    return device(None).client


#: argument types no tracer hides in: skipped without a lookup in ``_tracers``
_NOT_TRACED = frozenset({int, float, bool, complex, str, type(None)})


def _tracer_of(values: Any) -> Callable | None:
    for a in values:
        t = type(a)
        if t is _Tensor or t in _NOT_TRACED:
            continue
        h = _tracers.get(t)
        if h is None and isinstance(a, (list, tuple)):
            h = next((_tracers[type(b)] for b in a if type(b) in _tracers), None)
        if h is not None:
            return h
    return None


def call(name: str, args: tuple, kwargs: dict) -> Any:
    """Dispatch ``name`` to a tracer or to the right client."""
    if _tracers:
        h = _tracer_of(args) or (_tracer_of(kwargs.values()) if kwargs else None)
        if h is not None:
            if kwargs and name in OPS:
                # operands may come by keyword (nr.clamp(x, min=v)): tracers take the arguments
                # in the op's positional order, so none is missed
                ba = OPS[name].__signature__.bind(*args, **kwargs)
                ba.apply_defaults()
                args, kwargs = ba.args, ba.kwargs
            return h(name, args, kwargs)
    # the first tensor argument picks the client, a keyword one too (nr.sum(x=t))
    if args and type(args[0]) is _Tensor:  # the common case, without the search
        dev = args[0].device
        client = dev._client or dev.client
    else:
        client = _find_client((*args, *kwargs.values()) if kwargs else args)
    fn = getattr(client, name, None)
    if fn is None:
        from ..errors import UnsupportedOperation
        dtype = next((a.dtype for a in args if hasattr(a, "dtype") and hasattr(a, "device")), None)
        raise UnsupportedOperation(client.device.runtime_name, name, dtype)
    return fn(*args, **kwargs) if kwargs else fn(*args)


def _make(name: str, proto_fn: Callable) -> Callable:
    def op(*args: Any, **kwargs: Any) -> Any:
        return call(name, args, kwargs)

    if name.endswith("_"):  # in place (nr.fill_, nr.index_put_): bump the target's version for autograd
        def op(*args: Any, **kwargs: Any) -> Any:
            out = call(name, args, kwargs)
            target = args[0] if args else next(iter(kwargs.values()), None)
            ver = getattr(target, "_version", None)
            if type(ver) is list:
                ver[0] += 1
            return out

    op.__name__ = op.__qualname__ = name
    op.__doc__ = proto_fn.__doc__
    sig = inspect.signature(proto_fn)
    op.__signature__ = sig.replace(parameters=list(sig.parameters.values())[1:])
    op.__module__ = "numr"
    return op


def public_ops() -> dict[str, Callable]:
    """Every op of every family as a public function, by name."""
    out: dict[str, Callable] = {}
    for fam in FAMILIES:
        for name in protocol_methods(fam):
            if name not in NOT_PUBLIC:
                out[name] = _make(name, getattr(fam, name))
    return out


OPS = public_ops()
globals().update(OPS)
