"""CPU implementation of the unary op family (see numr/ops/traits/unary.py).

Each op is one kernel of numr/_cpu/kernels/unary.pyx (unary_ops.h,
unary_complex.h; float32 exp/log/sin/cos/tanh/expm1/log1p are the vectorised
vmath.h ones). Dtype rules come from numr.ops.dtype_rules via
``prepare.unary``; strided, offset and flipped inputs are read in place.
"""

from __future__ import annotations

from typing import Any

from ... import dtypes as dt
from ...dtypes import DType
from ...errors import UnsupportedDType
from ...layout import Layout, coalesce, coalesce_in_order, result_strides
from ...ops import dtype_rules, prepare, prepare_mathx
from ...tensor import Tensor
from .. import storage
from ..kernels import binary as _kb
from ..kernels import unary as _ku
from .binary import dense, launch

_allocate = storage.allocate
# (op code, dtype) -> result dtype when the input needs no cast
_SAME: dict[tuple[int, int], DType] = {}  # keyed by dtype code (DType.__hash__ is Python code)


def _fast_dtype(name: str, code: int, d: DType) -> DType | None:
    try:
        compute, out = dtype_rules.unary_dtypes(name, d)
    except Exception:
        return None
    if compute is not d or not _ku.supported(code, d.code):
        return None
    _SAME[code, d.code] = out
    return out


def run_unary(client: Any, name: str, code: int, x: Tensor, compute: DType, out_dtype: DType) -> Tensor:
    """out = op(x) for x already in the compute dtype."""
    lay = x._layout
    shape = lay.shape
    strides, n = dense(shape)
    dense_in = lay.strides == strides
    if not dense_in:  # a permuted dense input (x.T) gives a result in its memory order
        strides = result_strides(shape, [lay.strides])
    out = Tensor(_allocate(n, out_dtype), Layout(shape, strides, 0), out_dtype, client.device)
    if n == 0:
        if not _ku.supported(code, compute.code):
            raise UnsupportedDType("cpu", name, compute)
        return out
    if dense_in:
        cshape, xs, os = (n,), (1,), (1,)
    else:
        cshape, (xs, os) = coalesce_in_order(shape, strides, lay.strides, strides)
    if _ku.run(code, compute.code, x._storage, lay.offset, out._storage, 0, cshape, xs, os) < 0:
        raise UnsupportedDType("cpu", name, compute)
    return out


def make_unary(name: str):
    """A client method for unary op ``name`` (fast path: a tensor needing no cast)."""
    code = _ku.OPS[name]

    def method(self: Any, x: Any) -> Tensor:
        if x.__class__ is Tensor and x.device is self.device:
            d = x.dtype
            od = _SAME.get((code, d.code)) or _fast_dtype(name, code, d)
            if od is not None:
                return run_unary(self, name, code, x, d, od)
        x, compute, out = prepare.unary(name, self, x)
        return run_unary(self, name, code, x, compute, out)

    method.__name__ = method.__qualname__ = name
    return method


class UnaryCpu:
    """Mixin of CpuClient: the unary ops."""

    neg = make_unary("neg")
    abs = make_unary("abs")
    sign = make_unary("sign")
    sqrt = make_unary("sqrt")
    rsqrt = make_unary("rsqrt")
    square = make_unary("square")
    cbrt = make_unary("cbrt")
    reciprocal = make_unary("reciprocal")
    exp = make_unary("exp")
    exp2 = make_unary("exp2")
    expm1 = make_unary("expm1")
    log = make_unary("log")
    log2 = make_unary("log2")
    log10 = make_unary("log10")
    log1p = make_unary("log1p")
    sin = make_unary("sin")
    cos = make_unary("cos")
    tan = make_unary("tan")
    asin = make_unary("asin")
    acos = make_unary("acos")
    atan = make_unary("atan")
    sinh = make_unary("sinh")
    cosh = make_unary("cosh")
    tanh = make_unary("tanh")
    asinh = make_unary("asinh")
    acosh = make_unary("acosh")
    atanh = make_unary("atanh")
    floor = make_unary("floor")
    ceil = make_unary("ceil")
    round = make_unary("round")
    trunc = make_unary("trunc")
    isnan = make_unary("isnan")
    isinf = make_unary("isinf")
    isfinite = make_unary("isfinite")
    bitwise_not = make_unary("bitwise_not")
    signbit = make_unary("signbit")

    def nan_to_num(self, x: Any, nan: float = 0.0, posinf: float | None = None,
                   neginf: float | None = None) -> Tensor:
        """NaN/+inf/-inf replaced in one pass (binary_mathx.h; the values as one stride-0 operand)."""
        def run(x: Tensor, vals: tuple) -> Tensor:
            ve = prepare_mathx.values_tensor(self, x, vals)[1]
            return launch(self, "nan_to_num", _kb.OPS["nan_to_num"], [x, ve], x.shape, x.dtype, x.dtype)
        return prepare_mathx.nan_to_num(self, x, nan, posinf, neginf, run)

    def frexp(self, x: Any) -> tuple[Tensor, Tensor]:
        """(mantissa, int32 exponent) in one pass (binary_mathx.h: one input, two outputs)."""
        x, out = prepare_mathx.frexp(self, x)
        shape = x.shape
        strides, n = dense(shape)
        m = Tensor(_allocate(n, out), Layout(shape, strides, 0), out, self.device)
        e = Tensor(_allocate(n, dt.int32), Layout(shape, strides, 0), dt.int32, self.device)
        code = _kb.OPS["frexp"]
        if n and _kb.supported(code, x.dtype.code):
            cshape, cst = coalesce(shape, x._layout.strides, strides, strides)
            _kb.run(code, x.dtype.code, [x._storage, m._storage, e._storage], [x._layout.offset, 0, 0], cshape, cst)
        elif not _kb.supported(code, x.dtype.code):
            raise UnsupportedDType("cpu", "frexp", x.dtype)
        return m, e
