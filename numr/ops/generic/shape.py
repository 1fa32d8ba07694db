"""cat and stack: allocate the result, copy each piece into its slice."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ... import dtypes as dt
from ...errors import ShapeError
from ...shapes import normalize_dim


def cat(self: Any, tensors: Sequence[Any], dim: int = 0) -> Any:
    if not tensors:
        raise ShapeError("cat: needs at least one tensor")
    ref = tensors[0]
    if ref.ndim == 0:
        raise ShapeError("cat: zero-dimensional tensors cannot be concatenated")
    d = normalize_dim(dim, ref.ndim, "cat")
    for t in tensors:
        if t.ndim != ref.ndim or t.shape[:d] + t.shape[d + 1:] != ref.shape[:d] + ref.shape[d + 1:]:
            raise ShapeError(f"cat: shapes {[tuple(x.shape) for x in tensors]} differ outside dim {dim}")
    out_dtype = dt.result_type(*tensors)
    shape = ref.shape[:d] + (sum(t.shape[d] for t in tensors),) + ref.shape[d + 1:]
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
