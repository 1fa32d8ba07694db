"""CPU implementation of the utility op family (see numr/ops/traits/utility.py)."""

from __future__ import annotations

from typing import Any

from ...errors import DTypeError
from ...layout import coalesce_in_order
from ...ops import prepare
from ...tensor import Tensor
from .. import storage
from ..kernels import copy as _k
from .cast import run_fill


class UtilityCpu:
    """Mixin of CpuClient: fill_ and clamp."""

    def fill_(self, x: Tensor, value: Any) -> Tensor:
        """Set every element of the view x to value (cast to x's dtype); returns x."""
        if isinstance(value, Tensor):
            return self.copy_(x, value)
        prepare.check_device("fill_", self, x)
        run_fill(x, value, "fill_")
        return x

    def clamp(self, x: Tensor, min: Any = None, max: Any = None) -> Tensor:
        """x limited to [min, max]; bounds broadcast and promote with x; NaN propagates."""
        bounds = [b for b in (min, max) if b is not None]
        inputs, shape, compute, out_dtype = prepare.elementwise("clamp", self, [x, *bounds])
        if compute.is_complex:
            raise DTypeError(f"clamp: dtype {compute} is not supported: complex numbers are not ordered")
        out = storage.empty_for(self.device, shape, compute, [t._layout.strides for t in inputs])
        xi = inputs[0]
        lo = inputs[1] if min is not None else xi
        hi = inputs[-1] if max is not None else xi
        if out.size == 0:
            return out
        ops = (xi, lo, hi, out)
        cshape, strides = coalesce_in_order(shape, out.strides, *(t._layout.strides for t in ops))
        _k.clamp_nd(compute.code, tuple(t._storage for t in ops), tuple(t._layout.offset for t in ops),
                    cshape, tuple(strides), min is not None, max is not None)
        return out if out_dtype is compute else self.cast(out, out_dtype)
