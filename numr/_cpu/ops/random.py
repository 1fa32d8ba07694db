"""CPU implementation of the random op family (see numr/ops/traits/random.py)."""

from __future__ import annotations


class RandomCpu:
    """Mixin of CpuClient: the random ops."""
