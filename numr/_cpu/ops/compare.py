"""CPU implementation of the compare op family (see numr/ops/traits/compare.py)."""

from __future__ import annotations


class CompareCpu:
    """Mixin of CpuClient: the compare ops."""
