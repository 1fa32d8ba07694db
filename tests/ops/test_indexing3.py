"""masked_fill/masked_select/masked_scatter, scatter/scatter_reduce, take/take_along_dim,
index_fill/index_copy, put and embedding against NumPy (float64) oracles written here (torch's
semantics spelled out: scatter_reduce's integer wrapping and floor mean, the amax/amin tie split),
and torch as a second oracle where it is installed: every dtype, empty, 0-d, size-1, views
(transposed, flipped, sliced), broadcasting, negative dims and indices, duplicates (scatter keeps
the last writer in index order), NaN/inf, errors; and gradients by central differences (reverse
mode) and directional differences (jvp)."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_close
from fd_checks import check_grads

import numr as nr
from numr.autograd import Var, backward

try:  # a second oracle only: every check has a NumPy oracle, so nothing is skipped without torch
    import torch
except ImportError:
    torch = None

DTYPES = ["float32", "float64", "float16", "bfloat16", "float8_e4m3fn", "int8", "int32", "int64", "uint8",
          "bool", "complex64"]


def make(a, device, dtype=None):
    try:
        return nr.tensor(a, dtype=dtype, device=device)
    except nr.UnsupportedOperation as e:
        pytest.skip(str(e))


def sample(dtype, shape, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.integers(-4, 5, shape)
    if dtype == "bool":
        return a > 0
    if dtype == "uint8":
        return (a + 4).astype(np.uint8)
    if dtype.startswith("complex"):
        return (a + 1j * rng.integers(-3, 3, shape)).astype(dtype)
    return a.astype(np.float64 if dtype.startswith(("float", "bfloat")) else dtype)


def as_np(t):
    a = t.numpy()
    return a.astype(np.float64) if a.dtype.kind == "f" or "float" in str(a.dtype) else a


def also_torch(want, f):
    """A second oracle where torch is installed: f() (torch's own call) agrees with the NumPy one."""
    if torch is not None:
        np.testing.assert_allclose(f().detach().numpy(), want, rtol=1e-12, atol=0)


def np_scatter_reduce(x, dim, index, src, reduce, include_self=True):
    """torch.scatter_reduce: the index's elements in row-major order reduced into a copy of x (src's
    leading block of the index's shape); integers wrap in x's dtype, an integer mean rounds down;
    a position nothing is scattered to keeps x; include_self=False leaves x out where written."""
    dim %= x.ndim
    out = x.copy()
    at = list(np.indices(index.shape))
    at[dim] = index % x.shape[dim]
    at = tuple(at)
    vals = src[tuple(slice(0, n) for n in index.shape)]
    if not include_self:
        big = np.inf if out.dtype.kind == "f" else np.iinfo(out.dtype).max
        out[at] = {"sum": 0, "mean": 0, "prod": 1, "amax": -big if out.dtype.kind == "f" else
                   np.iinfo(out.dtype).min, "amin": big}[reduce]
    ufunc = {"sum": np.add, "mean": np.add, "prod": np.multiply, "amax": np.maximum, "amin": np.minimum}[reduce]
    with np.errstate(invalid="ignore", over="ignore"):  # inf - inf, inf * 0: NaN, as torch
        ufunc.at(out, at, vals)  # unbuffered, in order: repeats accumulate, integers wrap
    if reduce == "mean":
        count = np.full(x.shape, int(include_self), np.int64)
        np.add.at(count, at, 1)
        count[count == 0] = 1
        out = out / count if out.dtype.kind == "f" else np.floor_divide(out, count).astype(x.dtype)
    return out


def np_masked_scatter(x, mask, src):
    """torch.masked_scatter: the mask (broadcast to x) takes src's leading elements in row-major order."""
    out = x.copy()
    m = np.broadcast_to(mask, x.shape)
    out[m] = src.reshape(-1)[:m.sum()]
    return out


def np_take_along_dim(x, index, dim):
    """torch.take_along_dim: x and index broadcast in every dim but dim, then take_along_axis."""
    shape = np.broadcast_shapes(*[tuple(np.delete(a.shape, dim)) for a in (x, index)])
    xs, ins = list(shape), list(shape)
    xs.insert(dim % x.ndim, x.shape[dim])
    ins.insert(dim % x.ndim, index.shape[dim])
    return np.take_along_axis(np.broadcast_to(x, xs), np.broadcast_to(index, ins), dim)


def np_put(x, index, src, accumulate=False):
    """torch.put: x's row-major (logical) positions; a repeated position keeps the last, or sums."""
    flat = x.reshape(-1).copy()
    i, v = index.reshape(-1) % flat.size, src.reshape(-1)
    if accumulate:
        np.add.at(flat, i, v)
    else:
        for k in range(i.size):
            flat[i[k]] = v[k]
    return flat.reshape(x.shape)


def np_scatter_amax_grads(x, dim, index, src, reduce, grad):
    """torch's scatter_reduce amax/amin (include_self) gradient: the output's gradient split evenly
    between self and every src element equal to the result at that position (ties share it)."""
    out = np_scatter_reduce(x, dim, index, src, reduce)
    n = (x == out).astype(np.float64)
    at = list(np.indices(index.shape))
    at[dim % x.ndim] = index % x.shape[dim]
    at = tuple(at)
    src_tie = src[tuple(slice(0, k) for k in index.shape)] == out[at]
    np.add.at(n, at, src_tie.astype(np.float64))
    share = grad / n
    return (x == out) * share, src_tie * share[at]


# ---- masked ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", DTYPES)
def test_masked_fill_every_dtype(device, dtype):
    x = make(sample(dtype, (3, 4)), device, dtype)
    xn = as_np(x)
    mask = np.random.default_rng(1).random((3, 4)) > 0.5
    value = True if dtype == "bool" else 2
    got = nr.masked_fill(x, make(mask, device), value)
    assert got.dtype == x.dtype and got.shape == (3, 4)
    assert_close(got, np.where(mask, value, xn), dtype=dtype, rtol=0, atol=0)
    row = make(mask[:1], device)  # (1, 4) broadcast over the rows; the method form
    assert_close(x.masked_fill(row, value), np.where(mask[:1], value, xn), dtype=dtype, rtol=0, atol=0)
    assert_close(x, xn, dtype=dtype, rtol=0, atol=0)  # not modified
    y = x.clone()
    assert y.masked_fill_(row, value) is y
    assert_close(y, np.where(mask[:1], value, xn), dtype=dtype, rtol=0, atol=0)


def test_masked_fill_views_values_and_edges(device):
    a = np.arange(20.0).reshape(4, 5)
    x = make(a, device)
    m = a % 3 == 0
    v = x.T[::-1]  # transposed and flipped view
    assert_close(nr.masked_fill(v, make(m.T[::-1], device), -1.0), np.where(m.T[::-1], -1.0, a.T[::-1]))
    s = x[1:3, ::2]  # a sliced (offset) view, written in place: x changes there only
    s.masked_fill_(make(np.array([True, False, True]), device), 7.0)
    want = a.copy()
    want[1:3, 0] = want[1:3, 4] = 7.0
    assert_close(x, want)
    zero_d = make(np.array(3.0), device)  # a 0-d tensor value, nan and inf
    assert_close(nr.masked_fill(make(a, device), make(m, device), zero_d), np.where(m, 3.0, a))
    assert_close(nr.masked_fill(make(a, device), make(m, device), float("nan")), np.where(m, np.nan, a))
    assert_close(nr.masked_fill(make(a, device), make(m, device), -np.inf), np.where(m, -np.inf, a))
    assert_close(nr.masked_fill(make(np.array(1.5), device), make(np.array(True), device), 0.0), np.array(0.0))
    e = nr.masked_fill(make(np.zeros((0, 3)), device), make(np.zeros((0, 3), bool), device), 1.0)
    assert e.shape == (0, 3)
    i = make(np.array([1, 2, 3]), device)
    assert_close(nr.masked_fill(i, make(np.array([True, False, True]), device), 2.9), np.array([2, 2, 2]))
    with pytest.raises(nr.DTypeError, match="masked_fill"):
        nr.masked_fill(x, make(np.ones((4, 5), np.int32), device), 0.0)
    with pytest.raises(nr.DTypeError, match="masked_fill"):
        nr.masked_fill(i, make(np.array([True, False, True]), device), np.nan)  # NaN into integers
    with pytest.raises(nr.ShapeError, match="masked_fill"):
        nr.masked_fill(x, make(np.ones((4, 1, 5), bool), device), 0.0)  # would grow x
    with pytest.raises(nr.ShapeError, match="masked_fill"):
        nr.masked_fill(x, make(m, device), make(np.ones(2), device))  # value not 0-d


@pytest.mark.parametrize("dtype", DTYPES)
def test_masked_select(device, dtype):
    x = make(sample(dtype, (3, 4), 2), device, dtype)
    xn = as_np(x)
    m = np.random.default_rng(3).random((3, 4)) > 0.4
    got = nr.masked_select(x, make(m, device))
    assert got.dtype == x.dtype
    assert_close(got, xn[m], dtype=dtype, rtol=0, atol=0)
    col = m[:, :1]  # mask (3, 1) broadcast against x; and x (4,) broadcast against a (3, 4) mask
    assert_close(x.masked_select(make(col, device)), np.broadcast_to(xn, (3, 4))[np.broadcast_to(col, (3, 4))],
                 dtype=dtype, rtol=0, atol=0)
    assert_close(nr.masked_select(x[0], make(m, device)), np.broadcast_to(xn[0], (3, 4))[m], dtype=dtype, rtol=0,
                 atol=0)
    assert nr.masked_select(x, make(np.zeros((3, 4), bool), device)).shape == (0,)


def test_masked_select_and_scatter_edges(device):
    a = np.arange(12.0).reshape(3, 4)
    x = make(a, device)
    assert_close(nr.masked_select(x.T[::-1], make(a.T[::-1] > 4, device)), a.T[::-1][a.T[::-1] > 4])
    assert_close(nr.masked_select(make(np.array(2.0), device), make(np.array(True), device)), np.array([2.0]))
    with pytest.raises(nr.DTypeError, match="masked_select"):
        nr.masked_select(x, make(a, device))
    with pytest.raises(nr.ShapeError):
        nr.masked_select(x, make(np.ones((2, 4), bool), device))
    m = (a % 2 == 0)
    src = np.arange(100.0, 112.0).reshape(2, 6)
    want = np_masked_scatter(a, m, src)
    assert_close(nr.masked_scatter(x, make(m, device), make(src, device)), want, rtol=0, atol=0)
    want_row = np_masked_scatter(a, m[:1], src)  # a broadcast mask
    y = x.clone()
    assert y.masked_scatter_(make(m[:1], device), make(src, device)) is y
    assert_close(y, want_row, rtol=0, atol=0)
    if torch is not None:
        ta, tm, ts = torch.from_numpy(a), torch.from_numpy(m), torch.from_numpy(src)
        np.testing.assert_array_equal(ta.masked_scatter(tm, ts).numpy(), want)
        np.testing.assert_array_equal(ta.masked_scatter(tm[:1], ts).numpy(), want_row)
    assert_close(nr.masked_scatter(x, make(np.zeros((3, 4), bool), device), make(np.zeros(0), device)), a)
    with pytest.raises(nr.ShapeError, match="masked_scatter"):
        nr.masked_scatter(x, make(m, device), make(np.ones(5), device))  # 6 selected, 5 given


# ---- scatter --------------------------------------------------------------------------------------
def scatter_oracle(a, dim, idx, src=None, value=None):
    """Sequential: the index's elements in row-major order, so a repeated position keeps the last."""
    out = a.copy()
    for k in np.ndindex(idx.shape):
        t = list(k)
        t[dim] = idx[k] % a.shape[dim]
        out[tuple(t)] = value if src is None else src[k]
    return out


@pytest.mark.parametrize("dtype", DTYPES)
def test_scatter_every_dtype_last_writer_wins(device, dtype):
    rng = np.random.default_rng(4)
    x = make(sample(dtype, (4, 5), 5), device, dtype)
    s = make(sample(dtype, (6, 7), 6), device, dtype)  # larger than the index: its leading block is used
    xn, sn = as_np(x), as_np(s)
    for dim in (0, 1, -1, -2):
        shape = [3, 4] if dim in (0, -2) else [4, 7]  # 7 > 5 columns: repeats are certain along dim 1
        idx = rng.integers(-x.shape[dim], x.shape[dim], shape)
        got = nr.scatter(x, dim, make(idx, device), make(s, device))
        assert got.dtype == x.dtype and got.shape == (4, 5)
        assert_close(got, scatter_oracle(xn, dim % 2, idx, sn), dtype=dtype, rtol=0, atol=0)
    idx = np.array([[1, 1, 1, 0]])  # three writes to (0, 1): the last (src[0, 2]) wins
    got = x.scatter(1, make(idx, device), s)
    want = xn.copy()
    want[0, 1], want[0, 0] = sn[0, 2], sn[0, 3]
    assert_close(got, want, dtype=dtype, rtol=0, atol=0)
    v = True if dtype == "bool" else 3
    assert_close(nr.scatter(x, 0, make(idx, device), value=v), scatter_oracle(xn, 0, idx, value=v), dtype=dtype,
                 rtol=0, atol=0)
    y = x.clone()
    assert y.scatter_(1, make(idx, device), s) is y
    assert_close(y, want, dtype=dtype, rtol=0, atol=0)


def test_scatter_many_repeats_is_deterministic(device):
    """4800 writes into 640 positions (about 7.5 per position, across many workgroups on a GPU):
    the last in index order wins on tensors and on Vars alike; the reductions match torch."""
    _f64(device)
    rng = np.random.default_rng(15)
    a, idx, src = rng.standard_normal((16, 40)), rng.integers(0, 40, (16, 300)), rng.standard_normal((16, 300))
    x, i, s = make(a, device), make(idx, device), make(src, device)
    want = scatter_oracle(a, 1, idx, src)
    assert_close(nr.scatter(x, 1, i, s), want, rtol=0, atol=0)
    assert_close(nr.scatter(Var(x), 1, i, Var(s)).tensor, want, rtol=0, atol=0)
    for red in REDUCES:
        w = np_scatter_reduce(a, 1, idx, src, red)
        assert_close(nr.scatter_reduce(x, 1, i, s, red), w)
        if torch is not None:
            t = torch.from_numpy(a).scatter_reduce(1, torch.from_numpy(idx), torch.from_numpy(src), red)
            np.testing.assert_allclose(t.numpy(), w, rtol=1e-12, atol=1e-12)


@pytest.mark.filterwarnings("ignore:The reduce argument")
def test_scatter_views_reduce_and_errors(device):
    a = np.arange(20.0).reshape(4, 5)
    x = make(a, device)
    v = x.T[::-1]  # (5, 4) transposed, flipped
    idx = np.array([[3, 0, 3], [1, 1, 2]])
    src = np.arange(-6.0, 0.0).reshape(2, 3)
    assert_close(nr.scatter(v, 1, make(idx, device), make(src, device)), scatter_oracle(a.T[::-1], 1, idx, src))
    assert_close(nr.scatter(x, 1, make(idx, device), 9.5), scatter_oracle(a, 1, idx, value=9.5))  # value positional
    for reduce, red in (("add", "sum"), ("multiply", "prod")):  # scatter's reduce: every write combines
        want = np_scatter_reduce(a, 1, idx, src, red)
        assert_close(nr.scatter(x, 1, make(idx, device), make(src, device), reduce=reduce), want)
        if torch is not None:
            t = torch.from_numpy(a).scatter(1, torch.from_numpy(idx), torch.from_numpy(src), reduce=reduce)
            np.testing.assert_array_equal(t.numpy(), want)
    assert_close(nr.scatter(x, 0, make(np.zeros((0, 3), np.int64), device), make(src, device)), a)  # empty index
    z, z0, three = make(np.array(1.5), device), make(np.array(0), device), make(np.array(3.0), device)  # 0-d
    assert_close(nr.scatter(z, 0, z0, three), np.array(3.0))
    assert_close(nr.scatter(z, -1, z0, value=2.0), np.array(2.0))
    assert_close(nr.scatter_reduce(z, 0, z0, three, "sum"), np.array(4.5))
    assert_close(nr.scatter(make(np.array([[1.0]]), device), 0, make(np.array([[0]]), device),
                             make(np.array([[np.nan]]), device)), np.array([[np.nan]]))
    with pytest.raises(nr.IndexOutOfRange, match="scatter"):
        nr.scatter(x, 1, make(np.array([[5]]), device), make(src, device))
    with pytest.raises(nr.IndexOutOfRange, match="scatter"):
        nr.scatter(x, 0, make(np.array([[-5]]), device), value=1.0)
    with pytest.raises(nr.DTypeError, match="scatter"):
        nr.scatter(x, 1, make(np.array([[0.0]]), device), make(src, device))
    with pytest.raises(nr.ShapeError, match="scatter"):
        nr.scatter(x, 1, make(np.array([0, 1]), device), make(src, device))  # rank differs
    with pytest.raises(nr.ShapeError, match="scatter"):
        nr.scatter(x, 1, make(np.zeros((3, 4), np.int64), device), make(src, device))  # larger than src
    with pytest.raises(nr.DomainError, match="scatter"):
        nr.scatter(x, 1, make(idx, device), make(src, device), reduce="max")
    assert_close(x, a)  # nothing was written by the failed calls


REDUCES = ("sum", "prod", "mean", "amax", "amin")


@pytest.mark.parametrize("dtype", ["float32", "float64", "int8", "uint8", "int32", "int64", "float16", "bfloat16"])
@pytest.mark.parametrize("include_self", [True, False])
def test_scatter_reduce_every_dtype(device, dtype, include_self):
    """Against np_scatter_reduce (float64, or the integer dtype itself: sums wrap, means round down),
    with torch in the same dtypes as a second oracle where installed."""
    rng = np.random.default_rng(7)
    x = make(sample(dtype, (4, 6), 8), device, dtype)
    s = make(sample(dtype, (5, 9), 9), device, dtype)
    xn, sn = as_np(x), as_np(s)
    for dim in (1, -2):
        idx = rng.integers(0, x.shape[dim], (4, 9) if dim == 1 else (5, 6))  # many repeats
        for red in REDUCES:
            got = nr.scatter_reduce(x, dim, make(idx, device), s, red, include_self=include_self)
            want = np_scatter_reduce(xn, dim, idx, sn, red, include_self)
            assert want.dtype == xn.dtype
            assert got.dtype == x.dtype and got.shape == x.shape
            exact = red not in ("mean", "prod") or "int" in dtype
            assert_close(got, want, dtype=dtype, rtol=0 if exact else None, atol=0 if exact else None)
            if torch is not None:
                t = torch.from_numpy(xn).scatter_reduce(dim, torch.from_numpy(idx), torch.from_numpy(sn)[
                    tuple(slice(0, n) for n in idx.shape)], red, include_self=include_self)
                np.testing.assert_allclose(t.numpy(), want, rtol=1e-12, atol=0)


def test_scatter_reduce_integer_wrapping_and_floor_mean(device):
    """The integer rules spelled out: int8 sums and products wrap, a negative mean rounds down."""
    x = make(np.array([[100, -3, 7]], np.int8), device)
    s = make(np.array([[100, 100, -4, -1]], np.int8), device)
    i = make(np.array([[0, 0, 1, 1]]), device)
    for red, want in (("sum", [44, -8, 7]),  # 300 wraps to 44
                      ("prod", [64, -12, 7]),  # 1000000 = 0xF4240 wraps to 0x40
                      ("mean", [14, -3, 7])):  # 44 // 3, and -8 // 3 = -3 (not -2)
        want = np.array([want], np.int8)
        np.testing.assert_array_equal(np_scatter_reduce(x.numpy(), 1, i.numpy(), s.numpy(), red), want)
        got = nr.scatter_reduce(x, 1, i, s, red)
        assert got.dtype == nr.int8
        assert_close(got, want, dtype="int8", rtol=0, atol=0)


def test_scatter_reduce_nan_inf_and_edges(device):
    a = np.array([[1.0, np.nan, -np.inf, 4.0], [0.0, 2.0, 3.0, -1.0]])
    src = np.array([[np.inf, 2.0, np.nan], [5.0, -np.inf, 0.0]])
    idx = np.array([[0, 0, 2], [3, 3, 3]])
    x, s, i = make(a, device), make(src, device), make(idx, device)
    for red in REDUCES:
        for inc in (True, False):
            want = np_scatter_reduce(a, -1, idx, src, red, inc)
            assert_close(nr.scatter_reduce(x, -1, i, s, red, include_self=inc), want)
            also_torch(want, lambda r=red, c=inc: torch.from_numpy(a).scatter_reduce(
                1, torch.from_numpy(idx), torch.from_numpy(src), r, include_self=c))
    e = make(np.zeros((2, 0), np.int64), device)
    assert_close(nr.scatter_reduce(x, 1, e, s, "amax"), a)
    v = x.T[::-1]  # a transposed, flipped view, dim 0 of it
    j = np.array([[0, 1], [1, 1], [2, 0]])
    for red in REDUCES:
        want = np_scatter_reduce(a.T[::-1], 0, j, src.T, red)
        assert_close(nr.scatter_reduce(v, 0, make(j, device), make(src.T.copy(), device), red), want)
        also_torch(want, lambda r=red: torch.from_numpy(a.T[::-1].copy()).scatter_reduce(
            0, torch.from_numpy(j), torch.from_numpy(src.T.copy()), r))
    lim = np.iinfo(np.int32)
    ai = np.array([[lim.max, lim.min, 0]], np.int32)
    si = np.array([[lim.min, lim.max, lim.max]], np.int32)
    ii = np.array([[1, 0, 0]])
    for red in ("amax", "amin"):  # the extremes meet only themselves: no sentinel leaks in
        want = np.array([[lim.max, lim.min, 0]], np.int32)
        np.testing.assert_array_equal(np_scatter_reduce(ai, 1, ii, si, red), want)
        got = nr.scatter_reduce(make(ai, device), 1, make(ii, device), make(si, device), red)
        assert got.dtype == nr.int32
        assert_close(got, want, rtol=0, atol=0)
        also_torch(want, lambda r=red: torch.from_numpy(ai).scatter_reduce(1, torch.from_numpy(ii),
                                                                           torch.from_numpy(si), r))
    assert_close(nr.scatter(make(ai, device), 1, make(ii, device), make(si, device)), np.array([[lim.max, lim.min, 0]]))
    want = np_scatter_reduce(a, 1, idx, np.full(idx.shape, 2.0), "prod")  # each write doubles
    assert_close(nr.scatter(x, 1, i, value=2.0, reduce="multiply"), want)
    also_torch(want, lambda: torch.from_numpy(a).scatter(1, torch.from_numpy(idx), 2.0, reduce="multiply"))
    one = make(np.array([[2.0]]), device)  # size-1
    assert_close(nr.scatter_reduce(one, 0, make(np.array([[0]]), device), make(np.array([[3.0]]), device), "prod"),
                 np.array([[6.0]]))
    with pytest.raises(nr.DomainError, match="scatter_reduce"):
        nr.scatter_reduce(x, 1, i, s, "max")
    with pytest.raises(nr.IndexOutOfRange, match="scatter_reduce"):
        nr.scatter_reduce(x, 1, make(np.array([[4]]), device), s, "sum")
    with pytest.raises(nr.ShapeError, match="scatter_reduce"):
        nr.scatter_reduce(x, 1, i, make(np.ones(3), device), "sum")


# ---- take, index_fill, index_copy, embedding -----------------------------------------------------
@pytest.mark.parametrize("dtype", DTYPES)
def test_take_and_take_along_dim(device, dtype):
    x = make(sample(dtype, (3, 4), 10), device, dtype)
    xn = as_np(x)
    idx = np.array([[0, -1, 5], [11, 2, 2]])
    got = nr.take(x, make(idx, device))
    assert got.shape == (2, 3) and got.dtype == x.dtype
    assert_close(got, np.take(xn, idx), dtype=dtype, rtol=0, atol=0)
    assert_close(x.T.take(make(idx, device)), np.take(xn.T, idx), dtype=dtype, rtol=0, atol=0)  # a view, flattened
    j = np.array([[2], [0], [3]])
    assert_close(nr.take_along_dim(x, make(j, device), 1), np.take_along_axis(xn, j, 1), dtype=dtype, rtol=0, atol=0)
    jb = np.array([[1, 0, 2, 1]])  # (1, 4) along dim 0 ... and (1, 1) broadcast against x
    assert_close(nr.take_along_dim(x, make(jb, device), 0), np.take_along_axis(xn, jb, 0), dtype=dtype, rtol=0, atol=0)
    assert_close(nr.take_along_dim(x, make(np.array([[3]]), device), -1), xn[:, 3:4], dtype=dtype, rtol=0, atol=0)
    assert_close(x.take_along_dim(make(idx[0] % 12, device)), xn.reshape(-1)[idx[0] % 12], dtype=dtype, rtol=0, atol=0)


def test_take_edges_and_errors(device):
    a = np.arange(6.0).reshape(2, 3)
    x = make(a, device)
    assert nr.take(x, make(np.zeros((0, 2), np.int64), device)).shape == (0, 2)
    assert_close(nr.take(make(np.array(4.0), device), make(np.array(0), device)), np.array(4.0))  # 0-d
    j = np.array([[[2], [1]]] * 3)  # (3, 2, 1) against a[None] (1, 2, 3): x broadcasts to (3, 2, 3)
    want = np_take_along_dim(a[None], j, 2)
    np.testing.assert_array_equal(want, np.broadcast_to(a[:, [2, 1]].diagonal()[:, None], (3, 2, 1)))
    got = nr.take_along_dim(make(a[None], device), make(j, device), 2)
    assert got.shape == (3, 2, 1)
    assert_close(got, want, rtol=0, atol=0)
    also_torch(want, lambda: torch.take_along_dim(torch.from_numpy(a)[None], torch.from_numpy(j), 2))
    with pytest.raises(nr.IndexOutOfRange, match="take"):
        nr.take(x, make(np.array([6]), device))
    with pytest.raises(nr.IndexOutOfRange, match="take"):
        nr.take(x, make(np.array([-7]), device))
    with pytest.raises(nr.DTypeError, match="take"):
        nr.take(x, make(np.array([0.0]), device))
    with pytest.raises(nr.IndexOutOfRange, match="take_along_dim"):
        nr.take_along_dim(x, make(np.array([[3]]), device), 1)
    with pytest.raises(nr.ShapeError, match="take_along_dim"):
        nr.take_along_dim(x, make(np.array([0]), device), 1)
    with pytest.raises(nr.ShapeError, match="take_along_dim"):
        nr.take_along_dim(x, make(np.zeros((3, 1), np.int64), device), 1)


@pytest.mark.parametrize("dtype", DTYPES)
def test_index_fill_and_copy(device, dtype):
    x = make(sample(dtype, (3, 4), 11), device, dtype)
    s = make(sample(dtype, (3, 3), 12), device, dtype)
    xn, sn = as_np(x), as_np(s)
    v = True if dtype == "bool" else 1
    for dim in (1, -1):
        want = xn.copy()
        want[:, [0, 2]] = v
        assert_close(nr.index_fill(x, dim, make(np.array([2, -4, 2]), device), v), want, dtype=dtype, rtol=0, atol=0)
    idx = np.array([3, 0, 3])  # 3 twice: the last slice (s[:, 2]) wins
    want = xn.copy()
    want[:, 0], want[:, 3] = sn[:, 1], sn[:, 2]
    got = x.index_copy(1, make(idx, device), s)
    assert got.dtype == x.dtype
    assert_close(got, want, dtype=dtype, rtol=0, atol=0)
    y = x.clone()
    assert y.index_copy_(-1, make(idx, device), s) is y and y.index_fill_(0, make(np.array([1]), device), v) is y
    want[1] = v
    assert_close(y, want, dtype=dtype, rtol=0, atol=0)


def test_index_fill_copy_edges_and_errors(device):
    a = np.arange(12.0).reshape(3, 4)
    x = make(a, device)
    want = a.T.copy()
    want[:, [2, 0]] = 1.0
    assert_close(nr.index_copy(x.T, 1, make(np.array([2, 0]), device), make(np.ones((4, 2)), device)), want,
                 rtol=0, atol=0)
    also_torch(want, lambda: torch.from_numpy(a).T.index_copy(1, torch.tensor([2, 0]),
                                                               torch.ones(4, 2, dtype=torch.float64)))
    want = a.copy()
    want[1] = -2.0
    assert_close(nr.index_fill(x, 0, make(np.array(1), device), make(np.array(-2.0), device)), want,
                 rtol=0, atol=0)  # 0-d index and value
    also_torch(want, lambda: torch.from_numpy(a).index_fill(0, torch.tensor(1), -2.0))
    assert_close(nr.index_fill(x, 0, make(np.zeros(0, np.int64), device), 5.0), a)
    z = make(np.array(1.5), device)  # 0-d x, as torch: dim 0, index [0]
    assert_close(nr.index_fill(z, 0, make(np.array([0]), device), 2.0), np.array(2.0))
    assert_close(nr.index_copy(z, 0, make(np.array(0), device), make(np.array(3.0), device)), np.array(3.0))
    assert_close(nr.index_copy(x, 0, make(np.zeros(0, np.int64), device), make(np.zeros((0, 4)), device)), a)
    want = a.copy()
    want[:, 0] = np.inf
    assert_close(nr.index_fill(x, 1, make(np.array([0]), device), np.inf), want, rtol=0, atol=0)
    also_torch(want, lambda: torch.from_numpy(a).index_fill(1, torch.tensor([0]), np.inf))
    with pytest.raises(nr.IndexOutOfRange, match="index_fill"):
        nr.index_fill(x, 1, make(np.array([4]), device), 0.0)
    with pytest.raises(nr.IndexOutOfRange, match="index_copy"):
        nr.index_copy(x, 0, make(np.array([-4]), device), make(np.ones((1, 4)), device))
    with pytest.raises(nr.ShapeError, match="index_copy"):
        nr.index_copy(x, 0, make(np.array([0]), device), make(np.ones((1, 3)), device))
    with pytest.raises(nr.ShapeError, match="index_fill"):
        nr.index_fill(x, 0, make(np.array([[0]]), device), 1.0)
    with pytest.raises(nr.DTypeError, match="index_fill"):
        nr.index_fill(x, 0, make(np.array([0.0]), device), 1.0)


def test_put(device):
    a = np.arange(12.0).reshape(3, 4)
    idx, src = np.array([[0, -1], [5, 0]]), np.array([10.0, 20.0, 30.0, 40.0])
    x = make(a, device)
    for acc, at_0_11_5 in ((False, [40, 20, 30]), (True, [50, 31, 35])):  # 0 twice: the last wins, or both add
        want = np_put(a, idx, src, acc)
        assert want.flat[[0, 11, 5]].tolist() == at_0_11_5
        assert_close(nr.put(x, make(idx, device), make(src, device), accumulate=acc), want, rtol=0, atol=0)
        also_torch(want, lambda c=acc: torch.from_numpy(a).put(torch.from_numpy(idx), torch.from_numpy(src),
                                                               accumulate=c))
    y = x.T.contiguous().T  # column-major: put addresses the row-major (logical) order
    assert y.put_(make(idx, device), make(src.reshape(2, 2), device)) is y
    assert_close(y, np_put(a, idx, src), rtol=0, atol=0)
    with pytest.raises(nr.IndexOutOfRange, match="put"):
        nr.put(x, make(np.array([12]), device), make(np.ones(1), device))
    with pytest.raises(nr.ShapeError, match="put"):
        nr.put(x, make(np.array([1, 2]), device), make(np.ones(3), device))


def test_embedding(device):
    w = np.arange(15.0).reshape(5, 3)
    idx = np.array([[0, 4, -1], [2, 2, 1]])
    got = nr.embedding(make(idx, device), make(w, device))
    assert got.shape == (2, 3, 3)
    assert_close(got, w[idx])
    assert nr.embedding(make(np.zeros((0,), np.int64), device), make(w, device)).shape == (0, 3)
    assert_close(nr.embedding(make(np.array(3), device), make(w, device)), w[3])
    with pytest.raises(nr.IndexOutOfRange, match="embedding"):
        nr.embedding(make(np.array([5]), device), make(w, device))
    with pytest.raises(nr.ShapeError, match="embedding"):
        nr.embedding(make(np.array([0]), device), make(w[0], device))
    with pytest.raises(nr.ShapeError, match="embedding"):
        nr.embedding(make(np.array([0]), device), make(w, device), padding_idx=5)


# ---- gradients ------------------------------------------------------------------------------------
def _f64(device):
    if make(np.zeros(1), device).dtype != nr.float64:
        pytest.skip(f"{device} has no float64")


def test_gradients_masked_take_index(device):
    _f64(device)
    rng = np.random.default_rng(13)
    a = rng.standard_normal((3, 4))
    m = make(a > 0, device)
    idx = make(np.array([[0, 5], [-1, 5]]), device)  # 5 twice: take's gradient accumulates
    check_grads(device, lambda x, v: nr.masked_fill(x, m, v), [a, np.array(0.7)])
    check_grads(device, lambda x: nr.masked_select(x, m[0]) * 2.0, [a])
    check_grads(device, lambda x, s: nr.masked_scatter(x, m, s), [a, rng.standard_normal(12)])
    check_grads(device, lambda x: nr.take(x, idx), [a])
    check_grads(device, lambda x: nr.take_along_dim(x, make(np.array([[3], [0]]), device)[None], 2), [a[None, :2]])
    check_grads(device, lambda x, v: nr.index_fill(x, 1, make(np.array([2, 0]), device), v), [a, np.array(-1.5)])
    check_grads(device, lambda x, s: nr.index_copy(x, 0, make(np.array([2, 0, 2]), device), s),
                [a, rng.standard_normal((3, 4))])
    check_grads(device, lambda x, s: nr.put(x, make(np.array([2, 0, 2, -1]), device), s), [a, rng.standard_normal(4)])
    check_grads(device, lambda x, s: nr.put(x, make(np.array([2, 2]), device), s, accumulate=True),
                [a, rng.standard_normal(2)])
    emb = make(np.array([[1, 4], [4, 0]]), device)  # row 4 twice: its gradient accumulates
    check_grads(device, lambda wt: nr.embedding(emb, wt), [rng.standard_normal((5, 2))])


def test_gradients_scatter(device):
    _f64(device)
    rng = np.random.default_rng(14)
    a, s = rng.standard_normal((3, 4)), rng.standard_normal((3, 5))
    idx = make(np.array([[1, 1, 3, 0, 1], [2, 2, 2, 2, 2], [0, 1, 2, 3, 0]]), device)
    check_grads(device, lambda x, src: nr.scatter(x, 1, idx, src), [a, s])
    check_grads(device, lambda x, v: nr.scatter(x, 1, idx, v), [a, np.array(0.25)])
    for red in REDUCES:
        for inc in (True, False):
            check_grads(device, lambda x, src, r=red, i=inc: nr.scatter_reduce(x, 1, idx, src, r, include_self=i),
                        [a, s])


def test_amax_gradient_splits_ties_like_torch(device):
    _f64(device)
    a = np.array([[1.0, 2.0, 0.0], [3.0, 3.0, 3.0]])
    s = np.array([[2.0, 2.0, 1.0], [3.0, 3.0, -1.0]])
    idx = np.array([[1, 1, 1], [0, 0, 2]])
    w = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    for red in ("amax", "amin"):
        xv, sv = Var(make(a, device)), Var(make(s, device))
        g = backward((nr.scatter_reduce(xv, 1, make(idx, device), sv, red) * make(w, device)).sum())
        gx, gs = np_scatter_amax_grads(a, 1, idx, s, red, w)
        assert_close(g[xv], gx)
        assert_close(g[sv], gs)
        if torch is not None:
            tx, ts = torch.tensor(a, requires_grad=True), torch.tensor(s, requires_grad=True)
            (tx.scatter_reduce(1, torch.from_numpy(idx), ts, red) * torch.from_numpy(w)).sum().backward()
            np.testing.assert_allclose(tx.grad.numpy(), gx, rtol=1e-12, atol=0)
            np.testing.assert_allclose(ts.grad.numpy(), gs, rtol=1e-12, atol=0)
    gx, gs = np_scatter_amax_grads(a, 1, idx, s, "amax", w)  # the split spelled out for amax
    np.testing.assert_allclose(gx, [[1, 2 / 3, 3], [4 / 3, 5, 6]], rtol=1e-15)  # 3-way ties
    np.testing.assert_allclose(gs, [[2 / 3, 2 / 3, 0], [4 / 3, 4 / 3, 0]], rtol=1e-15)
    # include_self=False: self takes no part (torch would still count an equal self in the split)
    xv, sv = Var(make(a, device)), Var(make(s, device))
    g = backward((nr.scatter_reduce(xv, 1, make(idx, device), sv, "amax", include_self=False)
                  * make(w, device)).sum())
    assert_close(g[xv], np.array([[1.0, 0, 3], [0, 5, 0]]))  # untouched positions only
    assert_close(g[sv], np.array([[1.0, 1, 0], [2, 2, 6]]))


def test_embedding_padding_idx_gets_no_gradient(device):
    _f64(device)
    wv = Var(make(np.arange(10.0).reshape(5, 2), device))
    out = nr.embedding(make(np.array([[1, 3], [3, 4]]), device), wv, padding_idx=-2)
    assert_close(out.tensor, np.arange(10.0).reshape(5, 2)[[[1, 3], [3, 4]]])
    g = backward(out.sum())[wv]
    assert_close(g, np.array([[0, 0], [1, 1], [0, 0], [0, 0], [1, 1.0]]))


def test_inplace_forms_reject_vars(device):
    _f64(device)
    xv = Var(make(np.zeros((2, 2)), device))
    with pytest.raises(nr.UnsupportedOperation):
        nr.masked_fill_(xv, make(np.ones((2, 2), bool), device), 1.0)
