"""Jacobians: jacobian (torch.autograd.functional.jacobian: nested tuples for tuple inputs and
outputs, ``strategy`` reverse-mode (one backward per output element over one recorded graph) or
forward-mode (one jvp per input element)), and the torch.func-style jacrev and jacfwd, which
return functions. ``J[o][i]`` has shape ``out_o.shape + in_i.shape``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numr as nr

from ..tensor import Tensor
from .transforms import argnums_tuple, grads_of, plain, split_aux, target
from .var import Var, enable_grad


def _basis(n: int, like: Any) -> Tensor:
    """The n one-hot seeds as the rows of one identity (a row view each, no per-seed write)."""
    return nr.eye(n, dtype=like.dtype, device=like.device)


def _assemble(blocks: list[list[Any]], single_out: bool, single_in: bool) -> Any:
    rows = [b[0] if single_in else tuple(b) for b in blocks]
    return rows[0] if single_out else tuple(rows)


def _reverse(f: Callable[..., Any], ins: tuple, create_graph: bool) -> tuple[list[list[Any]], bool]:
    targets, nested = [], create_graph
    for i, x in enumerate(ins):
        v, n = target(x, "jacobian", i)
        targets.append(v)
        nested = nested or n
    with enable_grad():
        out = f(*targets)
    single_out = not isinstance(out, (tuple, list))
    blocks = []
    for o in ((out,) if single_out else tuple(out)):
        m = o.size
        rows: list[list[Any]] = [[] for _ in targets]
        eye = _basis(m, o) if m else None
        for k in range(m):
            seed = eye[k].reshape(o.shape)
            for i, g in enumerate(grads_of([o], [seed], targets, nested)):
                rows[i].append(g)
        blocks.append([nr.stack(r, dim=0).reshape(tuple(o.shape) + tuple(t.shape)) if r else
                       nr.zeros(tuple(o.shape) + tuple(t.shape), dtype=t.dtype, device=t.device)
                       for r, t in zip(rows, targets, strict=True)])
    return plain(blocks, nested), single_out


def _forward(f: Callable[..., Any], ins: tuple) -> tuple[list[list[Any]], bool]:
    from .forward import jvp
    xs = [x.tensor if isinstance(x, Var) else x for x in ins]
    for i, x in enumerate(xs):
        target(x, "jacobian", i)  # the same type/dtype checks as reverse mode
    cols: list[list[list[Any]]] = []  # [input][element] -> tangents of every output
    out = None
    for i, x in enumerate(xs):
        cols.append([])
        eye = _basis(x.size, x) if x.size else None
        for k in range(x.size):
            tans = tuple(eye[k].reshape(x.shape) if j == i else None for j in range(len(xs)))
            out, t = jvp(f, tuple(xs), tans)
            cols[i].append(t if isinstance(t, tuple) else (t,))
    if out is None:  # every input empty: f's output still sizes the blocks
        out = f(*xs)
    single_out = not isinstance(out, (tuple, list))
    outs = (out,) if single_out else tuple(out)
    blocks = []
    for oi, o in enumerate(outs):
        o = plain(o)
        blocks.append([nr.stack([c[oi] for c in cols[i]], dim=-1).reshape(tuple(o.shape) + tuple(x.shape))
                       if cols[i] else nr.zeros(tuple(o.shape) + tuple(x.shape), dtype=o.dtype, device=o.device)
                       for i, x in enumerate(xs)])
    return blocks, single_out


def jacobian(f: Callable[..., Any], inputs: Any, create_graph: bool = False, strict: bool = False,
             vectorize: bool = False, strategy: str = "reverse-mode") -> Any:
    """The Jacobian of f at ``inputs`` (a Tensor or a tuple of Tensors); f may return a tuple.
    ``create_graph`` (reverse mode) returns Vars that differentiate again. ``strict`` and
    ``vectorize`` are accepted for torch's signature and change nothing (the rows are computed
    one by one either way)."""
    if strategy not in ("reverse-mode", "forward-mode"):
        raise ValueError(f"jacobian: strategy must be 'reverse-mode' or 'forward-mode', got {strategy!r}")
    if strategy == "forward-mode" and create_graph:
        raise ValueError("jacobian: create_graph=True needs strategy='reverse-mode'")
    single_in = isinstance(inputs, (Tensor, Var))
    ins = (inputs,) if single_in else tuple(inputs)
    if not ins:
        raise ValueError("jacobian: give at least one input")
    blocks, single_out = _reverse(f, ins, create_graph) if strategy == "reverse-mode" else _forward(f, ins)
    return _assemble(blocks, single_out, single_in)


def _jac(f: Callable[..., Any], argnums: int | Sequence[int], has_aux: bool, strategy: str,
         op: str) -> Callable[..., Any]:
    def wrapped(*args: Any) -> Any:
        nums = argnums_tuple(argnums, len(args), op)
        aux: list[Any] = []

        def sub(*xs: Any) -> Any:
            full = list(args)
            for i, x in zip(nums, xs, strict=True):
                full[i] = x
            out, a = split_aux(f(*full), has_aux, op)
            if not aux:
                aux.append(a)
            return out
        sel = args[nums[0]] if isinstance(argnums, int) else tuple(args[i] for i in nums)
        j = jacobian(sub, sel, strategy=strategy)
        return (j, plain(aux[0])) if has_aux else j
    return wrapped


def jacrev(f: Callable[..., Any], argnums: int | Sequence[int] = 0, has_aux: bool = False) -> Callable[..., Any]:
    """torch.func.jacrev: a function returning the reverse-mode Jacobian of f with respect to the
    arguments at ``argnums`` (a tuple over them for a sequence; over outputs for a tuple output);
    (jacobian, aux) with ``has_aux``. Nests: jacrev(jacrev(f)) is the Hessian."""
    return _jac(f, argnums, has_aux, "reverse-mode", "jacrev")


def jacfwd(f: Callable[..., Any], argnums: int | Sequence[int] = 0, has_aux: bool = False) -> Callable[..., Any]:
    """torch.func.jacfwd: as jacrev, by forward mode (one jvp per input element)."""
    return _jac(f, argnums, has_aux, "forward-mode", "jacfwd")


__all__ = ["jacobian", "jacrev", "jacfwd"]
