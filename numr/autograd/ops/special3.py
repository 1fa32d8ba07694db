"""Autograd of the special functions of part 3. Recorded rules (their formulas written with numr
functions, so they serve reverse mode, forward mode and double backward): Ai' and Bi' from the
ops of that name, Ai'' = x Ai, Bi'' = x Bi; S' = sin(pi x^2/2),
C' = cos(pi x^2/2); d zeta(x, q)/dq = -x zeta(x + 1, q);
dM(a, b, x)/dx = a/b M(a+1, b+1, x), d2F1/dx = ab/c 2F1(a+1, b+1; c+1; x); the inverses' d/dy = 1 / (the density
at the result): gammaincinv' = Gamma(a) x^(1-a) e^x, gammainccinv' = minus that, betaincinv' =
B(a, b) x^(1-a) (1-x)^(1-b). The parameters (a, b, and x of zeta) have no closed-form derivative:
backward through them raises UnsupportedOperation, as torch. airy's and fresnel's tuples and the orthogonal
polynomials, lpmv and sph_harm_y are composites differentiated through their parts (polynomial
recurrences: exact)."""

from __future__ import annotations

import math
from typing import Any

import numr as nr

from ... import dtypes as dt
from ...ops import api
from ...ops.generic.special_fresnel import half_pi_square
from ...ops.generic.special_orthopoly import COMPOSITES as _ORTHO
from ...tensor import Tensor
from ._common import record, register, tensor_call
from .special import _full, _no_grad


def _sin_cos_vjp(index: int) -> Any:
    def vjp(g, args, out, need, extra):
        x = args[0]
        if isinstance(x, Tensor) and x.dtype in (dt.float32, dt.float64):
            return [g * half_pi_square(nr.abs(x))[index]]  # the exactly reduced angle
        a = (0.5 * math.pi) * x * x  # a Var (double backward) or a half: differentiable parts
        return [g * (nr.sin(a) if index == 0 else nr.cos(a))]
    return vjp


def _last_rule(op: str, params: str, deriv: Any) -> Any:
    """The vjp of an op differentiable in its last argument only: deriv(*params, last, out);
    a gradient asked of the others raises UnsupportedOperation."""
    def vjp(g, args, out, need, extra):
        if any(need[:-1]):
            raise _no_grad(op, params)
        if not need[-1]:
            return [None] * len(args)
        last = args[-1]
        return [None] * (len(args) - 1) + [g * deriv(*(_full(p, last) for p in args[:-1]), last, out)]
    return vjp


def _gamma_inverse(sign: float) -> Any:
    """d/dy of gammaincinv (sign 1) and gammainccinv (-1): +-Gamma(a) x^(1-a) e^x at x = out."""
    return lambda a, y, x: sign * nr.exp(nr.lgamma(a) + x - nr.xlogy(a - 1.0, x))


def _make(name: str, vjp: Any) -> Any:
    def var_fn(*args: Any) -> Any:
        return record(name, args, tensor_call(name, args), vjp, save_out=True)
    var_fn.__name__ = f"var_{name}"
    return var_fn


def _airy_vjp(name: str) -> Any:
    """Ai -> Ai', Ai' -> x Ai (y'' = x y), and the same for Bi."""
    value = name.removesuffix("_prime")

    def vjp(g, args, out, need, extra):
        x = args[0]
        return [g * (x * api.call(value, (x,), {}) if name != value else api.call(f"{name}_prime", (x,), {}))]
    return vjp


RULES = {**{n: _airy_vjp(n) for n in ("airy_ai", "airy_ai_prime", "airy_bi", "airy_bi_prime")},
         "fresnel_s": _sin_cos_vjp(0), "fresnel_c": _sin_cos_vjp(1),
         "zeta": _last_rule("zeta", "x", lambda x, q, out: -x * nr.zeta(x + 1.0, q)),
         "gammaincinv": _last_rule("gammaincinv", "a", _gamma_inverse(1.0)),
         "gammainccinv": _last_rule("gammainccinv", "a", _gamma_inverse(-1.0)),
         "betaincinv": _last_rule("betaincinv", "a and b", lambda a, b, y, x: nr.exp(
             nr.betaln(a, b) - nr.xlogy(a - 1.0, x) - nr.xlog1py(b - 1.0, -x))),
         "hyp1f1": _last_rule("hyp1f1", "a and b", lambda a, b, x, out: a / b * nr.hyp1f1(a + 1.0, b + 1.0, x)),
         "hyp2f1": _last_rule("hyp2f1", "a, b and c",
                              lambda a, b, c, x, out: a * b / c * nr.hyp2f1(a + 1.0, b + 1.0, c + 1.0, x))}
for _n, _v in RULES.items():
    register(_n)(_make(_n, _v))


def fresnel_var(x: Any) -> tuple[Any, Any]:
    """(S, C) of a Var or DualTensor through the two recorded ops."""
    return nr.fresnel_s(x), nr.fresnel_c(x)


def airy_var(x: Any) -> tuple[Any, Any, Any, Any]:
    """(Ai, Ai', Bi, Bi') of a Var or DualTensor through the four recorded ops."""
    return nr.airy_ai(x), nr.airy_ai_prime(x), nr.airy_bi(x), nr.airy_bi_prime(x)


#: ops with a recorded rule; forward.py treats them as element-wise (tangent through the rule)
ELEMENTWISE = frozenset(RULES)
#: composites differentiated through their parts, for both tracers
COMPOSITES = {**_ORTHO, "fresnel": fresnel_var, "airy": airy_var}
for _n, _f in COMPOSITES.items():
    register(_n)(_f)
