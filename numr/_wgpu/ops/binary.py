"""wgpu binary ops."""

from __future__ import annotations


class BinaryWgpu:
    """Mixin of WgpuClient: the binary ops."""
