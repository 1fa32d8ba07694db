"""wgpu comparisons (bool results); isclose/allclose come from GenericOps."""

from __future__ import annotations

from typing import Any

from ...tensor import Tensor
from .binary import binary


class CompareWgpu:
    """Mixin of WgpuClient: the compare ops."""

    def eq(self, a: Any, b: Any) -> Tensor: return binary(self, "eq", [a, b])
    def ne(self, a: Any, b: Any) -> Tensor: return binary(self, "ne", [a, b])
    def lt(self, a: Any, b: Any) -> Tensor: return binary(self, "lt", [a, b])
    def le(self, a: Any, b: Any) -> Tensor: return binary(self, "le", [a, b])
    def gt(self, a: Any, b: Any) -> Tensor: return binary(self, "gt", [a, b])
    def ge(self, a: Any, b: Any) -> Tensor: return binary(self, "ge", [a, b])
