"""CPU implementation of the matmul op family (see numr/ops/traits/matmul.py).

matmul_bias, matmul_bias_act and scaled_mm are the generic composites (numr/ops/generic/matmul.py);
semiring_matmul runs the semiring.h kernel for float32/float64/int32/int64/uint32/uint64/bool
(low-precision floats through float32) and the composite for narrow integers.
"""

from __future__ import annotations

from typing import Any

from ... import dtypes as dt
from ...dtypes import DType
from ...errors import DTypeError, UnsupportedDType
from ...layout import Layout, coalesce
from ...ops import prepare
from ...ops.generic.matmul import SEMIRINGS, semiring_matmul_any, semiring_plan
from ...tensor import Tensor
from .. import storage
from . import lazy_kernels

_k = lazy_kernels("matmul")
_SR_CODES = {n: i for i, n in enumerate(SEMIRINGS)}  # semiring.h's numbering
_SR_NATIVE = frozenset(getattr(dt, n) for n in "float32 float64 int32 int64 uint32 uint64 bool_".split())


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
            _run(d, a2, b2, out, *_batch_strides(batch, a2, b2, out, m, k, n), m, n, k)
        return out if len(out_shape) == out.ndim else out.reshape(out_shape)

    def semiring_matmul(self, a: Tensor, b: Tensor, semiring: str = "min_plus") -> Tensor:
        """reduce_k combine(a[..., i, k], b[..., k, j]) by the tiled OpenMP kernel (semiring.h)."""
        return _semiring(self, a, b, semiring)


def _batch_strides(batch: tuple, a2: Tensor, b2: Tensor, out: Tensor, m: int, k: int, n: int) -> tuple:
    """(batch shape, a's, b's and out's batch strides), coalesced; a2/b2 broadcast over batch."""
    nb = len(batch)
    if not nb:
        return (), (), (), ()
    a_bs = a2.broadcast_to(batch + (m, k)).strides[:nb]
    b_bs = b2.broadcast_to(batch + (k, n)).strides[:nb]
    bshape, (a_bs, b_bs, c_bs) = coalesce(batch, a_bs, b_bs, out.strides[:nb])
    return bshape, a_bs, b_bs, c_bs


def _semiring(client: Any, a: Tensor, b: Tensor, semiring: str) -> Tensor:
    """semiring_matmul by the kernel: B's rows made contiguous (O(k n)), C contiguous."""
    batch, m, k, n, out_shape, d, cd = semiring_plan(a, b, semiring)
    if cd not in _SR_NATIVE:
        return semiring_matmul_any(a, b, semiring)
    a2 = a.unsqueeze(0) if a.ndim == 1 else a
    b2 = b.unsqueeze(-1) if b.ndim == 1 else b
    a2 = a2 if a2.dtype is cd else client.cast(a2, cd)
    b2 = b2 if b2.dtype is cd else client.cast(b2, cd)
    if b2._layout.strides[-1] != 1 and n > 1:
        b2 = b2.contiguous()
    out = storage.empty(client.device, batch + (m, n), cd)
    if out.size:
        rsa, csa = a2._layout.strides[-2:]
        ok = _k().semiring(cd.code, _SR_CODES[semiring], a2._storage, a2._layout.offset, b2._storage,
                           b2._layout.offset, out._storage, out._layout.offset,
                           *_batch_strides(batch, a2, b2, out, m, k, n), m, n, k, rsa, csa, b2._layout.strides[-2])
        if not ok:
            raise UnsupportedDType("cpu", "semiring_matmul", cd, f"no {semiring} kernel")
    if cd is not d:
        out = client.cast(out, d)
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
