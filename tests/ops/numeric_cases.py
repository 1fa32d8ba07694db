"""Helpers shared by the statistics, polynomial, numeric and NaN-reduction tests: tensors on a device (a skip
where the backend cannot hold the dtype), a skip where it cannot compute in it, NumPy oracles
without their RuntimeWarnings, and a check that each of several calls raises."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import numr as nr


def make(a, device, dtype=None):
    try:
        return nr.tensor(a, dtype=dtype, device=device)
    except nr.UnsupportedOperation as e:
        pytest.skip(str(e))


def needs(device, dtype):
    """Skip where the backend cannot compute in ``dtype`` (wgpu without shader-f64 or
    shader-int64: int64 tensors hold data and indices there, not arithmetic)."""
    try:
        make(np.arange(2), device, dtype) + 1
    except nr.UnsupportedDType as e:
        pytest.skip(str(e))


def oracle(fn, *args, **kw):
    """fn(*args, **kw) with NumPy's warnings (all-NaN slices, division by zero) silenced."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        return fn(*args, **kw)


def raises_each(error, *calls):
    """Every call raises ``error``."""
    for call in calls:
        with pytest.raises(error):
            call()
