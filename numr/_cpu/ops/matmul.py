"""CPU implementation of the matmul op family (see numr/ops/traits/matmul.py).

matmul_bias is the generic composite (numr/ops/generic/matmul.py).
"""

from __future__ import annotations

from ...errors import DTypeError, UnsupportedDType
from ...layout import coalesce
from ...ops import prepare
from ...tensor import Tensor
from .. import storage

_kernels = None


def _k():
    global _kernels
    if _kernels is None:
        from ..kernels import matmul as k
        _kernels = k
    return _kernels


class MatmulCpu:
    """Mixin of CpuClient: the matmul ops."""

    def matmul(self, a: Tensor, b: Tensor) -> Tensor:
        """NumPy's matmul: 1-d operands gain a dim that is dropped again; batch dims broadcast."""
        if a.__class__ is not Tensor or a.device is not self.device:
            a = prepare.to_operand("matmul", self, a)
        if b.__class__ is not Tensor or b.device is not self.device:
            b = prepare.to_operand("matmul", self, b)
        if not isinstance(a, Tensor) or not isinstance(b, Tensor):
            raise DTypeError("matmul: both operands must be tensors, not Python scalars")
        batch, m, k, n, out_shape = prepare.matmul_shapes("matmul", a.shape, b.shape)
        d = prepare.promoted("matmul", [a, b])
        if a.dtype is not d:
            a = self.cast(a, d)
        if b.dtype is not d:
            b = self.cast(b, d)
        a2 = a.unsqueeze(0) if a.ndim == 1 else a
        b2 = b.unsqueeze(-1) if b.ndim == 1 else b
        out = storage.empty(self.device, batch + (m, n), d)
        if out.size:
            nb = len(batch)
            if nb:
                a_bs = a2.broadcast_to(batch + (m, k)).strides[:nb]
                b_bs = b2.broadcast_to(batch + (k, n)).strides[:nb]
                bshape, (a_bs, b_bs, c_bs) = coalesce(batch, a_bs, b_bs, out.strides[:nb])
            else:
                bshape = a_bs = b_bs = c_bs = ()
            rsa, csa = a2.strides[-2:]
            rsb, csb = b2.strides[-2:]
            ok = _k().matmul(d.code, a2._storage, a2._layout.offset, b2._storage, b2._layout.offset,
                             out._storage, out._layout.offset, bshape, a_bs, b_bs, c_bs,
                             m, n, k, rsa, csa, rsb, csb)
            if not ok:
                raise UnsupportedDType("cpu", "matmul", d, "no kernel for this dtype or out of scratch memory")
        return out if len(out_shape) == out.ndim else out.reshape(out_shape)
