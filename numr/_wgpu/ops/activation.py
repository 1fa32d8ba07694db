"""wgpu activation ops."""

from __future__ import annotations


class ActivationWgpu:
    """Mixin of WgpuClient: the activation ops."""
