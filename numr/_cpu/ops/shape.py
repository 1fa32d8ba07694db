"""CPU overrides of the generic shape ops (numr/ops/generic/shape.py).

cat writes each piece straight into its slice of the new result: the result
is fresh, so copy_'s broadcast, aliasing and overlap checks have nothing to
find (they were most of the time of a small cat).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...ops import prepare
from ...ops.generic.shape import cat_plan
from ...tensor import Tensor
from .. import storage
from .cast import run_copy


class ShapeCpu:
    """Mixin of CpuClient: cat."""

    def cat(self, tensors: Sequence[Any], dim: int = 0) -> Tensor:
        d, shape, out_dtype = cat_plan(tensors, dim)
        prepare.check_device("cat", self, *tensors)
        out = storage.empty(self.device, shape, out_dtype)
        lay = out._layout
        start = 0
        for t in tensors:
            n = t.shape[d]
            if n and lay.numel:
                run_copy(out, lay.slice(d, start, start + n, 1), t, t._layout)
            start += n
        return out
