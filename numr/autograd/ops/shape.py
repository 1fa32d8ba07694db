"""View ops (reshape, transpose, permute, broadcast, squeeze/unsqueeze, flip,
slicing), cat/stack and index_select. Their gradients are the adjoint views:
reshape back, inverse permutation, sum over broadcast dims (done by the
engine), and writing into zeros for slicing."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numr as nr

from ...ops.generic.indexing import gather_any, scatter_add_any
from ...ops.generic.shape import composites as shape_composites
from ...shapes import normalize_dim, numel
from ...tensor import Tensor
from ..engine import SlicedGrad
from ..var import Var
from ._common import record, register, tensor_call, unwrap


def _reshape_vjp(g, args, out, need, extra):
    return [g.reshape(extra)]


def _view(name: str, x: Any, out: Tensor) -> Var:
    return record(name, (x,), out, _reshape_vjp, save_args=False, extra=x.shape)


def var_reshape(x: Any, *shape: Any) -> Var:
    """x with a new shape (a view when strides allow)."""
    return _view("reshape", x, unwrap(x).reshape(*shape))


def var_squeeze(x: Any, dim: Any = None) -> Var:
    return _view("squeeze", x, unwrap(x).squeeze(dim))


def var_unsqueeze(x: Any, dim: int) -> Var:
    return _view("unsqueeze", x, unwrap(x).unsqueeze(dim))


def var_flatten(x: Any, start_dim: int = 0, end_dim: int = -1) -> Var:
    return _view("flatten", x, unwrap(x).flatten(start_dim, end_dim))


def _transpose_vjp(g, args, out, need, extra):
    return [g.transpose(*extra)]


def var_transpose(x: Any, dim0: int = 0, dim1: int = 1) -> Var:
    return record("transpose", (x,), unwrap(x).transpose(dim0, dim1), _transpose_vjp, save_args=False,
                  extra=(dim0, dim1))


def _permute_vjp(g, args, out, need, extra):
    inv = [0] * len(extra)
    for i, p in enumerate(extra):
        inv[p] = i
    return [g.permute(tuple(inv))]


def var_permute(x: Any, *dims: Any) -> Var:
    if len(dims) == 1 and not isinstance(dims[0], int):
        dims = tuple(dims[0])
    dims = tuple(normalize_dim(d, x.ndim, "permute") for d in dims)
    return record("permute", (x,), unwrap(x).permute(dims), _permute_vjp, save_args=False, extra=dims)


def _identity_vjp(g, args, out, need, extra):
    return [g]


def var_broadcast_to(x: Any, shape: Any) -> Var:
    """Broadcast view; the engine sums the gradient back to x's shape."""
    return record("broadcast_to", (x,), unwrap(x).broadcast_to(shape), _identity_vjp, save_args=False)


def var_expand(x: Any, *shape: Any) -> Var:
    return record("expand", (x,), unwrap(x).expand(*shape), _identity_vjp, save_args=False)


def var_contiguous(x: Any) -> Var:
    return record("contiguous", (x,), unwrap(x).contiguous(), _identity_vjp, save_args=False)


def var_clone(x: Any) -> Var:
    return record("clone", (x,), unwrap(x).clone(), _identity_vjp, save_args=False)


def _flip_vjp(g, args, out, need, extra):
    return [g.flip(extra)]


def var_flip(x: Any, dims: Any = None) -> Var:
    return record("flip", (x,), unwrap(x).flip(dims), _flip_vjp, save_args=False, extra=dims)


def _has_tensor(index: Any) -> bool:
    items = index if isinstance(index, tuple) else (index,)
    return any(isinstance(i, (Tensor, Var, list)) or hasattr(i, "__array__") for i in items)


def _getitem_vjp(g, args, out, need, extra):
    shape, index = extra
    if isinstance(g, Tensor):  # first order: the engine adds the slices' gradients up lazily
        return [SlicedGrad(shape, [(index, g)])]
    return [var_embed(g, shape, index)]


def _embed_vjp(g, args, out, need, extra):
    return [g[extra]]


def var_embed(g: Any, shape: tuple[int, ...], index: Any) -> Any:
    """zeros(shape) with ``g`` written at ``index`` (basic indexing): the adjoint of slicing."""
    t = unwrap(g)
    z = nr.zeros(shape, dtype=t.dtype, device=t.device)
    z[index] = t
    if not isinstance(g, Var):
        return z
    return record("embed", (g,), z, _embed_vjp, save_args=False, extra=index)


def _index_add_vjp(g, args, out, need, extra):
    """x's gradient is g; source's is alpha times g's slices at the indices."""
    dim, idx, alpha = extra
    gs = None
    if need[3]:
        gs = var_index_select(g, dim, idx) if isinstance(g, Var) else tensor_call("index_select", (g, dim, idx))
        if alpha != 1:
            gs = gs * alpha
    return [g if need[0] else None, None, None, gs]


@register("index_add")
def var_index_add(x: Any, dim: int, index: Any, source: Any, alpha: Any = 1) -> Var:
    """index_add on a copy of x: repeated indices accumulate (the adjoint of index_select)."""
    idx = unwrap(index)
    out = tensor_call("index_add", (x, dim, idx, source, alpha))
    d = normalize_dim(dim, out.ndim, "index_add")
    return record("index_add", (x, dim, idx, source), out, _index_add_vjp, save_args=False,
                  extra=(d, idx, alpha))


register("gather")(gather_any)  # composites of reshape, index_select and index_add: their
register("scatter_add")(scatter_add_any)  # gradients come from those ops' rules
for _name, _fn in shape_composites().items():  # split, pad, roll, repeat, ...: views, cat, index_select
    register(_name)(_fn)


def _scatter_add(g: Any, shape: tuple[int, ...], dim: int, idx: Tensor) -> Any:
    """zeros(shape) with g's slices added at idx along dim (repeats accumulate): O(g.size)."""
    t = unwrap(g)
    z = nr.zeros(shape, dtype=t.dtype, device=t.device)
    return var_index_add(z, dim, idx, g) if isinstance(g, Var) else tensor_call("index_add_", (z, dim, idx, g))


def _index_select_vjp(g, args, out, need, extra):
    shape, dim, index = extra
    return [_scatter_add(g, shape, dim, index)]


@register("index_select")
def var_index_select(x: Any, dim: int, index: Any) -> Var:
    d = normalize_dim(dim, x.ndim, "index_select")
    idx = unwrap(index)
    out = tensor_call("index_select", (x, d, idx))
    return record("index_select", (x,), out, _index_select_vjp, save_args=False, extra=(x.shape, d, idx))


def _gather_vjp(g, args, out, need, extra):
    shape, pos = extra
    flat = g.reshape(-1)
    return [_scatter_add(flat, (numel(shape),), 0, pos).reshape(shape)]


def var_getitem(x: Any, index: Any) -> Var:
    """x[index] with NumPy semantics: basic indices are views (gradient written back into
    zeros); integer/bool tensor indices gather, and their gradient scatters back (added up
    where an element was picked more than once)."""
    if not _has_tensor(index):
        return record("getitem", (x,), unwrap(x)[index], _getitem_vjp, save_args=False, extra=(x.shape, index))
    index = tuple(unwrap(i) for i in index) if isinstance(index, tuple) else unwrap(index)
    items = index if isinstance(index, tuple) else (index,)
    pos_i = [i for i, it in enumerate(items) if not isinstance(it, slice)]
    if len(pos_i) == 1 and all(it == slice(None) for i, it in enumerate(items) if i != pos_i[0]):
        idx = items[pos_i[0]]
        if not isinstance(idx, Tensor):
            idx = nr.tensor(idx, device=x.device)
        if idx.dtype.kind in "iu" and idx.ndim == 1:
            return var_index_select(x, pos_i[0], idx)
    t = unwrap(x)
    out = t[index]
    pos = nr.arange(t.size, dtype=nr.int64, device=t.device).reshape(t.shape)[index].reshape(-1)
    return record("getitem", (x,), out, _gather_vjp, save_args=False, extra=(t.shape, pos))


def var_narrow(x: Any, dim: int, start: int, length: int) -> Var:
    d = normalize_dim(dim, x.ndim, "narrow")
    return var_getitem(x, (slice(None),) * d + (slice(start, start + length),))


def _cat_vjp(g, args, out, need, extra):
    d, sizes = extra
    res, start = [], 0
    for n, want in zip(sizes, need, strict=True):
        res.append(g[(slice(None),) * d + (slice(start, start + n),)] if want else None)
        start += n
    return res


@register("cat")
def var_cat(tensors: Sequence[Any], dim: int = 0) -> Var:
    """Concatenate along dim; each input's gradient is its slice of g."""
    ts = list(tensors)
    out = tensor_call("cat", (ts, dim))
    d = normalize_dim(dim, out.ndim, "cat")
    return record("cat", ts, out, _cat_vjp, save_args=False, extra=(d, [t.shape[d] for t in ts]))


def _stack_vjp(g, args, out, need, extra):
    d = extra
    return [g[(slice(None),) * d + (i,)] if want else None for i, want in enumerate(need)]


@register("stack")
def var_stack(tensors: Sequence[Any], dim: int = 0) -> Var:
    ts = list(tensors)
    out = tensor_call("stack", (ts, dim))
    return record("stack", ts, out, _stack_vjp, save_args=False, extra=normalize_dim(dim, out.ndim, "stack"))


__all__ = ["var_reshape", "var_squeeze", "var_unsqueeze", "var_flatten", "var_transpose", "var_permute",
           "var_broadcast_to", "var_expand", "var_contiguous", "var_clone", "var_flip", "var_getitem",
           "var_narrow", "var_embed", "var_index_select", "var_index_add", "var_cat", "var_stack"]
