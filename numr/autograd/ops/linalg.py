"""Reverse mode for einsum and the linear-algebra basics. They are composites of public
ops (matmul, sum, where, cat, views), so the Var flows through those and their rules give
the gradient; only the diagonal view has its own rule: the gradient written into zeros."""

from __future__ import annotations

from typing import Any

import numr as nr

from ...ops.generic.einsum import einsum_any
from ...ops.generic.linalg import COMPOSITES
from ...ops.generic.linalg_extra import COMPOSITES as EXTRA
from ...shapes import normalize_dim
from ...tensor import Tensor
from ..var import Var
from ._common import record, register, unwrap

register("einsum")(einsum_any)
for _name, _fn in {**COMPOSITES, **EXTRA}.items():
    register(_name)(_fn)


def _diagonal_vjp(g, args, out, need, extra):
    return [var_diagonal_embed(g, *extra)]


def _diagonal_embed_vjp(g, args, out, need, extra):
    return [g.diagonal(*extra[1:])]


def var_diagonal_embed(g: Any, shape: tuple[int, ...], offset: int, d1: int, d2: int) -> Any:
    """zeros(shape) with ``g`` written on the diagonal view: the adjoint of diagonal."""
    t = unwrap(g)
    z = nr.zeros(shape, dtype=t.dtype, device=t.device)
    if t.size:
        z.diagonal(offset, d1, d2).copy_(t)
    if not isinstance(g, Var):
        return z
    return record("diagonal_embed", (g,), z, _diagonal_embed_vjp, save_args=False, extra=(shape, offset, d1, d2))


@register("diagonal")
def var_diagonal(x: Any, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Var:
    t: Tensor = unwrap(x)
    d1, d2 = normalize_dim(dim1, t.ndim, "diagonal"), normalize_dim(dim2, t.ndim, "diagonal")
    return record("diagonal", (x,), t.diagonal(offset, d1, d2), _diagonal_vjp, save_args=False,
                  extra=(t.shape, int(offset), d1, d2))


__all__ = ["var_diagonal", "var_diagonal_embed"]
