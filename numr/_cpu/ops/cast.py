"""CPU implementation of the cast op family (see numr/ops/traits/cast.py).

One strided N-d copy-with-cast kernel (numr/_cpu/kernels/copy.pyx, copy_cast.h) covers every
ordered pair of dtypes; the conversion rules are in docs/architecture.md "Dtype rules".
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ... import dtypes as dt
from ...dtypes import DType
from ...errors import DTypeError
from ...layout import Layout, coalesce
from ...ops import prepare
from ...tensor import Tensor
from .. import storage
from ..kernels import copy as _k

_I64 = (-(1 << 63), 1 << 63)
_U64_END = 1 << 64
_INT_RANGE = {d.code: (int(np.iinfo(d.np).min), int(np.iinfo(d.np).max)) for d in dt.INTEGER_DTYPES}


def scalar_source(op: str, value: Any, dtype: DType) -> tuple[int, Any]:
    """A Python scalar as (source dtype code, value) for the fill kernel, checking that an
    integer fits an integer ``dtype`` (floats follow the cast rule: saturate, NaN -> 0)."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, bool):
        return dt.bool_.code, value
    if isinstance(value, int):
        if dtype.is_integer:
            lo, hi = _INT_RANGE[dtype.code]
            if not lo <= value <= hi:
                raise DTypeError(f"{op}: value {value} is out of range for {dtype} [{lo}, {hi}]")
        if _I64[0] <= value < _I64[1]:
            return dt.int64.code, value
        if 0 <= value < _U64_END:
            return dt.uint64.code, value
        if dtype is dt.bool_:
            return dt.bool_.code, True
        try:
            return dt.float64.code, float(value)
        except OverflowError:
            return dt.float64.code, float("inf") if value > 0 else float("-inf")
    if isinstance(value, float):
        return dt.float64.code, value
    if isinstance(value, complex):
        return dt.complex128.code, value
    raise DTypeError(f"{op}: cannot use a value of type {type(value).__name__} as a scalar")


def run_copy(dst: Tensor, dlay: Layout, src: Tensor, slay: Layout) -> None:
    """Launch the copy kernel for layouts of the same shape (no checks)."""
    shape, (dst_st, src_st) = coalesce(dlay.shape, dlay.strides, slay.strides)
    _k.copy_nd(src._storage, src.dtype.code, slay.offset, dst._storage, dst.dtype.code, dlay.offset,
               shape, src_st, dst_st)


def run_fill(x: Tensor, value: Any, op: str = "fill_", fresh: bool = False) -> None:
    """Fill the view x with a Python scalar; ``fresh``: x is a new contiguous tensor."""
    lay = x._layout
    code, v = scalar_source(op, value, x.dtype)
    n = lay.numel
    if n == 0:
        return
    if fresh:
        _k.fill_nd(x._storage, x.dtype.code, lay.offset, (n,), (1,), v, code)
        return
    shape, (st,) = coalesce(lay.shape, lay.strides)
    _k.fill_nd(x._storage, x.dtype.code, lay.offset, shape, st, v, code)


class CastCpu:
    """Mixin of CpuClient: dtype conversion and strided copies."""

    def cast(self, x: Tensor, dtype: Any) -> Tensor:
        """A new contiguous tensor of ``dtype`` holding x's values."""
        d, x, done = prepare.cast_input(self, x, dtype)
        if done:
            return x
        out = storage.empty(self.device, x.shape, d)
        n = out._layout.numel
        if n:
            xl = x._layout
            if xl.strides == out._layout.strides:  # contiguous source: one flat run, no coalescing
                _k.copy_nd(x._storage, x.dtype.code, xl.offset, out._storage, d.code, 0, (n,), (1,), (1,))
            else:
                run_copy(out, out._layout, x, xl)
        return out

    def copy_(self, dst: Tensor, src: Any) -> Tensor:
        """Write ``src`` (broadcast to dst's shape, cast to dst's dtype) into the view ``dst``.

        Overlapping source and destination memory gives the result of copying a snapshot
        of the source."""
        src, slay = prepare.copy_source(self, dst, src)
        if slay is None:
            run_fill(dst, src, "copy_")
            return dst
        dlay = dst._layout
        if dlay.numel == 0:
            return dst
        prepare.check_copy_destination(dst)
        sst, dstor = src._storage, dst._storage
        if sst is dstor and slay.offset == dlay.offset and slay.strides == dlay.strides:
            return dst
        if _k.overlaps(dstor, dst.dtype.code, *dlay.extent(), sst, src.dtype.code, *slay.extent()):
            tmp = storage.empty(self.device, src.shape, src.dtype)
            run_copy(tmp, tmp._layout, src, src._layout)
            src, slay = tmp, tmp._layout.expand(dlay.shape) if tmp.shape != dlay.shape else tmp._layout
        run_copy(dst, dlay, src, slay)
        return dst
