"""Autograd of the complex family, in numr's convention for complex numbers (docs/architecture.md
"Complex numbers"): a vjp is g times the transposed Jacobian without conjugation (mul's rule is
g * b, as JAX), which for a real-linear map dw = A dz + B conj(dz) is the pullback
c -> c A + conj(c B); the gradient of a real loss L with respect to z = x + iy is then
dL/dx - i dL/dy, and a real input keeps the real part (the engine). Rules:
- real: g (a real g; the engine makes it g + 0i); imag: -i g = complex(0, -g);
- view_as_real: complex(g[..., 0], -g[..., 1]); view_as_complex: the pairs (Re c, -Im c);
- conj: conj(c); complex(re, im): (Re c, -Im c);
- angle of complex z: g (-y - ix) / |z|^2 (zero at z = 0, as torch); of a real x: no gradient;
- polar is a composite of complex, cos, sin and mul.
Each is written with public functions, so it differentiates again. Forward mode: real, imag,
conj and the two views are linear (the op of the tangent); complex, angle and polar are
composites below (FORWARD)."""

from __future__ import annotations

from typing import Any

import numr as nr

from ...ops.generic.complex import polar_any
from ..var import Var
from ._common import record, register, tensor_call, unwrap


def _real_vjp(g, args, out, need, extra):
    return [g]


def _imag_vjp(g, args, out, need, extra):
    return [nr.complex(0.0, -g)]


def _view_as_real_vjp(g, args, out, need, extra):
    return [nr.complex(g[..., 0], -g[..., 1])]


def _view_as_complex_vjp(g, args, out, need, extra):
    return [nr.view_as_real(nr.conj(g))]


def _conj_vjp(g, args, out, need, extra):
    return [nr.conj(g)]


def _complex_vjp(g, args, out, need, extra):
    return [nr.real(g) if need[0] else None, -nr.imag(g) if need[1] else None]


def _angle_vjp(g, args, out, need, extra):
    z = args[0]
    x, y = nr.real(z), nr.imag(z)
    d = x * x + y * y
    zero = d == 0
    safe = nr.where(zero, 1.0, d)  # no 0/0 in the branch where() drops (its gradient would be NaN)
    s = g / safe
    return [nr.complex(nr.where(zero, 0.0, -(s * y)), nr.where(zero, 0.0, -(s * x)))]


def _unary(name: str, vjp: Any, real_passes: bool):
    def var_fn(x: Any) -> Any:
        t = unwrap(x)
        if real_passes and not t.dtype.is_complex:
            return x  # real / conj of a real tensor is the tensor itself
        return record(name, (x,), tensor_call(name, (x,)), vjp, save_args=False)
    var_fn.__name__ = f"var_{name}"
    var_fn.__doc__ = f"{name}(x) recording its gradient (numr's complex convention)."
    return var_fn


var_real = register("real")(_unary("real", _real_vjp, True))
var_imag = register("imag")(_unary("imag", _imag_vjp, False))
var_view_as_real = register("view_as_real")(_unary("view_as_real", _view_as_real_vjp, False))
var_view_as_complex = register("view_as_complex")(_unary("view_as_complex", _view_as_complex_vjp, False))
var_conj = register("conj", "conj_physical")(_unary("conj", _conj_vjp, True))


@register("complex")
def var_complex(real: Any, imag: Any) -> Any:
    """real + i imag; the gradients are the real part and minus the imaginary part of g."""
    return record("complex", (real, imag), tensor_call("complex", (real, imag)), _complex_vjp, save_args=False)


@register("angle")
def var_angle(x: Any) -> Any:
    """atan2(imag, real); a real input's angle (0 or pi) is piecewise constant: no gradient."""
    out = tensor_call("angle", (x,))
    if not unwrap(x).dtype.is_complex:
        return Var.constant(out)
    return record("angle", (x,), out, _angle_vjp)


register("polar")(polar_any)


# ---- forward mode -------------------------------------------------------------------------
def _parts(a: Any) -> tuple[Any, Any]:
    from ..forward import DualTensor
    if isinstance(a, DualTensor):
        return a.primal, a.tangent
    return a, None


def complex_forward(real: Any, imag: Any) -> Any:
    """complex() of DualTensors: the tangent is complex(t_re, t_im) (a missing one is 0)."""
    from ..forward import DualTensor
    (pr, tr), (pi, ti) = _parts(real), _parts(imag)
    out = nr.complex(pr, pi)
    if tr is None and ti is None:
        return DualTensor(out, None)
    return DualTensor(out, nr.complex(0.0 if tr is None else tr, 0.0 if ti is None else ti).broadcast_to(out.shape))


def angle_forward(x: Any) -> Any:
    """d angle = (x dy - y dx) / |z|^2 (0 at z = 0); a real input's angle has tangent 0."""
    from ..forward import DualTensor
    p, t = _parts(x)
    out = nr.angle(p)
    if t is None or not p.dtype.is_complex:
        return DualTensor(out, None)
    re, im, tre, tim = nr.real(p), nr.imag(p), nr.real(t), nr.imag(t)
    d = re * re + im * im
    zero = d == 0
    return DualTensor(out, nr.where(zero, 0.0, (re * tim - im * tre) / nr.where(zero, 1.0, d)))


#: forward mode: the views and conj are linear; these are composites with their own tangents
LINEAR = frozenset("real imag view_as_real view_as_complex conj conj_physical".split())
FORWARD = {"complex": complex_forward, "angle": angle_forward, "polar": polar_any}
