"""Argument checks of the random ops (rand, randn, randint) shared by the backends."""

from __future__ import annotations

from typing import Any

from .. import dtypes as dt
from ..dtypes import DType
from ..errors import DTypeError, ShapeError


def float_dtype(op: str, dtype: Any) -> DType:
    """rand/randn's dtype: a float dtype, else DTypeError."""
    d = dt.dtype(dtype)
    if d.kind != "f":
        raise DTypeError(f"{op}: needs a float dtype, got {d}")
    return d


def randint_args(low: int, high: int, dtype: Any) -> tuple[DType, int]:
    """randint's (integer dtype, span high - low), the span in (0, 2**64]."""
    d = dt.dtype(dtype)
    if not d.is_integer:
        raise DTypeError(f"randint: needs an integer dtype, got {d}")
    span = high - low
    if span <= 0 or span > 1 << 64:
        raise ShapeError(f"randint: empty or too wide range [{low}, {high})")
    return d, span
