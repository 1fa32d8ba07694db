"""Logical ops (and or xor not) against NumPy: operands of every dtype read as truth
values (x != 0, NaN is true, -0.0 is false), every layout case, broadcasting,
scalars and mixed dtypes; results are bool."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_close
from elementwise_cases import ALL, VIEWS, make, run, seed, values, view_pair, wide

import numr as nr

NP = {"logical_and": np.logical_and, "logical_or": np.logical_or, "logical_xor": np.logical_xor}


def sparse_values(d, n, rng):
    """Values with many zeros (and -0.0), so both truth values occur."""
    v = values(d, n, rng)
    if n:
        v[rng.random(n) < 0.4] = 0
    return v


@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize("op", sorted(NP))
def test_logical_binary(device, op, dtype):
    d = nr.dtype(dtype)
    rng = np.random.default_rng(seed(op, dtype))
    for view in VIEWS:
        shape = view[1]
        n = int(np.prod(shape))
        an, at = view_pair(view, device, dtype, sparse_values(d, n, rng).reshape(shape))
        bn, bt = view_pair(view, device, dtype, sparse_values(d, n, rng).reshape(shape))
        got = run(device, getattr(nr, op), at, bt)
        try:
            assert_close(got, NP[op](wide(np.asarray(an)), wide(np.asarray(bn))), dtype="bool")
        except AssertionError as e:
            raise AssertionError(f"{op} {dtype} case {view[0]}: {e}") from None
    a2, b2 = sparse_values(d, 3, rng).reshape(3, 1), sparse_values(d, 4, rng).reshape(1, 4)
    assert_close(run(device, getattr(nr, op), make(a2, device, dtype), make(b2, device, dtype)),
                 NP[op](wide(a2), wide(b2)), dtype="bool")
    v = sparse_values(d, 5, rng)
    for s in (True, 0):
        assert_close(run(device, getattr(nr, op), make(v, device, dtype), s), NP[op](wide(v), s), dtype="bool")


@pytest.mark.parametrize("dtype", ALL)
def test_logical_not(device, dtype):
    d = nr.dtype(dtype)
    rng = np.random.default_rng(11)
    for view in VIEWS:
        shape = view[1]
        an, at = view_pair(view, device, dtype, sparse_values(d, int(np.prod(shape)), rng).reshape(shape))
        assert_close(run(device, nr.logical_not, at), np.logical_not(wide(np.asarray(an))), dtype="bool")


def test_nan_and_negative_zero(device):
    a = np.array([np.nan, -0.0, 0.0, 1.0], np.float32)
    b = np.array([1.0, 1.0, np.nan, -0.0], np.float32)
    at, bt = make(a, device, "float32"), make(b, device, "float32")
    for op, f in NP.items():
        assert_close(run(device, getattr(nr, op), at, bt), f(a, b), dtype="bool")
    assert_close(~(at != 0), np.logical_not(a), dtype="bool")


def test_mixed_dtypes(device):
    a = np.array([0, 1, 2, 0], np.int32)
    b = np.array([0.0, 0.0, 0.5, np.nan], np.float16)
    for op, f in NP.items():
        assert_close(run(device, getattr(nr, op), make(a, device, "int32"), make(b, device, "float16")),
                     f(a, b), dtype="bool")


def test_errors(device):
    a = make(np.ones((2, 3), bool), device, "bool")
    b = make(np.ones((2, 2), bool), device, "bool")
    with pytest.raises(nr.ShapeError, match="logical_or"):
        nr.logical_or(a, b)
