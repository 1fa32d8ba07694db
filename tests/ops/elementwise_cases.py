"""Inputs shared by the element-wise op tests (unary, binary, compare, logical).

Each case builds the same view of the same values in NumPy and in numr, so the
oracle sees exactly what the kernel reads: empty, 0-d, size-1, contiguous,
non-contiguous (transposed, stepped), offset (sliced), flipped (negative
strides) and broadcast (stride 0) inputs.
"""

from __future__ import annotations

import zlib

import numpy as np
import pytest

import numr as nr

ALL = [d.name for d in nr.ALL_DTYPES]
LOWP = ("float16", "bfloat16", "float8_e4m3fn", "float8_e5m2")

# (name, base shape, view applied to both the NumPy array and the numr tensor)
VIEWS = [
    ("empty", (0,), lambda t: t),
    ("empty2d", (2, 0), lambda t: t),
    ("0d", (), lambda t: t),
    ("size1", (1, 1), lambda t: t),
    ("contig", (3, 5), lambda t: t),
    ("transposed", (5, 3), lambda t: t.T),
    ("stepped", (4, 9), lambda t: t[:, ::3]),
    ("offset", (4, 6), lambda t: t[1:, 2:]),
    ("offset_rows", (4, 6), lambda t: t[1:]),
    ("flipped", (3, 4), lambda t: t[::-1, ::-1]),
    ("broadcast", (1, 5), lambda t: broadcast(t, (3, 5))),
]


def seed(*parts: str) -> int:
    """A reproducible per-test seed (Python's str hash changes between runs)."""
    return zlib.crc32("-".join(parts).encode())


def broadcast(t, shape):
    if isinstance(t, np.ndarray):
        return np.broadcast_to(t, shape)
    return t.broadcast_to(shape)


def specials(d: nr.DType) -> list:
    """Edge values of a dtype: NaN/inf/zeros/extremes for floats, min/max for integers."""
    if d.kind == "b":
        return [True, False]
    if d.is_integer:
        info = np.iinfo(d.np)
        return [info.min, info.max, 0, 1, -1 if d.kind == "i" else 2, info.min + 1, info.max - 1]
    if d.is_complex:
        return [complex(np.nan, 1), complex(1, np.inf), 0j, 1e30 + 1e-30j, -1e-30 + 2j]
    fi = nr.finfo(d)
    vals = [np.nan, np.inf, -np.inf, 0.0, -0.0, float(fi.max), float(fi.tiny), -float(fi.smallest_subnormal)]
    if d.name == "float8_e4m3fn":  # no infinity in this format
        vals = [v for v in vals if not np.isinf(v)]
    return vals


def values(d: nr.DType, n: int, rng: np.random.Generator, lo: float = -4.0, hi: float = 4.0,
           edge: bool = True) -> np.ndarray:
    """n values of dtype d: random ones plus (when ``edge``) the dtype's special values."""
    if d.kind == "b":
        out = rng.random(n) > 0.5
    elif d.is_integer:
        info = np.iinfo(d.np)
        out = rng.integers(max(info.min, -100), min(info.max, 100), n, endpoint=True).astype(d.np)
    elif d.is_complex:
        out = (rng.uniform(lo, hi, n) + 1j * rng.uniform(lo, hi, n)).astype(d.np)
    else:
        out = rng.uniform(lo, hi, n).astype(d.np)
    if edge and n:
        sp = np.array(specials(d)[:n], dtype=d.np) if d.kind not in "f" else np.array(
            specials(d)[:n], dtype=np.float64).astype(d.np)
        out[: len(sp)] = sp
        rng.shuffle(out)
    return out


def make(a: np.ndarray, device: str, dtype: str):
    """A numr tensor holding a copy of ``a`` on ``device`` (skips when the backend lacks the dtype)."""
    try:
        return nr.tensor(a, dtype=dtype, device=device)
    except nr.UnsupportedOperation as e:
        pytest.skip(str(e))


def view_pair(view, device: str, dtype: str, base: np.ndarray):
    """(numpy view, numr view) of the same values."""
    _, _, fn = view
    return fn(base), fn(make(base, device, dtype))


def run(device: str, fn, *args):
    """Call fn; on a non-CPU backend an unsupported dtype is a skip, not a failure."""
    try:
        return fn(*args)
    except nr.UnsupportedOperation as e:
        if device == "cpu":
            raise
        pytest.skip(str(e))


def oracle_cast(expected: np.ndarray, d: nr.DType) -> np.ndarray:
    """The float64/complex128 oracle rounded to the result dtype (so overflow to inf matches),
    returned widened again for comparison."""
    if d.kind in "biu":
        return expected
    with np.errstate(all="ignore"):
        r = np.asarray(expected).astype(d.np)
    return r.astype(np.complex128 if d.is_complex else np.float64)


def wide(a: np.ndarray) -> np.ndarray:
    """The oracle's input: float64/complex128 for floats, unchanged for bool/integers."""
    if a.dtype.kind == "c":
        return a.astype(np.complex128)
    if a.dtype.kind in "biu":
        return a
    return a.astype(np.float64)
