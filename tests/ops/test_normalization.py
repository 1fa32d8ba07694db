"""layer_norm, rms_norm, group_norm, batch_norm and the fused residual forms against a NumPy
float64 oracle: every float dtype, trailing-shape and channel cases, empty batches, size-1
normalized dims, strided/offset/flipped views, NaN/inf rows, errors; gradients w.r.t. x, weight
and bias by central differences (reverse mode, jvp, and a second order for layer_norm)."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_close, tolerance

import numr as nr
from numr.autograd import Var, backward, hvp, jvp

FLOATS = ["float32", "float64", "float16", "bfloat16", "float8_e4m3fn", "float8_e5m2"]


def make(a, device, dtype=None):
    try:
        return nr.tensor(a, dtype=dtype, device=device)
    except nr.UnsupportedOperation as e:
        pytest.skip(str(e))


def run(fn, *args, **kwargs):
    """fn(*args); a dtype the backend lacks skips (UnsupportedOperation names backend, op, dtype)."""
    try:
        return fn(*args, **kwargs)
    except nr.UnsupportedOperation as e:
        pytest.skip(str(e))


def rounded(a, dtype):
    """a rounded to dtype, as float64 (the oracle sees the values the tensor holds)."""
    return np.asarray(a).astype(nr.dtype(dtype).np).astype(np.float64)


# ---- float64 oracles ---------------------------------------------------------------------------

def ln_ref(a, k, w=None, b=None, eps=1e-5):
    dims = tuple(range(a.ndim - k, a.ndim))
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        m = a.mean(dims, keepdims=True) if a.size else np.zeros(a.shape[:a.ndim - k] + (1,) * k)
        c = a - m
        y = c / np.sqrt((c * c).mean(dims, keepdims=True) + eps) if a.size else a.copy()
    y = y * w if w is not None else y
    return y + b if b is not None else y


def rms_ref(a, k, w=None, eps=None, compute="float64"):
    eps = float(np.finfo(np.dtype(compute)).eps) if eps is None else eps
    dims = tuple(range(a.ndim - k, a.ndim))
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        y = a / np.sqrt((a * a).mean(dims, keepdims=True) + eps) if a.size else a.copy()
    return y * w if w is not None else y


def gn_ref(a, g, w=None, b=None, eps=1e-5):
    n, c = a.shape[:2]
    y = ln_ref(a.reshape(n, g, -1) if a.size else a.reshape(n, g, 0), 1, eps=eps).reshape(a.shape)
    pc = (c,) + (1,) * (a.ndim - 2)
    y = y * w.reshape(pc) if w is not None else y
    return y + b.reshape(pc) if b is not None else y


def bn_stats(a):
    dims = (0,) + tuple(range(2, a.ndim))
    return a.mean(dims), a.var(dims), a.size // a.shape[1]


def compute_dtype(dtype):
    return dtype if dtype in ("float32", "float64") else "float32"


def affine(rng, shape, dtype, device):
    w, b = rounded(rng.uniform(0.5, 1.5, shape), dtype), rounded(rng.uniform(-0.5, 0.5, shape), dtype)
    return w, b, make(w, device, dtype), make(b, device, dtype)


def check(got, expected, dtype, shape):
    assert got.shape == shape and got.dtype == nr.dtype(dtype), (got.shape, got.dtype)
    r, a = tolerance(dtype)
    # the oracle's value rounded to dtype, plus the rounding of the float32 computation before it
    assert_close(got, rounded(expected, dtype), dtype=dtype, rtol=2 * r, atol=2 * max(a, 1e-6))


# ---- values, every float dtype -----------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS)
def test_layer_norm(device, dtype):
    rng = np.random.default_rng(0)
    for shape, ns in (((4, 6), 6), ((2, 3, 4), (3, 4)), ((5,), [5])):
        a = rounded(rng.uniform(-2, 2, shape), dtype)
        x = make(a, device, dtype)
        k = 1 if isinstance(ns, int) else len(ns)
        w, b, tw, tb = affine(rng, a.shape[a.ndim - k:], dtype, device)
        check(run(nr.layer_norm, x, ns), ln_ref(a, k), dtype, shape)
        check(run(nr.layer_norm, x, ns, tw, tb, eps=1e-3), ln_ref(a, k, w, b, 1e-3), dtype, shape)
        check(run(x.layer_norm, ns, weight=tw), ln_ref(a, k, w), dtype, shape)  # method, weight only


@pytest.mark.parametrize("dtype", FLOATS)
def test_rms_norm(device, dtype):
    rng = np.random.default_rng(1)
    for shape, ns in (((4, 6), 6), ((2, 3, 4), (3, 4))):
        a = rounded(rng.uniform(-2, 2, shape), dtype)
        x = make(a, device, dtype)
        k = 1 if isinstance(ns, int) else len(ns)
        w, _, tw, _ = affine(rng, a.shape[a.ndim - k:], dtype, device)
        check(run(nr.rms_norm, x, ns), rms_ref(a, k, compute=compute_dtype(dtype)), dtype, shape)
        check(run(nr.rms_norm, x, ns, tw, 1e-2), rms_ref(a, k, w, 1e-2), dtype, shape)


@pytest.mark.parametrize("dtype", ["float32", "float16", "float64"])
def test_rms_norm_default_eps(device, dtype):
    """eps None is the epsilon of the dtype computed in (float32 for half types, as torch): it
    dominates a row of tiny values."""
    a = np.array([[1e-4, 0.0, 0.0, 0.0], [1.0, -1.0, 1.0, -1.0]])
    x = make(a, device, dtype)
    got = run(nr.rms_norm, x, 4)
    eps = float(np.finfo(np.float64 if dtype == "float64" else np.float32).eps)
    check(got, rms_ref(rounded(a, dtype), 1, eps=eps), dtype, (2, 4))


@pytest.mark.parametrize("dtype", FLOATS)
def test_group_norm(device, dtype):
    rng = np.random.default_rng(2)
    for shape, groups in (((2, 6, 3), 3), ((2, 4, 2, 3), 2), ((3, 4), 4), ((2, 6, 3), 1)):
        a = rounded(rng.uniform(-2, 2, shape), dtype)
        x = make(a, device, dtype)
        w, b, tw, tb = affine(rng, (shape[1],), dtype, device)
        check(run(nr.group_norm, x, groups), gn_ref(a, groups), dtype, shape)
        check(run(nr.group_norm, x, groups, tw, tb), gn_ref(a, groups, w, b), dtype, shape)


@pytest.mark.parametrize("dtype", FLOATS)
def test_batch_norm(device, dtype):
    rng = np.random.default_rng(3)
    for shape in ((5, 3), (2, 3, 2, 2)):
        a = rounded(rng.uniform(-2, 2, shape), dtype)
        x = make(a, device, dtype)
        c = shape[1]
        w, b, tw, tb = affine(rng, (c,), dtype, device)
        pc = (1, c) + (1,) * (len(shape) - 2)
        rm0, rv0 = rng.uniform(-1, 1, c), rng.uniform(0.5, 2, c)
        rm, rv = make(rm0, device, "float32"), make(rv0, device, "float32")
        # eval: the running stats
        got = run(nr.batch_norm, x, rm, rv, tw, tb)
        check(got, (a - rm0.reshape(pc)) / np.sqrt(rv0.reshape(pc) + 1e-5) * w.reshape(pc) + b.reshape(pc),
              dtype, shape)
        assert_close(rm, rm0.astype(np.float32), rtol=0, atol=0)  # untouched in eval
        # training: batch statistics, running stats updated with the unbiased variance
        got = run(nr.batch_norm, x, rm, rv, tw, tb, training=True, momentum=0.3)
        m, v, n = bn_stats(a)
        check(got, (a - m.reshape(pc)) / np.sqrt(v.reshape(pc) + 1e-5) * w.reshape(pc) + b.reshape(pc), dtype, shape)
        assert_close(rm, 0.7 * rm0 + 0.3 * m, dtype="float32", rtol=1e-5, atol=1e-6)
        assert_close(rv, 0.7 * rv0 + 0.3 * v * n / (n - 1), dtype="float32", rtol=1e-5, atol=1e-6)
        # training without running stats
        check(run(nr.batch_norm, x, None, None, training=True), (a - m.reshape(pc)) / np.sqrt(v.reshape(pc) + 1e-5),
              dtype, shape)


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
def test_fused_residual_forms(device, dtype):
    """Equal to the unfused composition, and to the oracle of x + residual."""
    rng = np.random.default_rng(4)
    a, r = rounded(rng.uniform(-2, 2, (3, 8)), dtype), rounded(rng.uniform(-2, 2, (3, 8)), dtype)
    x, res = make(a, device, dtype), make(r, device, dtype)
    w, b, tw, tb = affine(rng, (8,), dtype, device)
    s = rounded(a + r, dtype)
    out, summed = run(nr.fused_add_rms_norm, x, res, tw, 1e-6)
    check(summed, s, dtype, (3, 8))
    check(out, rms_ref(s, 1, w, 1e-6), dtype, (3, 8))
    assert_close(out, nr.rms_norm(x + res, 8, tw, 1e-6).numpy(), dtype=dtype, rtol=0, atol=0)
    out, summed = run(nr.fused_add_layer_norm, x, res, tw, tb)
    check(summed, s, dtype, (3, 8))
    check(out, ln_ref(s, 1, w, b), dtype, (3, 8))
    assert_close(out, nr.layer_norm(x + res, 8, tw, tb).numpy(), dtype=dtype, rtol=0, atol=0)
    out, _ = run(nr.fused_add_rms_norm, x, res)  # no weight, default eps
    check(out, rms_ref(s, 1, compute=compute_dtype(dtype)), dtype, (3, 8))


# ---- edges -------------------------------------------------------------------------------------

def test_empty_and_size_one(device):
    e = make(np.zeros((0, 5), np.float32), device)
    for got in (nr.layer_norm(e, 5), nr.rms_norm(e, 5), nr.group_norm(make(np.zeros((0, 4, 2), np.float32), device), 2),
                nr.batch_norm(make(np.zeros((0, 3), np.float32), device), make(np.zeros(3, np.float32), device),
                              make(np.ones(3, np.float32), device)),
                nr.fused_add_rms_norm(e, e)[0]):
        assert got.size == 0 and got.dtype == nr.float32
    assert nr.layer_norm(e, 5).shape == (0, 5)
    a = np.array([[1.5], [-2.0], [0.0]])
    x = make(a, device, "float32")
    w, b = make(np.array([3.0]), device, "float32"), make(np.array([0.25]), device, "float32")
    # a size-1 normalized dim: layer_norm gives bias (x - mean = 0), rms_norm x / sqrt(x^2 + eps)
    check(nr.layer_norm(x, 1, w, b), np.full((3, 1), 0.25), "float32", (3, 1))
    check(nr.rms_norm(x, 1, w, 1e-5), rms_ref(a, 1, np.array([3.0]), 1e-5), "float32", (3, 1))
    # one channel, one group; a (N, C) group_norm of one channel per group normalizes nothing: bias
    check(nr.group_norm(x, 1, w, b), np.full((3, 1), 0.25), "float32", (3, 1))


def test_views(device):
    """Transposed, offset (sliced) and flipped inputs give the same as their contiguous copies."""
    rng = np.random.default_rng(5)
    a = rng.uniform(-2, 2, (6, 8))
    x = make(a, device, "float32")
    w = rng.uniform(0.5, 1.5, 6)
    tw = make(w, device, "float32")
    views = {"T": (x.T, a.T), "sliced": (x[1:5, 2:], a[1:5, 2:]), "flipped": (x[::-1, ::-2], a[::-1, ::-2])}
    for name, (v, av) in views.items():
        av = rounded(av, "float32")
        k = av.shape[-1]
        check(nr.layer_norm(v, k), ln_ref(av, 1), "float32", av.shape)
        check(nr.rms_norm(v, k, eps=1e-6), rms_ref(av, 1, eps=1e-6), "float32", av.shape)
        if name == "T":
            check(nr.layer_norm(v, k, tw), ln_ref(av, 1, w), "float32", av.shape)
        g = 2 if av.shape[1] % 2 == 0 else 1
        check(nr.group_norm(v, g), gn_ref(av, g), "float32", av.shape)
        m, var, n = bn_stats(av)
        check(nr.batch_norm(v, None, None, training=True), (av - m) / np.sqrt(var + 1e-5), "float32", av.shape)


def test_broadcast_and_0d(device):
    """An expanded (stride-0) input normalizes like its copy; 0-d inputs raise ShapeError."""
    row = np.array([[0.5, -1.0, 2.0, 3.0]])
    x = make(row, device, "float32").expand(3, 4)
    check(nr.layer_norm(x, 4), ln_ref(np.repeat(row, 3, 0), 1), "float32", (3, 4))
    check(nr.rms_norm(x, 4, eps=1e-6), rms_ref(np.repeat(row, 3, 0), 1, eps=1e-6), "float32", (3, 4))
    s = make(np.array(2.0), device, "float32")
    for fn in (lambda: nr.layer_norm(s, 1), lambda: nr.rms_norm(s, ()), lambda: nr.group_norm(s, 1),
               lambda: nr.batch_norm(s, None, None, training=True), lambda: nr.fused_add_rms_norm(s, s),
               lambda: nr.fused_add_layer_norm(s, s)):
        with pytest.raises(nr.ShapeError):
            fn()


def test_nan_inf_rows(device):
    """A NaN or inf in a row makes that row NaN (layer_norm), or NaN/0 (rms_norm); other rows stay."""
    a = np.array([[1.0, 2.0, 3.0], [np.nan, 0.0, 1.0], [np.inf, 0.0, 1.0], [-np.inf, 2.0, 1.0]])
    x = make(a, device, "float32")
    check(nr.layer_norm(x, 3), ln_ref(a, 1), "float32", (4, 3))
    check(nr.rms_norm(x, 3, eps=1e-6), rms_ref(a, 1, eps=1e-6), "float32", (4, 3))
    got = nr.layer_norm(x, 3).numpy()
    assert np.isnan(got[1:]).all() and np.isfinite(got[0]).all()


# ---- errors ------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["int32", "int64", "uint8", "bool"])
def test_integer_inputs_raise(device, dtype):
    x = make(np.ones((2, 4)), device, dtype)
    for fn in (lambda: nr.layer_norm(x, 4), lambda: nr.rms_norm(x, 4), lambda: nr.group_norm(x, 2),
               lambda: nr.batch_norm(x, None, None, training=True), lambda: nr.fused_add_rms_norm(x, x),
               lambda: nr.fused_add_layer_norm(x, x)):
        with pytest.raises(nr.DTypeError, match=dtype):
            fn()


def test_shape_errors(device):
    x = make(np.ones((2, 3, 4)), device, "float32")
    f32 = lambda *s: make(np.ones(s), device, "float32")  # noqa: E731
    with pytest.raises(nr.ShapeError, match=r"\(3,\).*\(2, 3, 4\)"):
        nr.layer_norm(x, 3)
    with pytest.raises(nr.ShapeError, match="layer_norm"):
        nr.layer_norm(x, (2, 3, 4, 1))
    with pytest.raises(nr.ShapeError, match="layer_norm"):
        nr.layer_norm(x, ())
    # broadcastable but not the normalized shape: an error (as torch), naming both shapes
    for bad in ((1, 4), (1,), (3, 4)):
        with pytest.raises(nr.ShapeError, match=r"weight must have shape \(4,\).*got " + str(bad).replace("(", r"\(")
                           .replace(")", r"\)")):
            nr.layer_norm(x, 4, f32(*bad))
        with pytest.raises(nr.ShapeError, match="rms_norm: weight"):
            nr.rms_norm(x, 4, f32(*bad))
    with pytest.raises(nr.ShapeError, match="bias"):
        nr.layer_norm(x, 4, f32(4), f32(1))
    with pytest.raises(nr.ShapeError, match="group_norm: num_groups 2"):
        nr.group_norm(x, 2)  # 3 channels
    with pytest.raises(nr.ShapeError, match="group_norm"):
        nr.group_norm(x, 0)
    with pytest.raises(nr.ShapeError, match="group_norm: weight"):
        nr.group_norm(x, 3, f32(1, 3))
    with pytest.raises(nr.ShapeError, match=r"\(N, C, \*\)"):
        nr.group_norm(f32(4), 1)
    with pytest.raises(nr.ShapeError, match="running_mean"):
        nr.batch_norm(x, f32(4), f32(3))
    with pytest.raises(nr.ShapeError, match="more than 1 value"):
        nr.batch_norm(f32(1, 3), None, None, training=True)
    with pytest.raises(ValueError, match="momentum"):
        nr.batch_norm(x, f32(3), f32(3), training=True, momentum=None)
    with pytest.raises(ValueError, match="running_mean and running_var"):
        nr.batch_norm(x, None, None)
    with pytest.raises(nr.ShapeError, match=r"fused_add_rms_norm.*\(2, 3, 4\).*\(3, 4\)"):
        nr.fused_add_rms_norm(x, f32(3, 4))
    with pytest.raises(nr.ShapeError, match="fused_add_layer_norm: weight"):
        nr.fused_add_layer_norm(x, x, f32(3))
    with pytest.raises(nr.DTypeError, match="weight needs a float"):
        nr.layer_norm(x, 4, make(np.ones(4), device, "int32"))


# ---- gradients ---------------------------------------------------------------------------------

def _f64(device):
    if make(np.zeros(1), device).dtype != nr.float64:
        pytest.skip(f"{device} has no float64")


def central(loss, arrays, which, eps=1e-6):
    """d loss / d arrays[which] by central differences."""
    base = arrays[which]
    num = np.zeros_like(base)
    for k in np.ndindex(base.shape):
        hi, lo = [a.copy() for a in arrays], [a.copy() for a in arrays]
        hi[which][k] += eps
        lo[which][k] -= eps
        num[k] = (loss(*hi) - loss(*lo)) / (2 * eps)
    return num


CASES = {
    "layer_norm": (lambda x, w, b: nr.layer_norm(x, (2, 3), w, b), (4, 2, 3), (2, 3)),
    "rms_norm": (lambda x, w, b: nr.rms_norm(x, 3, w) + b, (4, 3), (3,)),
    "group_norm": (lambda x, w, b: nr.group_norm(x, 2, w, b), (2, 4, 2), (4,)),
    "batch_norm": (lambda x, w, b: nr.batch_norm(x, None, None, w, b, training=True), (3, 2, 2), (2,)),
    "fused_add_layer_norm": (lambda x, w, b: nr.fused_add_layer_norm(x, x * x, w, b)[0], (3, 4), (4,)),
    "fused_add_rms_norm": (lambda x, w, b: sum(nr.fused_add_rms_norm(x, x * 0.5, w, 1e-6)) + b, (3, 4), (4,)),
}


@pytest.mark.parametrize("op", list(CASES))
def test_gradients(device, op):
    """Reverse mode w.r.t. x, weight and bias and forward mode (jvp) against central differences."""
    _f64(device)
    fn, xs, ws = CASES[op]
    rng = np.random.default_rng(6)
    arrays = [rng.uniform(-2, 2, xs), rng.uniform(0.5, 1.5, ws), rng.uniform(-1, 1, ws)]
    proj = rng.standard_normal(xs)
    tproj = make(proj, device)

    def value(*arrs):
        return (fn(*(make(a, device) for a in arrs)) * tproj).sum().item()

    vs = [Var(make(a, device)) for a in arrays]
    out = fn(*vs)
    assert out.shape == xs and out.dtype == nr.float64
    g = backward((out * tproj).sum())
    for i, v in enumerate(vs):
        assert_close(g[v], central(value, arrays, i), dtype="float64", rtol=1e-6, atol=1e-7)
    t = rng.standard_normal(xs)
    _, tan = jvp(lambda xv: fn(xv, make(arrays[1], device), make(arrays[2], device)), (make(arrays[0], device),),
                 (make(t, device),))
    eps = 1e-6
    w, b = make(arrays[1], device), make(arrays[2], device)
    num = (fn(make(arrays[0] + eps * t, device), w, b).numpy() - fn(make(arrays[0] - eps * t, device), w, b).numpy())
    num /= 2 * eps
    assert_close(tan, num, dtype="float64", rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("op", ["layer_norm", "rms_norm"])
def test_second_order(device, op):
    """Hessian-vector product of sum(norm(x)^3) against central differences of the gradient."""
    _f64(device)
    rng = np.random.default_rng(7)
    a, v = rng.uniform(-2, 2, (2, 4)), rng.standard_normal((2, 4))
    w = make(rng.uniform(0.5, 1.5, 4), device)

    def f(x):
        return (getattr(nr, op)(x, 4, w) ** 3.0).sum()

    def grad(arr):
        xv = Var(make(arr, device))
        return backward(f(xv))[xv].numpy()

    hv = hvp(f, make(a, device), make(v, device))
    eps = 1e-5
    assert_close(hv, (grad(a + eps * v) - grad(a - eps * v)) / (2 * eps), dtype="float64", rtol=1e-5, atol=1e-6)


def test_half_gradient_dtype(device):
    """Gradients of a float32 layer_norm w.r.t. a float32 input stay float32 and match float64."""
    rng = np.random.default_rng(8)
    a = rng.uniform(-2, 2, (3, 5)).astype(np.float32)
    xv = Var(make(a, device))
    g = backward((nr.layer_norm(xv, 5) ** 2.0 * make(np.arange(5.0), device, "float32")).sum())[xv]
    assert g.dtype == nr.float32 and g.shape == (3, 5)
    xd = a.astype(np.float64)
    loss = lambda arr: float((ln_ref(arr, 1) ** 2 * np.arange(5.0)).sum())  # noqa: E731
    assert_close(g, central(loss, [xd], 0), rtol=1e-3, atol=1e-4)


# ---- the backward ops and the fused kernels against the composites ------------------------------

def grads_ref(g, a, k, w, eps, rms):
    """(dx, dw, db) of layer_norm/rms_norm in float64."""
    dims = tuple(range(a.ndim - k, a.ndim))
    c = a if rms else a - a.mean(dims, keepdims=True)
    rstd = 1 / np.sqrt((c * c).mean(dims, keepdims=True) + eps)
    xhat = c * rstd
    gw = g * w if w is not None else g
    inner = gw - xhat * (gw * xhat).mean(dims, keepdims=True)
    if not rms:
        inner = inner - gw.mean(dims, keepdims=True)
    lead = tuple(range(a.ndim - k))
    return inner * rstd, (g * xhat).sum(lead), g.sum(lead)


@pytest.mark.parametrize("dtype", FLOATS)
def test_backward_ops(device, dtype):
    """layer_norm_bwd / rms_norm_bwd (the CPU's fused kernel, the composite elsewhere): dx, dw, db
    in x's dtype; with and without weight, transposed inputs."""
    rng = np.random.default_rng(9)
    for shape, k in (((5, 6), 1), ((2, 3, 4), 2)):
        a = rounded(rng.uniform(-2, 2, shape), dtype)
        gr = rounded(rng.uniform(-1, 1, shape), dtype)
        ns = shape[len(shape) - k:]
        w = rounded(rng.uniform(0.5, 1.5, ns), dtype)
        x, g, tw = make(a, device, dtype), make(gr, device, dtype), make(w, device, dtype)
        for weight, wn in ((tw, w), (None, None)):
            dx, dw, db = run(nr.layer_norm_bwd, g, x, ns, weight, 1e-4)
            ex, ew, eb = grads_ref(gr, a, k, wn, 1e-4, False)
            check(dx, ex, dtype, shape)
            check(dw, ew, dtype, ns)
            check(db, eb, dtype, ns)
            dx, dw = run(nr.rms_norm_bwd, g, x, ns, weight, 1e-4)
            ex, ew, _ = grads_ref(gr, a, k, wn, 1e-4, True)
            check(dx, ex, dtype, shape)
            check(dw, ew, dtype, ns)
    a, gr = rng.uniform(-2, 2, (6, 4)), rng.uniform(-1, 1, (6, 4))
    x, g = make(a, device, "float32"), make(gr, device, "float32")
    dx, dw, db = nr.layer_norm_bwd(g.T, x.T, 6)
    ex, ew, eb = grads_ref(rounded(gr.T, "float32"), rounded(a.T, "float32"), 1, None, 1e-5, False)
    check(dx, ex, "float32", (4, 6))
    check(dw, ew, "float32", (6,))
    with pytest.raises(nr.ShapeError, match="layer_norm_bwd: grad shape"):
        nr.layer_norm_bwd(g[:2], x, 4)


def test_backward_ops_empty(device):
    e, g = make(np.zeros((0, 3)), device, "float32"), make(np.zeros((0, 3)), device, "float32")
    dx, dw, db = nr.layer_norm_bwd(g, e, 3)
    assert dx.shape == (0, 3)
    assert_close(dw, np.zeros(3), dtype="float32", rtol=0, atol=0)
    assert_close(db, np.zeros(3), dtype="float32", rtol=0, atol=0)


def test_kernels_match_composites(device):
    """The backend's layer_norm/rms_norm/fused forms/backward (the CPU's row kernels) against the
    generic composites on the same device, on rows larger than the kernels' parallel threshold."""
    from numr.ops.generic import normalization as gn
    rng = np.random.default_rng(10)
    a, r, gr = (rng.uniform(-3, 3, (40, 1000)).astype(np.float32) for _ in range(3))
    w, b = rng.uniform(0.5, 1.5, 1000).astype(np.float32), rng.uniform(-1, 1, 1000).astype(np.float32)
    x, res, g, tw, tb = (make(v, device) for v in (a, r, gr, w, b))
    pairs = [
        (nr.layer_norm(x, 1000, tw, tb), gn.layer_norm_any(x, 1000, tw, tb)),
        (nr.layer_norm(x, 1000, None, tb), gn.layer_norm_any(x, 1000, None, tb)),
        (nr.rms_norm(x, 1000, tw), gn.rms_norm_any(x, 1000, tw)),
        (nr.fused_add_rms_norm(x, res, tw)[0], gn.rms_norm_any(x + res, 1000, tw)),
        (nr.fused_add_layer_norm(x, res, tw, tb)[1], x + res),
        (nr.layer_norm_bwd(g, x, 1000, tw)[0], gn.layer_norm_bwd_any(g, x, 1000, tw)[0]),
        (nr.rms_norm_bwd(g, x, 1000, tw)[1], gn.rms_norm_bwd_any(g, x, 1000, tw)[1]),
    ]
    for got, ref in pairs:
        assert got.shape == ref.shape and got.dtype == ref.dtype
        assert_close(got, ref.numpy(), rtol=3e-5, atol=3e-5)


def test_fused_residual_gradients(device):
    """Reverse mode through the fused forms reaches x, residual and weight (both outputs used)."""
    _f64(device)
    rng = np.random.default_rng(11)
    arrays = [rng.uniform(-2, 2, (3, 4)), rng.uniform(-2, 2, (3, 4)), rng.uniform(0.5, 1.5, 4)]
    proj = make(rng.standard_normal((3, 4)), device)

    def loss(x, r, w):
        out, s = nr.fused_add_rms_norm(x, r, w, 1e-6)
        return ((out * proj).sum() + (s * s).sum())

    vs = [Var(make(v, device)) for v in arrays]
    g = backward(loss(*vs))
    for i, v in enumerate(vs):
        num = central(lambda *arrs: loss(*(make(q, device) for q in arrs)).item(), arrays, i)
        assert_close(g[v], num, dtype="float64", rtol=1e-6, atol=1e-7)


def test_backward_ops_differentiable(device):
    """layer_norm_bwd itself under reverse mode and jvp: the derivative of <dx, v> w.r.t. x
    against central differences."""
    _f64(device)
    rng = np.random.default_rng(12)
    a, gr, v, t = (rng.uniform(-2, 2, (3, 4)) for _ in range(4))
    w = make(rng.uniform(0.5, 1.5, 4), device)
    g, tv = make(gr, device), make(v, device)

    def f(x):
        return (nr.layer_norm_bwd(g, x, 4, w)[0] * tv).sum()

    xv = Var(make(a, device))
    got = backward(f(xv))[xv]
    assert_close(got, central(lambda arr: f(make(arr, device)).item(), [a], 0), dtype="float64", rtol=1e-6, atol=1e-7)
    _, tan = jvp(lambda xd: nr.rms_norm_bwd(g, xd, 4, w)[0], (make(a, device),), (make(t, device),))
    eps = 1e-6
    num = (nr.rms_norm_bwd(g, make(a + eps * t, device), 4, w)[0].numpy()
           - nr.rms_norm_bwd(g, make(a - eps * t, device), 4, w)[0].numpy()) / (2 * eps)
    assert_close(tan, num, dtype="float64", rtol=1e-6, atol=1e-7)
