"""Shared fixtures: the backend parametrisation and per-dtype tolerances.

Every op test takes the ``device`` fixture and runs once per backend that is
available here. NUMR_REQUIRE_BACKENDS=cpu,wgpu (CI) turns a missing backend
into a failure instead of a skip.
"""

from __future__ import annotations

import os

import numpy as np
import pytest
from hypothesis import settings

import numr as nr

# CI (CI=true) draws the same Hypothesis examples every run, so a green run stays green;
# local runs keep exploring new examples.
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

BACKENDS = ("cpu", "wgpu", "cuda")
_REQUIRED = {b for b in os.environ.get("NUMR_REQUIRE_BACKENDS", "").split(",") if b}

# relative/absolute tolerances against a float64 NumPy oracle, by dtype name
TOLERANCES = {
    "float64": (1e-12, 1e-12),
    "float32": (2e-6, 1e-6),
    "float16": (2e-3, 1e-3),
    "bfloat16": (1.6e-2, 1e-2),
    "float8_e4m3fn": (1.3e-1, 1.6e-2),
    "float8_e5m2": (2.6e-1, 3.2e-2),
    "complex64": (2e-6, 1e-6),
    "complex128": (1e-12, 1e-12),
}


def tolerance(dtype) -> tuple[float, float]:
    """(rtol, atol) for results of ``dtype``; exact (0, 0) for bool and integers."""
    return TOLERANCES.get(nr.dtype(dtype).name, (0.0, 0.0))


def _backend_status(name: str) -> str | None:
    """None when usable, else the reason it is not."""
    try:
        rt = nr.runtime.get(name)
    except Exception as e:  # an import error in a backend is a reason, shown in the skip
        return f"{name} runtime failed to load: {e}"
    if not rt.is_available():
        return rt.unavailable_reason() or f"{name} unavailable"
    return None


def pytest_report_header(config):
    lines = []
    for b in BACKENDS:
        why = _backend_status(b)
        lines.append(f"numr backend {b}: {'available' if why is None else 'SKIPPED: ' + why}")
    return lines


@pytest.fixture(scope="session", params=BACKENDS)
def device(request):
    """A device string per backend; skips (or fails, when required) where unavailable."""
    name = request.param
    why = _backend_status(name)
    if why is not None:
        if name in _REQUIRED:
            pytest.fail(f"backend {name} is required (NUMR_REQUIRE_BACKENDS) but unavailable: {why}")
        pytest.skip(f"backend {name} unavailable: {why}")
    return name


def assert_close(actual, expected, dtype=None, rtol=None, atol=None, equal_nan=True):
    """Compare a numr tensor with a NumPy oracle: shape, dtype (when given) and values."""
    assert isinstance(actual, nr.Tensor), f"expected a numr.Tensor, got {type(actual).__name__}"
    expected = np.asarray(expected)
    assert actual.shape == expected.shape, f"shape {actual.shape} != expected {expected.shape}"
    if dtype is not None:
        assert actual.dtype == nr.dtype(dtype), f"dtype {actual.dtype} != expected {nr.dtype(dtype)}"
    d = actual.dtype
    r, a = tolerance(d)
    r = r if rtol is None else rtol
    a = a if atol is None else atol
    got = actual.numpy()
    if d.kind in "biu":
        np.testing.assert_array_equal(got, expected.astype(d.np))
        return
    wide = np.complex128 if d.is_complex else np.float64
    np.testing.assert_allclose(got.astype(wide), expected.astype(wide), rtol=r, atol=a, equal_nan=equal_nan)
