"""Shared inputs and tolerances of the decomposition tests (test_linalg_decomp.py,
test_linalg_spectral.py): random real/complex matrices, Hermitian ones, float64/complex128 views."""

from __future__ import annotations

import numpy as np

import numr as nr

RNG = np.random.default_rng(7)
DTYPES = ["float32", "float64", "complex64", "complex128"]


def rand(shape, dtype="float64", shift=0.0):
    a = RNG.standard_normal(shape)
    if "complex" in dtype:
        a = a + 1j * RNG.standard_normal(shape)
    return (a + shift * np.eye(shape[-1]) if shift else a).astype(nr.dtype(dtype).np)


def hermitian(shape, dtype, shift=0.0):
    a = rand(shape, dtype)
    n = shape[-1]
    return (a @ np.swapaxes(a, -1, -2).conj() + shift * np.eye(n)).astype(a.dtype) if shift else \
        ((a + np.swapaxes(a, -1, -2).conj()) / 2).astype(a.dtype)


def tol(dtype, scale=1.0):
    return {"rtol": 1e-9 * scale, "atol": 1e-9 * scale} if dtype.endswith("64") and dtype != "complex64" \
        else {"rtol": 2e-4 * scale, "atol": 2e-4 * scale}


def wide(a):
    return a.astype(np.complex128 if np.iscomplexobj(a) else np.float64)


def mH(a):
    return np.swapaxes(a, -1, -2).conj()


def eye_like(n, batch=()):
    return np.broadcast_to(np.eye(n), batch + (n, n))


def on(device, *dtypes):
    """A maker of tensors on ``device`` (nr.tensor with the device bound); complex dtypes skip on
    wgpu (no complex tensors; cuda runs the complex composites)."""
    import pytest
    if device == "wgpu" and any("complex" in d for d in dtypes):
        pytest.skip("wgpu has no complex dtype")

    def make(x, dtype=None):
        return nr.tensor(x, dtype=dtype, device=device)
    return make
