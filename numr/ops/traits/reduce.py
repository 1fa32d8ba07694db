"""Reductions over ``dim`` (None = every dim, an int, or a tuple). Reducing
every dim gives a 0-d tensor. Dtype rules: ``numr.ops.dtype_rules``."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from ...tensor import Tensor

Dims = "int | tuple[int, ...] | None"


@runtime_checkable
class ReduceOps(Protocol):
    def sum(self, x: Tensor, dim: Dims = None, keepdim: bool = False) -> Tensor:
        """Sum (bool/int -> int64, uint -> uint64; float32 pairwise-accurate)."""
    def mean(self, x: Tensor, dim: Dims = None, keepdim: bool = False) -> Tensor: """Arithmetic mean."""
    def prod(self, x: Tensor, dim: Dims = None, keepdim: bool = False) -> Tensor: """Product."""
    def max(self, x: Tensor, dim: Dims = None, keepdim: bool = False) -> Tensor: """Maximum (NaN propagates)."""
    def min(self, x: Tensor, dim: Dims = None, keepdim: bool = False) -> Tensor: """Minimum (NaN propagates)."""
    def amax(self, x: Tensor, dim: Dims = None, keepdim: bool = False) -> Tensor: """Same as max."""
    def amin(self, x: Tensor, dim: Dims = None, keepdim: bool = False) -> Tensor: """Same as min."""
    def argmax(self, x: Tensor, dim: "int | None" = None, keepdim: bool = False) -> Tensor:
        """int64 index of the first maximum (first NaN wins); None flattens."""
    def argmin(self, x: Tensor, dim: "int | None" = None, keepdim: bool = False) -> Tensor:
        """int64 index of the first minimum (first NaN wins); None flattens."""
    def any(self, x: Tensor, dim: Dims = None, keepdim: bool = False) -> Tensor: """Any true (bool)."""
    def all(self, x: Tensor, dim: Dims = None, keepdim: bool = False) -> Tensor: """All true (bool)."""
    def var(self, x: Tensor, dim: Dims = None, correction: float = 0, keepdim: bool = False) -> Tensor:
        """Variance with ``correction`` (0: population, 1: sample)."""
    def std(self, x: Tensor, dim: Dims = None, correction: float = 0, keepdim: bool = False) -> Tensor:
        """Standard deviation, sqrt(var)."""
