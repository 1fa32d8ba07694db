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
