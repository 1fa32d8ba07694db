"""CPU implementation of the matmul op family (see numr/ops/traits/matmul.py)."""

from __future__ import annotations


class MatmulCpu:
    """Mixin of CpuClient: the matmul ops."""
