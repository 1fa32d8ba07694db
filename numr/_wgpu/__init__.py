"""The WebGPU runtime: WGSL compute shaders through wgpu-py (``wgpu==0.32.0``)."""
