"""Activation family against a NumPy/SciPy float64 oracle: every float dtype (and
integer inputs, which compute in the default float), every layout case, NaN/inf and
huge inputs (no overflow), broadcasting of the gated forms, the fused backward kernels,
softmax/log_softmax rows of -inf, and seeded dropout."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_close, tolerance
from elementwise_cases import VIEWS, make, oracle_cast, run, values, view_pair, wide
from scipy.special import erfc, expit

import numr as nr

FLOATS = ("float64", "float32", "float16", "bfloat16", "float8_e4m3fn", "float8_e5m2")
SQ2 = np.sqrt(2.0)


def _lim(x, r):
    """The limit 0 at -inf (silu, gelu): x * 0 would be NaN."""
    return np.where(x == -np.inf, 0.0, r)


def _gelu_tanh(x):
    u = np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)
    return _lim(x, x * expit(2 * u))


UNARY = {
    "relu": lambda x: np.where(x < 0, 0.0, x),
    "leaky_relu": lambda x: np.where(x > 0, x, x * 0.01),
    "elu": lambda x: np.where(x > 0, x, np.expm1(x)),
    "sigmoid": expit,
    "silu": lambda x: _lim(x, x * expit(x)),
    "gelu": lambda x: _lim(x, 0.5 * x * erfc(-x / SQ2)),
    "gelu_tanh": _gelu_tanh,
    "softplus": lambda x: np.logaddexp(0.0, x),
}
GATED = {"silu_mul": "silu", "gelu_mul": "gelu", "relu_mul": "relu", "sigmoid_mul": "sigmoid"}


def _call(name, *args):
    if name == "gelu_tanh":
        return nr.gelu(*args, approximate="tanh")
    return getattr(nr, name)(*args)


def _oracle(name, x):
    with np.errstate(all="ignore"):
        return UNARY[name](wide(x).astype(np.float64))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_values_and_edges(device, name, dtype):
    d = nr.dtype(dtype)
    rng = np.random.default_rng(0)
    a = np.concatenate([values(d, 64, rng, -6, 6), np.array([-1e4, -100, -88, -20, 20, 88, 100, 1e4]).astype(d.np)])
    if dtype == "float8_e4m3fn":
        a = a[np.abs(a.astype(np.float64)) <= 448]
    out = run(device, _call, name, make(a, device, dtype))
    expected = oracle_cast(_oracle(name, a), d)
    assert_close(out, expected, dtype=dtype)
    finite_in = np.isfinite(a.astype(np.float64))
    finite_ref = np.isfinite(expected)
    assert np.all(np.isfinite(out.numpy().astype(np.float64))[finite_in & finite_ref])


TAILS = {"float32": (-87.0, -12.0), "float64": (-700.0, -37.0)}  # results stay normal


@pytest.mark.parametrize("dtype", sorted(TAILS))
@pytest.mark.parametrize("name", ["sigmoid", "silu", "gelu", "softplus"])
def test_negative_tails_keep_relative_accuracy(device, name, dtype):
    """Far into the negative tail the results are tiny but normal numbers: each must keep
    its relative accuracy (an absolute tolerance would pass a flush to 0)."""
    lo, hi = TAILS[dtype]
    if name == "gelu":  # Phi itself goes subnormal below about -13 in float32
        lo = max(lo, -12.0 if dtype == "float32" else -37.0)
        hi = -3.0
    a = np.linspace(lo, hi, 301).astype(dtype)
    out = run(device, _call, name, make(a, device, dtype))
    expected = _oracle(name, a)
    assert np.all(expected != 0) and np.all(np.abs(expected) >= np.finfo(dtype).tiny)
    # float64: the oracle's own erfc(-x/sqrt(2)) loses z*z*2e-16 to the rounding of z
    rtol = 2e-6 if dtype == "float32" else (1e-11 if name == "gelu" else 1e-13)
    assert_close(out, expected, dtype=dtype, rtol=rtol, atol=0)


def test_float64_gelu_erfc_sweep():
    """CPU only: the vectorised float64 erfc (vmath_erf.h, fdlibm's intervals selected without
    branches) in GELU, over every interval and its boundaries: against mpmath's erfc of the same
    rounded argument within 1e-15 relative wherever the result is normal (SciPy's own erfc is
    off by up to 6e-14 in the far tail, so the dense sweep against it allows 1e-13)."""
    import mpmath as mp  # a test dependency (pyproject's "test" extra)

    rng = np.random.default_rng(17)
    c = 0.70710678118654752440  # GELU's argument is -x * c, rounded; both oracles use that
    bounds = np.array([0.25, 0.84375, 1.25, 2.857142448425293, 6.0, 28.0]) / c
    edges = np.concatenate([np.nextafter(b, [-np.inf, np.inf]) for b in np.concatenate([bounds, -bounds])])
    x = np.concatenate([np.linspace(-37.5, 10.0, 200_001), rng.uniform(-3, 3, 50_000), edges,
                        [0.0, -0.0, np.inf, -np.inf, np.nan, 5e-324, -5e-324, 1e-300, -1e-300, -40.0, 40.0]])
    got = nr.gelu(make(x, "cpu", "float64")).numpy()
    with np.errstate(all="ignore"):
        ref = np.where(x == -np.inf, 0.0, 0.5 * x * erfc(-x * c))
    np.testing.assert_array_equal(np.isnan(got), np.isnan(ref))
    normal = np.isfinite(ref) & (np.abs(ref) >= np.finfo(np.float64).tiny)
    np.testing.assert_allclose(got[normal], ref[normal], rtol=1e-13, atol=0)
    np.testing.assert_array_equal(got[np.isinf(x)], ref[np.isinf(x)])
    np.testing.assert_array_equal(np.signbit(got[x == 0]), np.signbit(ref[x == 0]))
    xs = np.concatenate([np.linspace(-37.5, 8.0, 1501), rng.uniform(-4, 4, 500), edges])
    gs = nr.gelu(make(xs, "cpu", "float64")).numpy()
    with mp.workprec(120):
        exact = [mp.mpf(float(v)) * mp.erfc(mp.mpf(float(-v * c))) / 2 for v in xs]
        err = [float(abs((mp.mpf(float(g)) - t) / t)) for g, t in zip(gs, exact, strict=True)
               if t != 0 and abs(t) >= np.finfo(np.float64).tiny]
    assert max(err) <= 1e-15, max(err)


@pytest.mark.parametrize("view", VIEWS, ids=[v[0] for v in VIEWS])
@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_layouts(device, name, view):
    _, shape, _ = view
    base = np.random.default_rng(1).uniform(-5, 5, shape).astype(np.float32)
    a, t = view_pair(view, device, "float32", base)
    out = run(device, _call, name, t)
    assert_close(out, oracle_cast(_oracle(name, np.array(a)), nr.float32), dtype="float32")


def test_integer_inputs_compute_in_default_float(device):
    x = nr.tensor([-3, 0, 2], dtype=nr.int32, device=device)
    for name in ("relu", "sigmoid", "silu", "softplus"):
        out = run(device, _call, name, x)
        assert_close(out, UNARY[name](np.array([-3.0, 0.0, 2.0])), dtype="float64")
    with pytest.raises(nr.DTypeError):
        nr.sigmoid(nr.ones(2, dtype=nr.complex64))
    with pytest.raises(ValueError):
        nr.gelu(nr.ones(2, device=device), approximate="erf")


def test_parameters(device):
    a = np.linspace(-3, 3, 13)
    x = nr.tensor(a, device=device)
    assert_close(nr.leaky_relu(x, 0.2), np.where(a > 0, a, 0.2 * a), dtype="float64")
    assert_close(nr.elu(x, 0.5), np.where(a > 0, a, 0.5 * np.expm1(a)), dtype="float64")


def _act(kind, g):
    return UNARY["gelu_tanh" if kind == "gelu_tanh" else kind](g)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("name", sorted(GATED))
def test_gated_forward(device, name, dtype):
    d = nr.dtype(dtype)
    rng = np.random.default_rng(2)
    g = values(d, 40, rng, -5, 5)
    u = values(d, 40, rng, -3, 3, edge=False)
    out = run(device, getattr(nr, name), make(g, device, dtype), make(u, device, dtype))
    with np.errstate(all="ignore"):
        ref = _act(GATED[name], wide(g)) * wide(u)
    assert_close(out, oracle_cast(ref, d), dtype=dtype)


@pytest.mark.parametrize("name", sorted(GATED))
def test_gated_broadcast_views_and_promotion(device, name):
    rng = np.random.default_rng(3)
    g = rng.uniform(-4, 4, (5, 3)).astype(np.float32)
    u = rng.uniform(-2, 2, (3,)).astype(np.float64)
    gt = make(g, device, "float32").T            # non-contiguous (3, 5)
    ut = make(u, device, "float64").reshape(3, 1)
    out = run(device, getattr(nr, name), gt, ut)  # float32 x float64 -> float64, broadcast (3, 5)
    ref = _act(GATED[name], g.T.astype(np.float64)) * u.reshape(3, 1)
    assert_close(out, ref, dtype="float64", rtol=1e-6, atol=1e-6)
    with pytest.raises(nr.ShapeError):
        getattr(nr, name)(nr.ones((2, 3), device=device), nr.ones((4,), device=device))
    ref_t = _gelu_tanh(g.astype(np.float64)) * 2.0
    assert_close(nr.gelu_mul(make(g, device, "float32"), 2.0, approximate="tanh"), ref_t, dtype="float32")


def _dact(kind, x):
    s = expit(x)
    if kind == "silu":
        return s * (1 + x * (1 - s))
    if kind == "sigmoid":
        return s * (1 - s)
    if kind == "relu":
        return (x > 0).astype(np.float64)
    if kind == "gelu":
        return 0.5 * erfc(-x / SQ2) + x * np.exp(-0.5 * x * x) / np.sqrt(2 * np.pi)
    k = np.sqrt(2 / np.pi)
    t = np.tanh(k * (x + 0.044715 * x ** 3))
    return 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * k * (1 + 3 * 0.044715 * x * x)


@pytest.mark.parametrize("dtype", ["float64", "float32", "float16", "bfloat16"])
@pytest.mark.parametrize("kind", ["silu", "gelu", "gelu_tanh", "relu", "sigmoid"])
def test_gated_backward_kernels(device, kind, dtype):
    rng = np.random.default_rng(4)
    d = nr.dtype(dtype)
    g = np.concatenate([rng.uniform(-6, 6, 50), [-80.0, 80.0, 0.0, -1e4, 1e4]]).astype(d.np)
    u = rng.uniform(-2, 2, g.shape).astype(d.np)
    dy = rng.uniform(-2, 2, g.shape).astype(d.np)
    name = ("gelu" if kind.startswith("gelu") else kind) + "_mul_bwd"
    kw = {"approximate": "tanh"} if kind == "gelu_tanh" else {}
    fn = getattr(nr, name)
    dg, du = run(device, lambda *t: fn(*t, **kw), *(make(a, device, dtype) for a in (dy, g, u)))
    G, U, DY = wide(g), wide(u), wide(dy)
    act = _gelu_tanh(G) if kind == "gelu_tanh" else UNARY[kind](G)
    r, a = tolerance(d)
    assert_close(dg, oracle_cast(DY * U * _dact(kind, G), d), dtype=dtype, rtol=r * 4, atol=a * 4)
    assert_close(du, oracle_cast(DY * act, d), dtype=dtype)
    # broadcast grad and up against a larger gate
    dg2, du2 = run(device, lambda *t: fn(*t, **kw), make(dy[:1], device, dtype), make(g, device, dtype),
                   make(u[:1], device, dtype))
    assert dg2.shape == du2.shape == g.shape


def _softmax_ref(x, axis, log=False):
    x = np.asarray(x, np.float64)
    if x.size == 0:
        return x.copy()
    m = np.max(x, axis=axis, keepdims=True)
    m = np.where(np.isneginf(m), 0.0, m)
    with np.errstate(all="ignore"):
        e = np.exp(x - m)
        s = np.sum(e, axis=axis, keepdims=True)
        if log:
            return np.where(s == 0, -np.inf, x - m - np.log(s))
        return np.where(s == 0, 0.0, e / s)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("log", [False, True])
def test_softmax_rows(device, dtype, log):
    d = nr.dtype(dtype)
    rng = np.random.default_rng(5)
    a = rng.uniform(-6, 6, (6, 7))
    a[1] = -np.inf                      # all -inf row: zeros / -inf, no NaN
    a[2, :3] = -np.inf                  # some -inf
    a[3] = [1e4, -1e4, 30, 20, 0, -30, 5] if dtype not in ("float8_e4m3fn",) else [400, -400, 30, 20, 0, -30, 5]
    a[4, 2] = np.nan                    # NaN row stays NaN
    if dtype == "float8_e4m3fn":
        a = np.where(np.isinf(a), np.nan, a)[[0, 2, 3, 5]]  # no infinity in this format
    x = make(a.astype(d.np), device, dtype)
    fn = nr.log_softmax if log else nr.softmax
    for dim in (1, 0, -1):
        out = run(device, fn, x, dim)
        ref = _softmax_ref(wide(a.astype(d.np)), dim, log)
        assert_close(out, oracle_cast(ref, d), dtype=dtype)
    if dtype != "float8_e4m3fn":
        assert not np.isnan(nr.softmax(x, 1).numpy()[1].astype(np.float64)).any()


@pytest.mark.parametrize("view", VIEWS, ids=[v[0] for v in VIEWS])
def test_softmax_layouts(device, view):
    _, shape, _ = view
    base = np.random.default_rng(6).uniform(-5, 5, shape)
    a, t = view_pair(view, device, "float64", base)
    for dim in ([-1] if a.ndim < 2 else [0, 1]):
        assert_close(run(device, nr.softmax, t, dim), _softmax_ref(a, dim if a.ndim else None), dtype="float64")
        assert_close(run(device, nr.log_softmax, t, dim), _softmax_ref(a, dim if a.ndim else None, True),
                     dtype="float64")
    if a.ndim:
        with pytest.raises((nr.ShapeError, IndexError)):
            nr.softmax(t, 5)


@pytest.mark.parametrize("dtype", ["float64", "float32", "bfloat16"])
def test_softmax_long_rows(device, dtype):
    """Rows longer than a GPU warp and block: the row's maximum and sum combine across warps."""
    d = nr.dtype(dtype)
    rng = np.random.default_rng(8)
    a = rng.uniform(-4, 4, (4, 1000))
    a[0, -1] = 12.0                     # the maximum in the last thread's last element
    a[1, 300] = 9.0                     # ... in a middle warp
    a[2, :] = rng.uniform(-4, 4, 1000) - 50.0
    aq = a.astype(d.np)
    g = rng.uniform(-1, 1, a.shape).astype(d.np)
    r, at = tolerance(d)
    for dim, x, gx in ((1, aq, g), (0, aq.T, g.T)):
        t, tg = make(np.ascontiguousarray(x), device, dtype), make(np.ascontiguousarray(gx), device, dtype)
        for log in (False, True):
            out = run(device, nr.log_softmax if log else nr.softmax, t, dim)
            assert_close(out, oracle_cast(_softmax_ref(wide(x), dim, log), d), dtype=dtype)
        y = _softmax_ref(wide(x), dim)
        yq = y.astype(d.np)
        ref = wide(yq) * (wide(gx) - np.sum(wide(gx) * wide(yq), axis=dim, keepdims=True))
        assert_close(run(device, nr.softmax_bwd, tg, make(yq, device, dtype), dim), oracle_cast(ref, d), dtype=dtype,
                     rtol=r * 4, atol=at * 4)


@pytest.mark.parametrize("n", [1, 300, 4096, 4097, 9000])
def test_float16_softmax_rows_through_float32(n):
    """CPU only: float16 rows are converted whole (on the stack up to 4096, else on the heap)
    for the float32 row kernel; rows with inf, an all -inf row and a NaN row."""
    rng = np.random.default_rng(n)
    a = rng.uniform(-6, 6, (4, n)).astype(np.float16)
    a[1, n // 2] = np.inf if n > 1 else a[1, 0]
    a[2, :] = -np.inf
    a[3, n - 1] = np.nan
    x = make(a, "cpu", "float16")
    for log in (False, True):
        with np.errstate(all="ignore"):
            ref = _softmax_ref(wide(a), 1, log)
        ref[2] = -np.inf if log else 0.0  # numr: an all -inf row is 0 (softmax) / -inf, not NaN
        assert_close(nr.log_softmax(x, 1) if log else nr.softmax(x, 1), oracle_cast(ref, nr.float16), dtype="float16")


@pytest.mark.parametrize("dtype", ["float64", "float32", "float16", "bfloat16"])
def test_softmax_bwd(device, dtype):
    d = nr.dtype(dtype)
    rng = np.random.default_rng(7)
    y = _softmax_ref(rng.uniform(-3, 3, (4, 5)), 1)
    g = rng.uniform(-1, 1, (4, 5))
    yq, gq = y.astype(d.np), g.astype(d.np)
    for dim in (1, 0):
        out = run(device, nr.softmax_bwd, make(gq, device, dtype), make(yq, device, dtype), dim)
        Y, G = wide(yq), wide(gq)
        ref = Y * (G - np.sum(G * Y, axis=dim, keepdims=True))
        r, a = tolerance(d)
        assert_close(out, oracle_cast(ref, d), dtype=dtype, rtol=r * 4, atol=a * 4)


def test_dropout(device):
    x = nr.ones((200, 100), dtype=nr.float32, device=device)
    a = nr.dropout(x, 0.3, True, 42)
    b = nr.dropout(x, 0.3, True, 42)
    an = a.numpy()
    np.testing.assert_array_equal(an, b.numpy())
    assert a.dtype == nr.float32 and a.shape == (200, 100)
    assert set(np.unique(an)).issubset({0.0, np.float32(1 / 0.7)})
    assert abs((an == 0).mean() - 0.3) < 0.02
    keep = nr.rand((200, 100), dtype=nr.float32, seed=42, device=device).numpy() >= 0.3
    np.testing.assert_array_equal(an != 0, keep)
    assert not np.array_equal(nr.dropout(x, 0.3).numpy(), nr.dropout(x, 0.3).numpy())
    assert nr.dropout(x, 0.3, training=False) is x
    assert_close(nr.dropout(x, 0.0), np.ones((200, 100)), dtype="float32")
    assert_close(nr.dropout(x, 1.0), np.zeros((200, 100)), dtype="float32")
    h = nr.dropout(nr.ones((10,), dtype=nr.bfloat16, device=device), 0.5, True, 1)
    assert h.dtype == nr.bfloat16
    with pytest.raises(ValueError):
        nr.dropout(x, 1.5)


def test_generic_composites_match_kernels():
    """The composites in numr/ops/generic/activation.py (the default of backends without
    kernels) agree with the CPU kernels."""
    from numr.ops.generic import activation as gen
    c = nr.runtime.get("cpu").client()
    a = np.random.default_rng(8).uniform(-8, 8, (4, 6))
    a[0] = -np.inf
    x = nr.tensor(a)
    for name in ("relu", "sigmoid", "silu", "softplus", "elu", "leaky_relu"):
        assert_close(getattr(gen, name)(c, x), getattr(c, name)(x).numpy(), rtol=1e-12, atol=1e-12)
    assert_close(gen.gelu(c, x, "tanh"), c.gelu(x, "tanh").numpy(), rtol=1e-12, atol=1e-12)
    for name in ("softmax", "log_softmax"):
        for dim in (0, 1):
            assert_close(getattr(gen, name)(c, x, dim), getattr(c, name)(x, dim).numpy(), rtol=1e-12, atol=1e-12)
    g, u = nr.tensor(a[1:]), nr.tensor(a[1:] * 0.5)
    for name in ("silu_mul_bwd", "sigmoid_mul_bwd", "relu_mul_bwd"):
        for p, q in zip(getattr(gen, name)(c, g, g, u), getattr(c, name)(g, g, u), strict=True):
            assert_close(p, q.numpy(), rtol=1e-12, atol=1e-12)
    for p, q in zip(gen.gelu_mul_bwd(c, g, g, u, "tanh"), c.gelu_mul_bwd(g, g, u, "tanh"), strict=True):
        assert_close(p, q.numpy(), rtol=1e-12, atol=1e-12)
    assert_close(gen.softmax_bwd(c, g, u, 1), c.softmax_bwd(g, u, 1).numpy(), rtol=1e-12, atol=1e-12)


def test_multithreaded_sizes(device):
    """Above the kernels' OpenMP threshold (strided, broadcast and contiguous operands)."""
    rng = np.random.default_rng(9)
    g = rng.uniform(-6, 6, (301, 403)).astype(np.float32)
    u = rng.uniform(-2, 2, (403,)).astype(np.float32)
    gt = make(g.T.copy(), device, "float32").T      # non-contiguous view of g
    ut = make(u, device, "float32")                  # broadcast along rows
    G, U = g.astype(np.float64), u.astype(np.float64)
    assert_close(run(device, nr.silu_mul, gt, ut), G * expit(G) * U, dtype="float32")
    dg, du = run(device, nr.silu_mul_bwd, make(g, device, "float32"), gt, ut)
    assert_close(dg, G * U * expit(G) * (1 + G * (1 - expit(G))), dtype="float32", rtol=1e-5, atol=1e-5)
    assert_close(du, G * G * expit(G), dtype="float32", rtol=1e-5, atol=1e-5)
    assert_close(run(device, nr.softmax, gt, 1), _softmax_ref(G, 1), dtype="float32")
    assert_close(run(device, nr.log_softmax, gt, 0), _softmax_ref(G, 0, True), dtype="float32", rtol=1e-5, atol=1e-5)


def test_operands_by_keyword(device):
    # the protocol's parameter names work on every backend: the wgpu methods took *args and
    # read tensors by position only (nr.silu_mul(g, up=u) failed to compile a kernel,
    # nr.relu(x=t) had no operand; found by tools/fuzz/fuzz_keywords.py)
    g = nr.tensor([[0.5, -1.5, 2.0]], device=device)
    u = nr.tensor([[1.0, 3.0, -2.0]], device=device)
    for name in ("silu_mul", "relu_mul", "sigmoid_mul", "gelu_mul"):
        f = getattr(nr, name)
        np.testing.assert_array_equal(f(g, up=u).numpy(), f(g, u).numpy())
        np.testing.assert_array_equal(f(gate=g, up=u).numpy(), f(g, u).numpy())
    np.testing.assert_array_equal(nr.gelu_mul(g, up=u, approximate="tanh").numpy(),
                                  nr.gelu_mul(g, u, "tanh").numpy())
    for name in ("silu_mul_bwd", "relu_mul_bwd", "sigmoid_mul_bwd", "gelu_mul_bwd"):
        f = getattr(nr, name)
        a, b = f(u, gate=g, up=u)
        c, d = f(u, g, u)
        np.testing.assert_array_equal(a.numpy(), c.numpy())
        np.testing.assert_array_equal(b.numpy(), d.numpy())
    for name in ("relu", "sigmoid", "silu", "softplus", "gelu", "elu", "leaky_relu"):
        f = getattr(nr, name)
        np.testing.assert_array_equal(f(x=g).numpy(), f(g).numpy())
    np.testing.assert_array_equal(nr.elu(x=g, alpha=0.5).numpy(), nr.elu(g, 0.5).numpy())
    np.testing.assert_array_equal(nr.leaky_relu(g, negative_slope=0.3).numpy(), nr.leaky_relu(g, 0.3).numpy())
    np.testing.assert_array_equal(nr.gelu(x=g, approximate="tanh").numpy(), nr.gelu(g, "tanh").numpy())
