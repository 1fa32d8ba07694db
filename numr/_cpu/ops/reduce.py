"""CPU implementation of the reduce op family (see numr/ops/traits/reduce.py)."""

from __future__ import annotations


class ReduceCpu:
    """Mixin of CpuClient: the reduce ops."""
