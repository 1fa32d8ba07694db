"""CUDA comparisons (kernels/compare.cu): bool results; isclose/allclose are generic composites."""

from __future__ import annotations

from typing import Any

from ...tensor import Tensor
from .binary import binary


def _make(op: str):
    def f(self: Any, a: Any, b: Any) -> Tensor:
        return binary(self, "compare", op, [a, b])

    f.__name__ = op
    f.__doc__ = f"a {op} b on the GPU (kernels/compare.cu)."
    return f


class CompareCuda:
    """Mixin of CudaClient: eq ne lt le gt ge."""

    eq, ne, lt, le, gt, ge = (_make(o) for o in ("eq", "ne", "lt", "le", "gt", "ge"))
