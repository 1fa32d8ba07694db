"""wgpu binary ops (and fma): broadcasting, strided inputs, one kernel per op and dtype."""

from __future__ import annotations

from typing import Any

from ...errors import UnsupportedDType
from ...ops import prepare, prepare_mathx
from ...tensor import Tensor
from .. import launch
from .. import template as tpl

BODY = {1: "st_o(k.x, op(ld_a(k.y)));", 2: "st_o(k.x, op(ld_a(k.y), ld_b(k.z)));",
        3: "st_o(k.x, op(ld_a(k.y), ld_b(k.z), ld_c(k.w)));"}


def parts_for(client: Any, fname: str, op: str, k: tpl.Kind, d: Any) -> list[str]:
    """The constants section (float classes) and the op's section for kind ``k``."""
    part = launch.section(client, fname, op, k, op, d)
    return [tpl.find("common.wgsl", "consts", k.cls) or "", part]  # consts holds the float helpers too


def run_op(client: Any, op: str, fname: str, ins: list[Tensor], shape: tuple, compute: Any, out_dtype: Any) -> Tensor:
    """Run section ``op`` of ``fname`` over same-dtype inputs broadcast to ``shape``."""
    k = launch.kind(client, compute, op)
    parts = parts_for(client, fname, op, k, compute)
    out = client.empty(shape, out_dtype)
    body = BODY[len(ins)]
    return launch.elementwise(client, (op,), out, ins, lambda: {"body": body, "parts": parts})


def binary(client: Any, op: str, operands: list[Any]) -> Tensor:
    ins, shape, compute, out_dtype = prepare.elementwise(op, client, operands)
    if op == "pow" and compute.kind == "f" and compute.itemsize <= 4 and "shader-f64" in client.gpu.features:
        # float32 pow through float64 exp/log: the driver's exp2(b*log2(a)) loses digits
        launch.kind(client, compute, op)
        parts = [tpl.find("common.wgsl", "consts", "d"),
                 tpl.find("binary.wgsl", "pow_wide", "f")]
        out = client.empty(shape, out_dtype)
        return launch.elementwise(client, ("pow_wide",), out, ins, lambda: {"body": BODY[2], "parts": parts})
    return run_op(client, op, "binary.wgsl", ins, shape, compute, out_dtype)


class BinaryWgpu:
    """Mixin of WgpuClient: the binary ops."""

    def add(self, a: Any, b: Any) -> Tensor: return binary(self, "add", [a, b])
    def sub(self, a: Any, b: Any) -> Tensor: return binary(self, "sub", [a, b])
    def mul(self, a: Any, b: Any) -> Tensor: return binary(self, "mul", [a, b])
    def div(self, a: Any, b: Any) -> Tensor: return binary(self, "div", [a, b])
    def floor_divide(self, a: Any, b: Any) -> Tensor: return binary(self, "floor_divide", [a, b])
    def remainder(self, a: Any, b: Any) -> Tensor: return binary(self, "remainder", [a, b])
    def pow(self, a: Any, b: Any) -> Tensor: return binary(self, "pow", [a, b])
    def maximum(self, a: Any, b: Any) -> Tensor: return binary(self, "maximum", [a, b])
    def minimum(self, a: Any, b: Any) -> Tensor: return binary(self, "minimum", [a, b])
    def atan2(self, a: Any, b: Any) -> Tensor: return binary(self, "atan2", [a, b])
    def hypot(self, a: Any, b: Any) -> Tensor: return binary(self, "hypot", [a, b])
    def bitwise_and(self, a: Any, b: Any) -> Tensor: return binary(self, "bitwise_and", [a, b])
    def bitwise_or(self, a: Any, b: Any) -> Tensor: return binary(self, "bitwise_or", [a, b])
    def bitwise_xor(self, a: Any, b: Any) -> Tensor: return binary(self, "bitwise_xor", [a, b])
    def fma(self, a: Any, b: Any, c: Any) -> Tensor: return binary(self, "fma", [a, b, c])
    def fmod(self, a: Any, b: Any) -> Tensor: return binary(self, "fmod", [a, b])
    def copysign(self, a: Any, b: Any) -> Tensor: return binary(self, "copysign", [a, b])
    def gcd(self, a: Any, b: Any) -> Tensor: return binary(self, "gcd", [a, b])
    def lcm(self, a: Any, b: Any) -> Tensor: return binary(self, "lcm", [a, b])

    def nextafter(self, a: Any, b: Any) -> Tensor:
        """Steps the float32 bit pattern (float64 through frexp); half types would step float32's."""
        ins, shape, compute, out = prepare.elementwise("nextafter", self, [a, b])
        if compute.name in prepare_mathx.LOWP:
            raise UnsupportedDType("wgpu", "nextafter", compute, "the kernel steps float32 bit patterns")
        return run_op(self, "nextafter", "binary.wgsl", ins, shape, compute, out)

    def ldexp(self, x: Any, n: Any) -> Tensor:
        ins, shape, compute, out = prepare_mathx.ldexp(self, x, n)
        r = run_op(self, "ldexp", "binary.wgsl", ins, shape, compute, compute)
        return r if out is compute else self.cast(r, out)
