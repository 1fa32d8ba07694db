"""Element-wise ops: unary math, binary arithmetic, where, clamp, cast.

Each gradient rule ``(g, x, y) -> gx`` multiplies by the (diagonal) derivative,
so the same rule serves reverse mode (g = output gradient) and forward mode
(g = input tangent)."""

from __future__ import annotations

import math
from typing import Any

import numr as nr

from ... import dtypes as dt
from ._common import record, register, tensor_call

LN2, LN10 = math.log(2.0), math.log(10.0)

def _unit(z: Any) -> Any:
    """z / |z| (0 at 0) with its own gradient: nr.sign has none, which lost abs's second derivative."""
    m = nr.abs(z)
    zero = m == 0
    return nr.where(zero, 0, z / nr.where(zero, 1, m))


# name -> (rule(g, x, y), needs x, needs y)
UNARY: dict[str, tuple[Any, bool, bool]] = {
    "neg": (lambda g, x, y: -g, False, False),
    # complex x: g * conj(z / |z|) in numr's complex convention (docs/architecture.md)
    "abs": (lambda g, x, y: g * (nr.conj(_unit(x)) if x.dtype.is_complex else nr.sign(x)), True, False),
    "sqrt": (lambda g, x, y: g * 0.5 / y, False, True),
    "rsqrt": (lambda g, x, y: g * -0.5 * y * y * y, False, True),
    "square": (lambda g, x, y: g * 2.0 * x, True, False),
    "cbrt": (lambda g, x, y: g / (3.0 * y * y), False, True),
    "reciprocal": (lambda g, x, y: -g * y * y, False, True),
    "exp": (lambda g, x, y: g * y, False, True),
    "exp2": (lambda g, x, y: g * y * LN2, False, True),
    "expm1": (lambda g, x, y: g * (y + 1.0), False, True),
    "log": (lambda g, x, y: g / x, True, False),
    "log2": (lambda g, x, y: g / (x * LN2), True, False),
    "log10": (lambda g, x, y: g / (x * LN10), True, False),
    "log1p": (lambda g, x, y: g / (x + 1.0), True, False),
    "sin": (lambda g, x, y: g * nr.cos(x), True, False),
    "cos": (lambda g, x, y: -g * nr.sin(x), True, False),
    "tan": (lambda g, x, y: g * (y * y + 1.0), False, True),
    "asin": (lambda g, x, y: g * nr.rsqrt(1.0 - x * x), True, False),
    "acos": (lambda g, x, y: -g * nr.rsqrt(1.0 - x * x), True, False),
    "atan": (lambda g, x, y: g / (x * x + 1.0), True, False),
    "sinh": (lambda g, x, y: g * nr.cosh(x), True, False),
    "cosh": (lambda g, x, y: g * nr.sinh(x), True, False),
    "tanh": (lambda g, x, y: g * (1.0 - y * y), False, True),
    "asinh": (lambda g, x, y: g * nr.rsqrt(x * x + 1.0), True, False),
    "acosh": (lambda g, x, y: g * nr.rsqrt(x * x - 1.0), True, False),
    "atanh": (lambda g, x, y: g / (1.0 - x * x), True, False),
}
#: float-valued but piecewise constant: gradient zero, result does not require grad
ZERO_GRAD = frozenset("sign floor ceil round trunc floor_divide".split())


def _unary_vjp(name: str):
    rule = UNARY[name][0]

    def vjp(g, args, out, need, extra):
        return [rule(g, args[0], out)]
    return vjp


def _make_unary(name: str):
    rule, nx, ny = UNARY[name]
    vjp = _unary_vjp(name)

    def var_fn(x: Any) -> Any:
        out = tensor_call(name, (x,))
        return record(name, (x,), out, vjp, save_args=nx, save_out=ny)
    var_fn.__name__ = f"var_{name}"
    var_fn.__doc__ = f"{name}(x) recording its gradient."
    return var_fn


for _n in UNARY:
    globals()[f"var_{_n}"] = register(_n)(_make_unary(_n))


def _z(g: Any) -> Any:
    return g * 0.0


# binary rules: (g, a, b, y, need) -> (ga, gb); need says which gradients are wanted
def _add(g, a, b, y, need):
    return g, g


def _sub(g, a, b, y, need):
    return g, (-g if need[1] else None)


def _mul(g, a, b, y, need):
    return (g * b if need[0] else None), (g * a if need[1] else None)


def _div(g, a, b, y, need):
    return (g / b if need[0] else None), (-(g * a) / (b * b) if need[1] else None)


def _pow(g, a, b, y, need):
    ga = g * b * nr.pow(a, b - 1.0) if need[0] else None
    gb = None
    if need[1]:
        if isinstance(a, (int, float)):
            gb = g * y * math.log(a) if a > 0 else _z(g * y)
        else:
            gb = nr.where(a == 0, _z(g * y), g * y * nr.log(a))
    return ga, gb


def _maximum(g, a, b, y, need):
    ga = nr.where(a > b, g, nr.where(a == b, g * 0.5, _z(g))) if need[0] else None
    gb = nr.where(b > a, g, nr.where(a == b, g * 0.5, _z(g))) if need[1] else None
    return ga, gb


def _minimum(g, a, b, y, need):
    ga = nr.where(a < b, g, nr.where(a == b, g * 0.5, _z(g))) if need[0] else None
    gb = nr.where(b < a, g, nr.where(a == b, g * 0.5, _z(g))) if need[1] else None
    return ga, gb


def _atan2(g, a, b, y, need):
    d = a * a + b * b
    return (g * b / d if need[0] else None), (-(g * a) / d if need[1] else None)


def _hypot(g, a, b, y, need):
    return (g * a / y if need[0] else None), (g * b / y if need[1] else None)


def _remainder(g, a, b, y, need):
    return g, (-g * nr.floor_divide(a, b) if need[1] else None)


# name -> (rule, needs args, needs y)
BINARY: dict[str, tuple[Any, bool, bool]] = {
    "add": (_add, False, False), "sub": (_sub, False, False), "mul": (_mul, True, False),
    "div": (_div, True, False), "pow": (_pow, True, True), "maximum": (_maximum, True, False),
    "minimum": (_minimum, True, False), "atan2": (_atan2, True, False), "hypot": (_hypot, True, True),
    "remainder": (_remainder, True, False),
}


def _binary_vjp(name: str):
    rule = BINARY[name][0]

    def vjp(g, args, out, need, extra):
        return list(rule(g, args[0], args[1], out, need))
    return vjp


def _make_binary(name: str):
    _, sa, sy = BINARY[name]
    vjp = _binary_vjp(name)

    def var_fn(a: Any, b: Any) -> Any:
        out = tensor_call(name, (a, b))
        return record(name, (a, b), out, vjp, save_args=sa, save_out=sy)
    var_fn.__name__ = f"var_{name}"
    var_fn.__doc__ = f"{name}(a, b) recording its gradient (broadcast inputs get summed gradients)."
    return var_fn


for _n in BINARY:
    globals()[f"var_{_n}"] = register(_n)(_make_binary(_n))


def _fma_vjp(g, args, out, need, extra):
    a, b, _ = args
    return [g * b if need[0] else None, g * a if need[1] else None, g]


@register("fma")
def var_fma(a: Any, b: Any, c: Any) -> Any:
    return record("fma", (a, b, c), tensor_call("fma", (a, b, c)), _fma_vjp)


def _where_vjp(g, args, out, need, extra):
    cond = extra
    return [None, nr.where(cond, g, _z(g)) if need[1] else None, nr.where(cond, _z(g), g) if need[2] else None]


@register("where")
def var_where(cond: Any, a: Any, b: Any) -> Any:
    """a where cond else b; cond is not differentiable."""
    from ._common import unwrap
    c = unwrap(cond)
    return record("where", (c, a, b), tensor_call("where", (c, a, b)), _where_vjp, save_args=False, extra=c)


def _clamp_vjp(g, args, out, need, extra):
    x, lo, hi = args
    inside = None
    if lo is not None:
        inside = x >= lo
    if hi is not None:
        inside = (x <= hi) if inside is None else nr.logical_and(inside, x <= hi)
    gx = g if inside is None else nr.where(inside, g, _z(g))
    glo = nr.where(x < lo, g, _z(g)) if need[1] else None
    ghi = nr.where(x > hi, g, _z(g)) if need[2] else None
    return [gx if need[0] else None, glo, ghi]


@register("clamp")
def var_clamp(x: Any, min: Any = None, max: Any = None) -> Any:  # noqa: A002
    """Limit x to [min, max]; the gradient passes where min <= x <= max (bounds may be Vars)."""
    return record("clamp", (x, min, max), tensor_call("clamp", (x, min, max)), _clamp_vjp)


def _cast_vjp(g, args, out, need, extra):
    return [g]


@register("cast")
def var_cast(x: Any, dtype: Any) -> Any:
    """x as ``dtype``; the gradient is cast back to x's dtype (a float result keeps the graph)."""
    d = dt.dtype(dtype)
    return record("cast", (x,), tensor_call("cast", (x, d)), _cast_vjp, save_args=False)


def var_zero_grad_op(name: str, *args: Any, **kwargs: Any) -> Any:
    """Piecewise-constant float ops (floor, sign, ...): the result does not require grad."""
    from ..var import Var
    return Var.constant(tensor_call(name, args, kwargs))


__all__ = [f"var_{n}" for n in (*UNARY, *BINARY)] + ["var_fma", "var_where", "var_clamp", "var_cast"]
