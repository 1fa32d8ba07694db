"""Statistics composites written once with numr's public functions, so every backend runs them and
autograd (reverse and forward) differentiates them through their parts: logsumexp (max-shifted,
the shift a constant), logcumsumexp (a log-depth scan of logaddexp), NaN-ignoring sums, diff,
var_mean/std_mean, cov/corrcoef (torch.cov's weighted formula, one matmul), histc and bincount
(index_add of ones or weights), vector norms. The order statistics are in statistics_order.py.
Integer inputs of float-valued ops compute in the default float; half and float8 in float32,
returning their own dtype."""

from __future__ import annotations

import math
import operator
from typing import Any

from ... import dtypes as dt
from ...errors import DTypeError, IndexOutOfRange, ShapeError
from ...shapes import normalize_dim, normalize_dims, numel
from ..prepare import plain


def as_tensor(x: Any, like: Any = None, dtype: Any = None) -> Any:
    """x unchanged if it is a tensor, Var or DualTensor; else a tensor on ``like``'s device."""
    import numr as nr
    if hasattr(x, "dtype") and hasattr(x, "shape"):
        return x
    return nr.tensor(x, dtype=dtype, device=None if like is None else like.device)


def float_input(op: str, x: Any) -> tuple[Any, dt.DType]:
    """(x cast to the float dtype computed in, the result dtype): bool/int -> the default float,
    float16/bfloat16/float8 -> float32 (result their own dtype); complex raises DTypeError."""
    import numr as nr
    x = as_tensor(x)
    d = x.dtype
    if d.is_complex:
        raise DTypeError(f"{op}: complex input (dtype {d}, shape {tuple(x.shape)}) is not supported")
    ct = d if d in (dt.float32, dt.float64) else dt.float32 if d.is_floating_point else dt.default_float
    out = d if d.is_floating_point else ct
    return (x if d is ct else nr.cast(x, ct)), out


def cast_to(y: Any, d: dt.DType) -> Any:
    import numr as nr
    return y if y.dtype is d else nr.cast(y, d)


def order_arg(op: str, name: str, n: Any) -> int:
    """n as a non-negative int (an order, a degree), else ShapeError naming op and argument."""
    try:
        n = operator.index(n)
    except TypeError:
        raise ShapeError(f"{op}: {name} must be an int, got {n!r}") from None
    if n < 0:
        raise ShapeError(f"{op}: {name} must be non-negative, got {n}")
    return n


def reduced_shape(shape: tuple[int, ...], dims: tuple[int, ...], keepdim: bool) -> tuple[int, ...]:
    return tuple(1 if i in dims else s for i, s in enumerate(shape) if keepdim or i not in dims)


def logsumexp_any(x: Any, dim: Any = None, keepdim: bool = False) -> Any:
    import numr as nr
    xc, out = float_input("logsumexp", x)
    dims = normalize_dims(dim, xc.ndim, "logsumexp")
    if xc.ndim == 0:
        return cast_to(xc, out)
    if numel(xc.shape[d] for d in dims) == 0:
        shape = reduced_shape(tuple(xc.shape), dims, keepdim)
        return nr.full(shape, -math.inf, dtype=out, device=xc.device)
    m = nr.amax(plain(xc), dims, keepdim=True)  # the shift is a constant: its derivative cancels
    m = nr.where(nr.isinf(m), 0.0, m)
    r = nr.log(nr.sum(nr.exp(xc - m), dims, keepdim=keepdim))
    return cast_to(r + (m if keepdim else m.reshape(reduced_shape(tuple(xc.shape), dims, False))), out)


def logaddexp(a: Any, b: Any) -> Any:
    """log(exp(a) + exp(b)) = hi + log1p(exp(lo - hi)); -inf with -inf (or inf with inf) is itself,
    NaN propagates; hi/lo picked by masks so each input gets its own gradient at ties."""
    import numr as nr
    pa, pb = plain(a), plain(b)
    ge = pa >= pb
    hi, lo = nr.where(ge, a, b), nr.where(ge, b, a)
    ph = nr.where(ge, pa, pb)
    same_inf = nr.logical_and(nr.isinf(ph), pa == pb)
    delta = nr.where(same_inf, 0.0, lo - hi)  # no inf - inf in the graph (its gradient would be NaN)
    return nr.where(same_inf, hi, hi + nr.log1p(nr.exp(delta)))


def logcumsumexp_any(x: Any, dim: int) -> Any:
    import numr as nr
    xc, out = float_input("logcumsumexp", x)
    if xc.ndim == 0:
        normalize_dim(dim, 0, "logcumsumexp")
        return cast_to(xc, out)
    d = normalize_dim(dim, xc.ndim, "logcumsumexp")
    n, y, s = xc.shape[d], xc, 1
    while s < n:  # Hillis-Steele: after the step with shift s each element covers 2s inputs
        y = nr.cat([y.narrow(d, 0, s), logaddexp(y.narrow(d, s, n - s), y.narrow(d, 0, n - s))], d)
        s *= 2
    return cast_to(y, out)


def nansum_any(x: Any, dim: Any = None, keepdim: bool = False) -> Any:
    import numr as nr
    x = as_tensor(x)
    if x.dtype.is_floating_point or x.dtype.is_complex:
        x = nr.where(nr.isnan(plain(x)), 0.0, x)
    return nr.sum(x, dim, keepdim)


def nanmean_any(x: Any, dim: Any = None, keepdim: bool = False) -> Any:
    import numr as nr
    x = as_tensor(x)
    if not x.dtype.is_floating_point:
        return nr.mean(x if x.dtype.is_complex else float_input("nanmean", x)[0], dim, keepdim)
    xc, out = float_input("nanmean", x)
    ok = nr.logical_not(nr.isnan(plain(xc)))
    count = nr.sum(nr.cast(ok, xc.dtype), dim, keepdim)
    return cast_to(nansum_any(xc, dim, keepdim) / count, out)


def count_nonzero_any(x: Any, dim: Any = None) -> Any:
    import numr as nr
    p = plain(as_tensor(x))
    normalize_dims(dim, p.ndim, "count_nonzero")
    return cast_to(nr.sum(p != 0, dim), dt.int64)


def var_mean_any(x: Any, dim: Any = None, correction: float = 1, keepdim: bool = False) -> tuple[Any, Any]:
    import numr as nr
    return nr.var(x, dim, correction, keepdim), nr.mean(x, dim, keepdim)


def std_mean_any(x: Any, dim: Any = None, correction: float = 1, keepdim: bool = False) -> tuple[Any, Any]:
    import numr as nr
    return nr.std(x, dim, correction, keepdim), nr.mean(x, dim, keepdim)


def _edge(name: str, p: Any, x: Any, d: int) -> Any:
    """prepend/append as a tensor of x's rank; a 0-d one broadcasts to one slice (np.diff)."""
    import numr as nr
    p = as_tensor(p, x, dtype=None if hasattr(p, "dtype") else x.dtype)
    if p.ndim == 0:
        p = nr.broadcast_to(p, tuple(1 if i == d else s for i, s in enumerate(x.shape)))
    if p.ndim != x.ndim or any(a != b for i, (a, b) in enumerate(zip(p.shape, x.shape, strict=True)) if i != d):
        raise ShapeError(f"diff: {name} of shape {tuple(p.shape)} must match input shape {tuple(x.shape)} "
                         f"except in dim {d}")
    return p


def diff_any(x: Any, n: int = 1, dim: int = -1, prepend: Any = None, append: Any = None) -> Any:
    import numr as nr
    x = as_tensor(x)
    if x.ndim == 0:
        raise ShapeError("diff: needs an input of at least one dim, got a 0-d tensor")
    n = order_arg("diff", "order n", n)
    d = normalize_dim(dim, x.ndim, "diff")
    if prepend is not None or append is not None:
        parts = ([_edge("prepend", prepend, x, d)] if prepend is not None else []) + [x] + \
                ([_edge("append", append, x, d)] if append is not None else [])
        rt = nr.result_type(*(plain(p) for p in parts))
        x = nr.cat([cast_to(p, rt) for p in parts], d)
    for _ in range(n):
        m = x.shape[d]
        if m == 0:
            break
        a, b = x.narrow(d, 1, m - 1), x.narrow(d, 0, m - 1)
        x = nr.ne(a, b) if x.dtype is dt.bool_ else a - b
    return x


def _weights(name: str, w: Any, x: Any, nobs: int, integral: bool) -> Any:
    import numr as nr
    w = as_tensor(w, x)
    if w.ndim > 1 or numel(w.shape) != nobs:
        raise ShapeError(f"cov: {name} must be 1-d with {nobs} elements (the observations of input shape "
                         f"{tuple(x.shape)}), got shape {tuple(w.shape)}")
    if integral and w.dtype.kind not in "iu" or not integral and not w.dtype.is_floating_point:
        raise DTypeError(f"cov: {name} must have {'an integer' if integral else 'a float'} dtype, got {w.dtype}")
    if nobs and bool(nr.any(plain(w) < 0).item()):  # one host read, to report bad input
        raise ShapeError(f"cov: {name} cannot be negative")
    return cast_to(w.reshape(-1), x.dtype)


def cov_any(x: Any, correction: int = 1, fweights: Any = None, aweights: Any = None) -> Any:
    import numr as nr
    x = as_tensor(x)
    if x.ndim > 2:
        raise ShapeError(f"cov: expected a tensor of at most 2 dims (variables x observations), got shape "
                         f"{tuple(x.shape)}")
    xc, out = float_input("cov", x)
    xc = xc.reshape((1, -1)) if xc.ndim < 2 else xc
    nobs = xc.shape[1]
    fw = None if fweights is None else _weights("fweights", fweights, xc, nobs, True)
    aw = None if aweights is None else _weights("aweights", aweights, xc, nobs, False)
    w = fw if aw is None else aw if fw is None else fw * aw
    if w is None:
        w_sum, avg = nobs, nr.mean(xc, 1, keepdim=True)
        norm = max(nobs - correction, 0)
    else:
        w_sum = nr.sum(w)
        avg = nr.sum(xc * w, 1, keepdim=True) / w_sum
        adj = correction if aw is None or correction == 0 else correction * nr.sum(w * aw) / w_sum
        norm = nr.clamp(w_sum - adj, 0.0)
    xm = xc - avg
    c = nr.matmul(xm, nr.transpose(xm if w is None else xm * w, 0, 1))
    c = c / (float(norm) if isinstance(norm, int) else norm)
    return cast_to(c.reshape(()) if c.shape == (1, 1) else c, out)


def corrcoef_any(x: Any) -> Any:
    import numr as nr
    c = cov_any(x)
    if c.ndim == 0:
        return c / c
    sd = nr.sqrt(nr.diagonal(c))
    c = c / sd.reshape((-1, 1)) / sd.reshape((1, -1))
    return nr.clamp(c, -1.0, 1.0)


def histc_any(x: Any, bins: int = 100, min: float = 0, max: float = 0) -> Any:
    import numr as nr
    xc, out = float_input("histc", plain(as_tensor(x)))
    if not isinstance(bins, int) or bins <= 0:
        raise ShapeError(f"histc: bins must be a positive int, got {bins!r}")
    if not (math.isfinite(min) and math.isfinite(max)) or min > max:
        raise ShapeError(f"histc: range [{min}, {max}] must be finite with min <= max")
    flat = xc.reshape(-1)
    if min == max and flat.shape[0]:  # the data's range, widened by 1 each side when it is one point
        lo, hi = nr.amin(flat), nr.amax(flat)
        if not bool(nr.logical_and(nr.isfinite(lo), nr.isfinite(hi)).item()):
            raise ShapeError(f"histc: the range of the data [{lo.item()}, {hi.item()}] is not finite")
        same = lo == hi
        lo, hi = nr.where(same, lo - 1.0, lo), nr.where(same, hi + 1.0, hi)
    else:
        lo, hi = (min - 1.0, max + 1.0) if min == max else (float(min), float(max))
    inside = nr.logical_and(flat >= lo, flat <= hi)  # NaN is outside
    pos = nr.floor((flat - lo) * float(bins) / (hi - lo))
    pos = nr.clamp(nr.where(inside, pos, 0.0), 0.0, float(bins - 1))  # x == max goes in the last bin
    counts = nr.index_add(nr.zeros(bins, dtype=xc.dtype, device=xc.device), 0, nr.cast(pos, dt.int32),
                          nr.cast(inside, xc.dtype))
    return cast_to(counts, out)


def bincount_any(x: Any, weights: Any = None, minlength: int = 0) -> Any:
    import numr as nr
    x = plain(as_tensor(x))
    if x.ndim != 1:
        raise ShapeError(f"bincount: input must be 1-d, got shape {tuple(x.shape)}")
    if x.dtype.kind not in "biu":
        raise DTypeError(f"bincount: input must have an integer dtype, got {x.dtype}")
    if not isinstance(minlength, int) or minlength < 0:
        raise ShapeError(f"bincount: minlength must be a non-negative int, got {minlength!r}")
    n = x.shape[0]
    # small integer types index as int32: no int64 math on adapters without it (wgpu, no shader-int64)
    idx = x if x.dtype in (dt.int32, dt.int64) else cast_to(x, dt.int64 if x.dtype.itemsize >= 4 else dt.int32)
    size = minlength
    if n:
        lo, hi = (int(v) for v in nr.stack([nr.amin(idx), nr.amax(idx)]).tolist())  # one host read
        if lo < 0:
            raise IndexOutOfRange(f"bincount: input must be non-negative, got a minimum of {lo}")
        size = max(size, hi + 1)
    if weights is None:
        ones = nr.broadcast_to(nr.ones(1, dtype=dt.int64, device=x.device), (n,))  # stride 0: no n-sized buffer
        return nr.index_add(nr.zeros(size, dtype=dt.int64, device=x.device), 0, idx, ones)
    w = as_tensor(weights, x)
    if tuple(w.shape) != (n,):
        raise ShapeError(f"bincount: weights must have the input's shape ({n},), got {tuple(w.shape)}")
    w = w if w.dtype.is_floating_point else float_input("bincount", w)[0]
    return nr.index_add(nr.zeros(size, dtype=w.dtype, device=x.device), 0, idx, w)



def vector_norm_any(x: Any, ord: Any = 2, dim: Any = None, keepdim: bool = False) -> Any:
    import numr as nr
    x = as_tensor(x)
    if x.dtype.is_complex:
        a = nr.abs(x)
        xc, out = float_input("vector_norm", a)
    else:
        xc, out = float_input("vector_norm", x)
        a = nr.abs(xc)
    if isinstance(ord, str) or not isinstance(ord, (int, float)):
        raise ShapeError(f"vector_norm: ord must be a number (inf allowed), got {ord!r}")
    dims = normalize_dims(dim, xc.ndim, "vector_norm")
    if ord == 2:
        r = _zero_safe(nr.sum(a * a if x.dtype.is_complex else xc * xc, dims, keepdim), nr.sqrt)
    elif ord == 1:
        r = nr.sum(a, dims, keepdim)
    elif math.isinf(ord):
        if numel(xc.shape[d] for d in dims) == 0:
            raise IndexOutOfRange(f"vector_norm: ord={ord} of an empty reduction (shape {tuple(xc.shape)})")
        r = (nr.amax if ord > 0 else nr.amin)(a, dims, keepdim)
    elif ord == 0:
        r = nr.sum(nr.cast(plain(a) != 0, a.dtype), dims, keepdim)
    else:
        p = float(ord)
        powers = _zero_safe(a, lambda t: nr.pow(t, p)) if 0 < p < 1 else nr.pow(a, p)
        s = nr.sum(powers, dims, keepdim)
        r = _zero_safe(s, lambda t: nr.pow(t, 1.0 / p)) if p > 0 else nr.pow(s, 1.0 / p)
    return cast_to(r, out)


def _zero_safe(s: Any, fn: Any) -> Any:
    """fn(s), 0 where s is 0, with a zero gradient there (torch's subgradient of a norm at zero)
    rather than the NaN of inf * 0 from fn's derivative."""
    import numr as nr
    zero = plain(s) == 0
    return nr.where(zero, 0.0, fn(nr.where(zero, 1.0, s)))


def norm_any(x: Any, ord: Any = 2, dim: Any = None, keepdim: bool = False) -> Any:
    return vector_norm_any(x, 2 if ord in (None, "fro") else ord, dim, keepdim)


COMPOSITES = {"logsumexp": logsumexp_any, "logcumsumexp": logcumsumexp_any, "nansum": nansum_any,
              "nanmean": nanmean_any, "count_nonzero": count_nonzero_any, "var_mean": var_mean_any,
              "std_mean": std_mean_any, "diff": diff_any, "cov": cov_any, "corrcoef": corrcoef_any,
              "histc": histc_any, "bincount": bincount_any, "vector_norm": vector_norm_any, "norm": norm_any}
