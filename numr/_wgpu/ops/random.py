"""wgpu random ops."""

from __future__ import annotations


class RandomWgpu:
    """Mixin of WgpuClient: the random ops."""
