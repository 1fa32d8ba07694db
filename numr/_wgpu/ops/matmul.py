"""wgpu matmul ops."""

from __future__ import annotations


class MatmulWgpu:
    """Mixin of WgpuClient: the matmul ops."""
