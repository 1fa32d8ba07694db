"""The CUDA backend: NVRTC-compiled kernels launched through the driver API (cuda-python)."""
