"""The fixture of the wgpu-only tests (imported by them; not a conftest.py, whose module
name would shadow tests/conftest.py): skipped where no adapter exists, unless CI requires the backend
(NUMR_REQUIRE_BACKENDS=...,wgpu), where a missing adapter fails instead."""

from __future__ import annotations

import os

import pytest

import numr as nr


@pytest.fixture(scope="session", name="wgpu_device")
def wgpu_device_fixture():
    rt = nr.runtime.get("wgpu")
    if not rt.is_available():
        if "wgpu" in os.environ.get("NUMR_REQUIRE_BACKENDS", "").split(","):
            pytest.fail(f"wgpu is required but unavailable: {rt.unavailable_reason()}")
        pytest.skip(f"wgpu unavailable: {rt.unavailable_reason()}")
    return rt.default_device()
