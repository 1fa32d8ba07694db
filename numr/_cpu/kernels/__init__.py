"""Compiled CPU kernels (Cython extensions built by setup.py)."""
