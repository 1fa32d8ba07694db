"""CPU implementation of the logical op family (see numr/ops/traits/logical.py).

The kernels read each operand as a truth value (x != 0, NaN is true) in its
own promoted dtype, so non-bool inputs are not cast to bool first.
"""

from __future__ import annotations

from typing import Any

from ... import dtypes as dt
from ...ops import prepare
from ...tensor import Tensor
from ..kernels import binary as _kb
from ..kernels import unary as _ku
from .binary import general, make_binary
from .unary import run_unary

_NOT = _ku.OPS["logical_not"]


def _make_logical(name: str):
    code = _kb.OPS[name]
    fast = make_binary(name)

    def method(self: Any, a: Any, b: Any) -> Tensor:
        if a.__class__ is Tensor and b.__class__ is Tensor and a.dtype is dt.bool_ and b.dtype is dt.bool_:
            return fast(self, a, b)
        common = prepare.promoted(name, [prepare.to_operand(name, self, x) for x in (a, b)])
        return general(self, name, code, (a, b), compute=common, out_dtype=dt.bool_)

    method.__name__ = method.__qualname__ = name
    return method


class LogicalCpu:
    """Mixin of CpuClient: the logical ops (bool results)."""

    logical_and = _make_logical("logical_and")
    logical_or = _make_logical("logical_or")
    logical_xor = _make_logical("logical_xor")

    def logical_not(self, x: Any) -> Tensor:
        """not x (x == 0), for every dtype."""
        x = prepare.as_tensor("logical_not", self, x)
        return run_unary(self, "logical_not", _NOT, x, x.dtype, dt.bool_)
