"""wgpu indexing ops."""

from __future__ import annotations


class IndexingWgpu:
    """Mixin of WgpuClient: the indexing ops."""
