"""hvp (reverse-over-reverse), checkpoint, gradcheck and a saved-tensor counter; hessian
(re-exported) lives in transforms.py."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import numr as nr

from ..tensor import Tensor
from .engine import backward, backward_with_graph, run_backward
from .grad_fn import FormulaFn, GradFn
from .var import Var, enable_grad, no_grad


def hvp(f: Callable[[Var], Var], x: Tensor, v: Tensor) -> Tensor:
    """Hessian of the scalar f at x times v, computed automatically: the gradient is built
    with a graph (backward_with_graph) and <grad, v> is differentiated again."""
    xv = Var(x, requires_grad=True)
    g = backward_with_graph(f(xv)).get(xv)
    if g is None or not g.requires_grad:
        return nr.zeros(x.shape, dtype=x.dtype, device=x.device)
    hv = backward(nr.sum(g * v)).get(xv)
    return hv if hv is not None else nr.zeros(x.shape, dtype=x.dtype, device=x.device)


class CheckpointBackward(GradFn):
    """Keeps only the inputs; backward re-runs f with recording and differentiates that."""

    name = "CheckpointBackward"

    def __init__(self, f: Callable[..., Any], inputs: Sequence[Any]):
        self._vars = [a for a in inputs if isinstance(a, Var)]
        super().__init__(self._vars)
        self._f, self._inputs = f, list(inputs)
        self._saved_versions = [(t, t._version[0]) for t in self.saved_tensors]

    @property
    def saved_tensors(self) -> list[Tensor]:
        return [a.tensor if isinstance(a, Var) else a for a in self._inputs if isinstance(a, (Var, Tensor))]

    def _replay(self, grad: Any, create_graph: bool) -> list[Any]:
        FormulaFn._check_saved(self)  # the inputs f re-runs on must be the recorded values
        with enable_grad():
            out = self._f(*self._inputs)
        stop = frozenset(v.id for v in self._vars)
        if not isinstance(out, Var) or not out.requires_grad:
            return [None] * len(self._vars)
        grads = run_backward([out], [grad], create_graph=create_graph, stop=stop)
        res, seen = [], set()
        for v in self._vars:  # a Var passed twice gets its gradient once
            res.append(None if v.id in seen else grads.get(v.id))
            seen.add(v.id)
        return res

    def backward(self, grad: Tensor) -> list[Any]:
        return self._replay(grad, False)

    def backward_var(self, grad: Var) -> list[Any]:
        return self._replay(grad, True)


def checkpoint(f: Callable[..., Var], *inputs: Any) -> Var:
    """f(*inputs) without keeping f's intermediate values: the backward pass runs f again.
    Gradients equal the un-checkpointed ones. Pass every Var f differentiates as an input
    (Vars captured by closure get no gradient through the checkpoint)."""
    with no_grad():
        out = f(*inputs)
    t = out.tensor if isinstance(out, Var) else out
    vars_ = [a for a in inputs if isinstance(a, Var)]
    if not any(v.requires_grad for v in vars_) or t.dtype.kind not in "fc":
        return Var.constant(t)
    from .var import is_grad_enabled
    if not is_grad_enabled():
        return Var.constant(t)
    return Var.from_op(t, CheckpointBackward(f, inputs))


def saved_tensor_stats(out: Var) -> tuple[int, int]:
    """(number, bytes) of distinct tensors the graph of ``out`` keeps for its backward."""
    seen_fn: set[int] = set()
    seen_t: dict[int, int] = {}
    stack = [out.grad_fn] if out.grad_fn is not None else []
    while stack:
        fn = stack.pop()
        if id(fn) in seen_fn:
            continue
        seen_fn.add(id(fn))
        for t in fn.saved_tensors:
            seen_t[id(t)] = t.nbytes
        stack.extend(e.grad_fn for e in fn.edges if e.grad_fn is not None)
    return len(seen_t), sum(seen_t.values())


class GradcheckError(AssertionError):
    """Analytical and finite-difference gradients differ."""


def _jacobians(f: Callable[..., Any], xs: list[Tensor], eps: float) -> tuple[list[np.ndarray], list[np.ndarray]]:
    vars_ = [Var(x, requires_grad=True) if x.dtype.kind == "f" else x for x in xs]
    out = f(*vars_)
    outs = list(out) if isinstance(out, (tuple, list)) else [out]
    analytic, numeric = [], []
    for oi, o in enumerate(outs):
        m = o.size
        rows = [np.zeros((m, x.size)) for x in xs]
        for k in range(m):
            seed = np.zeros(m)
            seed[k] = 1.0
            if not isinstance(o, Var) or not o.requires_grad:
                continue
            gs = backward(o, grad=nr.tensor(seed.reshape(o.shape), dtype=o.dtype, device=o.device))
            for i, v in enumerate(vars_):
                g = gs.get(v) if isinstance(v, Var) else None
                if g is not None:
                    if g.shape != v.shape or g.dtype is not v.dtype:
                        raise GradcheckError(f"gradcheck: gradient of input {i} has shape {g.shape} and dtype "
                                             f"{g.dtype}, expected {v.shape} and {v.dtype}")
                    rows[i][k] = np.asarray(g.numpy(), dtype=np.float64).reshape(-1)
        analytic.append(rows)
        cols = [np.zeros((m, x.size)) for x in xs]
        for i, x in enumerate(xs):
            if x.dtype.kind != "f":
                continue
            base = np.array(x.numpy(), dtype=np.float64)
            for j in range(x.size):
                vals = []
                for s in (eps, -eps):
                    p = base.copy().reshape(-1)
                    p[j] += s
                    args = list(xs)
                    args[i] = nr.tensor(p.reshape(x.shape), dtype=x.dtype, device=x.device)
                    with no_grad():
                        r = f(*[Var(a, requires_grad=False) if isinstance(v, Var) else a
                                for a, v in zip(args, vars_, strict=True)])
                    r = list(r)[oi] if isinstance(r, (tuple, list)) else r
                    vals.append(np.asarray((r.tensor if isinstance(r, Var) else r).numpy(), np.float64).reshape(-1))
                cols[i][:, j] = (vals[0] - vals[1]) / (2 * eps)
        numeric.append(cols)
    return analytic, numeric


def gradcheck(f: Callable[..., Any], inputs: Any, eps: float = 1e-6, atol: float = 1e-5, rtol: float = 1e-3,
              raise_exception: bool = True) -> bool:
    """Compare reverse-mode Jacobians of f with central finite differences (float64 inputs
    recommended; float inputs of other dtypes are cast to float64). ``f`` takes Vars and
    returns a Var or a tuple of Vars. Every gradient's shape and dtype must equal its input's.
    Returns True, or raises GradcheckError (or returns False)."""
    xs = [inputs] if isinstance(inputs, (Tensor, Var)) else list(inputs)
    xs = [x.tensor if isinstance(x, Var) else x for x in xs]
    xs = [nr.cast(x, nr.float64) if x.dtype.kind == "f" and x.dtype is not nr.float64 else x for x in xs]
    analytic, numeric = _jacobians(f, xs, eps)
    for oi, (ra, rn) in enumerate(zip(analytic, numeric, strict=True)):
        for i, (a, n) in enumerate(zip(ra, rn, strict=True)):
            if not np.allclose(a, n, rtol=rtol, atol=atol, equal_nan=False):
                err = np.max(np.abs(a - n))
                msg = (f"gradcheck: output {oi}, input {i} (shape {tuple(xs[i].shape)}): max |analytic - numeric| "
                       f"= {err:.3g}\nanalytic:\n{a}\nnumeric:\n{n}")
                if raise_exception:
                    raise GradcheckError(msg)
                return False
    return True


from .transforms import hessian  # noqa: E402  (its home is transforms.py)

__all__ = ["hvp", "hessian", "checkpoint", "saved_tensor_stats", "gradcheck", "GradcheckError",
           "CheckpointBackward"]
