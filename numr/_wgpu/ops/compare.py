"""wgpu compare ops."""

from __future__ import annotations


class CompareWgpu:
    """Mixin of WgpuClient: the compare ops."""
