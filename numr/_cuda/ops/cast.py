"""CUDA casts and strided copies (kernels/cast.cu): one kernel per (source, destination) dtype pair."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from ... import dtypes as dt
from ...dtypes import DType
from ...errors import DTypeError
from ...layout import Layout
from ...ops import prepare
from ...ops.prepare import SCALAR_TYPES
from ...tensor import Tensor
from ..launch import BLOCK, elementwise_layout, i64, ptr
from ._base import grid


def scalar_value(op: str, value: Any, d: DType) -> np.ndarray:
    """A Python scalar converted to ``d`` by numr's cast rule (NaN -> 0 and saturation for
    integers, x != 0 for bool, real part for real types), as a 1-element host array."""
    if isinstance(value, np.generic):
        value = value.item()
    if not isinstance(value, SCALAR_TYPES):
        raise DTypeError(f"{op}: cannot use a value of type {type(value).__name__} as a scalar")
    if d.is_integer and isinstance(value, int) and not isinstance(value, bool):
        info = np.iinfo(d.np)
        if not info.min <= value <= info.max:
            raise DTypeError(f"{op}: value {value} is out of range for {d} [{info.min}, {info.max}]")
    if d is dt.bool_:
        v: Any = value != 0
    elif d.is_complex:
        v = complex(value)
    else:
        if isinstance(value, complex):
            value = value.real
        if d.is_integer and isinstance(value, float):
            info = np.iinfo(d.np)
            v = 0 if value != value else int(max(min(value, float(info.max)), float(info.min)))
            v = max(min(v, int(info.max)), int(info.min))
        else:
            v = value
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        if d.kind == "f" and isinstance(v, int) and not isinstance(v, bool):
            v = float(v) if abs(v) < 2 ** 1023 else (float("inf") if v > 0 else float("-inf"))
        return np.array([v], dtype=d.np)


def value_arg(op: str, value: Any, d: DType) -> Any:
    """The scalar as a kernel argument of type T (its bytes, padded)."""
    import ctypes
    raw = scalar_value(op, value, d).tobytes().ljust(16, b"\0")
    return (ctypes.c_uint8 * 16).from_buffer_copy(raw)


def run_copy(client: Any, dst: Tensor, dlay: Layout, src: Tensor, slay: Layout) -> None:
    """Launch to_<dst dtype>_<src dtype> over layouts of the same shape."""
    n = dlay.numel
    if n == 0:
        return
    d_view = Tensor(dst._storage, dlay, dst.dtype, dst.device)
    s_view = Tensor(src._storage, slay, src.dtype, src.device)
    sh, (so, sa) = elementwise_layout(dlay.shape, d_view, s_view)
    client._st.run("cast", src.dtype.code, f"to_{dst.dtype.name}_{src.dtype.name}", grid(client, n), BLOCK,
                   [ptr(d_view), so, ptr(s_view), sa, sh, i64(n)])


def _overlap(a: Layout, b: Layout, ia: int, ib: int) -> bool:
    lo_a, hi_a = a.extent()
    lo_b, hi_b = b.extent()
    return lo_a * ia < hi_b * ib and lo_b * ib < hi_a * ia


class CastCuda:
    """Mixin of CudaClient: cast and copy_."""

    def cast(self, x: Any, dtype: Any) -> Tensor:
        """A new contiguous tensor of ``dtype`` holding x's values."""
        d, x, done = prepare.cast_input(self, x, dtype)
        if done:
            return x
        out = self.empty(x.shape, d)
        run_copy(self, out, out._layout, x, x._layout)
        return out

    def copy_(self, dst: Tensor, src: Any) -> Tensor:
        """Write ``src`` (broadcast to dst's shape, cast to dst's dtype) into the view ``dst``;
        overlapping memory gives the result of copying a snapshot of the source."""
        src, slay = prepare.copy_source(self, dst, src)
        if slay is None:
            return self.fill_(dst, src)
        dlay = dst._layout
        if dlay.numel == 0:
            return dst
        prepare.check_copy_destination(dst)
        if src._storage is dst._storage:
            if slay.offset == dlay.offset and slay.strides == dlay.strides and src.dtype is dst.dtype:
                return dst
            if _overlap(dlay, slay, dst.dtype.itemsize, src.dtype.itemsize):
                tmp = self.empty(src.shape, src.dtype)
                run_copy(self, tmp, tmp._layout, src, src._layout)
                src, slay = tmp, tmp._layout.expand(dlay.shape) if tmp.shape != dlay.shape else tmp._layout
        run_copy(self, dst, dlay, src, slay)
        return dst
