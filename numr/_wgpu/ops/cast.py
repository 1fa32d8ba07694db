"""wgpu cast and copy_: strided copies (raw bits when dtypes match) and conversions."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...dtypes import DType
from ...errors import ShapeError, UnsupportedDType
from ...ops import prepare
from ...ops.prepare import check_device
from ...tensor import Tensor
from .. import launch
from .. import template as tpl

FLOAT = "fd"
WIDE = "lm"


def convert_fn(src: tpl.Kind, dst: tpl.Kind, dst_dtype: DType, name: str = "cvt") -> str:
    """WGSL ``fn name(x: src.ct) -> dst.ct`` with numr's conversion rules: NaN -> 0 and
    saturation for float -> int, ``x != 0`` for -> bool, wrapping between integers."""
    s, d, S, D = src.cls, dst.cls, src.ct, dst.ct
    head = f"fn {name}(x: {S}) -> {D} {{ "
    if d == "b":
        zero = f"{S}(0)"
        return head + f"return select(0u, 1u, !(x == {zero})); }}\n"
    if s == "d" and dst.name == "float16":
        # round to odd in float32 first, so that the final rounding to 16 bits is correct
        return (head + "var r = f32(x); if (!(x == x)) { return r; } "
                "if (abs(f64(r)) > abs(x)) { r = bitcast<f32>(bitcast<u32>(r) - 1u); } "
                "if (!(f64(r) == x)) { r = bitcast<f32>(bitcast<u32>(r) | 1u); } return r; }\n")
    if d in FLOAT or dst.conv == "bf16":
        return head + f"return {D}(x); }}\n"
    if s in FLOAT:
        info = np.iinfo(dst_dtype.np)
        bits = dst_dtype.itemsize * 8
        suf = {"i": "i", "u": "u", "l": "li", "m": "lu"}[d]
        lo_lit = f"({info.min + 1}{suf} - 1{suf})" if info.min < 0 else f"0{suf}"
        hi_f = float(2 ** (bits - 1) if info.min < 0 else 2 ** bits)
        lo_test = f"x <= {S}({-hi_f!r})" if info.min < 0 else f"x <= {S}(0)"
        return (head + f"if (!(x == x)) {{ return {D}(0); }} if (x >= {S}({hi_f!r})) {{ return {info.max}{suf}; }} "
                f"if ({lo_test}) {{ return {lo_lit}; }} return {D}(x); }}\n")
    # integer/bool -> integer: widen with the source's signedness, then wrap
    if s in WIDE or d in WIDE:
        wide = "i64" if s in "il" else "u64"
        return head + f"return {D}({wide}(x)); }}\n"
    return head + f"return {D}(x); }}\n"


def _check_w64(dst: DType, src: DType) -> None:
    """Casts that stay exact with int64 widened to two words (no shader-int64): to narrower
    integers (low bits), and from integers whose values the 32-bit compute holds."""
    if dst.itemsize == 8:
        ok = src.kind == "b" or (src.kind == "i" and dst.kind == "i") or (src.kind == "u" and src.itemsize <= 4
                                                                           and (dst.kind == "u" or src.itemsize < 4))
    else:
        ok = dst.kind in "biu"
    if not ok:
        raise UnsupportedDType("wgpu", "cast", dst if dst.itemsize == 8 else src,
                               f"{src} -> {dst} needs 64-bit arithmetic (the adapter lacks shader-int64)")


class CastWgpu:
    """Mixin of WgpuClient: cast and copy_."""

    def cast(self, x: Tensor, dtype: DType) -> Tensor:
        dtype, x, done = prepare.cast_input(self, x, dtype)
        if done:
            return x
        out = self.empty(x.shape, dtype)
        return self.copy_(out, x)

    def copy_(self, dst: Tensor, src: Any) -> Tensor:
        """Write src (broadcast to dst's shape, converted to dst's dtype) into the view dst."""
        from ...ops.prepare import SCALAR_TYPES, to_operand
        src = to_operand("copy_", self, src)
        if isinstance(src, SCALAR_TYPES):
            return self.fill_(dst, src)
        check_device("copy_", self, dst, src)
        if src.shape != dst.shape:
            try:
                src = src.broadcast_to(dst.shape)
            except ShapeError:
                raise ShapeError(f"copy_: source of shape {src.shape} cannot be broadcast to the destination "
                                 f"shape {dst.shape}") from None
        prepare.check_copy_destination(dst)
        if src.dtype is dst.dtype:
            if src._storage is dst._storage and src._layout.offset == dst._layout.offset \
                    and src.strides == dst.strides:
                return dst
            launch.kind(self, dst.dtype, "copy_")
            kb = tpl.bits_kind(dst.dtype)
            return launch.elementwise(self, ("copy_", "bits"), dst, [src],
                                      lambda: {"body": tpl.sections("creation.wgsl")["copy"]}, kinds=[kb, kb])
        ko = launch.kind(self, dst.dtype, "cast")
        ki = launch.kind(self, src.dtype, "cast")
        if ko.conv == "w64" or ki.conv == "w64":
            if {dst.dtype.name, src.dtype.name} <= {"int64", "uint64"}:  # same bits
                kb = tpl.bits_kind(dst.dtype)
                return launch.elementwise(self, ("copy_", "bits"), dst, [src],
                                          lambda: {"body": tpl.sections("creation.wgsl")["copy"]}, kinds=[kb, kb])
            _check_w64(dst.dtype, src.dtype)
        return launch.elementwise(
            self, ("cast", dst.dtype.name), dst, [src],
            lambda: {"body": tpl.sections("creation.wgsl")["convert"], "parts": [convert_fn(ki, ko, dst.dtype)]},
            kinds=[ko, ki])
