"""CPU implementation of the conditional op family (see numr/ops/traits/conditional.py)."""

from __future__ import annotations


class ConditionalCpu:
    """Mixin of CpuClient: the conditional ops."""
