"""CPU implementation of the utility op family (see numr/ops/traits/utility.py)."""

from __future__ import annotations

from typing import Any

from ...dtypes import weak_scalar_dtype
from ...errors import DTypeError
from ...layout import Layout, coalesce_in_order
from ...ops import prepare
from ...tensor import Tensor
from .. import storage
from ..kernels import copy as _k
from .binary import dense, scalar_storage
from .cast import run_fill

_REAL_SCALARS = (bool, int, float)


def _clamp_by_scalars(client: Any, x: Tensor, lo: Any, hi: Any) -> Tensor | None:
    """clamp of a row-major real tensor by Python scalar bounds that keep its dtype (the bounds
    as cached 1-element storage read with stride 0); None when the general path is needed."""
    d = x.dtype
    if d.is_complex:
        return None
    for b in (lo, hi):
        if b is not None and (b.__class__ not in _REAL_SCALARS or weak_scalar_dtype(b, d) is not d):
            return None
    lay = x._layout
    strides, n = dense(lay.shape)
    if lay.strides != strides:
        return None
    out = Tensor(storage.allocate(n, d), Layout(lay.shape, strides, 0), d, client.device)
    if n:
        xs = x._storage
        ls = scalar_storage("clamp", client, lo, d) if lo is not None else xs
        hs = scalar_storage("clamp", client, hi, d) if hi is not None else xs
        _k.clamp_nd(d.code, (xs, ls, hs, out._storage), (lay.offset, 0, 0, 0), (n,),
                    ((1,), (0,), (0,), (1,)), lo is not None, hi is not None)
    return out


class UtilityCpu:
    """Mixin of CpuClient: fill_ and clamp."""

    def fill_(self, x: Tensor, value: Any) -> Tensor:
        """Set every element of the view x to value (cast to x's dtype); returns x."""
        if isinstance(value, Tensor):
            return self.copy_(x, value)
        prepare.check_device("fill_", self, x)
        prepare.check_copy_destination(x, "fill_")
        run_fill(x, value, "fill_")
        return x

    def clamp(self, x: Tensor, min: Any = None, max: Any = None) -> Tensor:
        """x limited to [min, max]; bounds broadcast and promote with x; NaN propagates."""
        if x.__class__ is Tensor and x.device is self.device:
            out = _clamp_by_scalars(self, x, min, max)  # the per-call fast path
            if out is not None:
                return out
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
