"""CPU implementation of the utility op family (see numr/ops/traits/utility.py)."""

from __future__ import annotations


class UtilityCpu:
    """Mixin of CpuClient: the utility ops."""
