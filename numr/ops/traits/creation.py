"""Tensor creation on one device. Allocations are not zeroed: zeros fills."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from ...dtypes import DType
from ...tensor import Tensor


@runtime_checkable
class CreationOps(Protocol):
    def empty(self, shape: tuple[int, ...], dtype: DType) -> Tensor: """Uninitialised contiguous tensor."""
    def full(self, shape: tuple[int, ...], value: "bool | int | float | complex", dtype: DType) -> Tensor:
        """Tensor filled with value."""
    def arange(self, start: float, step: float, n: int, dtype: DType) -> Tensor:
        """start + i*step for i < n, computed in float64 (or int64) then cast."""
    def linspace(self, start: float, stop: float, n: int, endpoint: bool, dtype: DType) -> Tensor:
        """n evenly spaced values; the last equals stop exactly when endpoint."""
    def eye(self, n: int, m: int, k: int, dtype: DType) -> Tensor: """Ones on diagonal k of an n x m matrix."""
