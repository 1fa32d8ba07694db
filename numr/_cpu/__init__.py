"""The CPU backend: Cython kernels (nogil, OpenMP) over NumPy-allocated storage."""
