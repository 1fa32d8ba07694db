"""CUDA fill_ and clamp (kernels/utility.cu)."""

from __future__ import annotations

from typing import Any

from ...errors import DTypeError
from ...ops import prepare
from ...tensor import Tensor
from ..launch import BLOCK, elementwise_layout, i32, i64, ptr
from ._base import ew, grid
from .cast import value_arg


def run_fill(client: Any, x: Tensor, value: Any, op: str) -> Tensor:
    n = x.size
    if n == 0:
        return x
    v = value_arg(op, value, x.dtype)
    sh, (so,) = elementwise_layout(x.shape, x)
    client._st.run("utility", x.dtype.code, f"fill_{x.dtype.name}", grid(client, n), BLOCK,
                   [ptr(x), so, sh, i64(n), v])
    return x


class UtilityCuda:
    """Mixin of CudaClient: fill_ and clamp."""

    def fill_(self, x: Tensor, value: Any) -> Tensor:
        """Set every element of the view x to value (cast to x's dtype); returns x."""
        if isinstance(value, Tensor):
            return self.copy_(x, value)
        prepare.check_device("fill_", self, x)
        prepare.check_copy_destination(x, "fill_")
        return run_fill(self, x, value, "fill_")

    def clamp(self, x: Tensor, min: Any = None, max: Any = None) -> Tensor:
        """x limited to [min, max]; bounds broadcast and promote with x; NaN propagates."""
        bounds = [b for b in (min, max) if b is not None]
        inputs, shape, compute, out_dtype = prepare.elementwise("clamp", self, [x, *bounds])
        if compute.is_complex:
            raise DTypeError(f"clamp: dtype {compute} is not supported: complex numbers are not ordered")
        xi = inputs[0]
        lo = inputs[1] if min is not None else xi
        hi = inputs[-1] if max is not None else xi
        out = self.empty(shape, compute)
        ew(self, "utility", compute, "clamp", out, [xi, lo, hi], [i32(min is not None), i32(max is not None)])
        return out if out_dtype is compute else self.cast(out, out_dtype)
