"""CUDA binary ops and fma (kernels/binary.cu); promotion and broadcasting by numr.ops.prepare."""

from __future__ import annotations

from typing import Any

from ...ops import prepare
from ...tensor import Tensor
from ._base import ew


def binary(client: Any, family: str, op: str, operands: list[Any]) -> Tensor:
    """Shared driver of binary, compare and logical ops: prepare, allocate, launch."""
    inputs, shape, compute, out_dtype = prepare.elementwise(op, client, operands)
    out = client.empty(shape, out_dtype)
    return ew(client, family, compute, op, out, inputs)


def _make(op: str):
    def f(self: Any, a: Any, b: Any) -> Tensor:
        return binary(self, "binary", op, [a, b])

    f.__name__ = op
    f.__doc__ = f"{op} on the GPU (kernels/binary.cu)."
    return f


class BinaryCuda:
    """Mixin of CudaClient: the binary ops."""

    for _op in ("add sub mul div floor_divide remainder pow maximum minimum atan2 hypot bitwise_and bitwise_or "
                "bitwise_xor").split():
        locals()[_op] = _make(_op)
    del _op

    def fma(self, a: Any, b: Any, c: Any) -> Tensor:
        """a * b + c with one rounding for floats (fma_<dtype> kernel)."""
        return binary(self, "binary", "fma", [a, b, c])
