"""Activation functions (filled in by the autograd/activation issue)."""

from __future__ import annotations

from typing import Protocol, runtime_checkable


@runtime_checkable
class ActivationOps(Protocol):
    pass
