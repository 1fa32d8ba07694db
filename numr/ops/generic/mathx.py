"""NumPy's element-wise math extras written once with public functions (so autograd, reverse and
forward, differentiates them through their parts): logaddexp/logaddexp2 (the max-shifted form of
statistics.logaddexp), heaviside, float_power (float64/complex128 pow), deg2rad/rad2deg and their
NumPy aliases, fix (trunc), positive, spacing (nextafter away from 0, minus x).
Half and float8 compute in float32 and return their own dtype; bool/int inputs of float-valued
ops compute in the default float."""

from __future__ import annotations

import math
from typing import Any

from ... import dtypes as dt
from ...errors import DTypeError
from .. import dtype_rules
from ..prepare import plain, promoted
from .statistics import as_tensor, cast_to, float_input
from .statistics import logaddexp as _logaddexp

_LN2 = math.log(2.0)


def _float_pair(op: str, a: Any, b: Any) -> tuple[Any, Any, dt.DType]:
    """(a, b) as tensors of their common float compute dtype (half/float8 in float32), the result
    dtype; DTypeError for complex."""
    import numr as nr
    out = dtype_rules.binary_dtypes(op, promoted(op, [a, b]))[1]
    ct = out if out in (dt.float32, dt.float64) else dt.float32
    like = a if hasattr(a, "dtype") else b
    a, b = (as_tensor(v, like) for v in (a, b))
    return (a if a.dtype is ct else nr.cast(a, ct)), (b if b.dtype is ct else nr.cast(b, ct)), out


def logaddexp_any(a: Any, b: Any) -> Any:
    """log(exp(a) + exp(b)) = max + log1p(exp(-|a - b|)): no overflow, exact at +-inf."""
    a, b, out = _float_pair("logaddexp", a, b)
    return cast_to(_logaddexp(a, b), out)


def logaddexp2_any(a: Any, b: Any) -> Any:
    """log2(2**a + 2**b): logaddexp of a*ln2 and b*ln2, over ln2."""
    a, b, out = _float_pair("logaddexp2", a, b)
    return cast_to(_logaddexp(a * _LN2, b * _LN2) * (1.0 / _LN2), out)


def heaviside_any(x: Any, values: Any) -> Any:
    """NumPy's step: 0 below 0, ``values`` at 0, 1 above, NaN at NaN. Piecewise constant: the
    result is a constant for autograd (torch does not differentiate it either)."""
    import numr as nr
    x, v, out = _float_pair("heaviside", plain(x), plain(values))
    step = nr.where(x > 0, 1.0, nr.where(x < 0, 0.0, x))  # NaN stays NaN
    return cast_to(nr.where(x == 0, v, step), out)


def float_power_any(a: Any, b: Any) -> Any:
    """a ** b in float64, or complex128 when either operand is complex (NumPy, torch)."""
    import numr as nr
    d = promoted("float_power", [a, b])
    ct = dt.complex128 if d.is_complex else dt.float64
    like = a if hasattr(a, "dtype") else b
    a, b = (as_tensor(v, like) for v in (a, b))
    return nr.pow(cast_to(a, ct), cast_to(b, ct))


def _scale(op: str, x: Any, k: float) -> Any:
    x, out = float_input(op, x)
    return cast_to(x * k, out)


def deg2rad_any(x: Any) -> Any:
    """x * pi / 180."""
    return _scale("deg2rad", x, math.pi / 180.0)


def rad2deg_any(x: Any) -> Any:
    """x * 180 / pi."""
    return _scale("rad2deg", x, 180.0 / math.pi)


def fix_any(x: Any) -> Any:
    """Round toward 0 (NumPy's fix; trunc)."""
    import numr as nr
    return nr.trunc(x)


def positive_any(x: Any) -> Any:
    """+x as a copy (NumPy); bool raises as in NumPy and torch."""
    import numr as nr
    x = as_tensor(x)
    if x.dtype is dt.bool_:
        raise DTypeError(f"positive: dtype bool is not supported (shape {tuple(x.shape)})")
    return nr.mul(x, 1)  # a copy that keeps -0.0 and NaN payloads, and the autograd graph


def spacing_any(x: Any) -> Any:
    """nextafter(x, +-inf) - x, toward -inf for x < 0 (NumPy: spacing(-0.0) is positive); NaN for
    inf and NaN. Piecewise constant: a constant for autograd."""
    import numr as nr
    x, out = float_input("spacing", plain(x))
    if out is not x.dtype:  # half/float8: the gap of their own format, not float32's
        x = nr.cast(x, out)
    inf = nr.full((), math.inf, dtype=x.dtype, device=x.device)
    return nr.nextafter(x, nr.where(x < 0, -inf, inf)) - x


COMPOSITES = {"logaddexp": logaddexp_any, "logaddexp2": logaddexp2_any, "heaviside": heaviside_any,
              "float_power": float_power_any, "deg2rad": deg2rad_any, "rad2deg": rad2deg_any,
              "radians": deg2rad_any, "degrees": rad2deg_any, "fix": fix_any, "positive": positive_any,
              "spacing": spacing_any}
