"""CPU implementation of the cast op family (see numr/ops/traits/cast.py)."""

from __future__ import annotations


class CastCpu:
    """Mixin of CpuClient: the cast ops."""
