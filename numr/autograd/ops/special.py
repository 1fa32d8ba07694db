"""Autograd of the special functions. Those whose composite derivative would be poor or
undefined at branch joins (the rational approximations, Newton refinements, reflection formulas)
record their analytic derivative, written with numr functions so it serves reverse mode, forward
mode (forward.py runs it on the tangent) and double backward: erf' = 2/sqrt(pi) exp(-x^2),
erfinv' = sqrt(pi)/2 exp(erfinv(x)^2), lgamma' = digamma, polygamma(n)' = polygamma(n+1),
i0' = i1, ... The rest (xlogy, xlog1py, entr, logit, expit, sinc, multigammaln) are composites
differentiated through their parts."""

from __future__ import annotations

import math
from typing import Any

import numr as nr

from ...ops.generic.special import SQRT1_2, SQRT2PI, TWO_SQRTPI
from ...ops.generic.special_gamma import COMPOSITES as _ALL
from ._common import record, register, tensor_call


def _i1_prime(x: Any, y: Any, scaled: Any) -> Any:
    """I1'(x) = I0(x) - I1(x)/x (1/2 at 0); for the scaled i1e also - sign(x) i1e."""
    safe = nr.where(x == 0, 1.0, x)
    d = (nr.i0e(x) if scaled else nr.i0(x)) - y / safe
    if scaled:
        d = d - nr.sign(x) * y
    return nr.where(x == 0, 0.5, d)


#: op -> derivative d(x, y) of y = op(x)
RULES = {
    "erf": lambda x, y: TWO_SQRTPI * nr.exp(-x * x),
    "erfc": lambda x, y: -TWO_SQRTPI * nr.exp(-x * x),
    "erfcx": lambda x, y: 2.0 * x * y - TWO_SQRTPI,
    "erfinv": lambda x, y: (0.5 * math.sqrt(math.pi)) * nr.exp(y * y),
    "ndtr": lambda x, y: nr.exp(-0.5 * x * x) * (1.0 / SQRT2PI),
    "ndtri": lambda x, y: SQRT2PI * nr.exp(0.5 * y * y),
    "log_ndtr": lambda x, y: math.sqrt(2.0 / math.pi) / nr.erfcx(x * -SQRT1_2),
    "lgamma": lambda x, y: nr.digamma(x),
    "digamma": lambda x, y: nr.polygamma(1, x),
    "i0": lambda x, y: nr.i1(x),
    "i0e": lambda x, y: nr.i1e(x) - nr.sign(x) * y,
    "i1": lambda x, y: _i1_prime(x, y, False),
    "i1e": lambda x, y: _i1_prime(x, y, True),
}


def _unary_vjp(name: str) -> Any:
    rule = RULES[name]

    def vjp(g, args, out, need, extra):
        return [g * rule(args[0], out)]
    return vjp


def _make_unary(name: str) -> Any:
    vjp = _unary_vjp(name)

    def var_fn(x: Any) -> Any:
        out = tensor_call(name, (x,))
        return record(name, (x,), out, vjp, save_args=True, save_out=True)
    var_fn.__name__ = f"var_{name}"
    return var_fn


for _n in RULES:
    register(_n)(_make_unary(_n))


def _polygamma_vjp(g, args, out, need, extra):
    return [None, g * nr.polygamma(args[0] + 1, args[1])]


@register("polygamma")
def var_polygamma(n: int, x: Any) -> Any:
    out = tensor_call("polygamma", (n, x))
    return record("polygamma", (n, x), out, _polygamma_vjp)


#: ops with a recorded rule; forward.py treats them as element-wise (tangent through the rule)
ELEMENTWISE = frozenset([*RULES, "polygamma"])
#: composites differentiated through their parts, for both tracers
COMPOSITES = {n: f for n, f in _ALL.items() if n not in ELEMENTWISE}
for _n, _f in COMPOSITES.items():
    register(_n)(_f)
