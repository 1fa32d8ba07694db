"""CPU implementation of the binary op family (see numr/ops/traits/binary.py).

Every op runs one kernel of numr/_cpu/kernels/binary.pyx (tables in
binary_arith.h). Two paths:

* the fast path: two tensors of this device with the same dtype and shape,
  both dense row-major: no preparation, one contiguous kernel call
  (``a + b`` on small tensors is dominated by this Python code);
* the general path: ``numr.ops.prepare.elementwise`` (promotion, Python
  scalars, broadcasting with stride-0 views), then a strided kernel call on
  coalesced dims. Compare and logical ops (compare.py, logical.py) use it too.
"""

from __future__ import annotations

from typing import Any

from ...dtypes import DType
from ...errors import UnsupportedDType
from ...layout import Layout, coalesce, contiguous_strides
from ...ops import dtype_rules, prepare
from ...tensor import Tensor
from .. import storage
from ..kernels import binary as _kb

_allocate = storage.allocate

# shape -> (row-major strides, numel), for the fast path's contiguity test
_DENSE: dict[tuple[int, ...], tuple[tuple[int, ...], int]] = {}
# (op code, dtype) -> result dtype, when the op keeps its input dtype (fast path allowed)
_SAME: dict[tuple[int, DType], DType] = {}


def dense(shape: tuple[int, ...]) -> tuple[tuple[int, ...], int]:
    """(row-major strides, numel) of ``shape``, cached."""
    r = _DENSE.get(shape)
    if r is None:
        if len(_DENSE) > 4096:
            _DENSE.clear()
        n = 1
        for s in shape:
            n *= s
        r = _DENSE[shape] = (contiguous_strides(shape), n)
    return r


def _fast_dtype(name: str, code: int, d: DType) -> DType | None:
    """Result dtype of op on two ``d`` tensors when no cast is needed, else None."""
    key = (code, d)
    out = _SAME.get(key)
    if out is None:
        try:
            compute, out = dtype_rules.binary_dtypes(name, d)
        except Exception:
            return None
        if compute is not d or not _kb.supported(code, d.code):
            return None
        _SAME[key] = out
    return out


def launch(client: Any, name: str, code: int, inputs: list[Tensor], shape: tuple[int, ...],
           compute: DType, out_dtype: DType) -> Tensor:
    """Run kernel ``code`` on same-dtype ``inputs`` already broadcast to ``shape``."""
    out = storage.empty(client.device, shape, out_dtype)
    if out.size == 0:
        if not _kb.supported(code, compute.code):
            raise UnsupportedDType("cpu", name, compute)
        return out
    lays = [t._layout for t in inputs]
    cshape, cstrides = coalesce(shape, *(lay.strides for lay in lays), out._layout.strides)
    r = _kb.run(code, compute.code, [t._storage for t in inputs] + [out._storage],
                [lay.offset for lay in lays] + [0], cshape, cstrides)
    if r < 0:
        raise UnsupportedDType("cpu", name, compute)
    return out


def general(client: Any, name: str, code: int, operands: tuple, compute: DType | None = None,
            out_dtype: DType | None = None) -> Tensor:
    """Prepare (promote, materialise scalars, broadcast) and launch."""
    inputs, shape, comp, out = prepare.elementwise(name, client, operands, compute)
    return launch(client, name, code, inputs, shape, comp, out_dtype or out)


def make_binary(name: str):
    """A client method for binary op ``name`` with the same-shape dense fast path."""
    code = _kb.OPS[name]

    def method(self: Any, a: Any, b: Any) -> Tensor:
        if a.__class__ is Tensor and b.__class__ is Tensor:
            d = a.dtype
            la = a._layout
            lb = b._layout
            dev = self.device
            if d is b.dtype and la.shape == lb.shape and a.device is dev and b.device is dev:
                strides, n = dense(la.shape)
                if la.strides == strides and lb.strides == strides:
                    od = _SAME.get((code, d)) or _fast_dtype(name, code, d)
                    if od is not None:
                        out = Tensor(_allocate(n, od), Layout(la.shape, strides, 0), od, dev)
                        if n:
                            _kb.contig(code, d.code, a._storage, la.offset, b._storage, lb.offset,
                                       out._storage, n)
                        return out
        return general(self, name, code, (a, b))

    method.__name__ = method.__qualname__ = name
    return method


_FMA = _kb.OPS["fma"]


class BinaryCpu:
    """Mixin of CpuClient: the binary ops (and fma)."""

    add = make_binary("add")
    sub = make_binary("sub")
    mul = make_binary("mul")
    div = make_binary("div")
    floor_divide = make_binary("floor_divide")
    remainder = make_binary("remainder")
    pow = make_binary("pow")
    maximum = make_binary("maximum")
    minimum = make_binary("minimum")
    atan2 = make_binary("atan2")
    hypot = make_binary("hypot")
    bitwise_and = make_binary("bitwise_and")
    bitwise_or = make_binary("bitwise_or")
    bitwise_xor = make_binary("bitwise_xor")

    def fma(self, a: Any, b: Any, c: Any) -> Tensor:
        """a * b + c with one rounding for floats (wrapping for integers)."""
        return general(self, "fma", _FMA, (a, b, c))
