"""wgpu unary ops: one WGSL section per op and compute class (unary.wgsl)."""

from __future__ import annotations

from typing import Any

from ... import dtypes as dt
from ...ops import prepare, prepare_mathx
from ...tensor import Tensor
from .. import launch
from .. import template as tpl
from .binary import BODY, run_op

OPS = ("neg abs sign sqrt rsqrt square cbrt reciprocal exp exp2 expm1 log log2 log10 log1p sin cos tan asin "
       "acos atan sinh cosh tanh asinh acosh atanh floor ceil round trunc isnan isinf isfinite bitwise_not "
       "signbit").split()


#: float32 ops computed through the float64 library when the adapter has shader-f64: the
#: driver's 32-bit builtins are a few ulp off (and sin/cos of large arguments far off)
WIDE = frozenset("cbrt exp exp2 expm1 log log2 log10 log1p sin cos tan asin acos atan sinh cosh tanh asinh acosh "
                 "atanh".split())


def unary(client: Any, op: str, x: Any) -> Tensor:
    x, compute, out = prepare.unary(op, client, x)
    if (op in WIDE and compute.kind == "f" and compute.itemsize <= 4 and "shader-f64" in client.gpu.features):
        k = launch.kind(client, compute, op)
        parts = [tpl.find("common.wgsl", "consts", "d"), tpl.find("unary.wgsl", op, "d")]
        res = client.empty(x.shape, out)
        body = "st_o(k.x, f32(op(f64(ld_a(k.y)))));"
        return launch.elementwise(client, (op, "wide"), res, [x],
                                  lambda: {"body": body, "parts": parts, "aliases": {"T": "f64", "TO": "f64"}},
                                  kinds=[launch.kind(client, out, op), k])
    return run_op(client, op, "unary.wgsl", [x], x.shape, compute, out)


def _method(op: str):
    def f(self, x: Any) -> Tensor:
        return unary(self, op, x)
    f.__name__ = f.__qualname__ = op
    f.__doc__ = f"{op}(x) on the GPU."
    return f


class UnaryWgpu:
    """Mixin of WgpuClient: the unary ops."""

    def frexp(self, x: Any) -> tuple[Tensor, Tensor]:
        """Two passes of unary.wgsl: the mantissa (frexp_m), the int32 exponent (frexp_e)."""
        x, out = prepare_mathx.frexp(self, x)
        m = run_op(self, "frexp_m", "unary.wgsl", [x], x.shape, x.dtype, out)
        return m, run_op(self, "frexp_e", "unary.wgsl", [x], x.shape, x.dtype, dt.int32)

    def nan_to_num(self, x: Any, nan: float = 0.0, posinf: float | None = None,
                   neginf: float | None = None) -> Tensor:
        """One pass; the three values are uniform parameters in the compute float."""
        def run(x: Tensor, vals: tuple) -> Tensor:
            k = launch.kind(self, x.dtype, "nan_to_num")
            parts = [tpl.find("common.wgsl", "consts", k.cls) or "",
                     launch.section(self, "unary.wgsl", "nan_to_num", k, "nan_to_num", x.dtype)]
            fields = [(n, k.ct) for n in ("vn", "vp", "vm")]
            out = self.empty(x.shape, x.dtype)
            return launch.elementwise(self, ("nan_to_num",), out, [x],
                                      lambda: {"body": BODY[1], "parts": parts, "fields": fields},
                                      values=dict(zip(("vn", "vp", "vm"), vals, strict=True)))
        return prepare_mathx.nan_to_num(self, x, nan, posinf, neginf, run)


for _op in OPS:
    setattr(UnaryWgpu, _op, _method(_op))
