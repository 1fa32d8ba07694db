"""wgpu logical ops."""

from __future__ import annotations


class LogicalWgpu:
    """Mixin of WgpuClient: the logical ops."""
