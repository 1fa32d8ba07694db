"""Reductions and scans: sum, mean, prod, max/min, var/std, cumsum, cumprod."""

from __future__ import annotations

from typing import Any

import numr as nr

from ...shapes import normalize_dims, numel
from ._common import record, register, tensor_call


def expand_back(g: Any, shape: tuple[int, ...], dims: tuple[int, ...], keepdim: bool) -> Any:
    """A reduced gradient broadcast back over the reduced dims (a stride-0 view)."""
    if not keepdim:
        g = g.reshape(tuple(1 if i in dims else s for i, s in enumerate(shape)))
    return g.broadcast_to(shape)


def _sum_vjp(g, args, out, need, extra):
    shape, dims, keepdim = extra
    return [expand_back(g, shape, dims, keepdim)]


@register("sum")
def var_sum(x: Any, dim: Any = None, keepdim: bool = False) -> Any:
    """Sum over ``dim`` (None: all); the gradient broadcasts back."""
    dims = normalize_dims(dim, x.ndim, "sum")
    return record("sum", (x,), tensor_call("sum", (x, dim, keepdim)), _sum_vjp, save_args=False,
                  extra=(x.shape, dims, keepdim))


@register("mean")
def var_mean(x: Any, dim: Any = None, keepdim: bool = False) -> Any:
    """sum / count, differentiable to any order (also used by forward mode)."""
    n = numel(x.shape[d] for d in normalize_dims(dim, x.ndim, "mean"))
    s = nr.sum(x, dim=dim, keepdim=keepdim)
    return s / float(n) if n else s * float("nan")


@register("var")
def var_var(x: Any, dim: Any = None, correction: float = 0, keepdim: bool = False) -> Any:
    """Two-pass variance composed of differentiable ops."""
    dims = normalize_dims(dim, x.ndim, "var")
    n = numel(x.shape[d] for d in dims)
    c = x - nr.mean(x, dim=dims, keepdim=True)
    ss = nr.sum(c * c, dim=dims, keepdim=keepdim)
    denom = n - correction
    if denom <= 0:  # as the plain var (numr.ops.generic.reduce.var): x / 0 from n == correction
        return ss * float("nan") if n == 0 else ss / 0.0
    return ss / float(denom)


@register("std")
def var_std(x: Any, dim: Any = None, correction: float = 0, keepdim: bool = False) -> Any:
    return nr.sqrt(nr.var(x, dim=dim, correction=correction, keepdim=keepdim))


def _extreme_vjp(g, args, out, need, extra):
    x = args[0]
    shape, dims, keepdim = extra
    y = out.reshape(tuple(1 if i in dims else s for i, s in enumerate(shape))) if not keepdim else out
    mask = x == _tensor_of(y)
    # ties counted in x's float dtype: a bool sum would be int64, which a wgpu adapter without
    # shader-int64 cannot cast (exact up to 2**24 ties in float32)
    count = nr.sum(nr.cast(mask, _tensor_of(x).dtype), dim=dims, keepdim=True)
    gk = expand_back(g, shape, dims, keepdim)
    return [nr.where(mask, gk / count, gk * 0.0)]


def _tensor_of(v: Any) -> Any:
    return getattr(v, "tensor", v)


def _make_extreme(name: str):
    def var_fn(x: Any, dim: Any = None, keepdim: bool = False) -> Any:
        dims = normalize_dims(dim, x.ndim, name)
        return record(name, (x,), tensor_call(name, (x, dim, keepdim)), _extreme_vjp, save_out=True,
                      extra=(x.shape, dims, keepdim))
    var_fn.__name__ = f"var_{name}"
    var_fn.__doc__ = f"{name} over dim; ties share the gradient equally (as torch.amax)."
    return var_fn


var_max = register("max")(_make_extreme("max"))
var_min = register("min")(_make_extreme("min"))
var_amax = register("amax")(_make_extreme("amax"))
var_amin = register("amin")(_make_extreme("amin"))


def _prod_vjp(g, args, out, need, extra):
    shape, dims, keepdim = extra
    return [g_prod(args[0], expand_back(g, shape, dims, keepdim), dims)]


def g_prod(x: Any, gk: Any, dims: tuple[int, ...]) -> Any:
    """gk * (product of the other reduced elements), exact with zeros: the reduced dims are
    moved last, flattened, and the exclusive products come from two cumprods."""
    shape = x.shape
    kept = tuple(i for i in range(len(shape)) if i not in dims)
    perm = kept + tuple(dims)
    kshape = tuple(shape[i] for i in kept)
    r = numel(shape[d] for d in dims)
    if r == 0:
        return gk * 0.0
    xp = nr.permute(x, perm).reshape(kshape + (r,))
    ones = nr.ones(kshape + (1,), dtype=x.dtype, device=x.device)
    if r > 1:
        left = nr.cat([ones, nr.cumprod(xp[..., :-1], -1)], -1)
        right = nr.flip(nr.cat([ones, nr.cumprod(nr.flip(xp, -1)[..., :-1], -1)], -1), -1)
        excl = left * right
    else:
        excl = ones
    inv = [0] * len(perm)
    for i, p in enumerate(perm):
        inv[p] = i
    return gk * nr.permute(excl.reshape(kshape + tuple(shape[d] for d in dims)), tuple(inv))


@register("prod")
def var_prod(x: Any, dim: Any = None, keepdim: bool = False) -> Any:
    """Product; the gradient is exact when inputs contain zeros."""
    dims = normalize_dims(dim, x.ndim, "prod")
    return record("prod", (x,), tensor_call("prod", (x, dim, keepdim)), _prod_vjp, extra=(x.shape, dims, keepdim))


def _cumsum_vjp(g, args, out, need, extra):
    shape, d = extra
    if d is None:
        return [nr.flip(nr.cumsum(nr.flip(g, 0), 0), 0).reshape(shape)]
    return [nr.flip(nr.cumsum(nr.flip(g, d), d), d)]


@register("cumsum")
def var_cumsum(x: Any, dim: int | None = None) -> Any:
    d = None if dim is None else normalize_dims(dim, x.ndim, "cumsum")[0] if x.ndim else None
    return record("cumsum", (x,), tensor_call("cumsum", (x, dim)), _cumsum_vjp, save_args=False,
                  extra=(x.shape, d))


def _cumprod_vjp(g, args, out, need, extra):
    """sum_{j>=i} g_j y_j / x_i when x has no zeros; otherwise the exact O(n^2) form."""
    shape, d = extra
    x = args[0]
    if d is None:
        x, g, out, d = x.reshape(-1), g.reshape(-1), out.reshape(-1), 0
    xt = getattr(x, "tensor", x)
    if not bool(nr.any(xt == 0).item()):
        gy = g * out
        return [(nr.flip(nr.cumsum(nr.flip(gy, d), d), d) / x).reshape(shape)]
    return [_cumprod_grad_exact(x, g, d).reshape(shape)]


def _cumprod_parts(xm: Any) -> tuple[Any, Any]:
    """For x along its last dim (length n): M[..., k, j] = prod_{k<i<=j} x_i for j >= k else 0,
    and before[..., k] = prod_{i<k} x_i. Built from cumprods, so zeros are fine."""
    n = xm.shape[-1]
    t = getattr(xm, "tensor", xm)
    ar = nr.arange(n, device=t.device)
    after = ar.reshape(1, n) > ar.reshape(n, 1)                      # [k, i]: i > k
    upper = ar.reshape(1, n) >= ar.reshape(n, 1)                     # [k, j]: j >= k
    q = nr.cumprod(nr.where(after, xm.unsqueeze(-2), nr.ones((), dtype=t.dtype, device=t.device)), -1)
    ones = nr.ones(xm.shape[:-1] + (1,), dtype=t.dtype, device=t.device)
    before = nr.cat([ones, nr.cumprod(xm, -1)[..., :-1]], -1) if n > 1 else ones
    return nr.where(upper, q, q * 0.0), before


def _last(x: Any, d: int) -> tuple[Any, tuple[int, ...]]:
    perm = tuple(i for i in range(x.ndim) if i != d) + (d,)
    inv = [0] * x.ndim
    for i, p in enumerate(perm):
        inv[p] = i
    return x.permute(perm), tuple(inv)


def _cumprod_grad_exact(x: Any, g: Any, d: int) -> Any:
    """grad_k = prod_{i<k} x_i * sum_{j>=k} g_j prod_{k<i<=j} x_i (O(n^2), zeros allowed)."""
    xm, inv = _last(x, d)
    m, before = _cumprod_parts(xm)
    s = (m @ _last(g, d)[0].unsqueeze(-1)).squeeze(-1)
    return (before * s).permute(inv)


def cumprod_tangent(x: Any, t: Any, d: int | None) -> Any:
    """Forward-mode tangent of cumprod, exact with zeros: sum_{i<=j} t_i before_i M[i, j]."""
    if d is None:
        x, t, d = x.reshape(-1), t.reshape(-1), 0
    xm, inv = _last(x, d)
    m, before = _cumprod_parts(xm)
    return ((_last(t, d)[0] * before).unsqueeze(-2) @ m).squeeze(-2).permute(inv)


@register("cumprod")
def var_cumprod(x: Any, dim: int | None = None) -> Any:
    """Running product; the gradient is exact with zeros (an O(n^2) form is used then)."""
    d = None if dim is None else normalize_dims(dim, x.ndim, "cumprod")[0] if x.ndim else None
    return record("cumprod", (x,), tensor_call("cumprod", (x, dim)), _cumprod_vjp, save_out=True,
                  extra=(x.shape, d))


__all__ = ["var_sum", "var_mean", "var_var", "var_std", "var_max", "var_min", "var_amax", "var_amin",
           "var_prod", "var_cumsum", "var_cumprod", "expand_back", "g_prod"]
