"""CPU implementation of the logical op family (see numr/ops/traits/logical.py)."""

from __future__ import annotations


class LogicalCpu:
    """Mixin of CpuClient: the logical ops."""
