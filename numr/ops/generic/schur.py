"""rsf2csf (scipy.linalg.rsf2csf) written once with numr's public functions, so every backend runs
it (schur itself and funm are native CPU kernels: numr/_cpu/ops/schur.py). Batched: each 2x2 block
of the real Schur forms is rotated at once, an identity rotation where a matrix has none."""

from __future__ import annotations

from typing import Any

from ... import dtypes as dt
from ...errors import DTypeError, ShapeError
from .decomp import _eps, _mH
from .methods import client_methods


def _complex_copy(x: Any, d: Any) -> Any:
    """A fresh copy of x in the complex type of d (complex128 for float64, else complex64): it is
    rotated in place below."""
    import numr as nr
    cd = d if d.kind == "c" else dt.complex128 if d is dt.float64 else dt.complex64
    return nr.cast(x, cd) if x.dtype is not cd else x * 1


def rsf2csf_any(T: Any, Z: Any) -> tuple[Any, Any]:
    """For m = n-1 .. 1: a 2x2 block (|T[m, m-1]| > eps (|T[m-1, m-1]| + |T[m, m]|)) is made
    triangular by the Givens rotation G = [[conj(c), s], [-s, c]] from its eigenvalue mu of positive
    imaginary part (c, s = (mu - T[m, m], T[m, m-1]) / norm), applied to T's rows and columns and
    Z's columns; then T[m, m-1] = 0."""
    import numr as nr
    for name, x in (("T", T), ("Z", Z)):
        if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
            raise ShapeError(f"rsf2csf: {name} must be square matrices, got shape {tuple(x.shape)}")
        if x.dtype.kind not in "fc":
            raise DTypeError(f"rsf2csf: needs floating-point or complex tensors, got {name} {x.dtype}")
    if tuple(T.shape) != tuple(Z.shape):
        raise ShapeError(f"rsf2csf: T {tuple(T.shape)} and Z {tuple(Z.shape)} must have one shape")
    d = dt.promote_types(T.dtype, Z.dtype)
    T, Z = _complex_copy(T, d), _complex_copy(Z, d)
    eps, n = _eps(T), T.shape[-1]
    for m in range(n - 1, 0, -1):
        p, q = T[..., m - 1, m - 1], T[..., m - 1, m]
        r, s = T[..., m, m - 1], T[..., m, m]
        big = nr.abs(r) > eps * (nr.abs(p) + nr.abs(s))
        h = (p - s) * 0.5
        sq = nr.sqrt(h * h + q * r)
        mu = h + nr.where(nr.imag(sq) < 0, -sq, sq)
        nrm = nr.sqrt(nr.abs(mu) ** 2 + nr.abs(r) ** 2)
        nrm = nr.cast(nr.where(big, nrm, 1.0), T.dtype)
        c = nr.where(big, mu / nrm, 1.0)
        sn = nr.where(big, r / nrm, 0.0)
        G = nr.stack([nr.stack([nr.conj(c), sn], -1), nr.stack([-sn, c], -1)], -2)
        Gh = _mH(G)
        T[..., m - 1:m + 1, m - 1:] = G @ T[..., m - 1:m + 1, m - 1:]
        T[..., :m + 1, m - 1:m + 1] = T[..., :m + 1, m - 1:m + 1] @ Gh
        Z[..., :, m - 1:m + 1] = Z[..., :, m - 1:m + 1] @ Gh
        T[..., m, m - 1] = 0
    return T, Z


#: public name -> the composite taking the public arguments
COMPOSITES = {"rsf2csf": rsf2csf_any}

GENERIC = client_methods(COMPOSITES)
