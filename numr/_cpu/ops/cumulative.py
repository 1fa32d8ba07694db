"""CPU implementation of the cumulative op family (see numr/ops/traits/cumulative.py)."""

from __future__ import annotations


class CumulativeCpu:
    """Mixin of CpuClient: the cumulative ops."""
