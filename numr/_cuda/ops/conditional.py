"""CUDA where (kernels/conditional.cu)."""

from __future__ import annotations

from typing import Any

from ... import dtypes as dt
from ...ops import prepare
from ...ops.prepare import as_tensor
from ...shapes import broadcast_shapes
from ...tensor import Tensor
from ._base import ew


class ConditionalCuda:
    """Mixin of CudaClient: where."""

    def where(self, cond: Any, a: Any, b: Any) -> Tensor:
        """a where cond is true, else b; cond read as truth values; a and b promote."""
        cond = as_tensor("where", self, cond)
        a, b = prepare.to_operand("where", self, a), prepare.to_operand("where", self, b)
        shapes = [cond.shape] + [x.shape for x in (a, b) if isinstance(x, Tensor)]
        shape = broadcast_shapes(*shapes, op="where")
        d = prepare.promoted("where", [a, b])
        a = prepare.materialize(self, a, d, shape)
        b = prepare.materialize(self, b, d, shape)
        c = cond if cond.dtype is dt.bool_ else self.cast(cond, dt.bool_)
        c = c if c.shape == shape else c.broadcast_to(shape)
        return ew(self, "conditional", d, "where", self.empty(shape, d), [c, a, b])
