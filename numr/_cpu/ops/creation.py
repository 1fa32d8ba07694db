"""CPU implementation of the creation op family (see numr/ops/traits/creation.py)."""

from __future__ import annotations


class CreationCpu:
    """Mixin of CpuClient: the creation ops."""
