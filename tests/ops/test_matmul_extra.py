"""semiring_matmul, scaled_mm and matmul_bias_act against NumPy float64 oracles (ml_dtypes float8
for scaled_mm): dtypes, empty/1x1/batched/broadcast/non-contiguous/flipped inputs, inf/NaN,
integer extremes, bad shapes/dtypes/names; gradients by central differences and jvp."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from conftest import assert_close
from fd_checks import check_grads

import numr as nr

SEMI = {"min_plus": (np.min, np.add), "max_plus": (np.max, np.add), "max_min": (np.max, np.minimum),
        "min_max": (np.min, np.maximum), "plus_max": (np.sum, np.maximum), "or_and": (np.any, np.logical_and)}


def make(a, device, dtype=None):
    try:
        return nr.tensor(a, dtype=dtype, device=device)
    except (nr.UnsupportedOperation, nr.UnsupportedDType) as e:
        pytest.skip(str(e))


def oracle(a, b, semiring, dtype=None):
    """reduce over k of combine(a[..., :, :, None], b[..., None, :, :]) in float64 (ints exact)."""
    red, comb = SEMI[semiring]
    a2, b2 = (a[None] if a.ndim == 1 else a), (b[:, None] if b.ndim == 1 else b)
    wide = a2.dtype if a2.dtype.kind == "b" else (np.int64 if a2.dtype.kind in "iu" else np.float64)
    c = comb(a2.astype(wide)[..., :, :, None], b2.astype(wide)[..., None, :, :])
    out = red(c, axis=-2) if c.shape[-2] else np.full(c.shape[:-3] + c.shape[-3:-2] + c.shape[-1:],
                                                      {"min": np.inf, "max": -np.inf}.get(red.__name__[-3:], 0))
    if a.ndim == 1:
        out = out[..., 0, :]
    if b.ndim == 1:
        out = out[..., 0]
    return out


def _data(rng, shape, dtype):
    if dtype == "bool":
        return rng.random(shape) < 0.3
    if dtype in ("int32", "int64", "uint8", "int16"):
        return rng.integers(0, 9, shape).astype(dtype)
    return rng.standard_normal(shape).astype(nr.dtype(dtype).np)


@pytest.mark.parametrize("semiring,dt", [(s, d) for s in SEMI if s != "or_and" for d in (
    "float32", "float64", "int32", "int64", "uint8", "int16", "float16", "bfloat16", "float8_e4m3fn",
    "float8_e5m2")] + [("or_and", "bool")])
def test_semiring_dtypes(device, semiring, dt):
    rng = np.random.default_rng(0)
    a, b = _data(rng, (5, 7), dt), _data(rng, (7, 4), dt)
    got = nr.semiring_matmul(make(a, device), make(b, device), semiring)
    low = nr.dtype(dt).is_low_precision
    want = oracle(a.astype(np.float64) if low else a, b.astype(np.float64) if low else b, semiring)
    assert got.dtype == nr.dtype(dt) and got.shape == (5, 4)
    if low:  # computed in float32 (exact here) and rounded once, as the oracle rounded to dt
        np.testing.assert_array_equal(got.numpy().astype(np.float64), want.astype(a.dtype).astype(np.float64))
    else:
        assert_close(got, want.astype(a.dtype) if a.dtype.kind in "biu" else want, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("shapes", [((2, 3, 4), (4, 5)), ((1, 3, 4), (2, 4, 2)), ((2, 1, 3, 4), (3, 4, 2)),
                                    ((4,), (4, 3)), ((3, 4), (4,)), ((4,), (4,)), ((1, 1), (1, 1)),
                                    ((0, 3), (3, 2)), ((3, 0), (0, 2)), ((2, 0, 3), (3, 4))])
def test_semiring_shapes(device, shapes):
    rng = np.random.default_rng(1)
    a, b = rng.standard_normal(shapes[0]).astype(np.float32), rng.standard_normal(shapes[1]).astype(np.float32)
    for s in ("min_plus", "plus_max"):
        got = nr.semiring_matmul(make(a, device), make(b, device), s)
        assert_close(got, oracle(a, b, s), dtype="float32", rtol=1e-5, atol=1e-5)
    assert np.matmul(a, b).shape == got.shape


def test_semiring_views_and_specials(device):
    rng = np.random.default_rng(2)
    a = rng.standard_normal((6, 8)).astype(np.float32)
    b = rng.standard_normal((8, 10)).astype(np.float32)
    a[1, 2], a[3, :] = np.nan, np.inf
    b[0, 4], b[5, :] = -np.inf, np.inf
    x, y = make(a, device), make(b, device)
    views = [(x.mT.mT[::2, 1:], y[1:, ::3]), (x.mT.contiguous().mT, y.flip(0).flip(0)),
             (x.flip(1), y.flip(0)), (x[1:4], y.mT.contiguous().mT)]
    npv = [(a[::2, 1:], b[1:, ::3]), (a, b), (a[:, ::-1], b[::-1]), (a[1:4], b)]
    for (xv, yv), (av, bv) in zip(views, npv, strict=True):
        for s in ("min_plus", "max_plus", "max_min", "min_max"):
            with np.errstate(invalid="ignore"):
                want = oracle(av, bv, s)
            assert_close(nr.semiring_matmul(xv, yv, s), want, dtype="float32", rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "uint64"])
def test_semiring_blocks(device, dtype):
    """m not a multiple of the 4-row block, n over one 256-column block, NaN at scattered places."""
    rng = np.random.default_rng(3)
    a, b = (rng.standard_normal((2, 9, 5)) * 5), (rng.standard_normal((5, 300)) * 5)
    a, b = (a.astype(np.int64).astype(dtype), b.astype(np.int64).astype(dtype)) if dtype == "uint64" else (
        a.astype(dtype), b.astype(dtype))
    if dtype == "float32":
        a[0, 2, 3], b[1, 270] = np.nan, np.nan
    for s in ("min_plus", "max_plus", "max_min", "min_max", "plus_max"):
        with np.errstate(over="ignore"):
            want = oracle(a, b, s).astype(a.dtype) if dtype in ("int32", "uint64") else oracle(a, b, s)
        if dtype == "uint64":  # in uint64 itself: sums wrap, order is unsigned
            want = SEMI[s][0](SEMI[s][1](a[..., :, :, None], b[None, None]), axis=-2)
        try:
            got = nr.semiring_matmul(make(a, device), make(b, device), s)
        except nr.UnsupportedDType as e:
            assert device == "wgpu" and dtype in ("float64", "uint64"), e
            continue
        assert_close(got, want, dtype=dtype, rtol=1e-6, atol=1e-5)


def test_semiring_integer_extremes(device):
    a = np.array([[np.iinfo(np.int32).max, -5], [np.iinfo(np.int32).min, 3]], np.int32)
    b = np.array([[0, np.iinfo(np.int32).max], [2, 1]], np.int32)
    x, y = make(a, device), make(b, device)
    for s in ("max_min", "min_max", "min_plus"):
        with np.errstate(over="ignore"):
            want = SEMI[s][0](SEMI[s][1](a[:, :, None], b[None]), axis=1)  # int32 wrap, as nr.add
        assert_close(nr.semiring_matmul(x, y, s), want, dtype="int32")
    e = nr.semiring_matmul(make(np.zeros((2, 0), np.int32), device), make(np.zeros((0, 3), np.int32), device))
    assert_close(e, np.full((2, 3), np.iinfo(np.int32).max), dtype="int32")


def test_semiring_errors(device):
    x = make(np.ones((2, 3), np.float32), device)
    with pytest.raises(nr.ShapeError, match="semiring_matmul"):
        nr.semiring_matmul(x, x)
    with pytest.raises(nr.ShapeError, match="semiring_matmul"):
        nr.semiring_matmul(make(np.ones((2, 2, 3), np.float32), device), make(np.ones((3, 3, 2), np.float32), device))
    with pytest.raises(ValueError, match="semiring"):
        nr.semiring_matmul(x, x.mT, "plus_times")
    with pytest.raises(nr.DTypeError, match="or_and"):
        nr.semiring_matmul(x, x.mT, "or_and")
    bb = make(np.ones((2, 3), bool), device)
    with pytest.raises(nr.DTypeError, match="min_plus"):
        nr.semiring_matmul(bb, bb.mT)
    with pytest.raises(nr.ShapeError):
        nr.semiring_matmul(make(np.float32(1), device), x)
    with pytest.raises(nr.DTypeError, match="tensor"):
        nr.semiring_matmul(x, 2.0)
    c = make(np.ones((2, 2), np.complex64), device) if device != "wgpu" else None
    if c is not None:
        with pytest.raises(nr.DTypeError, match="complex"):
            nr.semiring_matmul(c, c)


def test_semiring_shortest_paths(device):
    """Repeated min-plus squaring of a weighted adjacency matrix gives all-pairs shortest paths."""
    inf = np.inf
    w = np.array([[0, 3, inf, 7], [8, 0, 2, inf], [5, inf, 0, 1], [2, inf, inf, 0]], np.float32)
    d = make(w, device)
    for _ in range(2):
        d = nr.semiring_matmul(d, d, "min_plus")
    want = np.array([[0, 3, 5, 6], [5, 0, 2, 3], [3, 6, 0, 1], [2, 5, 7, 0]], np.float32)
    assert_close(d, want, dtype="float32", rtol=0, atol=0)


def _f64(device):
    if make(np.zeros(1), device).dtype != nr.float64:
        pytest.skip(f"{device} has no float64")


@pytest.mark.parametrize("semiring", ["min_plus", "max_plus", "max_min", "plus_max"])
def test_semiring_gradients(device, semiring):
    """Subgradients through the winning k (ties split as nr.amin/amax do; random data has none)."""
    _f64(device)
    rng = np.random.default_rng(5)
    check_grads(device, lambda x, y: nr.semiring_matmul(x, y, semiring),
                [rng.standard_normal((2, 3, 4)), rng.standard_normal((4, 3))])


# ---- scaled_mm ----------------------------------------------------------------------------------


def _fp8(rng, shape, name):
    return (rng.standard_normal(shape) * 2).astype(getattr(ml_dtypes, name))


@pytest.mark.parametrize("fa,fb", [("float8_e4m3fn", "float8_e4m3fn"), ("float8_e5m2", "float8_e4m3fn"),
                                   ("float8_e5m2", "float8_e5m2")])
@pytest.mark.parametrize("scales", ["tensor", "rowcol", "python"])
@pytest.mark.parametrize("out_dtype", ["float32", "bfloat16", "float16"])
def test_scaled_mm(device, fa, fb, scales, out_dtype):
    rng = np.random.default_rng(6)
    a, b = _fp8(rng, (5, 16), fa), _fp8(rng, (16, 3), fb)
    x, y = make(a, device), make(b, device)
    if scales == "tensor":
        sa, sb = np.float32(0.5), np.float32(3.0)
        ta, tb = make(np.array(sa), device), make(np.array([sb]), device)
    elif scales == "rowcol":
        sa, sb = rng.random((5, 1)).astype(np.float32), rng.random((1, 3)).astype(np.float32)
        ta, tb = make(sa, device), make(sb, device)
    else:
        sa, sb = ta, tb = 0.25, 2.0
    bias = rng.standard_normal(3).astype(np.float32)
    want = (a.astype(np.float64) @ b.astype(np.float64)) * np.float64(sa) * np.float64(sb)
    got = nr.scaled_mm(x, y, ta, tb, out_dtype=out_dtype)
    assert_close(got, want, dtype=out_dtype, rtol=None if out_dtype != "float32" else 1e-5, atol=1e-5)
    got = nr.scaled_mm(x, y, ta, tb, bias=make(bias, device), out_dtype=out_dtype)
    assert_close(got, want + bias, dtype=out_dtype, rtol=None if out_dtype != "float32" else 1e-5, atol=1e-5)


def test_scaled_mm_wgpu_has_no_float8(device):
    if device != "wgpu":
        pytest.skip("wgpu only")
    with pytest.raises(nr.UnsupportedDType, match="float8"):
        nr.tensor(np.ones((2, 2), ml_dtypes.float8_e4m3fn), device=device)


def test_scaled_mm_edges_and_errors(device):
    rng = np.random.default_rng(7)
    a, b = _fp8(rng, (4, 6), "float8_e4m3fn"), _fp8(rng, (6, 5), "float8_e4m3fn")
    x, y = make(a, device), make(b, device)
    one = make(np.array(1.0, np.float32), device)
    # non-contiguous and flipped operands, 1x1, empty k and empty m
    assert_close(nr.scaled_mm(y.mT, x.mT, one, one), b.astype(np.float64).T @ a.astype(np.float64).T,
                 dtype="float32", rtol=1e-5, atol=1e-5)
    assert_close(nr.scaled_mm(x.flip(0), y, one, one), a[::-1].astype(np.float64) @ b.astype(np.float64),
                 dtype="float32", rtol=1e-5, atol=1e-5)
    assert_close(nr.scaled_mm(x[:1, :1], y[:1, :1], one, one),
                 a[:1, :1].astype(np.float64) * b[0, 0].astype(np.float64), dtype="float32")
    assert_close(nr.scaled_mm(x[:, :0], y[:0], one, one), np.zeros((4, 5)), dtype="float32")
    assert nr.scaled_mm(x[:0], y, one, one).shape == (0, 5)
    # inf/NaN in float8 flow through as in a float32 matmul
    a2 = a.copy()
    a2[0, 0] = np.nan
    r = nr.scaled_mm(make(a2, device), y, one, one).numpy()
    assert np.isnan(r[0]).all() and not np.isnan(r[1:]).any()
    with pytest.raises(nr.DTypeError, match="scaled_mm"):
        nr.scaled_mm(make(a.astype(np.float32), device), y, one, one)
    with pytest.raises(nr.DTypeError, match="scale_a"):
        nr.scaled_mm(x, y, make(np.array(1.0), device) if device != "wgpu" else make(np.array(1), device), one)
    with pytest.raises(nr.ShapeError, match="scale_b"):
        nr.scaled_mm(x, y, one, make(np.ones((5, 1), np.float32), device))
    with pytest.raises(nr.ShapeError, match="scaled_mm"):
        nr.scaled_mm(x, x, one, one)
    with pytest.raises(nr.ShapeError, match="bias"):
        nr.scaled_mm(x, y, one, one, bias=make(np.ones(4, np.float32), device))
    with pytest.raises(nr.DTypeError, match="out_dtype"):
        nr.scaled_mm(x, y, one, one, out_dtype="int32")


# ---- matmul_bias_act ----------------------------------------------------------------------------

def _act(name, y):
    from math import erf, sqrt
    return {"none": lambda v: v, "relu": lambda v: np.maximum(v, 0), "tanh": np.tanh,
            "sigmoid": lambda v: 1 / (1 + np.exp(-v)), "silu": lambda v: v / (1 + np.exp(-v)),
            "gelu": lambda v: 0.5 * v * (1 + np.vectorize(erf)(v / sqrt(2))),
            "gelu_tanh": lambda v: 0.5 * v * (1 + np.tanh(np.sqrt(2 / np.pi) * (v + 0.044715 * v ** 3)))}[name](y)


ACTS = ["none", "relu", "gelu", "gelu_tanh", "silu", "sigmoid", "tanh"]


@pytest.mark.parametrize("activation", ACTS)
@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16"])
def test_matmul_bias_act(device, activation, dtype):
    rng = np.random.default_rng(8)
    a, b, c = rng.standard_normal((2, 3, 5)), rng.standard_normal((5, 4)), rng.standard_normal(4)
    np_d = nr.dtype(dtype).np
    a, b, c = a.astype(np_d), b.astype(np_d), c.astype(np_d)
    got = nr.matmul_bias_act(make(a, device), make(b, device), make(c, device), activation)
    want = _act(activation, a.astype(np.float64) @ b.astype(np.float64) + c.astype(np.float64))
    r, t = {"float32": (1e-5, 1e-5), "float16": (5e-3, 5e-3), "bfloat16": (3e-2, 3e-2)}[dtype]
    assert_close(got, want, dtype=dtype, rtol=r, atol=t)
    got = nr.matmul_bias_act(make(a, device)[:, ::-1], make(b, device), None, activation)
    want = _act(activation, a[:, ::-1].astype(np.float64) @ b.astype(np.float64))
    assert_close(got, want, dtype=dtype, rtol=r, atol=t)


def test_matmul_bias_act_errors_and_edges(device):
    x = make(np.ones((2, 3), np.float32), device)
    with pytest.raises(ValueError, match="activation"):
        nr.matmul_bias_act(x, x.mT, None, "swish")
    with pytest.raises(nr.ShapeError):
        nr.matmul_bias_act(x, x, None, "relu")
    xi = make(np.ones((2, 3), np.int32), device)
    with pytest.raises(nr.DTypeError, match="floating"):
        nr.matmul_bias_act(xi, xi.mT, None, "gelu")
    assert_close(nr.matmul_bias_act(xi, xi.mT, make(np.array([-5, 1], np.int32), device), "none"),
                 np.array([[-2, 4], [-2, 4]]), dtype="int32")
    e = nr.matmul_bias_act(x[:, :0], x.mT[:0], make(np.array([-1.0, 2.0], np.float32), device), "relu")
    assert_close(e, np.array([[0.0, 2.0], [0.0, 2.0]]), dtype="float32")
    nan = make(np.array([[np.nan, 1.0]], np.float32), device)
    assert np.isnan(nr.matmul_bias_act(nan, make(np.ones((2, 1), np.float32), device), None, "relu").numpy()).all()


@pytest.mark.parametrize("activation", ["relu", "gelu", "gelu_tanh", "silu", "sigmoid", "tanh"])
def test_matmul_bias_act_gradients(device, activation):
    _f64(device)
    rng = np.random.default_rng(9)
    check_grads(device, lambda a, b, c: nr.matmul_bias_act(a, b, c, activation),
                [rng.standard_normal(s) for s in ((3, 4), (4, 2), (2,))])


def test_semiring_wgpu_k_split(device, monkeypatch):
    """k past the wgpu loop budget is split in halves joined by the semiring's fold epilogue."""
    if device != "wgpu":
        pytest.skip("the wgpu loop-budget split")
    import numr._wgpu.ops.matmul as wm
    monkeypatch.setattr(wm, "k_limit", lambda gpu: 16)
    rng = np.random.default_rng(11)
    for dtype in ("float32", "int32", "uint32"):
        a, b = rng.integers(0, 50, (5, 70)).astype(dtype), rng.integers(0, 50, (70, 6)).astype(dtype)
        for s in ("min_plus", "max_plus", "max_min", "min_max", "plus_max"):
            got = nr.semiring_matmul(make(a, device), make(b, device), s)
            assert_close(got, oracle(a, b, s).astype(dtype), dtype=dtype)
