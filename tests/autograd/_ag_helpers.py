"""Helpers for the autograd tests: float64 inputs with controlled domains."""

from __future__ import annotations

import numpy as np
import pytest

import numr as nr


def rand64(shape, seed=0, lo=-2.0, hi=2.0):
    """A float64 numr tensor uniform in [lo, hi)."""
    rng = np.random.default_rng(seed)
    return nr.from_numpy(rng.uniform(lo, hi, size=shape))


@pytest.fixture
def rng():
    return np.random.default_rng(0)


def dt_of(device):
    """float64 where the backend has it, else float32."""
    try:
        return "float64" if nr.tensor([1.0], dtype="float64", device=device).dtype == nr.float64 else "float32"
    except nr.UnsupportedDType:
        return "float32"
