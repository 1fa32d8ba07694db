"""wgpu unary ops: one WGSL section per op and compute class (unary.wgsl)."""

from __future__ import annotations

from typing import Any

from ...ops import prepare
from ...tensor import Tensor
from .binary import run_op

OPS = ("neg abs sign sqrt rsqrt square cbrt reciprocal exp exp2 expm1 log log2 log10 log1p sin cos tan asin "
       "acos atan sinh cosh tanh asinh acosh atanh floor ceil round trunc isnan isinf isfinite bitwise_not").split()


def unary(client: Any, op: str, x: Any) -> Tensor:
    x, compute, out = prepare.unary(op, client, x)
    return run_op(client, op, "unary.wgsl", [x], x.shape, compute, out)


def _method(op: str):
    def f(self, x: Any) -> Tensor:
        return unary(self, op, x)
    f.__name__ = f.__qualname__ = op
    f.__doc__ = f"{op}(x) on the GPU."
    return f


class UnaryWgpu:
    """Mixin of WgpuClient: the unary ops."""


for _op in OPS:
    setattr(UnaryWgpu, _op, _method(_op))
