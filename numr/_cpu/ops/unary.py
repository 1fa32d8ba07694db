"""CPU implementation of the unary op family (see numr/ops/traits/unary.py)."""

from __future__ import annotations


class UnaryCpu:
    """Mixin of CpuClient: the unary ops."""
