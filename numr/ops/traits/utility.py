"""Clamping and filling."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from ...tensor import Tensor


@runtime_checkable
class UtilityOps(Protocol):
    def clamp(self, x: Tensor, min: "Tensor | float | None" = None,
              max: "Tensor | float | None" = None) -> Tensor:
        """Limit x to [min, max] (NaN stays NaN; bounds broadcast)."""
    def fill_(self, x: Tensor, value: "bool | int | float | complex") -> Tensor:
        """Set every element of x (a view is fine) to value; returns x."""
