"""Autograd of the special functions. Those whose composite derivative would be poor or
undefined at branch joins (the rational approximations, Newton refinements, reflection formulas)
record their analytic derivative, written with numr functions so it serves reverse mode, forward
mode (forward.py runs it on the tangent) and double backward: erf' = 2/sqrt(pi) exp(-x^2),
erfinv' = sqrt(pi)/2 exp(erfinv(x)^2), lgamma' = digamma, polygamma(n)' = polygamma(n+1),
i0' = i1, j0' = -j1, k1' = -k0 - k1/x, dK/dm = (E - (1-m) K) / (2 m (1-m)), Gamma' = Gamma psi,
and d/dx of gammainc/gammaincc/betainc (the parameters a, b raise UnsupportedOperation on
backward, as torch). The rest (xlogy, betaln, beta_fn, xlog1py, entr, logit, expit, sinc, multigammaln) are composites
differentiated through their parts."""

from __future__ import annotations

import math
from typing import Any

import numr as nr

from ...errors import UnsupportedOperation
from ...ops.generic.special import SQRT1_2, SQRT2PI, TWO_SQRTPI
from ...ops.generic.special_gamma import COMPOSITES as _ALL1
from ...ops.generic.special_incomplete import COMPOSITES as _ALL2
from ._common import record, register, tensor_call


def _i1_prime(x: Any, y: Any, scaled: Any) -> Any:
    """I1'(x) = I0(x) - I1(x)/x (1/2 at 0); for the scaled i1e also - sign(x) i1e."""
    safe = nr.where(x == 0, 1.0, x)
    d = (nr.i0e(x) if scaled else nr.i0(x)) - y / safe
    if scaled:
        d = d - nr.sign(x) * y
    return nr.where(x == 0, 0.5, d)


def _over_x(x: Any, y: Any, at0: float) -> Any:
    """y / x, at0 at x = 0."""
    return nr.where(x == 0, at0, y / nr.where(x == 0, 1.0, x))


def _ellipk_prime(m: Any, k: Any) -> Any:
    """dK/dm = (E - (1 - m) K) / (2 m (1 - m)); pi/8 at m = 0."""
    e = nr.ellipe(m)
    return nr.where(m == 0, math.pi / 8, (e - (1.0 - m) * k) / (2.0 * nr.where(m == 0, 1.0, m) * (1.0 - m)))


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
    "gamma_fn": lambda x, y: y * nr.digamma(x),
    "bessel_j0": lambda x, y: -nr.bessel_j1(x),
    "bessel_j1": lambda x, y: nr.bessel_j0(x) - _over_x(x, y, 0.5),
    "bessel_y0": lambda x, y: -nr.bessel_y1(x),
    "bessel_y1": lambda x, y: nr.bessel_y0(x) - y / x,
    "modified_bessel_k0": lambda x, y: -nr.modified_bessel_k1(x),
    "modified_bessel_k1": lambda x, y: -nr.modified_bessel_k0(x) - y / x,
    "scaled_modified_bessel_k0": lambda x, y: y - nr.scaled_modified_bessel_k1(x),
    "scaled_modified_bessel_k1": lambda x, y: y - nr.scaled_modified_bessel_k0(x) - y / x,
    "ellipk": _ellipk_prime,
    "ellipe": lambda m, e: nr.where(m == 0, -math.pi / 8, (e - nr.ellipk(m)) / (2.0 * nr.where(m == 0, 1.0, m))),
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


def _no_grad(op: str, arg: str) -> UnsupportedOperation:
    return UnsupportedOperation("autograd", op, reason=f"the gradient with respect to {arg} is not implemented "
                                "(torch: not implemented for input a); only x is differentiable")


def _full(v: Any, like: Any) -> Any:
    return v if hasattr(v, "shape") else nr.full_like(like, v)


def _gammainc_vjp(op: str, sign: float) -> Any:
    def vjp(g, args, out, need, extra):
        a, x = args
        if need[0]:
            raise _no_grad(op, "a")
        if not need[1]:
            return [None, None]
        a = _full(a, x)  # dP/dx = x^(a-1) e^-x / Gamma(a)
        return [None, g * (sign * nr.exp(nr.xlogy(a - 1.0, x) - x - nr.lgamma(a)))]
    return vjp


def _betainc_vjp(g, args, out, need, extra):
    a, b, x = args
    if need[0] or need[1]:
        raise _no_grad("betainc", "a and b")
    if not need[2]:
        return [None, None, None]
    a, b = _full(a, x), _full(b, x)  # dI/dx = x^(a-1) (1-x)^(b-1) / B(a, b)
    return [None, None, g * nr.exp(nr.xlogy(a - 1.0, x) + nr.xlog1py(b - 1.0, -x) - nr.betaln(a, b))]


def _make_partial(name: str, vjp: Any) -> Any:
    def var_fn(*args: Any) -> Any:
        return record(name, args, tensor_call(name, args), vjp)
    var_fn.__name__ = f"var_{name}"
    return var_fn


_PARTIAL = {"gammainc": _gammainc_vjp("gammainc", 1.0), "gammaincc": _gammainc_vjp("gammaincc", -1.0),
            "betainc": _betainc_vjp}
for _n, _v in _PARTIAL.items():
    register(_n)(_make_partial(_n, _v))

_ALL = {**_ALL1, **_ALL2}
#: ops with a recorded rule; forward.py treats them as element-wise (tangent through the rule)
ELEMENTWISE = frozenset([*RULES, "polygamma", *_PARTIAL])
#: composites differentiated through their parts, for both tracers
COMPOSITES = {n: f for n, f in _ALL.items() if n not in ELEMENTWISE}
for _n, _f in COMPOSITES.items():
    register(_n)(_f)
