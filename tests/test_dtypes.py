"""dtypes: the promotion table, weak Python scalars, nr.dtype() parsing, finfo/iinfo.

Oracles: NumPy's promotion where the array API standard defines the answer,
PyTorch's for integer + float (the documented choice), and the rules written
in docs/architecture.md for bfloat16/float8.
"""

from __future__ import annotations

import itertools
import pickle

import ml_dtypes
import numpy as np
import pytest

import numr as nr
from numr import dtypes as dt
from numr.errors import DTypeError

ALL = list(nr.ALL_DTYPES)
STD_INTS = [nr.int8, nr.int16, nr.int32, nr.int64, nr.uint8, nr.uint16, nr.uint32, nr.uint64]
STD_FLOATS = [nr.float16, nr.float32, nr.float64]
COMPLEX = [nr.complex64, nr.complex128]
LOWP = [nr.float8_e4m3fn, nr.float8_e5m2, nr.bfloat16]


def ids(ds):
    return [d.name for d in ds]


# ---- the objects ---------------------------------------------------------------
def test_public_names_and_codes():
    names = ["bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
             "bfloat16", "float32", "float64", "float8_e4m3fn", "float8_e5m2", "complex64", "complex128"]
    for n in names:
        assert isinstance(getattr(nr, n), nr.DType)
    assert nr.bool is nr.bool_
    assert len(ALL) == 17 and len({d.code for d in ALL}) == 17 and len({d.name for d in ALL}) == 17
    for d in ALL:
        assert dt.from_code(d.code) is d
        assert d.itemsize == d.np.itemsize
        assert str(d) == d.name and repr(d) == f"numr.{d.name}"
        assert pickle.loads(pickle.dumps(d)) is d


@pytest.mark.parametrize("d", ALL, ids=ids(ALL))
def test_kind_predicates(d):
    k = d.np.kind if d.np.kind != "V" else "f"
    if d in (nr.bfloat16, nr.float8_e4m3fn, nr.float8_e5m2):
        k = "f"
    assert d.kind == k
    assert d.is_floating_point == (k == "f")
    assert d.is_complex == (k == "c")
    assert d.is_integer == (k in "iu")
    assert d.is_low_precision == (k == "f" and d.itemsize <= 2)


def test_dtype_equality_and_hash():
    assert nr.float32 == "float32" and nr.float32 == np.float32 and nr.float32 == np.dtype("float32")
    assert nr.float32 != nr.float64 and nr.float32 != "float64"
    assert nr.float64 != None  # noqa: E711  (np.dtype(None) is float64; equality must not say so)
    assert nr.float32 != "not a dtype" and nr.float32 != 3
    assert hash(nr.float32) == hash(nr.dtype("float32"))
    assert {nr.float32: 1}[nr.dtype(np.float32)] == 1


# ---- nr.dtype() parsing -----------------------------------------------------------
@pytest.mark.parametrize("d", ALL, ids=ids(ALL))
def test_parse_name_numpy_and_self(d):
    assert nr.dtype(d) is d
    assert nr.dtype(d.name) is d
    assert nr.dtype(d.np) is d
    assert nr.dtype(d.np.type) is d  # the scalar type: np.float32, ml_dtypes.bfloat16


@pytest.mark.parametrize("spec,expected", [
    (bool, nr.bool_), (int, nr.int64), (float, nr.float64), (complex, nr.complex128),
    ("bool", nr.bool_), ("bool_", nr.bool_), ("float", nr.float64), ("double", nr.float64),
    ("half", nr.float16), ("int", nr.int64), ("long", nr.int64), ("cfloat", nr.complex64),
    ("cdouble", nr.complex128), ("f4", nr.float32), ("i8", nr.int64), ("u1", nr.uint8), ("?", nr.bool_),
    ("c16", nr.complex128), (np.dtype("<f8"), nr.float64), (ml_dtypes.bfloat16, nr.bfloat16),
    (ml_dtypes.float8_e4m3fn, nr.float8_e4m3fn), (ml_dtypes.float8_e5m2, nr.float8_e5m2),
])
def test_parse_aliases(spec, expected):
    assert nr.dtype(spec) is expected


def test_parse_torch_dtypes():
    torch = pytest.importorskip("torch")
    pairs = {torch.bool: nr.bool_, torch.int8: nr.int8, torch.int16: nr.int16, torch.int32: nr.int32,
             torch.int64: nr.int64, torch.uint8: nr.uint8, torch.float16: nr.float16, torch.half: nr.float16,
             torch.bfloat16: nr.bfloat16, torch.float32: nr.float32, torch.float64: nr.float64,
             torch.complex64: nr.complex64, torch.complex128: nr.complex128}
    for t, d in pairs.items():
        assert nr.dtype(t) is d, t
    for name in ("float8_e4m3fn", "float8_e5m2", "uint16", "uint32", "uint64"):
        if hasattr(torch, name):
            assert nr.dtype(getattr(torch, name)) is nr.dtype(name)
    with pytest.raises(DTypeError):
        nr.dtype(torch.qint8)


@pytest.mark.parametrize("bad", ["foo", "float32 ", "U", "object", ">f4", "datetime64[s]", object, 3, 2.5,
                                 np.dtype("M8[s]"), np.dtype(">i4"), [1]])
def test_parse_errors(bad):
    with pytest.raises(DTypeError) as e:
        nr.dtype(bad)
    assert isinstance(e.value, TypeError)  # DTypeError subclasses TypeError
    assert "dtype" in str(e.value)


# ---- the promotion table -------------------------------------------------------------
def test_table_identity_and_symmetry():
    for a in ALL:
        assert nr.promote_types(a, a) is a
        for b in ALL:
            assert nr.promote_types(a, b) is nr.promote_types(b, a), (a, b)
            assert nr.result_type(a, b) is nr.promote_types(a, b)


def test_bool_is_the_bottom():
    for d in ALL:
        assert nr.promote_types(nr.bool_, d) is d


_NP_PAIRS = [(a, b) for a, b in itertools.product(STD_INTS + STD_FLOATS + COMPLEX + [nr.bool_], repeat=2)
             if not ((a.is_integer and b.kind in "fc") or (b.is_integer and a.kind in "fc"))]


@pytest.mark.parametrize("a,b", _NP_PAIRS, ids=[f"{a}-{b}" for a, b in _NP_PAIRS])
def test_matches_numpy_where_standard_defines_it(a, b):
    """bool, integers, float16/32/64 and complex among themselves: NumPy's table
    (int64 + uint64 -> float64 as NumPy). Integer + float is PyTorch's rule (test_integer_with_float)."""
    assert nr.promote_types(a, b) is nr.dtype(np.promote_types(a.np, b.np))


@pytest.mark.parametrize("i", STD_INTS + [nr.bool_], ids=ids(STD_INTS + [nr.bool_]))
@pytest.mark.parametrize("f", STD_FLOATS + LOWP + COMPLEX, ids=ids(STD_FLOATS + LOWP + COMPLEX))
def test_integer_with_float(i, f):
    """integer (or bool) + float -> that float; + complex -> that complex (PyTorch/JAX)."""
    assert nr.promote_types(i, f) is f


def test_integer_with_float_matches_torch():
    torch = pytest.importorskip("torch")
    for i in [nr.int8, nr.int16, nr.int32, nr.int64, nr.uint8, nr.bool_]:
        for f in [nr.float16, nr.bfloat16, nr.float32, nr.float64, nr.complex64, nr.complex128]:
            ti, tf = getattr(torch, i.name.rstrip("_")), getattr(torch, f.name)
            assert nr.promote_types(i, f) is nr.dtype(torch.promote_types(ti, tf))


@pytest.mark.parametrize("a,b,expected", [
    (nr.float16, nr.bfloat16, nr.float32),
    (nr.float8_e4m3fn, nr.float8_e5m2, nr.float16),
    (nr.float8_e4m3fn, nr.bfloat16, nr.bfloat16),
    (nr.float8_e5m2, nr.float16, nr.float16),
    (nr.float8_e4m3fn, nr.float32, nr.float32),
    (nr.float8_e5m2, nr.float64, nr.float64),
    (nr.bfloat16, nr.float32, nr.float32),
    (nr.bfloat16, nr.float64, nr.float64),
    (nr.bfloat16, nr.complex64, nr.complex64),
    (nr.float8_e4m3fn, nr.complex128, nr.complex128),
    (nr.float64, nr.complex64, nr.complex128),
    (nr.float32, nr.complex64, nr.complex64),
    (nr.int8, nr.uint8, nr.int16),
    (nr.int16, nr.uint16, nr.int32),
    (nr.int32, nr.uint32, nr.int64),
    (nr.int64, nr.uint64, nr.float64),
    (nr.int8, nr.uint64, nr.float64),
    (nr.int64, nr.uint32, nr.int64),
    (nr.int16, nr.uint8, nr.int16),
])
def test_documented_rules(a, b, expected):
    assert nr.promote_types(a, b) is expected
    assert nr.result_type(a, b) is expected


def test_low_precision_holds_both_operands():
    """The promoted float type represents every value of both inputs exactly."""
    floats = STD_FLOATS + LOWP
    for a, b in itertools.product(floats, repeat=2):
        r = nr.promote_types(a, b)
        for src in (a, b):
            fi, fr = ml_dtypes.finfo(src.np), ml_dtypes.finfo(r.np)
            assert float(fr.max) >= float(fi.max) and fr.nmant >= fi.nmant, (a, b, r)
            assert float(fr.smallest_subnormal) <= float(fi.smallest_subnormal), (a, b, r)


def test_associative_within_kinds():
    """Inside the array API's own groups the table is a lattice (order of operands does not matter)."""
    groups = [STD_INTS[:4] + [nr.bool_], STD_INTS[4:] + [nr.bool_], STD_FLOATS + [nr.bool_],
              [nr.float32, nr.float64, nr.complex64, nr.complex128]]
    for g in groups:
        for a, b, c in itertools.product(g, repeat=3):
            assert nr.result_type(nr.result_type(a, b), c) is nr.result_type(a, nr.result_type(b, c))
            assert nr.result_type(a, b, c) is nr.result_type(c, b, a)


# ---- weak Python scalars ------------------------------------------------------------------
@pytest.mark.parametrize("d", ALL, ids=ids(ALL))
def test_weak_scalars(d):
    # bool scalar never changes the dtype
    assert nr.result_type(d, True) is d
    # int scalar: keeps any non-bool dtype; bool -> int64
    assert nr.result_type(d, 7) is (nr.int64 if d is nr.bool_ else d)
    # float scalar: keeps floats and complex; bool/int -> float64 (the default float)
    assert nr.result_type(d, 1.5) is (d if d.kind in "fc" else nr.float64)
    # complex scalar: complex of matching precision
    if d.is_complex:
        assert nr.result_type(d, 1j) is d
    elif d is nr.float64 or d.kind in "biu":
        assert nr.result_type(d, 1j) is nr.complex128
    else:
        assert nr.result_type(d, 1j) is nr.complex64
    # order does not matter
    for s in (True, 7, 1.5, 1j):
        assert nr.result_type(s, d) is nr.result_type(d, s)


NP_STD = STD_INTS + STD_FLOATS + COMPLEX + [nr.bool_]


@pytest.mark.parametrize("d", NP_STD, ids=ids(NP_STD))
@pytest.mark.parametrize("s", [True, 3, 2.5, 1 + 1j], ids=["bool", "int", "float", "complex"])
def test_weak_scalars_match_numpy2(d, s):
    """NumPy 2 (NEP 50) treats Python scalars as weak in the same way."""
    if isinstance(s, float) and d.is_integer or isinstance(s, complex) and d.kind in "biu":
        expected = np.result_type(np.zeros(1, d.np) + s)  # NumPy 2 also goes to the default float
    else:
        expected = (np.zeros(1, d.np) + s).dtype
    assert nr.result_type(d, s) is nr.dtype(expected)


def test_weak_scalars_with_tensor_like_objects():
    class Fake:
        dtype = nr.int16
    assert nr.result_type(Fake(), 3) is nr.int16
    assert nr.result_type(Fake(), 3.0) is nr.float64
    assert nr.result_type(Fake(), nr.int32) is nr.int32


def test_only_scalars_use_default_types():
    assert nr.result_type(1) is nr.int64
    assert nr.result_type(1.0) is nr.float64
    assert nr.result_type(True) is nr.bool_
    assert nr.result_type(1j) is nr.complex128
    assert nr.result_type(1, 2.0) is nr.float64
    assert nr.result_type(True, 2) is nr.int64
    assert nr.result_type(2.0, 1j) is nr.complex128


def test_numpy_scalars_are_strong():
    """NumPy scalars carry their dtype (NEP 50), even np.float64 which subclasses float."""
    assert nr.result_type(nr.float32, np.float64(1.0)) is nr.float64
    assert nr.result_type(nr.float32, np.float32(1.0)) is nr.float32
    assert nr.result_type(nr.int8, np.int64(1)) is nr.int64
    assert nr.result_type(nr.complex64, np.complex128(1j)) is nr.complex128


def test_result_type_errors():
    with pytest.raises(DTypeError):
        nr.result_type()
    with pytest.raises(DTypeError):
        nr.result_type(nr.float32, "nope")
    with pytest.raises(DTypeError):
        dt.weak_scalar_dtype("x", nr.float32)


# ---- finfo / iinfo -------------------------------------------------------------------------
@pytest.mark.parametrize("d", STD_FLOATS + LOWP, ids=ids(STD_FLOATS + LOWP))
def test_finfo(d):
    fi = nr.finfo(d)
    ref = ml_dtypes.finfo(d.np)
    assert float(fi.max) == float(ref.max) and float(fi.eps) == float(ref.eps)
    assert float(fi.tiny) == float(ref.tiny)
    assert nr.finfo(d.name).bits == 8 * d.itemsize


def test_finfo_known_values():
    assert float(nr.finfo(nr.float32).eps) == 2.0 ** -23
    assert float(nr.finfo(nr.bfloat16).eps) == 2.0 ** -7
    assert float(nr.finfo(nr.float8_e4m3fn).max) == 448.0
    assert float(nr.finfo(nr.float8_e5m2).max) == 57344.0
    assert float(nr.finfo(nr.float16).max) == 65504.0


@pytest.mark.parametrize("d", STD_INTS, ids=ids(STD_INTS))
def test_iinfo(d):
    ii = nr.iinfo(d)
    assert ii.min == np.iinfo(d.np).min and ii.max == np.iinfo(d.np).max and ii.bits == 8 * d.itemsize


@pytest.mark.parametrize("d", [nr.bool_, nr.int32, nr.complex64], ids=["bool", "int32", "complex64"])
def test_finfo_rejects_non_floats(d):
    with pytest.raises(DTypeError, match="finfo"):
        nr.finfo(d)


@pytest.mark.parametrize("d", [nr.bool_, nr.float32, nr.complex64, nr.bfloat16], ids=["bool", "f32", "c64", "bf16"])
def test_iinfo_rejects_non_integers(d):
    with pytest.raises(DTypeError, match="iinfo"):
        nr.iinfo(d)


def test_complex_and_real_of():
    assert dt.complex_of(nr.float64) is nr.complex128
    assert dt.complex_of(nr.float32) is nr.complex64
    assert dt.complex_of(nr.bfloat16) is nr.complex64
    assert dt.complex_of(nr.complex128) is nr.complex128
    assert dt.real_of(nr.complex64) is nr.float32 and dt.real_of(nr.complex128) is nr.float64
    assert dt.real_of(nr.int8) is nr.int8


# ---- ops use the table (on every backend) ------------------------------------------------------
def _supported(device, *ds):
    dev = nr.device(device)
    have = dev.runtime.supported_dtypes(dev)
    return all(d in have for d in ds)


def _values(d):
    if d is nr.bool_:
        return np.array([True, False, True])
    return np.array([1, 2, 3]).astype(d.np)


PAIR_DTYPES = [nr.bool_, nr.int8, nr.uint8, nr.int32, nr.uint32, nr.int64, nr.float8_e4m3fn, nr.bfloat16,
               nr.float16, nr.float32, nr.float64, nr.complex64]


@pytest.mark.parametrize("a", PAIR_DTYPES, ids=ids(PAIR_DTYPES))
@pytest.mark.parametrize("b", PAIR_DTYPES, ids=ids(PAIR_DTYPES))
def test_binary_ops_follow_the_table(device, a, b):
    """add/mul/maximum/eq on tensors of two dtypes: result dtype from the table, values exact."""
    r = nr.promote_types(a, b)
    if not _supported(device, a, b, r):
        pytest.skip(f"{device} lacks one of {a}, {b}, {r}")
    x, y = nr.tensor(_values(a), device=device), nr.tensor(_values(b)[::-1].copy(), device=device)
    xa, ya = _values(a).astype(np.complex128), _values(b)[::-1].astype(np.complex128)
    out = x * y
    assert out.dtype is r
    np.testing.assert_array_equal(out.numpy().astype(np.complex128), xa * ya)
    s = x + y
    assert s.dtype is r
    np.testing.assert_array_equal(s.numpy().astype(np.complex128), (xa + ya) if r is not nr.bool_ else
                                  (xa.real.astype(bool) | ya.real.astype(bool)))
    assert (x == y).dtype is nr.bool_
    np.testing.assert_array_equal((x == y).numpy(), xa == ya)
    if r.kind != "c":
        m = nr.maximum(x, y)
        assert m.dtype is r
        np.testing.assert_array_equal(m.numpy().astype(np.float64), np.maximum(xa.real, ya.real))


@pytest.mark.parametrize("d", PAIR_DTYPES, ids=ids(PAIR_DTYPES))
@pytest.mark.parametrize("s", [True, 2, 2.5, 1j], ids=["bool", "int", "float", "complex"])
def test_weak_scalars_in_ops(device, d, s):
    """tensor op Python scalar: the tensor's dtype wins within its kind (weak scalars)."""
    r = nr.result_type(d, s)
    if not _supported(device, d, r):
        pytest.skip(f"{device} lacks {d} or {r}")
    x = nr.tensor(_values(d), device=device)
    xa = _values(d).astype(np.complex128)
    for got, expected in [(x * s, xa * s), (s * x, s * xa)]:
        assert got.dtype is r, (d, s, got.dtype, r)
        np.testing.assert_allclose(got.numpy().astype(np.complex128), expected, rtol=1e-2)
    if d is not nr.bool_ and not isinstance(s, complex):
        got = x - s
        assert got.dtype is r
        expected = (_values(d) - s) if d.is_integer and isinstance(s, int) else xa - s  # unsigned ints wrap
        np.testing.assert_allclose(got.numpy().astype(np.complex128), expected, rtol=1e-2, atol=1e-2)
