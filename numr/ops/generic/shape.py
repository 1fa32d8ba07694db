"""cat and stack: allocate the result, copy each piece into its slice."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ... import dtypes as dt
from ...errors import ShapeError
from ...shapes import normalize_dim


def cat_plan(tensors: Sequence[Any], dim: int) -> tuple[int, tuple[int, ...], Any]:
    """cat's checks: (normalised dim, result shape, result dtype)."""
    if not tensors:
        raise ShapeError("cat: needs at least one tensor")
    shapes = [t.shape for t in tensors]
    ref = shapes[0]
    if not ref:
        raise ShapeError("cat: zero-dimensional tensors cannot be concatenated")
    d = dim if type(dim) is int and 0 <= dim < len(ref) else normalize_dim(dim, len(ref), "cat")
    before, after, total = ref[:d], ref[d + 1:], 0
    for s in shapes:
        if len(s) != len(ref) or s[:d] != before or s[d + 1:] != after:
            raise ShapeError(f"cat: shapes {[tuple(x) for x in shapes]} differ outside dim {dim}")
        total += s[d]
    d0 = tensors[0].dtype
    out_dtype = d0 if all(t.dtype is d0 for t in tensors) else dt.result_type(*tensors)
    shape = before + (total,) + after
    return d, shape, out_dtype


def cat(self: Any, tensors: Sequence[Any], dim: int = 0) -> Any:
    d, shape, out_dtype = cat_plan(tensors, dim)
    out = self.empty(shape, out_dtype)
    start = 0
    for t in tensors:
        n = t.shape[d]
        if n:
            self.copy_(out.narrow(d, start, n), t)
        start += n
    return out


def stack(self: Any, tensors: Sequence[Any], dim: int = 0) -> Any:
    if not tensors:
        raise ShapeError("stack: needs at least one tensor")
    shape = tensors[0].shape
    if any(t.shape != shape for t in tensors):
        raise ShapeError(f"stack: every tensor needs the same shape, got {[tuple(t.shape) for t in tensors]}")
    d = normalize_dim(dim, len(shape) + 1, "stack")
    return cat(self, [t.unsqueeze(d) for t in tensors], d)


def composites() -> dict:
    """Every shape composite written with public functions and views, by op name: autograd
    (reverse and forward mode) runs these on Vars and DualTensors."""
    from .shape_copy import COMPOSITES as copies
    from .shape_pad import pad_any
    from .shape_views import COMPOSITES as views
    return {**views, **copies, "pad": pad_any}
