"""wgpu unary ops."""

from __future__ import annotations


class UnaryWgpu:
    """Mixin of WgpuClient: the unary ops."""
