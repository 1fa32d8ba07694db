"""Autograd of the sorting family, for reverse mode (Var) and forward mode (DualTensor) alike:
sort's and topk's values are gather(x, dim, indices) on the traced x, the indices coming from
the op on the plain tensor, so their derivatives are gather's (a permutation, locally
constant in x); argsort, searchsorted and unique (indices, insertion points, distinct values)
return plain tensors."""

from __future__ import annotations

from typing import Any

import numr as nr

from ...ops import api
from ...ops.prepare import plain
from ._common import register


def sort_any(x: Any, dim: int = -1, descending: bool = False, stable: bool = False) -> tuple[Any, Any]:
    t = plain(x)
    _, idx = nr.sort(t, dim, descending)
    return (x if t.ndim == 0 else nr.gather(x, dim, idx)), idx


def topk_any(x: Any, k: int, dim: int = -1, largest: bool = True, sorted: bool = True) -> tuple[Any, Any]:
    t = plain(x)
    _, idx = nr.topk(t, k, dim, largest, sorted)
    return (x if t.ndim == 0 else nr.gather(x, dim, idx)), idx


def _plain_result(name: str):
    def op(*args: Any, **kwargs: Any) -> Any:
        return api.call(name, tuple(plain(a) for a in args), {k: plain(v) for k, v in kwargs.items()})
    op.__name__ = f"var_{name}"
    return op


#: op name -> its rule for any tracer (registered for Var here, for DualTensor in forward.py)
COMPOSITES = {"sort": sort_any, "topk": topk_any,
              **{n: _plain_result(n) for n in ("argsort", "searchsorted", "unique")}}
for _name, _fn in COMPOSITES.items():
    register(_name)(_fn)
