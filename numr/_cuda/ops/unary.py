"""CUDA unary ops (kernels/unary.cu): one kernel per op and dtype."""

from __future__ import annotations

from typing import Any

from ...ops import prepare
from ...tensor import Tensor
from ._base import ew


def _unary(client: Any, op: str, x: Any) -> Tensor:
    x, compute, out_dtype = prepare.unary(op, client, x)
    out = client.empty(x.shape, out_dtype)
    return ew(client, "unary", compute, op, out, [x])


def _make(op: str):
    def f(self: Any, x: Tensor) -> Tensor:
        return _unary(self, op, x)

    f.__name__ = op
    f.__doc__ = f"{op} on the GPU (kernels/unary.cu)."
    return f


class UnaryCuda:
    """Mixin of CudaClient: the unary ops."""

    for _op in ("neg abs sign sqrt rsqrt square cbrt reciprocal exp exp2 expm1 log log2 log10 log1p sin cos tan "
                "asin acos atan sinh cosh tanh asinh acosh atanh floor ceil round trunc isnan isinf isfinite "
                "bitwise_not signbit").split():
        locals()[_op] = _make(_op)
    del _op
