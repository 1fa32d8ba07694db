"""The CPU's native gather / scatter / scatter_reduce (numr/_cpu/kernels/index_scatter.h) against
the composites they replace there (numr/ops/generic/indexing*.py, called directly), over random
shapes, dims, views (sliced, flipped, transposed), repeated and negative indices, NaN/inf and
integer wrap-around; the same results for any thread count; out-of-range errors that write
nothing. The composites themselves are tested against NumPy in test_gather_scatter.py and
test_indexing3.py."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import numr as nr
from numr._cpu.ops import indexing as cpu_indexing
from numr.ops.generic.indexing import gather_any
from numr.ops.generic.indexing_scatter import scatter_any, scatter_reduce_any

REDUCE_DTYPES = ["float32", "float64", "int32", "int64", "uint32", "uint64", "int16", "int8", "uint16", "uint8"]
OTHER_DTYPES = ["float16", "bool", "complex64", "bfloat16"]


@pytest.fixture
def spy(monkeypatch):
    """Counts the native kernel's runs (so a test knows the native path was taken)."""
    calls = []
    orig = cpu_indexing._along

    def along(*a, **k):
        calls.append(a[0])
        return orig(*a, **k)
    monkeypatch.setattr(cpu_indexing, "_along", along)
    return calls


def values(rng, dtype, shape):
    """Values with NaN/inf (floats) or the integer extremes (integers), small sets so that
    repeated positions tie."""
    d = np.dtype(nr.dtype(dtype).np)
    if d.kind == "f" or d.kind == "c" or dtype == "bfloat16":
        pool = np.array([0.0, 1.0, -2.5, 3.0, 0.5, 7.0, -1.0, np.inf, -np.inf, np.nan])
    elif d.kind == "b":
        pool = np.array([0, 1])
    else:
        info = np.iinfo(d)
        pool = np.array([0, 1, 3, 7, info.max, info.max - 1] + ([-1, -3, info.min] if info.min else []),
                        dtype=object)
    return np.array(rng.choice(pool, shape), dtype=object).astype(d)


def view(a, kind, dtype=None):
    """A numr tensor equal to a: contiguous (0), flipped on dim 0 (1), a step-2 slice (2),
    or transposed (3)."""
    if kind == 1 and a.ndim:
        return nr.tensor(np.ascontiguousarray(a[::-1]), dtype=dtype)[::-1]
    if kind == 2 and a.ndim:
        big = np.zeros(a.shape[:-1] + (2 * a.shape[-1] + 1,), a.dtype)
        big[..., 1::2] = a
        return nr.tensor(big, dtype=dtype)[..., 1::2]
    if kind == 3 and a.ndim > 1:
        perm = tuple(reversed(range(a.ndim)))
        return nr.tensor(np.ascontiguousarray(a.transpose(perm)), dtype=dtype).permute(perm)
    return nr.tensor(a, dtype=dtype)


@st.composite
def problems(draw, with_src=True):
    """(x shape, dim, index, src shape) with the index's sizes at most x's outside dim."""
    nd = draw(st.integers(1, 3))
    shape = tuple(draw(st.integers(1, 5)) for _ in range(nd))
    dim = draw(st.integers(-nd, nd - 1))
    d = dim % nd
    ishape = tuple(draw(st.integers(0, 6)) if i == d else draw(st.integers(1, n)) for i, n in enumerate(shape))
    seed = draw(st.integers(0, 2**31 - 1))
    rng = np.random.default_rng(seed)
    idx = rng.integers(-shape[d], shape[d], ishape)
    sshape = tuple(n + draw(st.integers(0, 1)) for n in ishape)
    return shape, dim, idx, sshape, rng, [draw(st.integers(0, 3)) for _ in range(3)]


def same(got, want, exact=True, rtol=0.0):
    assert isinstance(got, nr.Tensor)
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, got.dtype, want.shape, want.dtype)
    g, w = got.numpy(), want.numpy()
    if got.dtype == nr.bfloat16:  # ml_dtypes' NaN does not compare equal to itself in NumPy's testing
        g, w = g.astype(np.float32), w.astype(np.float32)
    if exact or g.dtype.kind not in "fc":
        np.testing.assert_array_equal(g, w)
    else:
        np.testing.assert_allclose(g.astype(np.float64), w.astype(np.float64), rtol=rtol, equal_nan=True)


@settings(max_examples=150, deadline=None)
@given(p=problems(), dtype=st.sampled_from(REDUCE_DTYPES + OTHER_DTYPES),
       reduce=st.sampled_from(["sum", "prod", "mean", "amax", "amin"]), include_self=st.booleans())
def test_scatter_reduce_matches_composite(p, dtype, reduce, include_self):
    shape, dim, idx, sshape, rng, kinds = p
    if dtype in ("bool", "complex64") or (dtype == "bfloat16" and reduce in ("amax", "amin")):
        dtype = "float32"
    x = view(values(rng, dtype, shape), kinds[0], dtype)
    src = view(values(rng, dtype, sshape), kinds[1], dtype)
    index = view(idx, kinds[2])
    got = nr.scatter_reduce(x, dim, index, src, reduce, include_self=include_self)
    want = scatter_reduce_any(x, dim, index, src, reduce, include_self)
    rtol = {"float32": 1e-6, "float64": 1e-14}.get(dtype, 1e-2)
    same(got, want, exact=reduce != "prod", rtol=rtol)


@settings(max_examples=100, deadline=None)
@given(p=problems(), dtype=st.sampled_from(REDUCE_DTYPES + OTHER_DTYPES))
def test_gather_matches_composite(p, dtype):
    shape, dim, idx, _, rng, kinds = p
    x = view(values(rng, dtype, shape), kinds[0], dtype)
    index = view(idx, kinds[2])
    same(nr.gather(x, dim, index), gather_any(x, dim, index))
    same(x.gather(dim, index), gather_any(x, dim, index))


@settings(max_examples=100, deadline=None)
@given(p=problems(), dtype=st.sampled_from(REDUCE_DTYPES + OTHER_DTYPES), use_value=st.booleans())
def test_scatter_matches_composite(p, dtype, use_value):
    shape, dim, idx, sshape, rng, kinds = p
    x = view(values(rng, dtype, shape), kinds[0], dtype)
    index = view(idx, kinds[2])
    if use_value:
        v = values(rng, dtype, ()).item()
        same(nr.scatter(x, dim, index, value=v), scatter_any(x, dim, index, value=v))
    else:
        src = view(values(rng, dtype, sshape), kinds[1], dtype)
        same(nr.scatter(x, dim, index, src), scatter_any(x, dim, index, src))


@pytest.mark.parametrize("dtype", REDUCE_DTYPES)
@pytest.mark.parametrize("reduce", ["sum", "prod", "mean", "amax", "amin"])
def test_native_path_taken(spy, dtype, reduce):
    x = nr.zeros((3, 4), dtype=dtype)
    idx = nr.tensor([[0, 1], [3, 3], [-1, 0]])
    src = nr.ones((3, 2), dtype=dtype)
    got = nr.scatter_reduce(x, 1, idx, src, reduce, include_self=False)
    assert spy == [2]
    want = {"sum": [[1, 1, 0, 0], [0, 0, 0, 2], [1, 0, 0, 1]]}.get(reduce, [[1, 1, 0, 0], [0, 0, 0, 1], [1, 0, 0, 1]])
    np.testing.assert_array_equal(got.numpy(), np.array(want, dtype=nr.dtype(dtype).np))
    nr.gather(x, 1, idx)
    nr.scatter(x, 1, idx, src)
    assert spy == [2, 0, 1]


def test_integer_wrap_and_mean_rounding():
    i32 = np.iinfo(np.int32)
    x = nr.tensor([[i32.max, -7, 5]], dtype=nr.int32)
    idx = nr.tensor([[0, 0, 1, 2]])
    src = nr.tensor([[1, 2, 2, -2]], dtype=nr.int32)
    np.testing.assert_array_equal(nr.scatter_reduce(x, 1, idx, src, "sum").numpy(), [[i32.min + 2, -5, 3]])
    np.testing.assert_array_equal(nr.scatter_reduce(x, 1, idx, src, "prod").numpy(),
                                  [[np.int32(-2), -14, -10]])  # max * 2 wraps to -2
    # means round down: (-7 + 2) / 2 = -2.5 -> -3, (5 - 2) / 2 = 1.5 -> 1
    np.testing.assert_array_equal(nr.scatter_reduce(x, 1, idx, src, "mean").numpy()[0, 1:], [-3, 1])


def test_nan_propagates():
    nan = float("nan")
    x = nr.tensor([[1.0, 2.0, nan, 4.0]])
    idx = nr.tensor([[0, 0, 1, 2]])
    src = nr.tensor([[nan, 5.0, 1.0, 9.0]])
    for r in ("amax", "amin"):
        got = nr.scatter_reduce(x, 1, idx, src, r).numpy()
        assert np.isnan(got[0, 0]) and np.isnan(got[0, 2]) and got[0, 3] == 4.0
        assert got[0, 1] == (2.0 if r == "amax" else 1.0)


@pytest.mark.parametrize("op", ["gather", "scatter", "scatter_reduce"])
@pytest.mark.parametrize("bad", [4, -5, 100])
def test_out_of_range_raises_and_writes_nothing(op, bad):
    x = nr.arange(12, dtype=nr.float32).reshape(3, 4)
    before = x.numpy().copy()
    idx = nr.tensor([[0, 1], [2, bad], [3, -4]])
    src = nr.ones((3, 2))
    run = {"gather": lambda f: f(x, 1, idx), "scatter": lambda f: f(x, 1, idx, src),
           "scatter_reduce": lambda f: f(x, 1, idx, src, "amax")}[op]
    with pytest.raises(nr.IndexOutOfRange, match=str(bad)) as native:
        run(getattr(nr, op))
    with pytest.raises(nr.IndexOutOfRange) as composite:
        run({"gather": gather_any, "scatter": scatter_any, "scatter_reduce": scatter_reduce_any}[op])
    assert str(native.value) == str(composite.value)
    if op == "scatter":
        with pytest.raises(nr.IndexOutOfRange):
            x.scatter_(1, idx, src)
    np.testing.assert_array_equal(x.numpy(), before)


def test_errors_name_the_op():
    x = nr.zeros((3, 4))
    with pytest.raises(nr.DTypeError, match="gather"):
        nr.gather(x, 1, nr.zeros((3, 2)))
    with pytest.raises(nr.ShapeError, match="gather"):
        nr.gather(x, 1, nr.zeros((4, 2), dtype=nr.int64))
    with pytest.raises(nr.ShapeError, match="scatter_reduce"):
        nr.scatter_reduce(x, 1, nr.zeros((3, 3), dtype=nr.int64), nr.ones((3, 2)), "sum")
    with pytest.raises(nr.DomainError, match="scatter_reduce"):
        nr.scatter_reduce(x, 1, nr.zeros((3, 2), dtype=nr.int64), nr.ones((3, 2)), "max")


@pytest.mark.parametrize("dim", [0, 1])
def test_threads_give_the_same_results(dim):
    """Above the parallel threshold: every thread count gives the same bits (each output element
    is owned by one thread and combined in index order)."""
    rng = np.random.default_rng(5)
    x = nr.tensor(rng.standard_normal((300, 400)).astype(np.float32))
    ishape = (300, 200) if dim == 1 else (150, 400)
    idx = nr.tensor(rng.integers(-x.shape[dim], x.shape[dim], ishape))
    src = nr.tensor(rng.standard_normal(ishape).astype(np.float32))
    old = nr.get_num_threads()
    try:
        results = []
        for n in (1, 2, 3):
            nr.set_num_threads(n)
            results.append([nr.scatter_reduce(x, dim, idx, src, r).numpy() for r in ("sum", "prod", "mean", "amax")]
                           + [nr.gather(x, dim, idx).numpy(), nr.scatter(x, dim, idx, src).numpy()])
    finally:
        nr.set_num_threads(old)
    for r in results[1:]:
        for a, b in zip(results[0], r, strict=True):
            np.testing.assert_array_equal(a, b)
    for r, got in zip(("sum", "prod", "mean", "amax"), results[0], strict=False):
        want = scatter_reduce_any(x, dim, idx, src, r).numpy()
        if r == "prod":
            np.testing.assert_allclose(got, want, rtol=1e-5)
        else:
            np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(results[0][4], gather_any(x, dim, idx).numpy())
    np.testing.assert_array_equal(results[0][5], scatter_any(x, dim, idx, src).numpy())


def test_empty_and_size_one():
    x = nr.ones((2, 3))
    e = nr.zeros((2, 0), dtype=nr.int64)
    assert nr.gather(x, 1, e).shape == (2, 0)
    np.testing.assert_array_equal(nr.scatter_reduce(x, 1, e, nr.ones((2, 0)), "prod").numpy(), x.numpy())
    np.testing.assert_array_equal(nr.scatter(x, 1, e, nr.ones((2, 0))).numpy(), x.numpy())
    got = nr.scatter_reduce(nr.tensor(2.0), 0, nr.tensor(0), nr.tensor(3.0), "prod")
    assert got.shape == () and got.item() == 6.0


@settings(max_examples=60, deadline=None)
@given(p=problems(), dtype=st.sampled_from(["float32", "int64", "float16", "bool"]))
def test_take_along_dim_through_native_gather(p, dtype):
    shape, dim, idx, _, rng, kinds = p
    a = values(rng, dtype, shape)
    d = dim % len(shape)
    bshape = list(shape)
    bshape[d] = idx.shape[d]
    ib = np.broadcast_to(idx[tuple(slice(0, 1) if i != d else slice(None) for i in range(len(shape)))], bshape)
    got = nr.take_along_dim(view(a, kinds[0], dtype), view(np.ascontiguousarray(ib), kinds[2]), dim)
    want = np.take_along_axis(a, ib % shape[d], d)
    assert got.shape == want.shape and got.dtype == nr.dtype(dtype)
    g = got.numpy()
    np.testing.assert_array_equal(g.astype(np.float64) if dtype == "float16" else g,
                                  want.astype(np.float64) if dtype == "float16" else want)


def test_take_along_dim_uses_gather_and_names_itself(spy):
    x = nr.arange(6, dtype=nr.float32).reshape(2, 3)
    np.testing.assert_array_equal(nr.take_along_dim(x, nr.tensor([[2], [0]]), 1).numpy(), [[2.0], [3.0]])
    assert spy == [0]
    with pytest.raises(nr.IndexOutOfRange, match="take_along_dim"):
        nr.take_along_dim(x, nr.tensor([[3], [0]]), 1)


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16"])
@pytest.mark.parametrize("n", [255, 300])
def test_narrow_int_mean_count_wraps_as_composite(dtype, n):
    """The count is cast to the dtype as the composite does (256 -> 0 in uint8, and x // 0 = 0)."""
    x = nr.tensor([[5, -3 if dtype != "uint8" else 3]], dtype=dtype)
    idx = nr.zeros((1, n), dtype=nr.int64)
    src = nr.tensor(np.arange(n).reshape(1, n) % 7, dtype=dtype)
    for incl in (True, False):
        for r in ("mean", "sum", "prod"):
            same(nr.scatter_reduce(x, 1, idx, src, r, include_self=incl),
                 scatter_reduce_any(x, 1, idx, src, r, incl))
