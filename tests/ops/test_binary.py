"""Binary element-wise ops (and fma) against a NumPy float64 oracle: every op x every
dtype x layout case, broadcasting both ways, Python scalars (weak types) on either
side, mixed-dtype promotion, integer wrapping and numr's integer division/power
rules, NaN propagation, Hypothesis broadcasting, and errors naming the op."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_close
from elementwise_cases import ALL, LOWP, VIEWS, make, oracle_cast, run, seed, values, view_pair, wide
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import mutually_broadcastable_shapes

import numr as nr
from numr.ops import dtype_rules

NP = {
    "add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.true_divide,
    "floor_divide": np.floor_divide, "remainder": np.remainder, "pow": np.power,
    "maximum": np.maximum, "minimum": np.minimum, "atan2": np.arctan2, "hypot": np.hypot,
    "bitwise_and": np.bitwise_and, "bitwise_or": np.bitwise_or, "bitwise_xor": np.bitwise_xor,
}


def int_pow(a: np.ndarray, b: np.ndarray, d: nr.DType) -> np.ndarray:
    """Exact wrapping integer power; negative exponents give 0 except for bases 1 and -1."""
    a, b = np.broadcast_arrays(a, b)
    mod = 1 << (8 * d.itemsize)

    def one(x: int, e: int) -> int:
        if e < 0:
            r = 1 if x == 1 else ((-1 if e & 1 else 1) if x == -1 else 0)
        else:
            r = pow(x, e, mod)
        r %= mod
        return r - mod if d.kind == "i" and r >= mod // 2 else r

    flat = [one(int(x), int(e)) for x, e in zip(a.ravel(), b.ravel(), strict=True)]
    return np.array(flat, dtype=d.np).reshape(a.shape)


def oracle(op: str, a, b, out: nr.DType) -> np.ndarray:
    """NumPy's result of op on the (already promoted) values, in float64 for floats."""
    f = NP[op]
    with np.errstate(all="ignore"):
        if out.kind in "biu":
            if op == "pow":
                return int_pow(np.asarray(a), np.asarray(b), out)
            return f(np.asarray(a).astype(out.np), np.asarray(b).astype(out.np))
        if op in ("floor_divide", "remainder") and out.kind == "f" and out.itemsize <= 4:
            # NumPy computes these in float32 for float32 (and float16) inputs
            return f(np.asarray(a).astype(np.float32), np.asarray(b).astype(np.float32))
        if out is nr.complex64 and op in ("div", "pow"):
            # overflow/underflow of the intermediate products depends on the precision: NumPy's complex64
            return f(np.asarray(a).astype(np.complex64), np.asarray(b).astype(np.complex64))
        wa = np.asarray(a).astype(np.complex128 if out.is_complex else np.float64)
        wb = np.asarray(b).astype(np.complex128 if out.is_complex else np.float64)
        return f(wa, wb)


def rule(op: str, d: nr.DType):
    try:
        return dtype_rules.binary_dtypes(op, d)
    except nr.DTypeError:
        return None


def meaningless_phase_signs(op: str, a, b, got: np.ndarray, exp: np.ndarray) -> np.ndarray:
    """The oracle ``exp`` with ``got``'s signs where complex pow overflows with a phase past 2**24:
    a**b = exp(b log a) has phase Im(b log a), and past 2**24 radians one ulp of it spans
    whole turns, so the signs of the infinite parts come from each libm's rounding (NumPy's
    cpowf, CUDA's atan2f), not from the math. The parts must still be infinite/NaN alike."""
    if op != "pow" or not np.iscomplexobj(exp):
        return got
    with np.errstate(all="ignore"):
        phase = np.imag(np.asarray(b, np.complex128) * np.log(np.asarray(a, np.complex128)))
    phase = np.broadcast_to(phase, exp.shape)
    free = ~np.isfinite(exp) & (np.abs(phase) > 2.0**24)
    for part in (np.real, np.imag):
        free &= np.isinf(part(got)) == np.isinf(part(exp))
        free &= np.isnan(part(got)) == np.isnan(part(exp))
    out = np.array(exp, copy=True)
    out[free] = got[free]
    return out


def check(device, op, at, bt, an, bn, what: str):
    got = run(device, getattr(nr, op), at, bt)
    out = nr.dtype(dtype_rules.binary_dtypes(op, nr.result_type(at, bt))[1])
    exp = oracle_cast(oracle(op, an, bn, out), out)
    exp = meaningless_phase_signs(op, an, bn, got.numpy(), np.asarray(exp))
    try:
        assert_close(got, exp, dtype=out)
    except AssertionError as e:
        raise AssertionError(f"{op} {what}: {e}") from None


def scalar_for(d: nr.DType):
    return True if d.kind == "b" else 3 if d.is_integer else (1.5 - 2j) if d.is_complex else 1.5


@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize("op", sorted(NP))
def test_binary(device, op, dtype):
    d = nr.dtype(dtype)
    rng = np.random.default_rng(seed(op, dtype))
    if rule(op, d) is None:
        x = make(values(d, 3, rng), device, dtype)
        with pytest.raises(nr.DTypeError, match=op):
            getattr(nr, op)(x, x)
        return
    for view in VIEWS:
        shape = view[1]
        n = int(np.prod(shape))
        an, at = view_pair(view, device, dtype, values(d, n, rng).reshape(shape))
        bn, bt = view_pair(view, device, dtype, values(d, n, rng).reshape(shape))
        check(device, op, at, bt, an, bn, f"{dtype} case {view[0]}")
    # broadcasting both ways, and a 0-d tensor with a 1-d one
    a2, b2 = values(d, 3, rng).reshape(3, 1), values(d, 4, rng).reshape(1, 4)
    check(device, op, make(a2, device, dtype), make(b2, device, dtype), a2, b2, f"{dtype} (3,1)x(1,4)")
    check(device, op, make(b2, device, dtype), make(a2, device, dtype), b2, a2, f"{dtype} (1,4)x(3,1)")
    z, v = values(d, 1, rng, edge=False).reshape(()), values(d, 5, rng)
    check(device, op, make(z, device, dtype), make(v, device, dtype), z, v, f"{dtype} 0-d x (5,)")
    # a Python scalar on either side (weak type: the tensor's dtype wins)
    s = scalar_for(d)
    if rule(op, nr.result_type(make(v, device, dtype), s)) is not None:
        check(device, op, make(v, device, dtype), s, v, s, f"{dtype} tensor x scalar")
        check(device, op, s, make(v, device, dtype), s, v, f"{dtype} scalar x tensor")


@pytest.mark.parametrize("dtype", ALL)
def test_fma(device, dtype):
    d = nr.dtype(dtype)
    rng = np.random.default_rng(3)
    for view in VIEWS:
        shape = view[1]
        n = int(np.prod(shape))
        (an, at), (bn, bt), (cn, ct) = (view_pair(view, device, dtype, values(d, n, rng, edge=False).reshape(shape))
                                        for _ in range(3))
        got = run(device, nr.fma, at, bt, ct)
        with np.errstate(all="ignore"):
            if d.kind == "b":
                exp = (an & bn) | cn
            elif d.is_integer:
                exp = an * bn + cn
            else:
                exp = wide(an) * wide(bn) + wide(cn)
        assert_close(got, oracle_cast(exp, d), dtype=d)
    # broadcast third operand and a scalar
    a = values(d, 6, rng, edge=False).reshape(2, 3)
    with np.errstate(all="ignore"):
        exp = (a & a) | a[:1] if d.kind == "b" else wide(a) * wide(a) + wide(a[:1])
    assert_close(run(device, nr.fma, make(a, device, dtype), make(a, device, dtype), make(a[:1], device, dtype)),
                 oracle_cast(exp, d), dtype=d)


def test_fma_single_rounding(device):
    # a*b + c where a*b rounds: fma keeps the exact product
    a = np.array([1 + 2**-23], np.float32)
    c = np.array([-1 - 2**-22], np.float32)
    got = run(device, nr.fma, make(a, device, "float32"), make(a, device, "float32"), make(c, device, "float32"))
    assert got.numpy()[0] == np.float32(2.0**-46)


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint8", "uint32", "uint64"])
def test_integer_rules(device, dtype):
    """x // 0 == x % 0 == 0, MIN // -1 wraps, overflow wraps, floor semantics for negatives."""
    info = np.iinfo(np.dtype(dtype))
    signed = info.min < 0
    a = np.array([7, -7, info.min, info.max, 5, 0] if signed else [7, 9, info.max, 0, 5, 0], dtype)
    b = np.array([2, 2, -1, 0, 0, 0] if signed else [2, 0, 3, 0, 0, 0], dtype)
    at, bt = make(a, device, dtype), make(b, device, dtype)
    with np.errstate(all="ignore"):
        assert_close(run(device, nr.floor_divide, at, bt), np.floor_divide(a, b), dtype=dtype)
        assert_close(run(device, nr.remainder, at, bt), np.remainder(a, b), dtype=dtype)
        assert_close(run(device, nr.add, at, at), a + a, dtype=dtype)
        assert_close(run(device, nr.mul, at, at), a * a, dtype=dtype)
    if signed:
        assert run(device, nr.floor_divide, at, bt).numpy()[1] == -4
        assert run(device, nr.remainder, at, bt).numpy()[1] == 1


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "int32", "uint32", "int64", "uint64"])
def test_integer_division_every_sign_and_size(device, dtype):
    """floor_divide/remainder against Python's // and % (0 for a zero divisor, MIN // -1
    wrapping): every int8/uint8 pair, and wide random pairs with the extremes, near-integer
    quotients (the CPU loops for <= 32 bits divide in double)."""
    info = np.iinfo(np.dtype(dtype))
    if info.bits == 8:
        a, b = (g.ravel() for g in np.meshgrid(np.arange(info.min, info.max + 1), np.arange(info.min, info.max + 1)))
    else:
        rng = np.random.default_rng(11)
        big = rng.integers(info.min, info.max, 20_000, endpoint=True, dtype=dtype)
        small = rng.integers(max(info.min, -9), 10, 20_000).astype(dtype)
        edges = np.array([info.min, info.min + 1, info.max, info.max - 1, 0, 1, -1 if info.min else 2], dtype)
        a = np.concatenate([big, big, small, np.repeat(edges, len(edges))])
        b = np.concatenate([small, big, big, np.tile(edges, len(edges))])
        mult = rng.integers(0 if info.min == 0 else -5, 5, 100).astype(dtype)
        a[:100] = b[:100] * mult - (b[:100] != 0).astype(dtype)  # just below a multiple (wrapping)
    a, b = a.astype(dtype), b.astype(dtype)
    aw, bw = a.astype(object), b.astype(object)
    q = np.array([x // y if y else 0 for x, y in zip(aw, bw, strict=True)], dtype=object)
    r = np.array([x % y if y else 0 for x, y in zip(aw, bw, strict=True)], dtype=object)
    wrap = lambda v: np.array([(int(x) - info.min) % 2**info.bits + info.min for x in v], object).astype(dtype)  # noqa: E731
    at, bt = make(a, device, dtype), make(b, device, dtype)
    assert_close(run(device, nr.floor_divide, at, bt), wrap(q), dtype=dtype)
    assert_close(run(device, nr.remainder, at, bt), wrap(r), dtype=dtype)


def test_int64_division_elementwise_around_2_51(device):
    """int64 x // y and x % y with a divisor per element (the CPU divides operands below 2**51
    in double and redoes larger ones with integer division): operands around +-2**51, 2**53,
    the extremes and small values, every sign pair, against Python."""
    big = [2**51 - 1, 2**51, 2**51 + 1, 2**52 + 3, 2**53 - 1, 2**53, 2**53 + 1, 2**62, 2**63 - 1]
    vals = sorted({v for b in big for v in (b, -b)} | {-2**63, 0, 1, -1, 2, -2, 3, -3, 7, -7, 1000, -1000})
    a, b = (g.ravel() for g in np.meshgrid(np.array(vals, np.int64), np.array(vals, np.int64)))
    at, bt = make(a, device, "int64"), make(b, device, "int64")
    wrap = lambda v: np.array([(int(x) + 2**63) % 2**64 - 2**63 for x in v], object).astype(np.int64)  # noqa: E731
    q = wrap([int(x) // int(y) if y else 0 for x, y in zip(a, b, strict=True)])
    r = wrap([int(x) % int(y) if y else 0 for x, y in zip(a, b, strict=True)])
    assert_close(run(device, nr.floor_divide, at, bt), q, dtype="int64")
    assert_close(run(device, nr.remainder, at, bt), r, dtype="int64")


@pytest.mark.parametrize("dtype", ["int64", "uint64", "int32"])
def test_integer_division_by_a_scalar(device, dtype):
    """x // d and x % d for one divisor d (the CPU's 64-bit loops multiply by a magic number
    made from d): every sign, powers of two, 1, the extremes, against Python's // and %."""
    info = np.iinfo(np.dtype(dtype))
    rng = np.random.default_rng(12)
    edges = [info.min, info.min + 1, info.max, info.max - 1, 0, 1, 2, 3, 6, 7, 8, 2**31, 2**32 + 1]
    edges += [-1, -2, -3, -7, -8, -(2**31) - 1] if info.min else [2**63 + 5, 2**64 - 3]
    edges = [e for e in edges if info.min <= e <= info.max]
    a = np.concatenate([rng.integers(info.min, info.max, 3000, endpoint=True, dtype=dtype),
                        rng.integers(-1000 if info.min else 0, 1000, 1000).astype(dtype), np.array(edges, dtype)])
    divisors = edges + [int(d) for d in rng.integers(info.min, info.max, 6, endpoint=True, dtype=dtype)]
    divisors += [2**k for k in (4, 20, 40, 62) if 2**k <= info.max] + [5, 10, 1000, 12345678901 % info.max]
    at = make(a, device, dtype)
    wrap = lambda v: np.array([(int(x) - info.min) % 2**info.bits + info.min for x in v], object).astype(dtype)  # noqa: E731
    for d in divisors:
        q = wrap([int(x) // d if d else 0 for x in a])
        r = wrap([int(x) % d if d else 0 for x in a])
        assert_close(run(device, nr.floor_divide, at, d), q, dtype=dtype)
        assert_close(run(device, nr.remainder, at, d), r, dtype=dtype)
    d = make(np.array([7], dtype), device, dtype)  # a stride-0 tensor divisor, a strided numerator
    assert_close(run(device, nr.floor_divide, at[::-2], d), wrap([int(x) // 7 for x in a[::-2]]), dtype=dtype)
    assert_close(run(device, nr.remainder, at[::-2], d), wrap([int(x) % 7 for x in a[::-2]]), dtype=dtype)


def test_int_pow_rules(device):
    base = np.array([2, -2, 1, -1, -1, 0, 3, 7], np.int32)
    expo = np.array([10, 3, -5, -3, -4, -1, 40, 0], np.int32)
    got = run(device, nr.pow, make(base, device, "int32"), make(expo, device, "int32"))
    assert got.tolist() == [1024, -8, 1, -1, 1, 0, int_pow(base[6:7], expo[6:7], nr.int32)[0], 1]
    # square-and-multiply is exact where float pow would round
    x = make(np.array([3], np.int64), device, "int64")
    assert run(device, nr.pow, x, 39).item() == 3**39


def test_float_pow_negative_base(device):
    a = np.array([-2.0, -2.0, -0.5, -8.0], np.float32)
    b = np.array([3.0, 2.0, -3.0, 1 / 3], np.float32)
    got = run(device, nr.pow, make(a, device, "float32"), make(b, device, "float32")).numpy()
    np.testing.assert_array_equal(got[:3], [-8.0, 4.0, -8.0])
    assert np.isnan(got[3])


SPECIALS = np.array([0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 3.0, -3.0, 1e-45, 1e30, -1e30,
                     np.inf, -np.inf, np.nan], np.float32)


@pytest.mark.parametrize("op", ["pow", "atan2", "hypot"])
def test_float32_vector_math_accuracy(op):
    """CPU's vectorised float32 pow/atan2/hypot (computed in double): within 1 ulp of the
    float64 result over random magnitudes, and every pair of special values (zeros of both
    signs, +-1, infinities, NaN, odd/even/non-integer exponents) exactly as NumPy."""
    rng = np.random.default_rng(3)
    n = 200_000
    a = (rng.uniform(-1, 1, n) * 10.0 ** rng.uniform(-6, 6, n)).astype(np.float32)
    b = (rng.uniform(-1, 1, n) * 10.0 ** rng.uniform(-6, 6, n)).astype(np.float32)
    if op == "pow":
        a, b = np.abs(a) * 8, rng.uniform(-30, 30, n).astype(np.float32)
        b[::3] = np.rint(b[::3])                              # integer exponents, negative bases
        a[::3] *= np.where(rng.random(len(a[::3])) < 0.5, -1, 1).astype(np.float32)
    sa, sb = np.meshgrid(SPECIALS, SPECIALS)
    a, b = np.concatenate([a, sa.ravel()]), np.concatenate([b, sb.ravel()])
    got = getattr(nr, op)(nr.tensor(a), nr.tensor(b)).numpy()
    with np.errstate(all="ignore"):
        ref = NP[op](a.astype(np.float64), b.astype(np.float64))
        r32 = ref.astype(np.float32)
    fin = np.isfinite(r32) & np.isfinite(got) & (r32 != 0)
    ulps = np.abs(got[fin].astype(np.float64) - ref[fin]) / np.spacing(np.abs(r32[fin])).astype(np.float64)
    assert ulps.max() <= 1.0, f"{op}: {ulps.max()} ulp"
    other = ~fin
    np.testing.assert_array_equal(got[other], r32[other], err_msg=f"{op}: specials, zeros, overflow")
    np.testing.assert_array_equal(np.signbit(got[other & ~np.isnan(r32)]), np.signbit(r32[other & ~np.isnan(r32)]))


def test_maximum_minimum_propagate_nan(device):
    a = np.array([np.nan, 1.0, np.nan, -np.inf], np.float32)
    b = np.array([1.0, np.nan, np.nan, 2.0], np.float32)
    for op, f in (("maximum", np.maximum), ("minimum", np.minimum)):
        assert_close(run(device, getattr(nr, op), make(a, device, "float32"), make(b, device, "float32")),
                     f(a, b), dtype="float32")


MIXED = [("int32", "float32"), ("uint8", "int8"), ("bool", "int16"), ("float16", "bfloat16"),
         ("int64", "uint64"), ("float32", "complex64"), ("float64", "complex64"), ("uint16", "float16")]


@pytest.mark.parametrize("da,db", MIXED)
@pytest.mark.parametrize("op", ["add", "mul", "sub", "div", "maximum"])
def test_mixed_dtypes_promote(device, op, da, db):
    rng = np.random.default_rng(5)
    a, b = values(nr.dtype(da), 4, rng, 0, 5, edge=False), values(nr.dtype(db), 4, rng, 1, 5, edge=False)
    at, bt = make(a, device, da), make(b, device, db)
    common = nr.result_type(at, bt)
    if rule(op, common) is None:
        with pytest.raises(nr.DTypeError, match=op):
            getattr(nr, op)(at, bt)
        return
    check(device, op, at, bt, np.asarray(a).astype(common.np), np.asarray(b).astype(common.np), f"{da}x{db}")


def test_weak_scalars_keep_tensor_dtype(device):
    x = make(np.array([1, 2, 3], np.int8), device, "int8")
    assert (x + 1).dtype == nr.int8 and (2 * x).dtype == nr.int8
    assert (x + 1.5).dtype == nr.float64
    h = make(np.array([1, 2], np.float16), device, "float16")
    assert (h * 2.5).dtype == nr.float16
    assert_close(3 - h, np.array([2, 1], np.float16), dtype="float16")
    assert_close(2 ** x, np.array([2, 4, 8], np.int8), dtype="int8")


def test_fast_path_views_and_offsets(device):
    """Same-shape same-dtype operands, including offset views that are dense."""
    base = np.arange(20, dtype=np.float32)
    t = make(base, device, "float32")
    assert_close(t[10:] + t[:10], base[10:] + base[:10], dtype="float32")
    assert_close(t[1:11] * t[2:12], base[1:11] * base[2:12], dtype="float32")


@pytest.mark.parametrize("dtype", ["float32", "float64", "int8", "int64", "uint16", "float16", "bfloat16",
                                   "complex64", "bool"])
def test_broadcast_of_dense_operands(device, dtype):
    """Row-major operands of one dtype that broadcast (the bias add, x - x.max(-1, keepdim)):
    offset views, new leading dims, size-1 dims on both sides, empty and 0-d operands."""
    rng = np.random.default_rng(7)
    d = nr.dtype(dtype)
    op = "bitwise_xor" if dtype == "bool" else "sub"
    wide = np.complex128 if d.is_complex else np.float64
    for sa, sb in [((3, 4), (4,)), ((3, 4), (3, 1)), ((3, 1), (1, 4)), ((2, 1, 3), (4, 1)), ((5,), ()),
                   ((), (2, 3)), ((0, 3), (3,)), ((2, 0), (2, 1)), ((1,), (6,)), ((2, 3, 4), (1, 3, 1))]:
        na, nb = int(np.prod(sa)), int(np.prod(sb))
        fa, fb = values(d, na + 2, rng), values(d, nb + 3, rng)
        ta, tb = make(fa, device, dtype), make(fb, device, dtype)
        xa, xb = ta[2:].reshape(sa), tb[3:].reshape(sb)  # dense views at an offset
        ea, eb = fa[2:].reshape(sa), fb[3:].reshape(sb)
        got = getattr(nr, op)(xa, xb)
        if d.kind in "biu":  # bool xor; integer subtraction wraps in NumPy too
            exp = np.bitwise_xor(ea, eb) if op == "bitwise_xor" else ea - eb
        else:
            with np.errstate(all="ignore"):  # inf - inf
                exp = oracle_cast(ea.astype(wide) - eb.astype(wide), d)
        assert got.shape == np.broadcast_shapes(sa, sb) and got.dtype == d
        assert_close(got, exp, dtype=dtype)
        assert_close(xa, ea, dtype=dtype)  # the operands are untouched
    with pytest.raises(nr.ShapeError, match="sub"):
        nr.sub(make(fa, device, dtype)[:4].reshape(2, 2), make(fb, device, dtype)[:3])


@settings(max_examples=40, deadline=None)
@given(shapes=mutually_broadcastable_shapes(num_shapes=2, max_dims=4, max_side=4), seed=st.integers(0, 2**16))
def test_broadcasting_hypothesis(shapes, seed):
    rng = np.random.default_rng(seed)
    sa, sb = shapes.input_shapes
    a = rng.standard_normal(sa).astype(np.float32)
    b = rng.standard_normal(sb).astype(np.float32)
    got = nr.tensor(a) - nr.tensor(b)
    assert got.shape == shapes.result_shape
    assert_close(got, a.astype(np.float64) - b, dtype="float32")


def test_errors(device):
    a = make(np.ones((2, 3), np.float32), device, "float32")
    b = make(np.ones((4,), np.float32), device, "float32")
    with pytest.raises(nr.ShapeError, match="add"):
        nr.add(a, b)
    with pytest.raises(nr.ShapeError, match=r"\(2, 3\)"):
        a * b
    t = make(np.array([True, False]), device, "bool")
    with pytest.raises(nr.DTypeError, match="sub"):
        t - t
    with pytest.raises(nr.DTypeError, match="bitwise_and"):
        nr.bitwise_and(a, a)
    c = make(np.array([1 + 1j]), device, "complex64")
    with pytest.raises(nr.DTypeError, match="floor_divide"):
        c // c
    for name in LOWP:
        h = make(np.array([1.0, 2.0]), device, name)
        with pytest.raises(nr.DTypeError, match="bitwise_or"):
            nr.bitwise_or(h, h)


@pytest.mark.parametrize("dtype", ["float32", "float16", "int16", "complex64"])
def test_large_strided_threads(dtype):
    """CPU only (the OpenMP split), above the threshold: threads split rows mid-way; strided, flipped and broadcast
    operands; low-precision blocks longer than the float32 staging buffer."""
    device = "cpu"
    d = nr.dtype(dtype)
    rng = np.random.default_rng(2)
    a = values(d, 301 * 403, rng, edge=False).reshape(301, 403)
    b = values(d, 403, rng, edge=False)
    at, bt = make(a, device, dtype), make(b, device, dtype)
    with np.errstate(all="ignore"):
        for got, exp in (
            (at[::-1, 1:] * bt[1:], wide(a[::-1, 1:]) * wide(b[1:])),
            (at.T - bt[:301], wide(a.T) - wide(b[:301])),
            (bt + at, wide(b) + wide(a)),
        ):
            assert_close(run(device, lambda g: g, got), oracle_cast(exp, d), dtype=d)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int8", "uint64", "float16", "complex64"])
def test_square_by_pow_scalar(device, dtype):
    """x ** 2 (a multiply internally) equals NumPy's power, including NaN/inf/-0 and wrapping."""
    d = nr.dtype(dtype)
    a = values(d, 12, np.random.default_rng(8))
    with np.errstate(all="ignore"):
        exp = a * a if d.is_integer else np.power(wide(a), 2)
    assert_close(run(device, lambda x: x ** 2, make(a, device, dtype)), oracle_cast(exp, d), dtype=dtype)


@pytest.mark.parametrize("dtype", ["float32", "float64", "bfloat16"])
@pytest.mark.parametrize("e", [0.5, -0.5, 1.0, -1.0, 3.0, 0.0, 2.5])
def test_pow_by_scalar_keeps_c99_results(device, dtype, e):
    """x ** e for one exponent (the CPU has shortcuts for 0.5, -0.5, 1, -1, 3): C99 pow's
    results at -0, +-inf and NaN (not sqrt's: (-0) ** 0.5 = +0, (-inf) ** 0.5 = inf), and
    within 1 ulp elsewhere; as a Python scalar, a 0-d tensor and for a strided x."""
    d = nr.dtype(dtype)
    rng = np.random.default_rng(seed("pow-scalar", dtype, str(e)))
    a = np.concatenate([SPECIALS, rng.uniform(-3, 3, 200).astype(np.float32),
                        np.exp(rng.uniform(-80, 80, 200)).astype(np.float32)]).astype(d.np)
    with np.errstate(all="ignore"):  # arrays on both sides: NumPy's pow loop, no shortcut
        ref = np.power(wide(a), np.full(a.shape, e))
    x = make(a, device, dtype)
    for got, exp in ((x ** e, ref), (nr.pow(x, make(np.array(e), device, dtype)), ref),
                     (x[::-3] ** e, ref[::-3])):
        exp = oracle_cast(exp, d)
        assert_close(got, exp, dtype=dtype)
        g, special = got.numpy().astype(np.float64), ~np.isfinite(exp) | (exp == 0)
        np.testing.assert_array_equal(g[special], exp[special])
        signed = np.isinf(exp) | (exp == 0)  # (a NaN's sign bit means nothing)
        np.testing.assert_array_equal(np.signbit(g[signed]), np.signbit(exp[signed]))


@pytest.mark.parametrize("shape", [(3, 130, 70), (65, 64), (2, 1, 100, 300)])
def test_transposed_operand_tiles(shape):
    """CPU only: a transposed operand with a row-major output is walked in tiles (batch
    dims, partial tiles, a flipped operand, float16 through the float32 staging)."""
    rng = np.random.default_rng(6)
    a = rng.standard_normal(shape).astype(np.float32)
    perm = tuple(range(len(shape) - 2)) + (len(shape) - 1, len(shape) - 2)
    at, tt = a.transpose(perm), nr.from_numpy(a).permute(perm)
    b = rng.standard_normal(at.shape).astype(np.float32)
    assert_close(tt + nr.from_numpy(b), wide(at) + b, dtype="float32")
    assert_close(nr.from_numpy(b) - tt.flip(-1), b - wide(at[..., ::-1]), dtype="float32")
    h = nr.from_numpy(a.astype(np.float16)).permute(perm)
    assert_close(h * h, oracle_cast(wide(at.astype(np.float16)) ** 2, nr.float16), dtype="float16")


def test_results_keep_a_shared_memory_order_cpu():
    """CPU: element-wise results (clamp, where and cumsum too) of operands with one permuted
    dense layout (x.T + y.T, x.T.exp(), x.T > 0) are laid out like them, as NumPy's are, so
    the kernel streams memory; any other mix gives a row-major result. Values always match
    NumPy."""
    rng = np.random.default_rng(21)
    a, b = rng.standard_normal((3, 5, 4)), rng.standard_normal((3, 5, 4))
    x, y = nr.tensor(a), nr.tensor(b)
    xp, yp, ap, bp = x.permute(2, 0, 1), y.permute(2, 0, 1), a.transpose(2, 0, 1), b.transpose(2, 0, 1)
    for got, want in [(xp + yp, ap + bp), (xp * 2.0, ap * 2.0), (nr.exp(xp), np.exp(ap)), (xp > yp, ap > bp),
                      (nr.relu(xp), np.maximum(ap, 0)), (nr.clamp(xp, -0.5, 0.5), np.clip(ap, -0.5, 0.5)),
                      (nr.where(xp > 0, xp, yp), np.where(ap > 0, ap, bp)), (xp.cumsum(1), ap.cumsum(1)),
                      (xp - yp[:, :1], ap - bp[:, :1]), (nr.tensor(a[:2]).T + 1, a[:2].T + 1)]:
        assert got.strides == tuple(s // want.itemsize for s in want.strides), (got.strides, want.strides)
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-15)  # exp: NumPy's libm may differ by an ulp
    mixed = [(xp + yp.contiguous(), ap + bp), (x.flip(0).T + 1, a[::-1].T + 1), (x[:, ::2].T * 3, a[:, ::2].T * 3)]
    for got, want in mixed:
        assert got.is_contiguous() and got.shape == want.shape
        np.testing.assert_array_equal(got.numpy(), want)
    z = xp + yp  # the result is an ordinary tensor: views, reductions and copies of it work
    np.testing.assert_allclose(z.sum(1).numpy(), (ap + bp).sum(1))
    np.testing.assert_array_equal(z.contiguous().numpy(), ap + bp)
    assert (nr.zeros((0, 3)).T + 1).shape == (3, 0)
