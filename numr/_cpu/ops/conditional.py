"""CPU implementation of the conditional op family (see numr/ops/traits/conditional.py)."""

from __future__ import annotations

from typing import Any

from ... import dtypes as dt
from ...layout import coalesce_in_order
from ...ops import prepare
from ...shapes import broadcast_shapes
from ...tensor import Tensor
from .. import storage
from ..kernels import index as _k
from .binary import dense


def _where_dense(client: Any, c: Tensor, a: Tensor, b: Tensor) -> Tensor | None:
    """where for a bool ``c`` and same-dtype ``a``, ``b``, all row-major of one shape on this
    device; None otherwise."""
    lay = a._layout
    strides, n = dense(lay.shape)
    dev = client.device
    if (c.dtype is not dt.bool_ or b.dtype is not a.dtype or lay.strides != strides
            or b._layout.strides != strides or c._layout.strides != strides
            or b._layout.shape != lay.shape or c._layout.shape != lay.shape
            or a.device is not dev or b.device is not dev or c.device is not dev):
        return None
    out = storage.empty(dev, lay.shape, a.dtype)
    if n:
        _k.where_nd(a.dtype.itemsize, (c._storage, a._storage, b._storage, out._storage),
                    (c._layout.offset, lay.offset, b._layout.offset, 0), (n,), ((1,),) * 4)
    return out


class ConditionalCpu:
    """Mixin of CpuClient: where."""

    def where(self, cond: Any, a: Any, b: Any) -> Tensor:
        """a where cond (cast to bool: x != 0) is true, else b; a and b promote (Python
        scalars weakly); all three broadcast."""
        if cond.__class__ is Tensor and a.__class__ is Tensor and b.__class__ is Tensor:
            out = _where_dense(self, cond, a, b)  # the per-call fast path
            if out is not None:
                return out
        c = prepare.to_operand("where", self, cond)
        if isinstance(c, prepare.SCALAR_TYPES):
            c = self.full((), c, dt.bool_)
        if c.dtype is not dt.bool_:
            c = self.cast(c, dt.bool_)
        (ai, bi), ab_shape, _compute, out_dtype = prepare.elementwise("where", self, [a, b])
        shape = broadcast_shapes(c.shape, ab_shape, op="where")
        ops = [t if t.shape == shape else t.broadcast_to(shape) for t in (c, ai, bi)]
        out = storage.empty_for(self.device, shape, ai.dtype, [t._layout.strides for t in ops])
        if out.size:
            ops.append(out)
            cshape, strides = coalesce_in_order(shape, out.strides, *(t._layout.strides for t in ops))
            _k.where_nd(ai.dtype.itemsize, tuple(t._storage for t in ops), tuple(t._layout.offset for t in ops),
                        cshape, tuple(strides))
        return out if out.dtype is out_dtype else self.cast(out, out_dtype)
