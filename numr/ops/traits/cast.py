"""Dtype conversion and strided copies (the primitive behind contiguous,
clone, setitem and cross-dtype copies)."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from ...dtypes import DType
from ...tensor import Tensor


@runtime_checkable
class TypeConversionOps(Protocol):
    def cast(self, x: Tensor, dtype: DType) -> Tensor:
        """A new contiguous tensor of ``dtype`` (NumPy's conversion results; NaN/inf to
        integers follow the rule in docs/architecture.md)."""
    def copy_(self, dst: Tensor, src: Tensor) -> Tensor:
        """Write ``src`` (broadcast to dst's shape, cast to dst's dtype) into ``dst``; returns dst."""
