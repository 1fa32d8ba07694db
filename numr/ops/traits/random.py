"""Seeded random numbers from Philox4x32-10; the same seed and stream give the
same numbers on every backend (see docs/architecture.md, "Random numbers")."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from ...dtypes import DType
from ...tensor import Tensor


@runtime_checkable
class RandomOps(Protocol):
    def rand(self, shape: tuple[int, ...], dtype: DType, seed: int, stream: int) -> Tensor:
        """Uniform on [0, 1)."""
    def randn(self, shape: tuple[int, ...], dtype: DType, seed: int, stream: int) -> Tensor:
        """Standard normal (Box-Muller)."""
    def randint(self, low: int, high: int, shape: tuple[int, ...], dtype: DType, seed: int, stream: int) -> Tensor:
        """Integers uniform on [low, high)."""
