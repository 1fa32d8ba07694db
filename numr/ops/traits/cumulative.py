"""Scans along one dim (None flattens first, as NumPy)."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from ...tensor import Tensor


@runtime_checkable
class CumulativeOps(Protocol):
    def cumsum(self, x: Tensor, dim: "int | None" = None) -> Tensor: """Running sum (sum's dtype rule)."""
    def cumprod(self, x: Tensor, dim: "int | None" = None) -> Tensor: """Running product (sum's dtype rule)."""
