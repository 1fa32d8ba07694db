"""Autograd of the special functions of part 3. Recorded rules (their formulas written with numr
functions, so they serve reverse mode, forward mode and double backward): Ai' and Bi' from the
ops of that name, Ai'' = x Ai, Bi'' = x Bi; S' = sin(pi x^2/2),
C' = cos(pi x^2/2); d zeta(x, q)/dq = -x zeta(x + 1, q);
dM(a, b, x)/dx = a/b M(a+1, b+1, x); the inverses' d/dy = 1 / (the density
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


def _zeta_vjp(g, args, out, need, extra):
    x, q = args
    if need[0]:
        raise _no_grad("zeta", "x")
    if q is None or not need[1]:
        return [None, None]
    x = _full(x, q)
    return [None, g * (-x * nr.zeta(x + 1.0, q))]


def _gamma_inverse_vjp(op: str, sign: float) -> Any:
    def vjp(g, args, out, need, extra):
        a, y = args
        if need[0]:
            raise _no_grad(op, "a")
        if not need[1]:
            return [None, None]
        a = _full(a, out)
        return [None, g * (sign * nr.exp(nr.lgamma(a) + out - nr.xlogy(a - 1.0, out)))]
    return vjp


def _betaincinv_vjp(g, args, out, need, extra):
    a, b, y = args
    if need[0] or need[1]:
        raise _no_grad("betaincinv", "a and b")
    if not need[2]:
        return [None, None, None]
    a, b = _full(a, out), _full(b, out)
    return [None, None, g * nr.exp(nr.betaln(a, b) - nr.xlogy(a - 1.0, out) - nr.xlog1py(b - 1.0, -out))]


def _hyp1f1_vjp(g, args, out, need, extra):
    a, b, x = args
    if need[0] or need[1]:
        raise _no_grad("hyp1f1", "a and b")
    if not need[2]:
        return [None, None, None]
    a, b = _full(a, x), _full(b, x)  # dM/dx = a/b M(a + 1, b + 1, x)
    return [None, None, g * (a / b * nr.hyp1f1(a + 1.0, b + 1.0, x))]


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
         "fresnel_s": _sin_cos_vjp(0), "fresnel_c": _sin_cos_vjp(1), "zeta": _zeta_vjp,
         "gammaincinv": _gamma_inverse_vjp("gammaincinv", 1.0),
         "gammainccinv": _gamma_inverse_vjp("gammainccinv", -1.0), "betaincinv": _betaincinv_vjp,
         "hyp1f1": _hyp1f1_vjp}
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
