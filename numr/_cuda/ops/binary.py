"""CUDA binary ops and fma (kernels/binary.cu); promotion and broadcasting by numr.ops.prepare."""

from __future__ import annotations

from typing import Any

from ... import dtypes as dt
from ...errors import UnsupportedDType
from ...ops import prepare, prepare_mathx
from ...tensor import Tensor
from ..launch import f64
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
                "bitwise_xor fmod copysign gcd lcm").split():
        locals()[_op] = _make(_op)
    del _op

    def fma(self, a: Any, b: Any, c: Any) -> Tensor:
        """a * b + c with one rounding for floats (fma_<dtype> kernel)."""
        return binary(self, "binary", "fma", [a, b, c])

    def nextafter(self, a: Any, b: Any) -> Tensor:
        """C nextafter in float32/float64; half types would step float32's pattern: unsupported."""
        ins, shape, compute, out = prepare.elementwise("nextafter", self, [a, b])
        if compute.name in prepare_mathx.LOWP:
            raise UnsupportedDType("cuda", "nextafter", compute, "the kernel steps float32/float64 patterns")
        return ew(self, "binary", compute, "nextafter", self.empty(shape, out), ins)

    def ldexp(self, x: Any, n: Any) -> Tensor:
        """x * 2**n (the exponent converted to the compute float, exact there)."""
        ins, shape, compute, out = prepare_mathx.ldexp(self, x, n)
        r = ew(self, "binary", compute, "ldexp", self.empty(shape, compute), ins)
        return r if out is compute else self.cast(r, out)

    def nan_to_num(self, x: Any, nan: float = 0.0, posinf: float | None = None,
                   neginf: float | None = None) -> Tensor:
        """One pass; the three values are kernel arguments (doubles, rounded to the dtype once)."""
        def run(x: Tensor, vals: tuple) -> Tensor:
            return ew(self, "binary", x.dtype, "nan_to_num", self.empty(x.shape, x.dtype), [x],
                      [f64(v) for v in vals])
        return prepare_mathx.nan_to_num(self, x, nan, posinf, neginf, run)

    def frexp(self, x: Any) -> tuple[Tensor, Tensor]:
        """One pass with two outputs: the mantissa and the int32 exponent."""
        x, out = prepare_mathx.frexp(self, x)
        m, e = self.empty(x.shape, out), self.empty(x.shape, dt.int32)
        ew(self, "binary", x.dtype, "frexp", m, [e, x])
        return m, e
