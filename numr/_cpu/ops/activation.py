"""CPU implementation of the activation op family (see numr/ops/traits/activation.py)."""

from __future__ import annotations


class ActivationCpu:
    """Mixin of CpuClient: the activation ops."""
