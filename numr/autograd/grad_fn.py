"""GradFn: one backward node per recorded op.

A node stores one Edge per Var input (id, the input's grad_fn, whether it
needs a gradient, its shape and dtype), set once in ``GradFn.__init__`` from
the input Vars, so no op can drop an input's grad_fn and truncate the graph
(the Rust crate's ``input_grad_fns`` bug). ``backward`` maps the output
gradient (a Tensor) to input gradients; ``backward_var`` does the same on Vars
and records the graph, which is what makes higher-order gradients work.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import NumrError
from ..tensor import Tensor
from .var import Var


class SavedTensorModifiedError(NumrError, RuntimeError):
    """A tensor a backward node saved was written in place after the op was recorded
    (PyTorch's "modified by an inplace operation"): its gradient would be wrong."""


class Edge:
    """Where an input gradient goes: the input's id and grad_fn, and its shape/dtype."""

    __slots__ = ("id", "grad_fn", "requires_grad", "shape", "dtype")

    def __init__(self, v: Var):
        self.id, self.grad_fn, self.requires_grad = v.id, v.grad_fn, v.requires_grad
        self.shape, self.dtype = v.tensor.shape, v.tensor.dtype


class GradFn:
    """Base of every backward node. Subclasses implement ``backward`` and ``backward_var``."""

    name = "GradFn"

    def __init__(self, inputs: Sequence[Var]):
        self.edges = tuple(Edge(v) for v in inputs)
        self.output_id: int | None = None

    @property
    def inputs(self) -> tuple[int, ...]:
        """Ids of the Var inputs, in order."""
        return tuple(e.id for e in self.edges)

    @property
    def input_grad_fns(self) -> tuple[Any, ...]:
        return tuple(e.grad_fn for e in self.edges)

    @property
    def needs_input_grad(self) -> tuple[bool, ...]:
        return tuple(e.requires_grad for e in self.edges)

    @property
    def saved_tensors(self) -> list[Tensor]:
        """The tensors this node keeps alive for its backward."""
        return []

    def backward(self, grad: Tensor) -> list[Tensor | None]:
        raise NotImplementedError

    def backward_var(self, grad: Var) -> list[Var | None]:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{self.name} inputs={self.inputs}>"


_NAMES: dict[str, str] = {}  # op name -> node name ("silu_mul" -> "SiluMulBackward")


def _node_name(op: str) -> str:
    n = _NAMES[op] = "".join(p.title() for p in op.split("_")) + "Backward"
    return n


class FormulaFn(GradFn):
    """A node whose gradient is one formula ``vjp(g, args, out, need)`` written with numr
    functions, so it runs on Tensors (``backward``) and on Vars (``backward_var``).

    ``args`` are the op's operands (Var, Tensor, scalar or other constants); the node keeps
    them only when ``save_args`` (else None placeholders) and keeps the output only when
    ``save_out``. In ``backward_var`` the saved output becomes a Var handle with the output's
    id and this node as grad_fn: differentiating through it goes through this node, exactly
    as through the original output Var (nothing is recomputed, no input is kept for it).
    """

    def __init__(self, name: str, args: Sequence[Any], vjp: Any, out: Tensor | None = None,
                 save_args: bool = True, save_out: bool = False, extra: Any = None):
        # one pass over the operands finds the Var inputs (edges), the kept operands and the
        # saved tensors with their versions (the same list ``saved_tensors`` gives)
        pos, edges, kept, saved = [], [], [], []
        for i, a in enumerate(args):
            cls = a.__class__
            if cls is Var or isinstance(a, Var):
                pos.append(i)
                edges.append(Edge(a))
                kept.append(a if save_args else None)
                if save_args:
                    saved.append(a.tensor)
            elif cls is Tensor or isinstance(a, Tensor):
                kept.append(a if save_args else None)
                if save_args:
                    saved.append(a)
            else:
                kept.append(a)
        self.edges = tuple(edges)
        self.output_id = None
        self.name = _NAMES.get(name) or _node_name(name)
        self._vjp = vjp
        self._pos = pos
        self._nargs = len(args)
        self._args = kept
        self._out = out if save_out else None
        self.extra = extra
        if save_out and out is not None:
            saved.append(out)
        if extra is not None:
            for e in (extra if isinstance(extra, tuple) else (extra,)):
                if isinstance(e, Tensor):
                    saved.append(e)
        self._saved_versions = [(t, t._version[0]) for t in saved]

    @property
    def saved_tensors(self) -> list[Tensor]:
        ts = [a.tensor if isinstance(a, Var) else a for a in self._args if isinstance(a, (Var, Tensor))]
        if self._out is not None:
            ts.append(self._out)
        ex = self.extra if isinstance(self.extra, tuple) else (self.extra,)
        ts.extend(e for e in ex if isinstance(e, Tensor))
        return ts

    def _need(self) -> list[bool]:
        edges = self.edges
        if len(edges) == self._nargs:  # every operand is a Var: positions are 0..n-1
            return [e.requires_grad for e in edges]
        need = [False] * self._nargs
        for e, p in zip(edges, self._pos, strict=True):
            need[p] = e.requires_grad
        return need

    def _gather(self, grads: Sequence[Any]) -> list[Any]:
        if len(self._pos) == self._nargs:
            return grads if grads.__class__ is list else list(grads)
        return [grads[p] for p in self._pos]

    def _check_saved(self) -> None:
        for t, v in self._saved_versions:
            if t._version[0] != v:
                raise SavedTensorModifiedError(
                    f"{self.name}: a tensor it saved for the backward pass (shape {t.shape}, {t.dtype}, on "
                    f"{t.device}) was modified in place after the op was recorded (version {t._version[0]}, "
                    f"saved at {v}); write the new value out of place (t = t + 1) or write into a clone")

    def backward(self, grad: Tensor) -> list[Tensor | None]:
        for t, v in self._saved_versions:
            if t._version[0] != v:
                self._check_saved()  # raises, naming the tensor
        args = [a.tensor if a.__class__ is Var or isinstance(a, Var) else a for a in self._args]
        edges = self.edges
        if len(edges) == self._nargs:  # every operand a Var (the common case): _need and _gather inlined
            r = self._vjp(grad, args, self._out, [e.requires_grad for e in edges], self.extra)
            return r if r.__class__ is list and len(r) == len(edges) else [r[p] for p in range(len(edges))]
        return self._gather(self._vjp(grad, args, self._out, self._need(), self.extra))

    def backward_var(self, grad: Var) -> list[Var | None]:
        self._check_saved()
        args = list(self._args)
        out = None if self._out is None else Var._make(self._out, self.output_id, True, self)
        return self._gather(self._vjp(grad, args, out, self._need(), self.extra))
