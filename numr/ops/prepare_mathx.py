"""Shared preparation of the element-wise math extras whose operands are not one promoted dtype:
ldexp (a float and an integer exponent), nan_to_num (three replacement values), frexp (two results).
Every backend calls these, then launches its own kernel."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import dtypes as dt
from ..errors import DTypeError
from . import prepare

#: float dtypes whose kernels run in float32 (the exponent of ldexp is exact there up to 2**24)
LOWP = ("float16", "bfloat16", "float8_e4m3fn", "float8_e5m2")


def ldexp(client: Any, x: Any, n: Any) -> tuple[list[Any], tuple[int, ...], dt.DType, dt.DType]:
    """(inputs in the compute float, shape, compute dtype, result dtype) of x * 2**n: n must be
    integer; the result is x's float dtype (bool/int x: the default float); half and float8 compute
    in float32 so that n converts exactly."""
    nd = n.dtype if hasattr(n, "dtype") else None
    if (nd is not None and nd.kind not in "iu") or (nd is None and (isinstance(n, bool) or not isinstance(n, int))):
        raise DTypeError(f"ldexp: the exponent must be an integer tensor or int, got "
                         f"{nd if nd is not None else type(n).__name__}")
    xd = x.dtype if hasattr(x, "dtype") else None
    if xd is not None and xd.is_complex:
        raise DTypeError(f"ldexp: dtype {xd} is not supported: complex numbers are not ordered")
    out = xd if xd is not None and xd.is_floating_point else None
    if out is None:
        xt = prepare.as_tensor("ldexp", client, x)
        out = xt.dtype if xt.dtype.is_floating_point else dt.default_float
    compute = dt.float32 if out.name in LOWP else out
    ins, shape, _, _ = prepare.elementwise("ldexp", client, [x, n], compute)
    return ins, shape, compute, out


def nan_to_num_values(x: Any, nan: Any, posinf: Any, neginf: Any) -> tuple[float, float, float]:
    """The three replacement values as floats: posinf/neginf default to the largest and lowest
    finite values of x's (real) dtype, as NumPy."""
    d = dt.real_of(x.dtype) if x.dtype.is_complex else x.dtype
    info = dt.finfo(d)
    vals = []
    for name, v, default in (("nan", nan, 0.0), ("posinf", posinf, float(info.max)),
                             ("neginf", neginf, float(info.min))):
        v = default if v is None else v
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise DTypeError(f"nan_to_num: {name} must be a real number, got {v!r}")
        vals.append(float(v))
    return vals[0], vals[1], vals[2]


def nan_to_num(client: Any, x: Any, nan: Any, posinf: Any, neginf: Any,
               run: Callable[[Any, tuple[float, float, float]], Any]) -> Any:
    """nan_to_num on any backend: bool/int x is copied, complex x is done on its (re, im) view,
    a float x goes to the backend's ``run(x, (nan, posinf, neginf))``."""
    x = prepare.as_tensor("nan_to_num", client, x)
    if x.dtype.kind in "biu":
        return x.clone()
    vals = nan_to_num_values(x, nan, posinf, neginf)
    if x.dtype.is_complex:
        return client.view_as_complex(run(client.view_as_real(x.contiguous()), vals))
    return run(x, vals)


def values_tensor(client: Any, x: Any, vals: tuple[float, float, float]) -> tuple[Any, Any]:
    """(the 3 values as a tensor of x's dtype, that tensor's first element broadcast to x's shape
    with stride 0: the kernels read all three through it)."""
    from ..creation import tensor as make_tensor
    from ..layout import Layout
    from ..tensor import Tensor
    v = make_tensor(list(vals), dtype=x.dtype, device=client.device)
    return v, Tensor(v._storage, Layout(tuple(x.shape), (0,) * x.ndim, 0), x.dtype, client.device)


def frexp(client: Any, x: Any) -> tuple[Any, dt.DType]:
    """(x in its float compute dtype, mantissa dtype): bool/int go to the default float."""
    x, compute, out = prepare.unary("frexp", client, x)
    return x, out
