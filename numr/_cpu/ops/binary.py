"""CPU implementation of the binary op family (see numr/ops/traits/binary.py)."""

from __future__ import annotations


class BinaryCpu:
    """Mixin of CpuClient: the binary ops."""
