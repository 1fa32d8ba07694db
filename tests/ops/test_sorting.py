"""The sorting family (sort, argsort, topk, searchsorted, unique) against NumPy: every real
dtype, every dim, views (transposed, stepped, offset, flipped, broadcast), empty, 0-d and
size-1 inputs, NaN/inf/-0.0 and integer extremes, both directions, stability (equal keys keep
their order, so indices are exact), errors; the gradients of sort's and topk's values by
central differences and jvp.

The oracle of the total order (-0.0 == 0.0, every NaN largest): a value's rank among the
distinct values of np.unique (which sorts NaN last and collapses NaNs and zeros), then a
stable argsort of the rank, or of minus the rank for descending (NaN first, ties in order)."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_close
from elementwise_cases import VIEWS, seed, specials
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import array_shapes

import numr as nr
from numr.autograd import Var, backward, jvp

REAL = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
        "float16", "bfloat16", "float8_e4m3fn", "float8_e5m2", "float32", "float64"]


def make(a, device, dtype=None):
    """A numr tensor of ``a`` (skips when the backend lacks the dtype)."""
    try:
        return nr.tensor(a, dtype=dtype, device=device)
    except nr.UnsupportedOperation as e:
        pytest.skip(str(e))


def run(device, fn, *args, **kwargs):
    """Call fn; an unsupported dtype is a failure on the CPU and a skip elsewhere."""
    try:
        return fn(*args, **kwargs)
    except nr.UnsupportedOperation as e:
        if device == "cpu":
            raise
        pytest.skip(str(e))


def sample(dtype: str, shape, rng, ties: bool = True) -> np.ndarray:
    """Values of dtype with many repeats (ties test stability) and the dtype's specials
    (NaN of both signs, +-inf, +-0.0, extremes) spread through."""
    d = nr.dtype(dtype)
    n = int(np.prod(shape))
    if d.kind == "b":
        a = rng.random(n) > 0.5
    elif d.is_integer:
        info = np.iinfo(d.np)
        a = rng.integers(-6 if d.kind == "i" else 0, 7, n).astype(d.np)
        sp = np.array(specials(d), dtype=d.np)
        m = min(n // 3, len(sp))
        a[rng.choice(n, m, replace=False)] = sp[:m]
        if n >= 4 and info.bits >= 64:  # values that differ only in the low or the sign bit
            a[rng.choice(n, 2, replace=False)] = [info.max - 1, info.min + 1]
    else:
        base = rng.integers(-8, 9, n) / 2 if ties else rng.uniform(-4, 4, n)
        sp = [np.nan, np.copysign(np.nan, -1), np.inf, -np.inf, 0.0, -0.0, float(nr.finfo(d).max)]
        m = min(n // 3, len(sp))
        base[rng.choice(n, m, replace=False)] = sp[:m]
        with np.errstate(all="ignore"):
            a = base.astype(d.np)
    return a.reshape(shape)


def wide(a: np.ndarray) -> np.ndarray:
    return a.astype(np.float64) if a.dtype.kind not in "biu" else a


def rank(a: np.ndarray) -> np.ndarray:
    """Each value's position among the distinct values in the total order."""
    w = wide(a)
    return np.searchsorted(np.unique(w), w) if w.size else np.zeros(w.shape, np.int64)


def oracle_argsort(a: np.ndarray, dim: int, descending: bool) -> np.ndarray:
    r = rank(a)
    return np.argsort(-r if descending else r, axis=dim, kind="stable")


def bits(a: np.ndarray) -> np.ndarray:
    """The raw bits (NaN payloads, the sign of zero)."""
    a = np.ascontiguousarray(a)
    return a.view({1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[a.dtype.itemsize])


def check_sort(a: np.ndarray, t, dim: int, descending: bool, device: str) -> None:
    v, i = run(device, nr.sort, t, dim=dim, descending=descending)
    assert i.dtype == nr.int64 and v.dtype == t.dtype, (i.dtype, v.dtype)
    assert v.shape == a.shape and i.shape == a.shape
    if a.ndim == 0:
        assert i.item() == 0
        np.testing.assert_array_equal(bits(v.numpy()), bits(a))
        return
    ref = oracle_argsort(a, dim, descending)
    np.testing.assert_array_equal(i.numpy(), ref)
    np.testing.assert_array_equal(bits(v.numpy()), bits(np.take_along_axis(a, ref, dim)))


@pytest.mark.parametrize("dtype", REAL)
def test_sort_every_dtype_and_dim(device, dtype):
    rng = np.random.default_rng(seed("sort", dtype))
    a = sample(dtype, (3, 5, 37), rng)  # rows of 3 and 5 (insertion sort) and 37 (merges on the CPU)
    t = make(a, device, dtype)
    for dim in (0, 1, 2, -1):
        for desc in (False, True):
            check_sort(a, t, dim, desc, device)
    idx = run(device, nr.argsort, t, dim=1, descending=True)
    np.testing.assert_array_equal(idx.numpy(), oracle_argsort(a, 1, True))


@pytest.mark.parametrize("dtype", ["float32", "int64", "uint64", "float16", "bfloat16", "uint8"])
def test_sort_long_rows(device, dtype):
    """Rows long enough for the CPU's radix path (and several GPU tiles)."""
    rng = np.random.default_rng(seed("long", dtype))
    a = sample(dtype, (2, 1500), rng, ties=dtype != "float32")
    t = make(a, device, dtype)
    for desc in (False, True):
        check_sort(a, t, 1, desc, device)
    check_sort(a.T.copy(), make(a.T.copy(), device, dtype), 0, False, device)


@pytest.mark.parametrize("view", VIEWS, ids=[v[0] for v in VIEWS])
@pytest.mark.parametrize("dtype", ["float32", "int32", "float16"])
def test_sort_views(device, dtype, view):
    name, shape, fn = view
    rng = np.random.default_rng(seed("view", name, dtype))
    base = sample(dtype, shape, rng)
    a, t = fn(base), fn(make(base, device, dtype))
    for dim in range(-1, max(a.ndim, 1)):
        for desc in (False, True):
            check_sort(np.array(a), t, dim, desc, device)


@settings(max_examples=60, deadline=None)
@given(shape=array_shapes(min_dims=1, max_dims=4, min_side=0, max_side=40), seed=st.integers(0, 2**16),
       dtype=st.sampled_from(["float32", "int64", "uint16", "float16", "int8", "float64"]),
       desc=st.booleans())
def test_sort_hypothesis(shape, seed, dtype, desc):
    """CPU: random shapes (rows short and long enough for the radix path), a random view
    (dims permuted, every dim stepped by +-1 or +-2), a random dim, both directions; topk."""
    rng = np.random.default_rng(seed)
    base = sample(dtype, shape, rng)
    perm = tuple(int(p) for p in rng.permutation(len(shape)))
    steps = tuple(slice(None, None, int(rng.choice([1, -1, 2, -2]))) for _ in shape)
    a = base.transpose(perm)[steps]
    t = make(base, "cpu", dtype).permute(perm)[steps]
    dim = int(rng.integers(-a.ndim, a.ndim))
    check_sort(np.array(a), t, dim, desc, "cpu")
    k = int(rng.integers(0, a.shape[dim] + 1))
    v, i = nr.topk(t, k, dim=dim, largest=not desc)
    rv, ri = _topk_oracle(a, k, dim, not desc)
    np.testing.assert_array_equal(i.numpy(), ri)
    np.testing.assert_array_equal(bits(v.numpy()), bits(rv))


def test_sort_edges(device):
    a = np.array([np.nan, -0.0, 0.0, -np.inf, np.copysign(np.nan, -1), 0.0, -0.0, np.inf, 1.0], np.float32)
    t = make(a, device)
    v, i = nr.sort(t)
    np.testing.assert_array_equal(i.numpy(), [3, 1, 2, 5, 6, 8, 7, 0, 4])  # zeros tie: kept in order
    v, i = t.sort(descending=True)  # the method form; NaN first
    np.testing.assert_array_equal(i.numpy(), [0, 4, 7, 8, 1, 2, 5, 6, 3])
    assert np.signbit(v.numpy()[4]) and not np.signbit(v.numpy()[5])  # -0.0 and 0.0 gathered as they were
    v, i = nr.sort(make(np.array([3.0], np.float32), device), stable=True)
    assert v.shape == (1,) and i.numpy().tolist() == [0]
    for shape in ((0,), (0, 3), (3, 0)):
        for dim in range(len(shape)):
            v, i = nr.sort(make(np.zeros(shape, np.float32), device), dim=dim)
            assert v.shape == shape and i.shape == shape and i.dtype == nr.int64
    big = np.array([2**63 - 1, -2**63, 0, -1, 2**63 - 2, -2**63 + 1], np.int64)
    check_sort(big, make(big, device), 0, False, device)
    ubig = np.array([2**64 - 1, 0, 2**63, 2**63 - 1, 1, 2**64 - 2], np.uint64)
    check_sort(ubig, make(ubig, device), 0, True, device)


def test_sort_errors(device):
    x = make(np.zeros((2, 3), np.float32), device)
    with pytest.raises(nr.IndexOutOfRange, match="sort"):
        nr.sort(x, dim=2)
    with pytest.raises(nr.IndexOutOfRange, match="argsort"):
        nr.argsort(x, dim=-3)
    with pytest.raises(nr.UnsupportedDType, match="sort"):
        nr.sort(make(np.array([1 + 2j, 0j]), device))
    with pytest.raises(nr.ShapeError, match="sort"):
        nr.sort(x, dim=1.5)


def _topk_oracle(a, k, dim, largest):
    ref = np.take(oracle_argsort(a, dim, largest), np.arange(k), axis=dim)
    return np.take_along_axis(a, ref, dim), ref


@pytest.mark.parametrize("dtype", REAL)
def test_topk(device, dtype):
    rng = np.random.default_rng(seed("topk", dtype))
    a = sample(dtype, (4, 13), rng)
    t = make(a, device, dtype)
    for dim, k in ((1, 5), (0, 2), (-1, 13), (1, 0), (0, 4)):
        for largest in (True, False):
            v, i = run(device, nr.topk, t, k, dim=dim, largest=largest)
            rv, ri = _topk_oracle(a, k, dim, largest)
            assert v.dtype == t.dtype and i.dtype == nr.int64 and v.shape == rv.shape
            np.testing.assert_array_equal(i.numpy(), ri)
            np.testing.assert_array_equal(bits(v.numpy()), bits(rv))
    b = sample(dtype, (3, 500), rng)  # long rows, small k (the CPU selects instead of sorting)
    tb = make(b, device, dtype)
    for dim, k in ((1, 1), (1, 7), (-1, 15), (0, 1)):
        for largest in (True, False):
            v, i = run(device, nr.topk, tb, k, dim=dim, largest=largest)
            rv, ri = _topk_oracle(b, k, dim, largest)
            np.testing.assert_array_equal(i.numpy(), ri)
            np.testing.assert_array_equal(bits(v.numpy()), bits(rv))
    v, i = run(device, nr.topk, tb.T[::-1], 4, dim=0)  # a flipped transposed view
    np.testing.assert_array_equal(i.numpy(), _topk_oracle(b.T[::-1], 4, 0, True)[1])
    v, i = run(device, nr.topk, t, 3, sorted=False)  # any order: the same elements
    _, ri = _topk_oracle(a, 3, 1, True)
    np.testing.assert_array_equal(np.sort(i.numpy(), 1), np.sort(ri, 1))


def test_topk_views_and_errors(device):
    a = np.array([[1.0, 3.0, 3.0, np.nan, -0.0, 2.0], [5.0, 5.0, 5.0, 1.0, 0.0, 0.0]], np.float32)
    t = make(a, device)
    v, i = t[:, ::-1].topk(2)  # flipped view, method form; ties go to the lower index
    np.testing.assert_array_equal(i.numpy(), [[2, 3], [3, 4]])
    v, i = nr.topk(t.T, 1, dim=0, largest=False)  # transposed
    np.testing.assert_array_equal(i.numpy(), [[4, 4]])  # -0.0, then the first of two zeros
    v, i = nr.topk(make(np.float32(4.0), device), 1)
    assert v.shape == () and i.item() == 0 and v.item() == 4.0
    for k in (-1, 7):
        with pytest.raises(nr.IndexOutOfRange, match="topk"):
            nr.topk(t, k)
    with pytest.raises(nr.IndexOutOfRange, match="topk"):
        nr.topk(t, 1, dim=2)


@pytest.mark.parametrize("dtype", REAL)
def test_searchsorted_every_dtype(device, dtype):
    rng = np.random.default_rng(seed("ss", dtype))
    raw = sample(dtype, (23,), rng)
    seq = raw[np.argsort(wide(raw), kind="stable")]  # NaN last; ties, -0.0 and 0.0 mixed
    vals = sample(dtype, (3, 7), rng)
    s, v = make(seq, device, dtype), make(vals, device, dtype)
    for right in (False, True):
        got = run(device, nr.searchsorted, s, v, right=right)
        assert got.dtype == nr.int64 and got.shape == vals.shape
        ref = np.searchsorted(wide(seq), wide(vals), side="right" if right else "left")
        np.testing.assert_array_equal(got.numpy(), ref)


@pytest.mark.parametrize("dtype", ["float32", "int64", "float16"])
def test_searchsorted_nd(device, dtype):
    rng = np.random.default_rng(seed("ssnd", dtype))
    seq = np.sort(sample(dtype, (2, 3, 9), rng), axis=-1)
    vals = sample(dtype, (2, 3, 5), rng)
    s, v = make(seq, device, dtype), make(vals, device, dtype)
    for right in (False, True):
        got = run(device, nr.searchsorted, s, v, right=right)
        side = "right" if right else "left"
        ref = np.array([np.searchsorted(wide(seq[i, j]), wide(vals[i, j]), side=side)
                        for i in range(2) for j in range(3)]).reshape(2, 3, 5)
        np.testing.assert_array_equal(got.numpy(), ref)
    # views: a flipped descending row is ascending; transposed values
    desc = np.arange(12.0, dtype=np.float32)[::-1].copy()
    q = np.array([[0.5, 11.0], [-3.0, 20.0]], np.float32)
    got = nr.searchsorted(make(desc, device)[::-1], make(q, device).T)
    np.testing.assert_array_equal(got.numpy(), np.searchsorted(desc[::-1], q.T))


def test_searchsorted_edges_and_errors(device):
    seq = np.array([-np.inf, -1.0, -0.0, 0.0, 0.0, 2.0, np.inf, np.nan, np.nan], np.float32)
    vals = np.array([np.nan, -0.0, 0.0, np.inf, -np.inf, 3.0, -5.0], np.float32)
    s = make(seq, device)
    for right in (False, True):
        got = nr.searchsorted(s, make(vals, device), right=right)
        np.testing.assert_array_equal(got.numpy(), np.searchsorted(seq, vals, side="right" if right else "left"))
    assert nr.searchsorted(s, 1.5).item() == 5 and nr.searchsorted(s, 1.5).shape == ()  # a Python scalar
    assert nr.searchsorted(s, make(np.zeros((2, 0), np.float32), device)).shape == (2, 0)
    empty = nr.searchsorted(make(np.zeros(0, np.float32), device), make(vals, device))
    np.testing.assert_array_equal(empty.numpy(), np.zeros(7, np.int64))
    for seq0 in (np.zeros(0, np.int64), np.zeros((2, 0), np.int32)):  # wgpu once bound a 4-byte empty buffer
        v = np.arange(6).reshape(seq0.shape[:-1] + (-1,)).astype(seq0.dtype)
        got = nr.searchsorted(make(seq0, device), make(v, device), right=True)
        assert got.dtype == nr.int64 and got.shape == v.shape
        np.testing.assert_array_equal(got.numpy(), np.zeros(v.shape, np.int64))
    with pytest.raises(nr.ShapeError, match="searchsorted"):
        nr.searchsorted(make(np.zeros((2, 4), np.float32), device), make(np.zeros((3, 2), np.float32), device))
    with pytest.raises(nr.ShapeError, match="searchsorted"):
        nr.searchsorted(make(np.zeros((2, 4), np.float32), device), make(np.zeros(2, np.float32), device))
    with pytest.raises(nr.ShapeError, match="searchsorted"):
        nr.searchsorted(make(np.float32(1.0), device), make(vals, device))
    with pytest.raises(nr.UnsupportedDType, match="searchsorted"):
        nr.searchsorted(make(np.array([0j, 1j]), device), make(np.array([0j]), device))


def test_device_mismatch(device):
    other = "cpu" if device != "cpu" else next((b for b in ("wgpu", "cuda") if nr.runtime.get(b).is_available()), None)
    if other is None:
        pytest.skip("needs a second backend")
    s = make(np.arange(4.0, dtype=np.float32), device)
    v = make(np.array([1.5], np.float32), other)
    with pytest.raises(nr.DeviceError, match="searchsorted"):
        nr.searchsorted(s, v)


def _unique_ref(a):
    return np.unique(wide(a), return_inverse=True, return_counts=True)


@pytest.mark.parametrize("dtype", REAL)
def test_unique(device, dtype):
    rng = np.random.default_rng(seed("unique", dtype))
    a = sample(dtype, (4, 9), rng)
    t = make(a, device, dtype)
    vals, inv, cnt = run(device, nr.unique, t, return_inverse=True, return_counts=True)
    rv, ri, rc = _unique_ref(a)
    assert vals.dtype == t.dtype and inv.dtype == nr.int64 and cnt.dtype == nr.int64
    assert_close(vals, rv.astype(a.dtype) if a.dtype.kind in "biu" else rv)  # NaNs collapse to one
    assert inv.shape == a.shape
    np.testing.assert_array_equal(inv.numpy(), ri.reshape(a.shape))
    np.testing.assert_array_equal(cnt.numpy(), rc)
    only = run(device, nr.unique, t[:, ::-2])  # a view; values only: a tensor, not a tuple
    assert isinstance(only, nr.Tensor)
    assert_close(only, np.unique(wide(a[:, ::-2])).astype(np.float64 if a.dtype.kind == "f" else a.dtype))
    v2, c2 = run(device, nr.unique, t, return_counts=True)
    np.testing.assert_array_equal(c2.numpy(), rc)


def test_unique_edges(device):
    e = make(np.zeros((2, 0), np.float32), device)
    v, i, c = nr.unique(e, return_inverse=True, return_counts=True)
    assert v.shape == (0,) and i.shape == (2, 0) and c.shape == (0,)
    v, i = nr.unique(make(np.float32(2.5), device), return_inverse=True)
    assert v.numpy().tolist() == [2.5] and i.shape == () and i.item() == 0
    v, c = nr.unique(make(np.array([0.0, -0.0, np.nan, np.nan, 1.0], np.float32), device), return_counts=True)
    assert_close(v, [0.0, 1.0, np.nan])
    assert c.numpy().tolist() == [2, 1, 2]


@pytest.mark.parametrize("dtype", ["int32", "float32", "uint8", "int64"])
def test_unique_dim(device, dtype):
    rng = np.random.default_rng(seed("udim", dtype))
    a = rng.integers(0, 3, (6, 3, 2)).astype(dtype)
    a[3] = a[0]
    a[:, 2] = a[:, 0]
    t = make(a, device, dtype)
    for dim in (0, 1, 2, -1):
        got = run(device, nr.unique, t, return_inverse=True, return_counts=True, dim=dim)
        rv, ri, rc = np.unique(a, return_inverse=True, return_counts=True, axis=dim % 3)
        assert_close(got[0], rv, dtype=dtype)
        np.testing.assert_array_equal(got[1].numpy(), ri.reshape(-1))
        np.testing.assert_array_equal(got[2].numpy(), rc)
    got = run(device, nr.unique, t.transpose(0, 2), dim=0)  # a view
    assert_close(got, np.unique(a.transpose(2, 1, 0), axis=0), dtype=dtype)
    with pytest.raises(nr.IndexOutOfRange, match="unique"):
        nr.unique(t, dim=3)


def test_unique_dim_nan_and_zeros(device):
    """Slices compare in the total order: NaN equals NaN, -0.0 equals 0.0; the first slice of
    a group (in x's order) is the one kept."""
    a = np.array([[np.nan, 1.0], [0.0, -0.0], [np.nan, 1.0], [-0.0, 0.0], [np.nan, -1.0]], np.float32)
    v, inv, cnt = nr.unique(make(a, device), return_inverse=True, return_counts=True, dim=0)
    assert_close(v, [[0.0, 0.0], [np.nan, -1.0], [np.nan, 1.0]])
    assert np.signbit(v.numpy()[0]).tolist() == [False, True]
    assert inv.numpy().tolist() == [2, 0, 2, 0, 1] and cnt.numpy().tolist() == [2, 1, 2]
    v = nr.unique(make(np.zeros((0, 3), np.float32), device), dim=0)
    assert v.shape == (0, 3)


@settings(max_examples=40, deadline=None)
@given(shape=array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=6), seed=st.integers(0, 2**16),
       dtype=st.sampled_from(["int32", "float32", "uint8"]))
def test_unique_hypothesis(shape, seed, dtype):
    """CPU: unique of random small-range values (many repeats), flattened and along every dim,
    of a flipped view, against np.unique."""
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 3, shape).astype(dtype)
    t = make(a, "cpu", dtype)[(slice(None, None, -1),) * len(shape)]
    a = a[(slice(None, None, -1),) * len(shape)]
    v, i, c = nr.unique(t, return_inverse=True, return_counts=True)
    rv, ri, rc = np.unique(a, return_inverse=True, return_counts=True)
    assert_close(v, rv, dtype=dtype)
    np.testing.assert_array_equal(i.numpy(), ri.reshape(a.shape))
    np.testing.assert_array_equal(c.numpy(), rc)
    for dim in range(a.ndim):
        v, i, c = nr.unique(t, return_inverse=True, return_counts=True, dim=dim)
        rv, ri, rc = np.unique(a, return_inverse=True, return_counts=True, axis=dim)
        assert_close(v, rv, dtype=dtype)
        np.testing.assert_array_equal(i.numpy(), ri.reshape(-1))
        np.testing.assert_array_equal(c.numpy(), rc)


def _f64(device):
    if make(np.zeros(1), device).dtype != nr.float64:
        pytest.skip(f"{device} has no float64")


def test_gradients_against_central_differences(device):
    _f64(device)
    rng = np.random.default_rng(7)
    a = rng.standard_normal((3, 6))  # distinct values: the order is locally constant
    w1, w2 = rng.standard_normal((3, 6)), rng.standard_normal((3, 2))

    def loss(x):
        s = nr.sort(x, dim=1, descending=True)[0]
        tk = nr.topk(x, 2, dim=1, largest=False)[0]
        return (s * make(w1, device)).sum() + ((tk * make(w2, device)) ** 2.0).sum()

    xv = Var(make(a, device))
    out = loss(xv)
    assert_close(out.tensor, loss(make(a, device)).item())
    g = backward(out)[xv]
    num, eps = np.zeros_like(a), 1e-6
    for k in np.ndindex(a.shape):
        hi, lo = a.copy(), a.copy()
        hi[k] += eps
        lo[k] -= eps
        num[k] = (loss(make(hi, device)).item() - loss(make(lo, device)).item()) / (2 * eps)
    assert_close(g, num, rtol=1e-6, atol=1e-6)
    t = rng.standard_normal((3, 6))
    order = oracle_argsort(a, 0, False)
    (v, tan) = jvp(lambda x: nr.sort(x, dim=0)[0], (make(a, device),), (make(t, device),))
    assert_close(v, np.sort(a, 0))
    assert_close(tan, np.take_along_axis(t, order, 0), rtol=0, atol=0)
    _, tan = jvp(lambda x: nr.topk(x, 3)[0], (make(a, device),), (make(t, device),))
    assert_close(tan, np.take_along_axis(t, oracle_argsort(a, 1, True)[:, :3], 1), rtol=0, atol=0)


def test_index_results_are_plain_tensors(device):
    _f64(device)
    a = np.array([[3.0, 1.0, 2.0], [0.5, 0.5, -1.0]])
    xv = Var(make(a, device))
    i = nr.argsort(xv)
    assert type(i) is nr.Tensor and i.numpy().tolist() == [[1, 2, 0], [2, 0, 1]]
    s = nr.searchsorted(Var(make(np.arange(4.0), device)), xv)
    assert type(s) is nr.Tensor
    np.testing.assert_array_equal(s.numpy(), np.searchsorted(np.arange(4.0), a))
    u = nr.unique(xv, return_counts=True)
    assert all(type(p) is nr.Tensor for p in u)
    v, idx = nr.sort(xv)
    assert isinstance(v, Var) and type(idx) is nr.Tensor

    def f(x):  # forward mode: the same ops on DualTensors
        i = nr.argsort(x, dim=1)
        assert type(i) is nr.Tensor and type(nr.unique(x)) is nr.Tensor
        assert type(nr.searchsorted(nr.sort(x)[0], x)) is nr.Tensor
        return nr.gather(x, 1, i)
    t = np.arange(6.0).reshape(2, 3)
    _, tan = jvp(f, (make(a, device),), (make(t, device),))
    assert_close(tan, np.take_along_axis(t, np.argsort(a, 1, kind="stable"), 1), rtol=0, atol=0)
