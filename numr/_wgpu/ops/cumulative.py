"""wgpu cumulative ops."""

from __future__ import annotations


class CumulativeWgpu:
    """Mixin of WgpuClient: the cumulative ops."""
