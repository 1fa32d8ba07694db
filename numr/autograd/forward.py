"""Forward mode: DualTensor(primal, tangent), jvp and jacobian_forward.

numr functions accept DualTensors (``register_tracer``). Element-wise ops take
their rule from the reverse-mode formula of the same op (a diagonal Jacobian
is its own transpose: tangent = rule(t_i) summed over inputs); linear ops
(views, sum, cumsum, cat, ...) apply themselves to the tangent; matmul,
softmax, log_softmax, max/min, prod and cumprod have explicit rules; mean,
var and std are composites of those.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numr as nr

from ..errors import UnsupportedOperation
from ..ops import api
from ..ops.generic import normalization as norm
from ..ops.generic.conv import COMPOSITES as CONV
from ..ops.generic.conv_pool import COMPOSITES as POOL
from ..ops.generic.einsum import einsum_any
from ..ops.generic.indexing import gather_any, scatter_add_any
from ..ops.generic.linalg import COMPOSITES as LINALG_COMPOSITES
from ..ops.generic.linalg_extra import COMPOSITES as LINALG_EXTRA
from ..ops.generic.matfunc import COMPOSITES as MATFUNC
from ..ops.generic.matmul import COMPOSITES as MATMUL
from ..ops.generic.shape import composites as shape_composites
from ..shapes import normalize_dims
from ..tensor import Tensor
from .ops import reduce as red
from .ops._common import VAR_OPS
from .ops.complex import FORWARD as COMPLEX
from .ops.complex import LINEAR as COMPLEX_LINEAR
from .ops.decomp_eig import FORWARD as DECOMP_EIG
from .ops.decomp_forward import FORWARD as DECOMP
from .ops.decomp_forward2 import FORWARD as DECOMP2
from .ops.elementwise import UNARY
from .ops.fft import COMPOSITES as FFT
from .ops.fft import LINEAR as FFT_LINEAR
from .ops.indexing import COMPOSITES as INDEXING
from .ops.loss import COMPOSITES as LOSS
from .ops.mathx import COMPOSITES as MATHX
from .ops.mathx import ELEMENTWISE as MATHX_ELEMENTWISE
from .ops.mathx import NON_DIFF as MATHX_NON_DIFF
from .ops.mathx import ZERO as MATHX_ZERO
from .ops.numeric import COMPOSITES as NUMERIC
from .ops.parity import COMPOSITES as PARITY
from .ops.sorting import COMPOSITES as SORTING
from .ops.special import COMPOSITES as SPECIAL
from .ops.special import ELEMENTWISE as SPECIAL_ELEMENTWISE
from .ops.special3 import COMPOSITES as SPECIAL3
from .ops.special3 import ELEMENTWISE as SPECIAL3_ELEMENTWISE
from .ops.statistics import COMPOSITES as STATISTICS
from .var import Var, enable_grad


class DualTensor:
    """A primal tensor with a tangent (None means zero). Methods and operators as on Tensor."""

    __slots__ = ("primal", "tangent")
    __array_priority__ = 2000

    def __init__(self, primal: Tensor, tangent: Tensor | None = None):
        if tangent is not None and tangent.shape != primal.shape:
            tangent = tangent.broadcast_to(primal.shape)
        self.primal, self.tangent = primal, tangent

    shape = property(lambda self: self.primal.shape)
    dtype = property(lambda self: self.primal.dtype)
    device = property(lambda self: self.primal.device)
    ndim = property(lambda self: self.primal.ndim)
    size = property(lambda self: self.primal.size)

    def numel(self) -> int:
        return self.primal.size

    def tangent_or_zeros(self) -> Tensor:
        t = self.tangent
        return t if t is not None else nr.zeros(self.shape, dtype=self.dtype, device=self.device)

    def __repr__(self) -> str:
        return f"DualTensor(primal={self.primal!r}, tangent={self.tangent!r})"

    __hash__ = object.__hash__


def _p(a: Any) -> Any:
    if isinstance(a, DualTensor):
        return a.primal
    if isinstance(a, (list, tuple)):
        return type(a)(_p(b) for b in a)
    return a


def _t(a: Any) -> Any:
    return a.tangent if isinstance(a, DualTensor) else None


#: ops linear in their tensor inputs: the tangent is the op applied to the tangents
LINEAR = frozenset("neg sum cumsum cat stack index_select index_add cast diagonal unfold fold".split()) | FFT_LINEAR \
    | COMPLEX_LINEAR
ELEMENTWISE = frozenset(
    list(UNARY) + "add sub mul div pow maximum minimum atan2 hypot remainder fma where clamp relu leaky_relu "
    "elu sigmoid silu gelu softplus dropout silu_mul gelu_mul relu_mul sigmoid_mul".split()
) | SPECIAL_ELEMENTWISE | SPECIAL3_ELEMENTWISE | MATHX_ELEMENTWISE
NON_DIFF = frozenset(
    "eq ne lt le gt ge isclose allclose logical_and logical_or logical_xor logical_not isnan isinf isfinite "
    "argmax argmin any all nonzero bitwise_and bitwise_or bitwise_xor bitwise_not".split()
) | MATHX_NON_DIFF
ZERO = frozenset("sign floor ceil round trunc floor_divide".split()) | MATHX_ZERO


def _elementwise(name: str, args: tuple, kwargs: dict) -> DualTensor:
    """Tangent = sum_i rule_i(t_i), the rule being the op's reverse-mode formula."""
    wrapped = [Var(a.primal, requires_grad=True) if isinstance(a, DualTensor) and a.tangent is not None
               else _p(a) for a in args]
    with enable_grad():
        out = VAR_OPS[name](*wrapped, **kwargs)
    fn = out.grad_fn
    if fn is None:
        return DualTensor(out.tensor, None)
    targs = [a.tensor if isinstance(a, Var) else a for a in fn._args]
    tangent = None
    for i, a in enumerate(args):
        if isinstance(a, DualTensor) and a.tangent is not None:
            need = [j == i for j in range(len(args))]
            gi = fn._vjp(a.tangent, targs, fn._out, need, fn.extra)[i]
            if gi is not None:
                tangent = gi if tangent is None else tangent + gi
    if tangent is not None:
        tangent = tangent.broadcast_to(out.shape)
        if tangent.dtype is not out.dtype:
            tangent = nr.cast(tangent, out.dtype)
    return DualTensor(out.tensor, tangent)


def _linear(name: str, args: tuple, kwargs: dict) -> Any:
    def tan(a: Any, piece: bool = False) -> Any:
        if isinstance(a, DualTensor):
            return a.tangent_or_zeros()
        if isinstance(a, (list, tuple)):
            return type(a)(tan(b, True) for b in a)
        if piece and isinstance(a, Tensor):  # a constant piece of cat/stack: its tangent is zero
            return nr.zeros(a.shape, dtype=a.dtype, device=a.device)
        return a
    return api.call(name, tuple(tan(a) for a in args), kwargs)


def _keep(out: Tensor, shape: tuple[int, ...], dims: tuple[int, ...], keepdim: bool) -> Tensor:
    return out if keepdim else out.reshape(tuple(1 if i in dims else s for i, s in enumerate(shape)))


#: ops with an explicit jvp rule in _rule
RULES = frozenset("matmul matmul_bias softmax log_softmax max min amax amin prod cumprod".split())


def _rule(name: str, args: tuple, kwargs: dict, out: Tensor) -> Tensor | None:
    p = [_p(a) for a in args]
    t = [_t(a) for a in args]
    if name in ("matmul", "matmul_bias"):
        res = None
        if t[0] is not None:
            res = t[0] @ p[1]
        if t[1] is not None:
            res = p[0] @ t[1] if res is None else res + p[0] @ t[1]
        if name == "matmul_bias" and t[2] is not None:
            res = t[2] if res is None else res + t[2]
        return res
    x, tx = p[0], t[0]
    if tx is None:
        return None
    if name in ("softmax", "log_softmax"):
        dim = kwargs.get("dim", p[1] if len(p) > 1 else -1)
        if name == "softmax":
            return out * (tx - nr.sum(tx * out, dim=dim, keepdim=True))
        return tx - nr.sum(nr.exp(out) * tx, dim=dim, keepdim=True)
    dim = kwargs.get("dim", p[1] if len(p) > 1 else None)
    keepdim = kwargs.get("keepdim", p[2] if len(p) > 2 else False)
    if name in ("max", "min", "amax", "amin"):
        dims = normalize_dims(dim, x.ndim, name)
        mask = x == _keep(out, x.shape, dims, keepdim)
        count = nr.sum(nr.cast(mask, x.dtype), dim=dims, keepdim=keepdim)  # no int64 (wgpu without it)
        return nr.sum(nr.where(mask, tx, tx * 0.0), dim=dims, keepdim=keepdim) / count
    if name == "prod":
        dims = normalize_dims(dim, x.ndim, name)
        ones = nr.ones(x.shape, dtype=x.dtype, device=x.device)
        return nr.sum(tx * red.g_prod(x, ones, dims), dim=dims, keepdim=keepdim)
    if name == "cumprod":
        d = None if dim is None else normalize_dims(dim, x.ndim, name)[0]
        return red.cumprod_tangent(x, tx, d)
    raise UnsupportedOperation("forward-mode autograd", name, reason="no jvp rule")


COMPOSITE = {"mean": red.var_mean, "var": red.var_var, "std": red.var_std, "gather": gather_any,
             "scatter_add": scatter_add_any, **shape_composites(),
             "einsum": einsum_any, **LINALG_COMPOSITES, **LINALG_EXTRA, **MATFUNC,
             **norm.ANY, **SORTING, **STATISTICS, **FFT, **CONV,
             **POOL, **DECOMP, **DECOMP2, **DECOMP_EIG, **SPECIAL, **SPECIAL3, **COMPLEX, **INDEXING, **NUMERIC,
             **MATHX, **MATMUL, **PARITY, **LOSS}


def handle(name: str, args: tuple, kwargs: dict) -> Any:
    """The DualTensor tracer."""
    if any(isinstance(a, Var) for a in args):
        raise UnsupportedOperation("autograd", name, reason="mixing Var and DualTensor in one op")
    if name in COMPOSITE:
        return COMPOSITE[name](*args, **kwargs)
    if name in ELEMENTWISE and name in VAR_OPS:
        return _elementwise(name, args, kwargs)
    if name not in NON_DIFF and name not in ZERO and name not in LINEAR and name not in RULES and \
            any(_t(a) is not None for a in (*args, *kwargs.values())):
        # before running it: an in-place op (fill_, index_put_) must not write and then raise
        raise UnsupportedOperation("forward-mode autograd", name, reason="no jvp rule")
    out = api.call(name, tuple(_p(a) for a in args), {k: _p(v) for k, v in kwargs.items()})
    if name in NON_DIFF:
        return out
    if name in ZERO:
        return DualTensor(out, None)
    if name in LINEAR:
        return DualTensor(out, _linear(name, args, kwargs))
    return DualTensor(out, _rule(name, args, kwargs, out))


api.register_tracer(DualTensor, handle)


def _view(method: str):
    def m(self: DualTensor, *args: Any, **kwargs: Any) -> DualTensor:
        p = getattr(self.primal, method)(*args, **kwargs)
        t = None if self.tangent is None else getattr(self.tangent, method)(*args, **kwargs)
        return DualTensor(p, t)
    m.__name__ = method
    return m


def _install() -> None:
    from .tracer import _OPERATORS, _binary, attach_methods
    for py, op in _OPERATORS.items():
        setattr(DualTensor, f"__{py}__", _binary(op))
        setattr(DualTensor, f"__r{py}__", _binary(op, reflected=True))
    for py in ("eq", "ne", "lt", "le", "gt", "ge"):
        setattr(DualTensor, f"__{py}__", _binary(py))
    DualTensor.__hash__ = object.__hash__
    DualTensor.__array_ufunc__ = None
    DualTensor.__neg__ = lambda self: api.call("neg", (self,), {})
    DualTensor.__abs__ = lambda self: api.call("abs", (self,), {})
    views = {n: _view(n) for n in ("reshape", "view", "transpose", "permute", "squeeze", "unsqueeze", "expand",
                                   "broadcast_to", "flip", "flatten", "narrow", "contiguous", "clone",
                                   "__getitem__")}
    attach_methods(DualTensor, views)


_install()


def _as_tuple(x: Any) -> tuple:
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def jvp(f: Callable[..., Any], primals: Any, tangents: Any) -> tuple[Any, Any]:
    """(f(*primals), J_f(primals) @ tangents) in one forward pass. ``f`` uses ordinary numr
    functions; primals/tangents are a Tensor or a tuple of Tensors. Outputs may be a tuple."""
    ps, ts = _as_tuple(primals), _as_tuple(tangents)
    if len(ps) != len(ts):
        raise ValueError(f"jvp: {len(ps)} primals but {len(ts)} tangents")
    duals = [DualTensor(p, t) for p, t in zip(ps, ts, strict=True)]
    out = f(*duals)
    if isinstance(out, (tuple, list)):
        return (tuple(_p(o) for o in out), tuple(_tangent(o) for o in out))
    return _p(out), _tangent(out)


def _tangent(o: Any) -> Any:
    if isinstance(o, DualTensor):
        return o.tangent_or_zeros()
    return nr.zeros(o.shape, dtype=o.dtype, device=o.device)


def jacobian_forward(f: Callable[[Any], Any], x: Tensor) -> Tensor:
    """The Jacobian of f at x, shape ``f(x).shape + x.shape``, one jvp per element of x."""
    cols = []
    n = x.size
    for j in range(n):
        e = nr.zeros((n,), dtype=x.dtype, device=x.device)
        e[j] = 1
        cols.append(jvp(f, (x,), (e.reshape(x.shape),))[1])
    if not cols:
        out = f(x)
        return nr.zeros(out.shape + x.shape, dtype=x.dtype, device=x.device)
    j = nr.stack(cols, dim=-1)
    return j.reshape(cols[0].shape + x.shape)


__all__ = ["DualTensor", "jvp", "jacobian_forward"]


