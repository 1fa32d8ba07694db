"""Shared helpers of the vector-math accuracy tests (tests/ops/test_vmath_*.py)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np


def near(v) -> np.ndarray:
    """v and its neighbours one ulp either side."""
    v = np.asarray(v, dtype=np.float64)
    return np.concatenate([v, np.nextafter(v, np.inf), np.nextafter(v, -np.inf)])


def libm(f: Callable[..., float], fallback: Callable[..., float], *args: np.ndarray) -> np.ndarray:
    """f (a function of Python's math module: glibc, correctly rounded or nearly) element by
    element over the broadcast ``args``; ``fallback`` (NumPy's) where math raises instead of
    returning inf or NaN. NumPy 2 on AVX-512 machines computes many functions with SVML, up to
    ~2 ulp off, so it only supplies those special values."""
    def one(*vs: float) -> float:
        try:
            return f(*vs)
        except (OverflowError, ValueError):
            with np.errstate(all="ignore"):
                return float(fallback(*(np.float64(v) for v in vs)))

    with np.errstate(all="ignore"):
        return np.frompyfunc(one, len(args), 1)(*args).astype(np.float64)
