"""Comparisons (eq ne lt le gt ge) against NumPy: every dtype x layout case, NaN/inf,
signed zeros, integer extremes, broadcasting, Python scalars, mixed dtypes; bool
results; complex only for eq/ne; isclose/allclose (generic composites) spot checks."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_close
from elementwise_cases import ALL, VIEWS, make, run, seed, values, view_pair, wide

import numr as nr

NP = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal, "gt": np.greater,
      "ge": np.greater_equal}
OPERATOR = {"eq": "__eq__", "ne": "__ne__", "lt": "__lt__", "le": "__le__", "gt": "__gt__", "ge": "__ge__"}


def check(device, op, at, bt, an, bn, what):
    got = run(device, getattr(nr, op), at, bt)
    exp = NP[op](wide(np.asarray(an)), wide(np.asarray(bn)))
    try:
        assert_close(got, exp, dtype="bool")
    except AssertionError as e:
        raise AssertionError(f"{op} {what}: {e}") from None


@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize("op", sorted(NP))
def test_compare(device, op, dtype):
    d = nr.dtype(dtype)
    rng = np.random.default_rng(seed(op, dtype))
    if d.is_complex and op not in ("eq", "ne"):
        x = make(values(d, 3, rng), device, dtype)
        with pytest.raises(nr.DTypeError, match=op):
            getattr(nr, op)(x, x)
        return
    for view in VIEWS:
        shape = view[1]
        n = int(np.prod(shape))
        a = values(d, n, rng).reshape(shape)
        b = a.copy()  # equal values where the random mask says so, so eq/le/ge are exercised
        mask = rng.random(shape) < 0.5
        b[mask] = values(d, n, rng).reshape(shape)[mask]
        an, at = view_pair(view, device, dtype, a)
        bn, bt = view_pair(view, device, dtype, b)
        check(device, op, at, bt, an, bn, f"{dtype} case {view[0]}")
    a2, b2 = values(d, 3, rng).reshape(3, 1), values(d, 4, rng).reshape(1, 4)
    check(device, op, make(a2, device, dtype), make(b2, device, dtype), a2, b2, f"{dtype} broadcast")
    v = values(d, 6, rng)
    s = True if d.kind == "b" else 1 if d.is_integer else (1 + 0j) if d.is_complex else 1.0
    vt = make(v, device, dtype)
    check(device, op, vt, s, v, s, f"{dtype} tensor x scalar")
    check(device, op, s, vt, s, v, f"{dtype} scalar x tensor")
    assert_close(run(device, getattr(vt, OPERATOR[op]), s), NP[op](wide(v), s), dtype="bool")


def test_signed_zero_and_nan(device):
    a = np.array([0.0, np.nan, np.nan, np.inf, -np.inf], np.float32)
    b = np.array([-0.0, np.nan, 1.0, np.inf, np.inf], np.float32)
    at, bt = make(a, device, "float32"), make(b, device, "float32")
    for op, f in NP.items():
        assert_close(run(device, getattr(nr, op), at, bt), f(a, b), dtype="bool")


@pytest.mark.parametrize("da,db", [("int32", "float32"), ("uint8", "int8"), ("int64", "uint64"),
                                   ("bool", "float16"), ("float16", "bfloat16")])
def test_mixed_dtypes(device, da, db):
    rng = np.random.default_rng(1)
    a = values(nr.dtype(da), 8, rng, edge=False)
    b = values(nr.dtype(db), 8, rng, edge=False)
    common = nr.result_type(make(a, device, da), make(b, device, db)).np
    for op in NP:
        check(device, op, make(a, device, da), make(b, device, db), a.astype(common), b.astype(common), f"{da}x{db}")


def test_uint64_extremes(device):
    a = np.array([2**64 - 1, 0, 2**63], np.uint64)
    b = np.array([0, 2**64 - 1, 2**63 - 1], np.uint64)
    for op, f in NP.items():
        assert_close(run(device, getattr(nr, op), make(a, device, "uint64"), make(b, device, "uint64")), f(a, b),
                     dtype="bool")


def test_isclose_allclose(device):
    a = np.array([1.0, 1.0 + 1e-9, np.nan, np.inf, 0.0], np.float64)
    b = np.array([1.0, 1.0, np.nan, np.inf, 1e-9], np.float64)
    at, bt = make(a, device, "float64"), make(b, device, "float64")
    assert_close(nr.isclose(at, bt), np.isclose(a, b), dtype="bool")
    assert_close(nr.isclose(at, bt, equal_nan=True), np.isclose(a, b, equal_nan=True), dtype="bool")
    assert nr.allclose(at, bt, equal_nan=True) is True
    assert nr.allclose(at, bt) is False


def test_errors(device):
    a = make(np.ones((2, 3), np.float32), device, "float32")
    b = make(np.ones((3, 2), np.float32), device, "float32")
    with pytest.raises(nr.ShapeError, match="lt"):
        nr.lt(a, b)
    c = make(np.array([1 + 1j]), device, "complex128")
    with pytest.raises(nr.DTypeError, match="ge"):
        _ = c >= c
