"""Var: a tensor with a stable id and, when it came from an op, the GradFn
that produced it. Gradients are keyed by the id, so ``alias()`` (same id) is
the way to hand a Var around; ``detach()`` makes a new, constant Var."""

from __future__ import annotations

import itertools
import threading
from contextlib import ContextDecorator
from typing import Any

from ..errors import DTypeError
from ..tensor import Tensor

_ids = itertools.count(1)
_mode = threading.local()


def is_grad_enabled() -> bool:
    """False inside ``no_grad()``: ops then record nothing."""
    return getattr(_mode, "enabled", True)


class set_grad_enabled(ContextDecorator):  # noqa: N801  (a function-like name, as torch's)
    """Context manager (and decorator): ops record a graph only when ``enabled``; the previous
    mode comes back on exit. A small class, not a generator: the engine enters one per
    backward pass."""

    def __init__(self, enabled: bool):
        self.enabled = bool(enabled)

    def __enter__(self) -> None:
        # the previous modes live on a per-thread stack, so one object may be entered again
        # inside itself or from several threads at once
        try:
            stack = _mode.stack
        except AttributeError:
            stack = _mode.stack = []
        stack.append(getattr(_mode, "enabled", True))
        _mode.enabled = self.enabled

    def __exit__(self, *exc: Any) -> None:
        _mode.enabled = _mode.stack.pop()


def no_grad():
    """Context manager: ops on Vars record no graph (results do not require grad)."""
    return set_grad_enabled(False)


def enable_grad():
    return set_grad_enabled(True)


def _as_tensor(x: Any) -> Tensor:
    if isinstance(x, Tensor):
        return x
    from ..creation import tensor as make_tensor
    return make_tensor(x)


class Var:
    """A differentiable tensor: ``Var(tensor, requires_grad=True)``.

    ``.tensor`` the value, ``.id`` the key of its gradient, ``.grad_fn`` the
    backward node (None for leaves), ``.requires_grad``. Every numr function and
    operator accepts Vars and records the graph.
    """

    __slots__ = ("tensor", "id", "requires_grad", "grad_fn", "__weakref__")
    __array_priority__ = 2000

    def __init__(self, tensor: Any, requires_grad: bool = True):
        if isinstance(tensor, Var):
            raise TypeError("Var(Var): use v.alias() (same id) or v.detach() (new constant)")
        t = _as_tensor(tensor)
        if requires_grad and t.dtype.kind not in "fc":
            raise DTypeError(f"Var: only floating-point tensors can require gradients, got {t.dtype}")
        self.tensor = t
        self.id = next(_ids)
        self.requires_grad = bool(requires_grad)
        self.grad_fn = None

    @classmethod
    def _make(cls, tensor: Tensor, id_: int, requires_grad: bool, grad_fn: Any) -> Var:
        v = object.__new__(cls)
        v.tensor, v.id, v.requires_grad, v.grad_fn = tensor, id_, requires_grad, grad_fn
        return v

    @classmethod
    def from_op(cls, tensor: Tensor, grad_fn: Any) -> Var:
        """The output of an op: a fresh id, recorded as ``grad_fn.output_id``."""
        v = cls._make(tensor, next(_ids), True, grad_fn)
        grad_fn.output_id = v.id
        return v

    @classmethod
    def constant(cls, tensor: Tensor) -> Var:
        return cls._make(tensor, next(_ids), False, None)

    # ---- identity ------------------------------------------------------
    def alias(self) -> Var:
        """A second handle with the same id and grad_fn (gradients found under either)."""
        return Var._make(self.tensor, self.id, self.requires_grad, self.grad_fn)

    def detach(self) -> Var:
        """The same values as a new constant Var (new id, no graph)."""
        return Var.constant(self.tensor)

    def requires_grad_(self, flag: bool = True) -> Var:
        if self.grad_fn is not None and not flag:
            raise ValueError("requires_grad_(False) on a non-leaf Var; use detach()")
        if flag and self.tensor.dtype.kind not in "fc":
            raise DTypeError(f"Var: only floating-point tensors can require gradients, got {self.tensor.dtype}")
        self.requires_grad = bool(flag)
        return self

    @property
    def is_leaf(self) -> bool:
        return self.grad_fn is None

    # ---- tensor-like attributes -----------------------------------------
    shape = property(lambda self: self.tensor.shape)
    dtype = property(lambda self: self.tensor.dtype)
    device = property(lambda self: self.tensor.device)
    ndim = property(lambda self: self.tensor.ndim)
    size = property(lambda self: self.tensor.size)
    strides = property(lambda self: self.tensor.strides)
    client = property(lambda self: self.tensor.client)

    def numel(self) -> int:
        return self.tensor.size

    def dim(self) -> int:
        return self.tensor.ndim

    def is_contiguous(self) -> bool:
        return self.tensor.is_contiguous()

    def numpy(self) -> Any:
        return self.tensor.numpy()

    def __array__(self, dtype: Any = None, copy: Any = None) -> Any:
        return self.tensor.__array__(dtype, copy)

    def tolist(self) -> Any:
        return self.tensor.tolist()

    def item(self) -> Any:
        return self.tensor.item()

    def __float__(self) -> float:
        return float(self.tensor)

    def __int__(self) -> int:
        return int(self.tensor)

    def __bool__(self) -> bool:
        return bool(self.tensor)

    def __len__(self) -> int:
        return len(self.tensor)

    def __repr__(self) -> str:
        fn = f", grad_fn={self.grad_fn.name}" if self.grad_fn is not None else ""
        return f"Var(id={self.id}, {self.tensor!r}, requires_grad={self.requires_grad}{fn})"

    __hash__ = object.__hash__
