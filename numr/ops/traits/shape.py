"""Joining tensors."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from ...tensor import Tensor


@runtime_checkable
class ShapeOps(Protocol):
    def cat(self, tensors: Sequence[Tensor], dim: int = 0) -> Tensor:
        """Concatenate along an existing dim (dtypes promote)."""
    def stack(self, tensors: Sequence[Tensor], dim: int = 0) -> Tensor:
        """Join equal-shaped tensors along a new dim."""
