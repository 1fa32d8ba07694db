"""CPU implementation of the matmul op family (see numr/ops/traits/matmul.py).

matmul_bias is the generic composite (numr/ops/generic/matmul.py).
"""

from __future__ import annotations

from ...dtypes import DType
from ...errors import DTypeError, UnsupportedDType
from ...layout import Layout, coalesce
from ...ops import prepare
from ...tensor import Tensor
from .. import storage
from . import lazy_kernels

_k = lazy_kernels("matmul")


class MatmulCpu:
    """Mixin of CpuClient: the matmul ops."""

    def matmul(self, a: Tensor, b: Tensor) -> Tensor:
        """NumPy's matmul: 1-d operands gain a dim that is dropped again; batch dims broadcast."""
        if (a.__class__ is Tensor and b.__class__ is Tensor and a.dtype is b.dtype
                and a.device is self.device and b.device is self.device):
            la, lb = a._layout, b._layout
            if len(la.shape) == 2 and len(lb.shape) == 2 and la.shape[1] == lb.shape[0]:
                # the per-call fast path: two matrices of one dtype (layers, their backward)
                (m, k), n = la.shape, lb.shape[1]
                out = Tensor(storage.allocate(m * n, a.dtype), Layout((m, n)), a.dtype, self.device)
                if m and n:
                    _run(a.dtype, a, b, out, (), (), (), (), m, n, k)
                return out
            if len(la.shape) == 1 and la.shape == lb.shape and la.shape[0]:
                # a dot product: the vectors as a (1, k) row and a (k, 1) column, a 0-d result
                k, sa, sb = la.shape[0], la.strides[0], lb.strides[0]
                out = Tensor(storage.allocate(1, a.dtype), Layout(()), a.dtype, self.device)
                _run(a.dtype, a._view(Layout((1, k), (k * sa, sa), la.offset)),
                     b._view(Layout((k, 1), (sb, 1), lb.offset)), out._view(Layout((1, 1))), (), (), (), (), 1, 1, k)
                return out
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
            _run(d, a2, b2, out, bshape, a_bs, b_bs, c_bs, m, n, k)
        return out if len(out_shape) == out.ndim else out.reshape(out_shape)


def _run(d: DType, a: Tensor, b: Tensor, out: Tensor, bshape: tuple, a_bs: tuple, b_bs: tuple,
         c_bs: tuple, m: int, n: int, k: int) -> None:
    """out = a @ b over the coalesced batch ``bshape`` (per-operand batch strides) by the kernel."""
    rsa, csa = a._layout.strides[-2:]
    rsb, csb = b._layout.strides[-2:]
    ok = _k().matmul(d.code, a._storage, a._layout.offset, b._storage, b._layout.offset,
                     out._storage, out._layout.offset, bshape, a_bs, b_bs, c_bs, m, n, k, rsa, csa, rsb, csb)
    if not ok:
        raise UnsupportedDType("cpu", "matmul", d, "no kernel for this dtype or out of scratch memory")
