"""CPU overrides of the generic shape ops (numr/ops/generic/shape.py).

cat writes each piece straight into its slice of the new result: the result
is fresh, so copy_'s broadcast, aliasing and overlap checks have nothing to
find (they were most of the time of a small cat).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...layout import Layout
from ...ops import prepare
from ...ops.generic.shape import cat_plan
from ...shapes import numel
from ...tensor import Tensor
from .. import storage
from ..kernels import copy as _k
from .binary import dense
from .cast import run_copy


class ShapeCpu:
    """Mixin of CpuClient: cat."""

    def cat(self, tensors: Sequence[Any], dim: int = 0) -> Tensor:
        d, shape, out_dtype = cat_plan(tensors, dim)
        prepare.check_device("cat", self, *tensors)
        strides, n = dense(shape)
        lay = Layout(shape, strides, 0)
        out = Tensor(storage.allocate(n, out_dtype), lay, out_dtype, self.device)
        if not n:
            return out
        outer = numel(shape[:d])
        inner = numel(shape[d + 1:])
        row = shape[d] * inner  # elements of one outer row of the result
        start = 0
        for t in tensors:
            size = t.shape[d]
            if size:
                tl = t._layout
                if tl.strides == dense(tl.shape)[0]:  # row-major piece: (outer, size * inner) blocks
                    w = size * inner
                    _k.copy_nd(t._storage, t.dtype.code, tl.offset, out._storage, out_dtype.code, start * inner,
                               (outer, w), (w, 1), (row, 1))
                else:
                    run_copy(out, lay.slice(d, start, start + size, 1), t, tl)
            start += size
        return out
