"""wgpu reduce ops."""

from __future__ import annotations


class ReduceWgpu:
    """Mixin of WgpuClient: the reduce ops."""
