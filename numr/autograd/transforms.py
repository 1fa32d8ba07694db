"""Function transforms in the style of torch.func / JAX: grad, value_and_grad and vjp (reverse
mode), vhp, and hessian over tuple inputs; jacobian, jacrev and jacfwd live in jacobian.py.

An argument given as a Tensor is wrapped in a fresh Var. One given as a Var (a transform called
inside another one) is differentiated in place with the graph kept, so reverse-mode transforms
nest: ``grad(grad(f))``, ``jacrev(jacrev(f))``. f takes Tensors (Vars) and returns Tensors.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numr as nr

from ..errors import DTypeError, IndexOutOfRange, ShapeError, UnsupportedOperation
from ..tensor import Tensor
from .engine import run_backward
from .var import Var, enable_grad


def argnums_tuple(argnums: int | Sequence[int], nargs: int, op: str) -> tuple[int, ...]:
    """argnums as a tuple of distinct non-negative positions into ``nargs`` arguments."""
    nums = (argnums,) if isinstance(argnums, int) else tuple(argnums)
    if not nums:
        raise ValueError(f"{op}: argnums must name at least one argument")
    res = []
    for a in nums:
        if not isinstance(a, int) or not -nargs <= a < nargs:
            raise IndexOutOfRange(f"{op}: argnums {argnums!r} out of range for {nargs} positional arguments")
        res.append(a % nargs)
    if len(set(res)) != len(res):
        raise ValueError(f"{op}: argnums {argnums!r} repeats an argument")
    return tuple(res)


def target(x: Any, op: str, i: int) -> tuple[Var, bool]:
    """(the Var to differentiate for argument i, whether it came from an enclosing transform)."""
    if isinstance(x, Var):
        return (x, True) if x.requires_grad else (Var(x.tensor), False)
    if not isinstance(x, Tensor):
        from .forward import DualTensor
        if isinstance(x, DualTensor):
            raise UnsupportedOperation("autograd", op, x.dtype, "a reverse-mode transform inside forward mode "
                                       "(jacfwd/jvp over grad); use jacrev(jacrev(f)) or hessian")
        raise TypeError(f"{op}: argument {i} must be a Tensor, got {type(x).__name__}")
    if x.dtype.kind not in "fc":
        raise DTypeError(f"{op}: argument {i} has dtype {x.dtype}; only floating-point and complex "
                         f"inputs are differentiable")
    return Var(x, requires_grad=True), False


def plain(x: Any, keep: bool = False) -> Any:
    """x with Vars replaced by their tensors (kept when ``keep``), through tuples, lists and dicts."""
    if isinstance(x, Var):
        return x if keep else x.tensor
    if isinstance(x, (tuple, list)):
        return type(x)(plain(a, keep) for a in x)
    if isinstance(x, dict):
        return {k: plain(v, keep) for k, v in x.items()}
    from .forward import DualTensor
    return x.primal if isinstance(x, DualTensor) else x


def split_aux(out: Any, has_aux: bool, op: str) -> tuple[Any, Any]:
    if not has_aux:
        return out, None
    if not isinstance(out, (tuple, list)) or len(out) != 2:
        raise TypeError(f"{op}(has_aux=True): f must return a pair (output, aux), got {type(out).__name__}")
    return out[0], out[1]


def zeros_like(v: Any, as_var: bool) -> Any:
    z = nr.zeros(v.shape, dtype=v.dtype, device=v.device)
    return Var.constant(z) if as_var else z


def grads_of(roots: Sequence[Any], seeds: Sequence[Any], targets: Sequence[Var], create_graph: bool) -> list:
    """The gradients of sum_k <seed_k, root_k> for each target (zeros where it does not reach);
    Vars with their own graph when ``create_graph``. The graph is kept for further calls."""
    live = [(r, s) for r, s in zip(roots, seeds, strict=True) if isinstance(r, Var) and r.requires_grad]
    if not live:
        return [zeros_like(t, create_graph) for t in targets]
    if create_graph:
        live = [(r, s if isinstance(s, Var) else Var.constant(s)) for r, s in live]
    else:
        live = [(r, s.tensor if isinstance(s, Var) else s) for r, s in live]
    g = run_backward([r for r, _ in live], [s for _, s in live], create_graph=create_graph,
                     stop=frozenset(t.id for t in targets))
    res = []
    for t in targets:
        gi = g.get(t.id)
        res.append(zeros_like(t, create_graph) if gi is None else gi)
    return res


def _call(f: Callable[..., Any], args: tuple, nums: tuple[int, ...], op: str) -> tuple[Any, list[Var], bool]:
    """f with the arguments at ``nums`` wrapped: (output, the target Vars, nested)."""
    args2, targets, nested = list(args), [], False
    for i in nums:
        v, n = target(args[i], op, i)
        args2[i], nested = v, nested or n
        targets.append(v)
    with enable_grad():
        out = f(*args2)
    return out, targets, nested


def value_and_grad(f: Callable[..., Any], argnums: int | Sequence[int] = 0,
                   has_aux: bool = False) -> Callable[..., Any]:
    """JAX's value_and_grad: a function returning (f(*args), gradient), or ((value, aux), gradient)
    with ``has_aux``. f must return a 0-d floating tensor; the gradient is one Tensor for an int
    ``argnums`` and a tuple for a sequence."""
    def wrapped(*args: Any) -> Any:
        nums = argnums_tuple(argnums, len(args), "grad")
        out, targets, nested = _call(f, args, nums, "grad")
        out, aux = split_aux(out, has_aux, "grad")
        if not isinstance(out, (Var, Tensor)):
            raise TypeError(f"grad: f must return a Tensor, got {type(out).__name__}")
        if out.ndim != 0:
            raise ShapeError(f"grad: f must return a scalar (0-d) tensor, got shape {tuple(out.shape)}; "
                             f"use vjp or jacrev for non-scalar outputs")
        if out.dtype.kind != "f":
            raise DTypeError(f"grad: f must return a real floating-point scalar, got {out.dtype}")
        one = nr.ones((), dtype=out.dtype, device=out.device)
        gs = grads_of([out], [one], targets, nested)
        g = plain(gs[0] if isinstance(argnums, int) else tuple(gs), nested)
        value = plain(out, nested)
        return ((value, plain(aux, nested)), g) if has_aux else (value, g)
    return wrapped


def grad(f: Callable[..., Any], argnums: int | Sequence[int] = 0, has_aux: bool = False) -> Callable[..., Any]:
    """torch.func.grad / jax.grad: a function returning the gradient of the scalar f with respect
    to the arguments at ``argnums`` ((gradient, aux) with ``has_aux``)."""
    vg = value_and_grad(f, argnums, has_aux)

    def wrapped(*args: Any) -> Any:
        v, g = vg(*args)
        return (g, v[1]) if has_aux else g
    return wrapped


def vjp(f: Callable[..., Any], *primals: Any, has_aux: bool = False) -> tuple:
    """torch.func.vjp: (f(*primals), vjp_fn[, aux]). ``vjp_fn(cotangents)`` (the structure of the
    output: a Tensor, or a tuple for a tuple output) returns a tuple with one gradient per primal;
    it may be called many times."""
    if not primals:
        raise ValueError("vjp: give at least one primal")
    out, targets, nested = _call(f, primals, tuple(range(len(primals))), "vjp")
    out, aux = split_aux(out, has_aux, "vjp")
    multi = isinstance(out, (tuple, list))
    outs = tuple(out) if multi else (out,)

    def vjp_fn(*cotangents: Any) -> tuple:
        cts = cotangents[0] if len(cotangents) == 1 else cotangents
        cts = tuple(cts) if multi and isinstance(cts, (tuple, list)) else (cts,)
        if len(cts) != len(outs):
            raise ValueError(f"vjp: f has {len(outs)} outputs but {len(cts)} cotangents were given")
        for k, (o, c) in enumerate(zip(outs, cts, strict=True)):
            if tuple(c.shape) != tuple(o.shape):
                raise ShapeError(f"vjp: cotangent {k} has shape {tuple(c.shape)}, output {k} has shape "
                                 f"{tuple(o.shape)}")
        return tuple(plain(grads_of(outs, cts, targets, nested), nested))
    res = (plain(out, nested), vjp_fn)
    return res + (plain(aux, nested),) if has_aux else res


def _tup(x: Any) -> tuple[tuple, bool]:
    return ((x,), True) if isinstance(x, (Tensor, Var)) else (tuple(x), False)


def vhp(f: Callable[..., Any], inputs: Any, v: Any) -> tuple[Any, Any]:
    """torch.autograd.functional.vhp: (f(inputs), v^T H) for a scalar f of a Tensor or a tuple of
    Tensors, v of the same structure (reverse over reverse; H is symmetric, so it is also H v)."""
    ins, single = _tup(inputs)
    vs, _ = _tup(v)
    if len(vs) != len(ins):
        raise ValueError(f"vhp: {len(ins)} inputs but {len(vs)} vectors")
    for k, (x, w) in enumerate(zip(ins, vs, strict=True)):
        if tuple(w.shape) != tuple(x.shape):
            raise ShapeError(f"vhp: v[{k}] has shape {tuple(w.shape)}, input {k} has shape {tuple(x.shape)}")
    out, targets, nested = _call(f, ins, tuple(range(len(ins))), "vhp")
    if not isinstance(out, (Var, Tensor)) or out.size != 1:
        raise ShapeError(f"vhp: f must return a one-element tensor, got {getattr(out, 'shape', type(out))}")
    gs = grads_of([out], [nr.ones(out.shape, dtype=out.dtype, device=out.device)], targets, True)
    dot = None
    for g, w in zip(gs, vs, strict=True):
        if g.requires_grad:
            term = nr.sum(g * (w.tensor if isinstance(w, Var) and not nested else w))
            dot = term if dot is None else dot + term
    if dot is None:
        hv = [zeros_like(t, nested) for t in targets]
    else:
        hv = grads_of([dot], [nr.ones((), dtype=dot.dtype, device=dot.device)], targets, nested)
    hv = plain(hv, nested)
    return plain(out, nested), hv[0] if single else tuple(hv)


def hessian(f: Callable[..., Any], inputs: Any, create_graph: bool = False, strict: bool = False,
            vectorize: bool = False, outer_jacobian_strategy: str = "reverse-mode") -> Any:
    """The Hessian of the scalar f: for a Tensor input, shape ``x.shape + x.shape``; for a tuple,
    ``H[i][j]`` of shape ``x_i.shape + x_j.shape`` (torch.autograd.functional.hessian): the
    reverse-mode Jacobian of grad (reverse over reverse; ``strict`` and ``vectorize`` change nothing)."""
    from .jacobian import jacobian
    if outer_jacobian_strategy != "reverse-mode":
        raise UnsupportedOperation("autograd", "hessian", reason=f"outer_jacobian_strategy="
                                   f"{outer_jacobian_strategy!r}: forward over reverse mixes DualTensor and Var")
    ins, single = _tup(inputs)
    g = grad(f, argnums=0 if single else tuple(range(len(ins))))
    return jacobian(g, inputs, create_graph=create_graph)


__all__ = ["grad", "value_and_grad", "vjp", "vhp", "hessian"]
