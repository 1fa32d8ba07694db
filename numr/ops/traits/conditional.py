"""Selection by a condition."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from ...tensor import Tensor


@runtime_checkable
class ConditionalOps(Protocol):
    def where(self, cond: Tensor, a: Tensor, b: Tensor) -> Tensor:
        """a where cond is true, else b; all three broadcast, a and b promote."""
