"""Reverse mode: walk the graph from the outputs, call each node's backward
once all gradients of its output have arrived, accumulate into a GradStore.

The walk is iterative (an explicit stack), so a chain of any length works.
Gradients of broadcast inputs are summed back to the input's shape and cast
to its dtype here, in one place, for every op.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from ..errors import ShapeError
from ..tensor import Tensor
from .var import Var, enable_grad, no_grad


class GradStore(Mapping):
    """Gradients by Var id: ``grads[x]`` (a Var or its id), ``grads.get(x)``, ``x in grads``."""

    def __init__(self, grads: dict[int, Any]):
        self._g = grads

    @staticmethod
    def _key(k: Any) -> int:
        return k.id if isinstance(k, Var) else int(k)

    def __getitem__(self, k: Any) -> Any:
        try:
            return self._g[self._key(k)]
        except KeyError:
            raise KeyError(f"no gradient for Var id {self._key(k)} (it does not reach the loss, "
                           f"or it does not require grad)") from None

    def get(self, k: Any, default: Any = None) -> Any:
        return self._g.get(self._key(k), default)

    def __contains__(self, k: Any) -> bool:
        return isinstance(k, (Var, int)) and self._key(k) in self._g

    def __iter__(self) -> Iterator[int]:
        return iter(self._g)

    def __len__(self) -> int:
        return len(self._g)

    def __repr__(self) -> str:
        return f"GradStore({len(self._g)} gradients: ids {sorted(self._g)[:8]}{'...' if len(self._g) > 8 else ''})"


_SUM_DIMS: dict[tuple, tuple] = {}  # (gradient shape, target shape) -> (dims summed, keepdim)


def _sum_dims(gshape: tuple[int, ...], shape: tuple[int, ...]) -> tuple[tuple[int, ...], bool]:
    """The dims to sum a ``gshape`` gradient over to get back ``shape``, and whether keepdim is
    needed (a size-1 dim of ``shape`` summed; otherwise only leading dims go and the sum has
    ``shape`` already)."""
    key = (gshape, shape)
    r = _SUM_DIMS.get(key)
    if r is None:
        lead = len(gshape) - len(shape)
        inner = tuple(lead + i for i, s in enumerate(shape) if s == 1 and gshape[lead + i] != 1)
        r = (tuple(range(lead)) + inner, bool(inner))
        if len(_SUM_DIMS) > 1024:
            _SUM_DIMS.clear()
        _SUM_DIMS[key] = r
    return r


def sum_to_shape(g: Any, shape: tuple[int, ...]) -> Any:
    """Sum a broadcast gradient back to ``shape`` (Tensor or Var)."""
    if g.shape == shape:
        return g
    if g.ndim < len(shape):
        return g.broadcast_to(shape)
    dims, keepdim = _sum_dims(g.shape, shape)
    if dims:
        if g.__class__ is Tensor:  # a plain gradient: straight to its client, as nr.sum would go
            dev = g.device
            g = (dev._client or dev.client).sum(g, dims, keepdim)
            if not keepdim:
                return g  # only leading dims summed: the result has ``shape``
        else:
            import numr as nr
            g = nr.sum(g, dim=dims, keepdim=True)
    return g.reshape(shape)


class SlicedGrad:
    """zeros(shape) plus gradients at basic indices, built only when read: the gradients of
    many slices of one tensor (split, chunk, unbind, x[i] in a loop) then cost O(size) in all,
    not O(size) each. Made by slicing's backward on plain tensors; the engine adds them up."""

    __slots__ = ("shape", "dtype", "device", "parts")

    def __init__(self, shape: tuple[int, ...], parts: list[tuple[Any, Any]]):
        self.shape, self.parts = shape, parts
        self.dtype, self.device = parts[0][1].dtype, parts[0][1].device

    def added_to(self, base: Any) -> Tensor:
        """base (a fresh tensor of self's shape, or None for zeros) with every part added in place."""
        import numr as nr
        if base is None:
            base = nr.zeros(self.shape, dtype=self.dtype, device=self.device)
            if len(self.parts) == 1:
                index, g = self.parts[0]
                base[index] = g
                return base
        for index, g in self.parts:
            base[index] += g
        return base


def _dense(g: Any) -> Any:
    return g.added_to(None) if type(g) is SlicedGrad else g


def _accumulate(a: Any, b: Any) -> Any:
    """a + b for gradients that may be SlicedGrads (a sliced one merges its parts lazily)."""
    ta, tb = type(a) is SlicedGrad, type(b) is SlicedGrad
    if ta and tb:
        return SlicedGrad(a.shape, a.parts + b.parts)
    if ta or tb:
        sliced, dense = (a, b) if ta else (b, a)
        if dense.dtype is sliced.dtype:
            return sliced.added_to(dense.clone())
        a, b = _dense(a), _dense(b)
    return a + b


def _fit(g: Any, e: Any) -> Any:
    if type(g) is SlicedGrad:
        return g if g.shape == e.shape and g.dtype is e.dtype else _fit(_dense(g), e)
    if g.shape != e.shape:
        g = sum_to_shape(g, e.shape)
    if g.dtype is not e.dtype:
        import numr as nr
        g = nr.cast(g, e.dtype)
    return g


def _topo(roots: Sequence[Var], stop: frozenset[int]) -> tuple[list[Any], dict[int, int]]:
    """Nodes in post-order (inputs before users) and the number of edges into each leaf."""
    order: list[Any] = []
    seen: set[int] = set()
    leaf_edges: dict[int, int] = {}
    for r in roots:
        if r.grad_fn is None or r.id in stop or id(r.grad_fn) in seen:
            continue
        seen.add(id(r.grad_fn))
        stack = [(r.grad_fn, iter(r.grad_fn.edges))]  # depth first, each node's edges in order
        while stack:
            fn, edges = stack[-1]
            for e in edges:
                if not e.requires_grad:
                    continue
                g = e.grad_fn
                if g is None or e.id in stop:
                    leaf_edges[e.id] = leaf_edges.get(e.id, 0) + 1
                elif id(g) not in seen:
                    seen.add(id(g))
                    stack.append((g, iter(g.edges)))
                    break
            else:
                stack.pop()
                order.append(fn)
    return order, leaf_edges


def run_backward(roots: Sequence[Var], seeds: Sequence[Any], create_graph: bool = False, hook: Any = None,
                 stop: frozenset[int] = frozenset(), retain_intermediate: bool = True) -> dict[int, Any]:
    """The engine: gradients (Tensors, or Vars when ``create_graph``) of every id reached.
    ``retain_intermediate=False`` drops a non-leaf's gradient once its node has used it."""
    order, leaf_edges = _topo(roots, stop)
    grads: dict[int, Any] = {}
    for r, s in zip(roots, seeds, strict=True):
        grads[r.id] = grads[r.id] + s if r.id in grads else s
    fired: set[int] = set()
    root_ids = {r.id for r in roots}
    sliced = any(s.__class__ is SlicedGrad for s in seeds)  # whether a lazy gradient may be left
    ctx = enable_grad() if create_graph else no_grad()
    with ctx:
        for fn in reversed(order):
            g = grads.get(fn.output_id)
            if g is None:
                ins = [None] * len(fn.edges)
            else:
                if g.__class__ is SlicedGrad:
                    g = grads[fn.output_id] = g.added_to(None)
                ins = fn.backward_var(g) if create_graph else fn.backward(g)
                if not retain_intermediate and fn.output_id not in root_ids:
                    del grads[fn.output_id]
            for e, gi in zip(fn.edges, ins, strict=True):
                if not e.requires_grad:
                    continue
                eid = e.id
                if gi is not None:
                    if gi.__class__ is not Tensor or gi._layout.shape != e.shape or gi.dtype is not e.dtype:
                        sliced = sliced or gi.__class__ is SlicedGrad
                        gi = _fit(gi, e)  # broadcast, cast, SlicedGrad, Var (create_graph)
                    prev = grads.get(eid)
                    grads[eid] = gi if prev is None else _accumulate(prev, gi)
                if hook is not None and eid in leaf_edges:
                    leaf_edges[eid] -= 1
                    if leaf_edges[eid] == 0 and eid in grads:
                        grads[eid] = _dense(grads[eid])
                        fired.add(eid)
                        hook.on_leaf_grad_ready(eid, grads[eid])
    if sliced:
        for k, g in grads.items():
            if g.__class__ is SlicedGrad:
                grads[k] = g.added_to(None)
    if hook is not None:
        for r in roots:
            if r.grad_fn is None and r.id in grads and r.id not in fired:
                hook.on_leaf_grad_ready(r.id, grads[r.id])
    return grads


def _seed(loss: Var, grad: Any, as_var: bool) -> Any:
    if not isinstance(loss, Var):
        raise TypeError(f"backward: expected a Var, got {type(loss).__name__}")
    if not loss.requires_grad:
        raise ValueError("backward: the output does not require grad (no input Var requires it)")
    if grad is None:
        t = loss.tensor
        if t.size != 1:
            raise ShapeError(f"backward: the output has shape {t.shape}; give grad= for non-scalar outputs")
        grad = t.device.client.full(t.shape, 1, t.dtype)  # nr.ones(shape, dtype, device) without parsing
    if isinstance(grad, Var):
        grad = grad if as_var else grad.tensor
    elif as_var:
        grad = Var.constant(grad if isinstance(grad, Tensor) else _tensor_like(grad, loss))
    if grad.shape != loss.shape:
        raise ShapeError(f"backward: grad shape {grad.shape} != output shape {loss.shape}")
    return grad


def _tensor_like(x: Any, ref: Var) -> Tensor:
    from ..creation import tensor as make_tensor
    return make_tensor(x, dtype=ref.dtype, device=ref.device)


def backward(loss: Var, grad: Any = None, retain_intermediate: bool = True) -> GradStore:
    """Gradients of ``loss`` (a one-element Var, or any Var with ``grad=``) for every Var it depends on.
    With ``retain_intermediate=False`` only leaves (and the loss) keep their gradients, and each
    intermediate gradient is freed as soon as it has been used (lower peak memory)."""
    return GradStore(run_backward([loss], [_seed(loss, grad, False)], retain_intermediate=retain_intermediate))


def backward_with_graph(loss: Var, grad: Any = None) -> GradStore:
    """Like ``backward`` but the gradients are Vars with their own graph: differentiate them again."""
    return GradStore(run_backward([loss], [_seed(loss, grad, True)], create_graph=True))


class BackwardHook:
    """Receives ``on_leaf_grad_ready(id, grad)`` once per leaf, when its gradient is final."""

    def on_leaf_grad_ready(self, id_: int, grad: Tensor) -> None:  # pragma: no cover - interface
        pass


def backward_with_hooks(loss: Var, hook: Any, grad: Any = None) -> GradStore:
    """``backward`` that calls ``hook.on_leaf_grad_ready(id, grad)`` as soon as each leaf's
    gradient is complete (no later node adds to it): where a distributed all-reduce starts."""
    return GradStore(run_backward([loss], [_seed(loss, grad, False)], hook=hook))
