"""NumPy's element-wise math extras against NumPy: fmod, copysign, nextafter, ldexp, gcd, lcm,
signbit, frexp, nan_to_num bit-exact (special values: -0.0, NaN payloads, +-inf, subnormals,
integer limits); the composites (logaddexp/2, heaviside, float_power, deg2rad/rad2deg and aliases,
fix, positive, spacing) to tolerance; views, broadcasting, 0-d and empty inputs,
errors; gradients by central differences and jvp. Every dtype on the CPU, a few cases per op on
the GPU backends (test-time budget)."""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest
from conftest import assert_close
from numeric_cases import make

import numr as nr
from numr.autograd import Var, backward, jvp
from numr.autograd.functional import gradcheck

FLOATS = ["float32", "float64", "float16", "bfloat16"]
INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
# a NaN with a payload and its sign bit set, and the specials every float op meets
NAN_PAYLOAD = np.array([0xFFC00123], dtype=np.uint32).view(np.float32)[0]


def specials(dtype, device):
    """Special values of a float dtype (subnormals only where the backend keeps them)."""
    info = ml_dtypes.finfo(nr.dtype(dtype).np)
    v = [0.0, -0.0, 1.0, -1.0, 1.5, -7.25, 3.0, 0.3, np.inf, -np.inf, np.nan, float(info.max),
         -float(info.max), float(info.tiny), 2.0 ** 10]
    if device == "cpu":
        v += [float(info.smallest_subnormal), -3 * float(info.smallest_subnormal)]
    return np.array(v, dtype=np.float64).astype(nr.dtype(dtype).np)


def bits(a):
    a = np.asarray(a)
    return a.view({1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[a.dtype.itemsize])


def assert_bits(got, expected, dtype):
    """Same shape and dtype; the same bits, NaNs compared as NaN (their payloads vary by libm)."""
    assert got.dtype == nr.dtype(dtype), f"{got.dtype} != {dtype}"
    g = got.numpy()
    e = np.asarray(expected).astype(nr.dtype(dtype).np)
    assert g.shape == e.shape
    if nr.dtype(dtype).kind == "f":
        gn, en = np.isnan(g.astype(np.float64)), np.isnan(e.astype(np.float64))
        np.testing.assert_array_equal(gn, en)
        g, e = g[~gn], e[~en]
    np.testing.assert_array_equal(bits(g), bits(e))


def devtypes(device, dtypes):
    """Every dtype on the CPU; float32 (and float64 where the backend has it) elsewhere."""
    return dtypes if device == "cpu" else [d for d in dtypes if d in ("float32", "float64", "int32", "uint32")]


def grid(dtype, device):
    s = specials(dtype, device)
    return np.repeat(s, len(s)), np.tile(s, len(s))


def oracle(op, a, b):
    """NumPy's result in the dtype (bfloat16: the float32 op rounded once, exact for these)."""
    with np.errstate(all="ignore"):
        if a.dtype == ml_dtypes.bfloat16 and op != "nextafter":
            return getattr(np, op)(a.astype(np.float32), b.astype(np.float32)).astype(a.dtype)
        r = getattr(np, op)(a, b)
        if op == "nextafter" and a.dtype == np.float16:  # C99 (and NumPy's other floats): y when x == y;
            r = np.where(a == b, b, r)                    # NumPy's float16 returns x (+-0 differ)
        return r


@pytest.mark.parametrize("op", ["fmod", "copysign", "nextafter"])
def test_float_binary_bit_exact(device, op):
    for dtype in devtypes(device, FLOATS):
        if op == "nextafter" and device != "cpu" and dtype in ("float16", "bfloat16"):
            continue
        a, b = grid(dtype, device)
        got = getattr(nr, op)(make(a, device), make(b, device))
        assert_bits(got, oracle(op, a, b), dtype)
    if device == "cpu":  # the sign of a NaN with a payload is copied, the payload kept
        got = nr.copysign(nr.tensor([NAN_PAYLOAD]), nr.tensor([1.0], dtype="float32"))
        assert bits(got.numpy())[0] == 0x7FC00123


def test_ldexp_bit_exact(device):
    for dtype in devtypes(device, FLOATS):
        x = specials(dtype, device)
        n = np.array([1, -1, 3, 0, 200, -200, 10000, -10000, 5, 1, 0, -1, 1, -1, 2][:len(x)] +
                     [1] * max(0, len(x) - 15), dtype=np.int32)
        if device != "cpu":  # drivers flush subnormal results
            n = np.clip(n, -1, 1)
        got = nr.ldexp(make(x, device), make(n, device))
        with np.errstate(all="ignore"):
            want = np.ldexp(x.astype(np.float64), n).astype(x.dtype)
        assert_bits(got, want, dtype)
    # an int64 exponent, a Python int, an integer x (the default float) and broadcasting
    x = make(np.array([[1.0], [3.0]], dtype=np.float32), device)
    assert_close(nr.ldexp(x, make(np.array([0, 2, -3], dtype=np.int64), device)),
                 np.ldexp(np.float32([[1.0], [3.0]]), [0, 2, -3]), dtype="float32", rtol=0, atol=0)
    assert_close(x.ldexp(4), np.float32([[16.0], [48.0]]), dtype="float32", rtol=0, atol=0)
    if device != "wgpu":
        assert_close(nr.ldexp(make([3, -5], device, "int32"), 2), [12.0, -20.0], dtype="float64")
    with pytest.raises(nr.DTypeError, match="ldexp"):
        nr.ldexp(x, 1.5)
    with pytest.raises(nr.DTypeError, match="ldexp"):
        nr.ldexp(x, make([1.0], device))


def int_cases(dtype):
    info = np.iinfo(nr.dtype(dtype).np)
    v = sorted({int(info.min), int(info.min) + 1, -12, -7, -1, 0, 1, 2, 6, 7, 12, 18, int(info.max)})
    v = np.array([x for x in v if info.min <= x <= info.max], dtype=nr.dtype(dtype).np)
    return np.repeat(v, len(v)), np.tile(v, len(v))


@pytest.mark.parametrize("op", ["fmod", "gcd", "lcm"])
def test_integer_ops(device, op):
    for dtype in devtypes(device, INTS):
        a, b = int_cases(dtype)
        got = getattr(nr, op)(make(a, device), make(b, device))
        with np.errstate(all="ignore"):
            want = getattr(np, op)(a, b)  # NumPy gives 0 for x fmod 0, as numr's rule
        assert_bits(got, want, dtype)
    with pytest.raises(nr.DTypeError, match=op):
        getattr(nr, op)(make([1.0], device), make([2.0], device)) if op != "fmod" else \
            nr.fmod(make([True], device), make([True], device))


def test_signbit_frexp(device):
    for dtype in devtypes(device, FLOATS):
        x = specials(dtype, device)
        t = make(x, device)
        assert_bits(nr.signbit(t), np.signbit(x.astype(np.float32)), "bool")
        m, e = nr.frexp(t)
        wm, we = np.frexp(x.astype(np.float64))
        assert_bits(m, wm.astype(x.dtype), dtype)
        assert_bits(e, np.where(np.isfinite(x.astype(np.float64)), we, 0), "int32")
    for dtype in devtypes(device, INTS + ["bool"]):
        a = int_cases(dtype)[1][:13] if dtype != "bool" else np.array([True, False])
        assert_bits(nr.signbit(make(a, device)), np.signbit(a) if dtype != "bool" else [False, False], "bool")
    if device == "cpu":
        assert bool(nr.signbit(nr.tensor([NAN_PAYLOAD])).item())
        m, e = nr.frexp(nr.tensor([3, -8], dtype="int32"))  # integers: the default float, as NumPy
        assert_bits(m, [0.75, -0.5], "float64")
        assert_bits(e, [2, 4], "int32")
        with pytest.raises(nr.DTypeError):
            nr.signbit(nr.tensor([1j]))


def test_nan_to_num(device):
    for dtype in devtypes(device, FLOATS + ["float8_e4m3fn", "float8_e5m2"]):
        x = specials(dtype, device)
        info = ml_dtypes.finfo(x.dtype)
        want = np.nan_to_num(x.astype(np.float64), posinf=float(info.max), neginf=float(info.min)).astype(x.dtype)
        t = make(x, device)
        assert_bits(nr.nan_to_num(t), want, dtype)
        assert_bits(t.nan_to_num(nan=-1.0, posinf=2.0, neginf=-3.0),
                    np.nan_to_num(x.astype(np.float64), nan=-1.0, posinf=2.0, neginf=-3.0).astype(x.dtype), dtype)
    i = make(np.array([-3, 0, 7], dtype=np.int32), device)
    assert_bits(nr.nan_to_num(i), [-3, 0, 7], "int32")
    if device == "cpu":
        z = np.array([complex(np.nan, np.inf), complex(-np.inf, 2.0)], dtype=np.complex128)
        assert_close(nr.nan_to_num(nr.tensor(z), posinf=5.0), np.nan_to_num(z, posinf=5.0), dtype="complex128")
    with pytest.raises(nr.DTypeError, match="nan_to_num"):
        nr.nan_to_num(t, nan="zero")


def test_views_broadcast_and_edges(device):
    rng = np.random.default_rng(3)
    a = (rng.standard_normal((4, 6)) * 10).astype(np.float32)
    b = (rng.standard_normal((6,)) * 3).astype(np.float32)
    x, y = make(a, device), make(b, device)
    views = [(x.T, a.T), (x[1:, 2:5], a[1:, 2:5]), (x.flip(1), a[:, ::-1])]
    for v, av in views:
        assert_bits(nr.copysign(v, -1.0), np.copysign(av, np.float32(-1.0)), "float32")
        assert_bits(nr.fmod(v, 3.0), np.fmod(av, np.float32(3.0)), "float32")
        m, e = nr.frexp(v)
        assert_bits(m, np.frexp(av)[0], "float32")
        assert_bits(e, np.frexp(av)[1], "int32")
        assert_bits(nr.nan_to_num(v), av, "float32")
    assert_bits(nr.nextafter(x, y), np.nextafter(a, b), "float32")  # broadcast (4, 6) with (6,)
    assert_bits(x.fmod(y[::-1]), np.fmod(a, b[::-1]), "float32")
    z0 = make(np.float32(-2.5), device)
    assert nr.copysign(z0, 1.0).shape == () and nr.copysign(z0, 1.0).item() == 2.5
    assert nr.frexp(z0)[0].shape == () and nr.frexp(z0)[1].item() == 2
    empty = make(np.zeros((0, 3), np.float32), device)
    assert nr.fmod(empty, 2.0).shape == (0, 3) and nr.frexp(empty)[1].dtype == nr.int32
    assert nr.nan_to_num(empty).shape == (0, 3) and nr.signbit(empty).dtype == nr.bool_
    gi = make(np.array([[12, -18, 0]], dtype=np.int32), device)
    assert_bits(nr.gcd(gi.T, gi), np.gcd(np.int32([[12], [-18], [0]]), np.int32([[12, -18, 0]])), "int32")
    assert_bits(nr.lcm(gi, 4), np.lcm(np.int32([12, -18, 0]), 4)[None], "int32")
    with pytest.raises(nr.ShapeError):
        nr.copysign(x, make(np.ones(4, np.float32), device))
    with pytest.raises(nr.DTypeError):
        nr.copysign(make([1j], device) if device == "cpu" else x, 1j)


def test_unsupported_dtypes(device):
    if device == "cpu":
        with pytest.raises(nr.UnsupportedDType, match="nextafter"):
            nr.nextafter(nr.tensor([1.0], dtype="float8_e5m2"), nr.tensor([2.0], dtype="float8_e5m2"))
    else:
        h = make([1.0], device, "float16")
        with pytest.raises(nr.UnsupportedDType, match="nextafter"):
            nr.nextafter(h, h)


COMPOSITE_CASES = {
    "logaddexp": (np.logaddexp, 2), "logaddexp2": (np.logaddexp2, 2), "float_power": (np.float_power, 2),
    "heaviside": (np.heaviside, 2), "deg2rad": (np.deg2rad, 1),
    "rad2deg": (np.rad2deg, 1), "radians": (np.radians, 1), "degrees": (np.degrees, 1), "fix": (np.fix, 1),
    "positive": (np.positive, 1), "spacing": (np.spacing, 1),
}


@pytest.mark.parametrize("op", sorted(COMPOSITE_CASES))
def test_composites(device, op):
    fn, nargs = COMPOSITE_CASES[op]
    a = np.array([-3.5, -1.0, -0.0, 0.0, 0.25, 2.0, 700.0, np.inf, -np.inf, np.nan])
    b = np.array([2.0, -1.0, 0.5, 3.0, 0.25, -600.0, 1.0, np.inf, -np.inf, 1.0])
    if op == "float_power":
        a, b = np.abs(a), b
    dtypes = ["float32", "float64", "float16", "bfloat16", "int32"] if device == "cpu" else ["float32"]
    for dtype in dtypes:
        if dtype == "int32":
            if op in ("spacing", "heaviside", "logaddexp2", "fix"):
                continue
            aa, bb = np.array([-3, 0, 2, 5]), np.array([2, 3, -1, 1])
        else:
            aa = a.astype(nr.dtype(dtype).np).astype(np.float64)
            bb = b.astype(nr.dtype(dtype).np).astype(np.float64)
        args = [make(aa, device, dtype), make(bb, device, dtype)][:nargs]
        got = getattr(nr, op)(*args)
        with np.errstate(all="ignore"):
            want = fn(*[v.astype(nr.dtype(dtype).np) if op == "spacing" else v for v in [aa, bb][:nargs]])
            if op == "spacing" and dtype in ("float16", "bfloat16"):  # NumPy's float16 loop steps toward
                h = aa.astype(nr.dtype(dtype).np)                       # +inf; numr signs it as float32/64
                away = np.where(h < 0, -np.inf, np.inf).astype(h.dtype)
                want = (np.nextafter(h, away) - h).astype(np.float64)
        out = ("float64" if op in ("float_power",) or dtype == "int32" else dtype) if op != "positive" else dtype
        if op == "positive" and dtype == "int32":
            out = "int32"
        assert_close(got, np.asarray(want, dtype=np.float64), dtype=out)
    if device == "cpu" and op == "float_power":
        assert nr.float_power(nr.tensor([1j]), 2).dtype == nr.complex128


def test_composite_errors():
    with pytest.raises(nr.DTypeError, match="positive"):
        nr.positive(nr.tensor([True]))
    with pytest.raises(nr.DTypeError):
        nr.logaddexp(nr.tensor([1j]), 1.0)
    assert_close(nr.tensor([1.0, -2.0]).logaddexp(0.0), np.logaddexp([1.0, -2.0], 0.0), dtype="float64")


def _x64(*vals):
    return nr.tensor(np.array(vals, dtype=np.float64))


def test_gradients_reverse_and_forward():
    x = _x64(1.5, -2.0, 3.1, 0.4)
    b = _x64(-1.0, -1.0, 1.0, 0.9)
    n = nr.tensor([1, 2, -3, 0])
    cases = {
        "copysign": (lambda v: nr.copysign(v, b), [x]),
        "fmod": (lambda u, v: nr.fmod(u, v), [x, _x64(0.7, 0.9, -1.3, 0.3)]),
        "ldexp": (lambda v: nr.ldexp(v, n), [x]),
        "nan_to_num": (lambda v: nr.nan_to_num(v), [x]),
        "logaddexp": (lambda u, v: nr.logaddexp(u, v), [x, b]),
        "logaddexp2": (lambda u, v: nr.logaddexp2(u, v), [x, b]),
        "float_power": (lambda u, v: nr.float_power(u, v), [nr.abs(x), b]),
        "deg2rad": (lambda v: nr.rad2deg(nr.deg2rad(v) * v), [x]),
    }
    for name, (f, args) in cases.items():
        assert gradcheck(f, tuple(args)), name
        ts = tuple(nr.ones(a.shape, dtype=a.dtype) for a in args)
        y, t = jvp(f, tuple(args), ts)
        vs = [Var(a, requires_grad=True) for a in args]
        g = backward(nr.sum(f(*vs)))
        assert_close(t, sum(g[v].numpy() for v in vs), dtype="float64")  # diagonal Jacobians
    # torch's rules at the edges: nan_to_num passes no gradient where it replaced a value,
    # copysign none at a == 0; nextafter is constant; integer results are plain tensors
    v = Var(_x64(np.nan, np.inf, 2.0, 0.0), requires_grad=True)
    assert_close(backward(nr.sum(nr.nan_to_num(v)))[v], [0.0, 0.0, 1.0, 1.0], dtype="float64")
    v = Var(_x64(2.0, 0.0, -3.0), requires_grad=True)
    assert_close(backward(nr.sum(nr.copysign(v, -1.0)))[v], [-1.0, 0.0, 1.0], dtype="float64")
    y = nr.nextafter(Var(x, requires_grad=True), 0.0)
    assert not y.requires_grad
    m, e = nr.frexp(Var(x, requires_grad=True))
    assert isinstance(m, nr.Tensor) and e.dtype == nr.int32
    assert isinstance(nr.signbit(Var(x, requires_grad=True)), nr.Tensor)
    _, t = jvp(lambda u: nr.heaviside(u, 0.5) + nr.spacing(u), (x,), (nr.ones((4,), dtype=nr.float64),))
    assert t is None or float(nr.sum(nr.abs(t)).item()) == 0.0


def test_gradient_on_device(device):
    if device == "cpu":
        pytest.skip("covered by test_gradients_reverse_and_forward")
    x = make(np.float32([1.5, -2.0, 3.0]), device)
    v = Var(x, requires_grad=True)
    g = backward(nr.sum(nr.copysign(v, -1.0) + nr.fmod(v, 0.7) + nr.logaddexp(v, 0.5)))
    want = -np.sign([1.5, -2.0, 3.0]) + 1.0 + 1.0 / (1.0 + np.exp(0.5 - np.float32([1.5, -2.0, 3.0])))
    assert_close(g[v], want, dtype="float32", rtol=1e-5, atol=1e-6)
    assert math.isclose(nr.ldexp(x, 3).numpy()[0], 12.0)
