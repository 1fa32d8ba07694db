"""wgpu conditional ops."""

from __future__ import annotations


class ConditionalWgpu:
    """Mixin of WgpuClient: the conditional ops."""
