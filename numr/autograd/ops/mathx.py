"""Autograd of the element-wise math extras (torch's rules). Native ops: copysign (d/da = sign
agreement, 0 at a == 0; d/db = 0), fmod (like remainder: d/db = -trunc(a/b)), ldexp (2**n),
nan_to_num (1 where x is finite, 0 where replaced); nextafter is piecewise constant (a constant
result), gcd/lcm/signbit/frexp return plain tensors (integer or bool results; frexp as torch's
exponent, the mantissa too). The composites of numr/ops/generic/mathx.py (logaddexp, float_power,
deg2rad, ...) are registered as they are: the traced input flows through their parts."""

from __future__ import annotations

from typing import Any

import numr as nr

from ...ops.generic.mathx import COMPOSITES
from ..var import Var
from ._common import record, register, tensor_call
from .elementwise import BINARY, _make_binary, _z


def _copysign(g, a, b, y, need):
    return (nr.where(a == 0, _z(g), g * (y / a)) if need[0] else None), None


def _fmod(g, a, b, y, need):
    return g, (-g * nr.trunc(a / b) if need[1] else None)


def _ldexp(g, a, n, y, need):
    return (nr.ldexp(g, n) if need[0] else None), None


BINARY.update({"copysign": (_copysign, True, True), "fmod": (_fmod, True, False),
               "ldexp": (_ldexp, True, False)})
for _n in ("copysign", "fmod", "ldexp"):
    register(_n)(_make_binary(_n))

#: rules computed by the forward-mode tracer from the reverse ones (numr/autograd/forward.py)
ELEMENTWISE = frozenset("copysign fmod ldexp nan_to_num".split())
#: integer/bool results: plain tensors in both modes
NON_DIFF = frozenset("gcd lcm signbit frexp".split())
#: float results with zero derivative: constants
ZERO = frozenset("nextafter".split())


def _nan_to_num_vjp(g, args, out, need, extra):
    return [nr.where(nr.isfinite(args[0]), g, _z(g))]


@register("nan_to_num")
def var_nan_to_num(x: Any, nan: float = 0.0, posinf: float | None = None, neginf: float | None = None) -> Any:
    """nan_to_num recording grad * isfinite(x) (torch's rule)."""
    out = tensor_call("nan_to_num", (x, nan, posinf, neginf))
    return record("nan_to_num", (x,), out, _nan_to_num_vjp)


def _plain(name: str):
    def f(*args: Any, **kwargs: Any) -> Any:
        return tensor_call(name, args, kwargs)
    f.__name__ = f"var_{name}"
    return f


def _constant(name: str):
    def f(*args: Any, **kwargs: Any) -> Any:
        return Var.constant(tensor_call(name, args, kwargs))
    f.__name__ = f"var_{name}"
    return f


for _n in NON_DIFF:
    register(_n)(_plain(_n))
for _n in ZERO:
    register(_n)(_constant(_n))
for _n, _fn in COMPOSITES.items():
    register(_n)(_fn)
