"""CPU op families, one module per family (same names as numr/ops/traits/)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType


def lazy_kernels(name: str) -> Callable[[], ModuleType]:
    """A loader of the extension numr._cpu.kernels.<name>, imported on its first call (so
    numr imports, and reports the missing build, before any kernel is needed)."""
    module: ModuleType | None = None

    def get() -> ModuleType:
        nonlocal module
        if module is None:
            module = importlib.import_module(f"numr._cpu.kernels.{name}")
        return module
    return get
