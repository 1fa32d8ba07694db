"""The shape family beyond cat/stack against NumPy: split, chunk, unbind, repeat, tile,
repeat_interleave, pad (every mode), roll, meshgrid, one_hot, movedim/moveaxis and
swapaxes/swapdims. Every dtype on every input view (empty, 0-d, size-1, transposed,
stepped, offset, flipped, broadcast), torch's edge semantics, errors, and gradients in
reverse mode (central differences) and forward mode (jvp)."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_close
from elementwise_cases import ALL, VIEWS, make, seed, values

import numr as nr
from numr.autograd import Var, backward, gradcheck, jvp
from numr.ops.generic.shape_pad import pad_any

NP_MODE = {"constant": "constant", "reflect": "reflect", "replicate": "edge", "circular": "wrap"}


def exact(got, expected, dtype):
    assert_close(got, expected, dtype=dtype, rtol=0, atol=0)


def np_pad(a, pad, mode, value=0):
    """torch's pad spec (pairs from the last dim backwards, negative crops) through np.pad."""
    widths = [(0, 0)] * a.ndim
    for k in range(len(pad) // 2):
        widths[a.ndim - 1 - k] = (pad[2 * k], pad[2 * k + 1])
    crop = tuple(slice(max(-lo, 0), a.shape[i] - max(-hi, 0)) for i, (lo, hi) in enumerate(widths))
    pos = [(max(lo, 0), max(hi, 0)) for lo, hi in widths]
    kw = {"constant_values": value} if mode == "constant" else {}
    return np.pad(a[crop], pos, NP_MODE[mode], **kw)


def np_split(a, sizes, dim):
    return np.split(a, np.cumsum(sizes)[:-1], axis=dim)


@pytest.mark.parametrize("dtype", ALL)
def test_every_op_on_every_view(device, dtype):
    """Each op on every input view of the VIEWS table in this dtype, NaN/inf and extremes included."""
    d = nr.dtype(dtype)
    for name, shape, fn in VIEWS:
        base = values(d, int(np.prod(shape)), np.random.default_rng(seed("shape-ops", dtype, name))).reshape(shape)
        a, x = fn(base), fn(make(base, device, dtype))
        nd = a.ndim
        exact(nr.roll(x, 2), np.roll(a, 2), dtype)
        exact(x.repeat(*(2,) * (nd + 1)), np.tile(a, (2,) * (nd + 1)), dtype)
        exact(nr.tile(x, (2,)), np.tile(a, 2), dtype)
        exact(nr.repeat_interleave(x, 2), np.repeat(a, 2), dtype)
        if nd == 0:
            continue
        exact(nr.roll(x, (-1, 7), (0, -1)), np.roll(a, (-1, 7), (0, -1)), dtype)
        exact(nr.repeat_interleave(x, 3, dim=-1), np.repeat(a, 3, -1), dtype)
        exact(nr.pad(x, (1, 2), value=1), np_pad(a, (1, 2), "constant", 1), dtype)
        exact(nr.pad(x, (0, 1, -1, 2)[: 2 * min(nd, 2)]), np_pad(a, (0, 1, -1, 2)[: 2 * min(nd, 2)], "constant"),
              dtype)
        if a.shape[-1]:
            for mode in ("replicate", "circular"):
                exact(nr.pad(x, (1, 1), mode), np_pad(a, (1, 1), mode), dtype)
        if a.shape[-1] > 2:
            exact(nr.pad(x, (2, 1), "reflect"), np_pad(a, (2, 1), "reflect"), dtype)
        pieces = nr.split(x, 2, 0)
        sizes = [2] * (a.shape[0] // 2) + ([a.shape[0] % 2] if a.shape[0] % 2 else []) or [0]
        assert len(pieces) == len(sizes)
        for p, e in zip(pieces, np_split(a, sizes, 0), strict=True):
            exact(p, e, dtype)
        for p, e in zip(nr.unbind(x, -1), [a[..., i] for i in range(a.shape[-1])], strict=True):
            exact(p, e, dtype)
        exact(nr.movedim(x, 0, -1), np.moveaxis(a, 0, -1), dtype)
        exact(nr.swapaxes(x, 0, -1), np.swapaxes(a, 0, -1), dtype)


def test_split_chunk_unbind(device):
    a = np.arange(60.0).reshape(5, 12)
    x = make(a, device, "float32")
    cases = [((x, 2), np_split(a, [2, 2, 1], 0)), ((x, 5, 1), np_split(a, [5, 5, 2], 1)),
             ((x, [1, 0, 4]), np_split(a, [1, 0, 4], 0)), ((x, (12,), -1), [a]), ((x, 7), [a])]
    for args, expected in cases:
        got = nr.split(*args)
        assert isinstance(got, tuple) and len(got) == len(expected)
        for p, e in zip(got, expected, strict=True):
            exact(p, e, "float32")
            assert p._storage is x._storage  # views, not copies
    # torch.chunk's sizes: ceil(n / chunks), so fewer pieces than asked for can come back
    for n, chunks, sizes in ((12, 5, [3, 3, 3, 3]), (12, 3, [4, 4, 4]), (5, 4, [2, 2, 1]), (5, 9, [1] * 5)):
        b = np.arange(float(n))
        got = make(b, device, "float32").chunk(chunks)
        assert [p.shape[0] for p in got] == sizes
        for p, e in zip(got, np_split(b, sizes, 0), strict=True):
            exact(p, e, "float32")
    e = make(np.zeros((0, 3)), device, "float32")
    assert [p.shape for p in nr.chunk(e, 3)] == [(0, 3)] * 3  # torch: chunks empty pieces
    assert [p.shape for p in nr.split(e, 2)] == [(0, 3)]
    assert nr.unbind(e) == ()
    u = nr.unbind(x.T, 1)
    assert len(u) == 5 and u[3]._storage is x._storage
    exact(u[3], a[3], "float32")
    exact(x[::-1].split([3, 2])[1], a[::-1][3:], "float32")  # the method form on a flipped view


def test_split_family_errors(device):
    x = make(np.zeros((4, 6)), device, "float32")
    for bad in (0, -1):
        with pytest.raises(nr.ShapeError, match="split"):
            nr.split(x, bad)
    with pytest.raises(nr.ShapeError, match="sum to"):
        nr.split(x, [1, 2])
    with pytest.raises(nr.ShapeError, match="sum to"):
        nr.split(x, [5, -1])
    with pytest.raises(nr.DTypeError, match="split"):
        nr.split(x, 1.5)
    with pytest.raises(nr.IndexOutOfRange, match="split"):
        nr.split(x, 1, 2)
    with pytest.raises(nr.ShapeError, match="0-d"):
        nr.split(x.sum(), 1)
    with pytest.raises(nr.ShapeError, match="chunk"):
        nr.chunk(x, 0)
    with pytest.raises(nr.IndexOutOfRange, match="unbind"):
        nr.unbind(x, -3)
    with pytest.raises(nr.ShapeError, match="unbind"):
        nr.unbind(x.sum())


def test_repeat_and_tile(device):
    a = np.arange(6, dtype=np.int32).reshape(2, 3)
    x = make(a, device, "int32")
    exact(x.repeat(2, 3), np.tile(a, (2, 3)), "int32")
    exact(nr.repeat(x, (3, 1, 2)), np.tile(a, (3, 1, 2)), "int32")  # a new leading dim, sizes as a tuple
    exact(x.repeat(2, 0), np.zeros((4, 0), np.int32), "int32")
    exact(nr.tile(x, 2), np.tile(a, 2), "int32")
    exact(nr.tile(x, (2, 1, 1)), np.tile(a, (2, 1, 1)), "int32")
    exact(nr.tile(x.T, ()), a.T, "int32")
    r = x.repeat(1, 1)  # a fresh tensor even when nothing repeats
    r.fill_(7)
    exact(x, a, "int32")
    exact(nr.repeat(x[:, :1], 1, 4), np.tile(a[:, :1], (1, 4)), "int32")
    with pytest.raises(nr.ShapeError, match="repeat"):
        x.repeat(2)
    with pytest.raises(nr.ShapeError, match="repeat"):
        x.repeat(2, -1)
    with pytest.raises(nr.ShapeError, match="tile"):
        nr.tile(x, (-2,))


@pytest.mark.parametrize("dtype", ["float32", "int64", "bool"])
def test_repeat_interleave(device, dtype):
    rng = np.random.default_rng(seed("ri", dtype))
    d = nr.dtype(dtype)
    a = values(d, 12, rng, edge=False).reshape(3, 4)
    x = make(a, device, dtype)
    for dim in (0, 1, -1):
        exact(nr.repeat_interleave(x, 2, dim), np.repeat(a, 2, dim), dtype)
        exact(nr.repeat_interleave(x, 0, dim), np.repeat(a, 0, dim), dtype)
        counts = rng.integers(0, 4, a.shape[dim])
        counts[0] = 0
        got = x.repeat_interleave(make(counts, device, "int64"), dim)
        exact(got, np.repeat(a, counts, dim), dtype)
        exact(nr.repeat_interleave(x, counts.tolist(), dim), np.repeat(a, counts, dim), dtype)
    exact(nr.repeat_interleave(x.T[::-1], make(np.array([1, 0, 2, 3], np.int32), device, "int32"), 0),
          np.repeat(a.T[::-1], [1, 0, 2, 3], 0), dtype)
    exact(nr.repeat_interleave(x, make(np.array([2]), device, "int64"), 1), np.repeat(a, 2, 1), dtype)
    flat = rng.integers(0, 3, 12)
    exact(nr.repeat_interleave(x, make(flat, device, "int64")), np.repeat(a, flat), dtype)  # dim None
    exact(nr.repeat_interleave(x, make(np.zeros(3, np.int64), device, "int64"), 0), a[:0], dtype)
    with pytest.raises(nr.ShapeError, match=">= 0"):
        nr.repeat_interleave(x, -1)
    with pytest.raises(nr.ShapeError, match=">= 0"):
        nr.repeat_interleave(x, make(np.array([1, -1, 2]), device, "int64"), 0)
    with pytest.raises(nr.ShapeError, match="size 3"):
        nr.repeat_interleave(x, make(np.array([1, 2]), device, "int64"), 0)
    with pytest.raises(nr.ShapeError, match="repeat_interleave"):
        nr.repeat_interleave(x, make(np.ones((3, 1), np.int64), device, "int64"), 0)
    with pytest.raises(nr.DTypeError, match="integer"):
        nr.repeat_interleave(x, make(np.ones(3), device, "float32"), 0)
    with pytest.raises(nr.IndexOutOfRange, match="repeat_interleave"):
        nr.repeat_interleave(x, 2, 2)


@pytest.mark.parametrize("mode", ["constant", "reflect", "replicate", "circular"])
def test_pad_modes(device, mode):
    rng = np.random.default_rng(seed("pad", mode))
    a = rng.standard_normal((2, 4, 5))
    x = make(a, device, "float64")
    specs = [(1, 2), (2, 0, 0, 3), (1, 1, 3, 2, 1, 0), (0, 0), (3, 3, 1, 1)]
    specs += [(-1, 2), (-2, -2, 1, -2), (2, -2, 0, 0, -1, 1)]  # negative pads crop, in every mode
    if mode == "constant":
        specs += [(0, -4), (-1, -3, 1, 1)]
    for spec in specs:
        expected = np_pad(a, spec, mode, 2.5)
        for view, ref in ((x, a), (x.flip(1)[:, 1:], a[:, ::-1][:, 1:]), (x.permute(0, 2, 1), a.transpose(0, 2, 1))):
            size = [ref.shape[-1 - k] + min(spec[2 * k], 0) + min(spec[2 * k + 1], 0) for k in range(len(spec) // 2)]
            if mode == "reflect" and any(max(spec[2 * k:2 * k + 2]) >= n for k, n in enumerate(size)):
                continue  # reflect pads must be smaller than the (cropped) dim
            exp = np_pad(ref, spec, mode, 2.5) if view is not x else expected
            got = nr.pad(view, spec, mode, 2.5)
            exact(got, exp, "float64")
            exact(pad_any(view, spec, mode, 2.5), exp, "float64")  # the autograd composite agrees
    got = nr.pad(x, (1, 1), mode)
    got.fill_(0.0)
    exact(x, a, "float64")  # a fresh tensor


def test_pad_dtypes_and_edges(device):
    i = make(np.arange(6, dtype=np.int16).reshape(2, 3), device, "int16")
    exact(nr.pad(i, (1, 1, 1, 0), value=-7), np.pad(i.numpy(), ((1, 0), (1, 1)), constant_values=-7), "int16")
    b = make(np.array([True, False]), device, "bool")
    exact(nr.pad(b, (2, 1), value=True), np.array([True, True, True, False, True]), "bool")
    exact(nr.pad(b, (1, 1), "reflect"), np.array([False, True, False, True]), "bool")
    e = make(np.zeros((0, 3)), device, "float32")
    exact(nr.pad(e, (1, 1, 2, 0), value=4.0), np.full((2, 5), 4.0), "float32")
    exact(nr.pad(e, (1, 1), "circular"), np.zeros((0, 5)), "float32")
    s = make(np.array(3.0), device, "float32")
    exact(nr.pad(s, ()), np.array(3.0), "float32")
    exact(nr.pad(make(np.array([5.0]), device, "float32"), (2, 3), "replicate"), np.full(6, 5.0), "float32")
    exact(nr.pad(make(np.array([1.0, 2.0]), device, "float32"), (2, 2), "circular"), np.array([1.0, 2, 1, 2, 1, 2]),
          "float32")


def test_pad_errors(device):
    x = make(np.zeros((3, 4)), device, "float32")
    for spec, mode, match in [((1,), "constant", "even length"), ((1, 1) * 3, "constant", "even length"),
                              ((4, 0), "reflect", "smaller than"), ((0, 4), "reflect", "smaller than"),
                              ((0, 0, 3, 0), "reflect", "smaller than"), ((5, 0), "circular", "more than once"),
                              ((-1, 3), "reflect", "smaller than"), ((-3, -2), "constant", "crops more"),
                              ((-5, 3), "constant", "crops more")]:
        with pytest.raises(nr.ShapeError, match=match):
            nr.pad(x, spec, mode)
    with pytest.raises(nr.ShapeError, match="empty dim"):
        nr.pad(make(np.zeros((2, 0)), device, "float32"), (1, 0), "replicate")
    with pytest.raises(ValueError, match="mode"):
        nr.pad(x, (1, 1), "wrap")
    with pytest.raises(nr.ShapeError, match="sequence"):
        nr.pad(x, 1)


def test_roll(device):
    a = np.arange(24, dtype=np.int64).reshape(2, 3, 4)
    x = make(a, device, "int64")
    for shifts, dims in ((1, None), (-5, None), (25, None), (1, 0), (-1, -1), (7, 2), ((1, -2), (0, 2)),
                         ((2, 2), (1, 1)), ([3], [1]), (0, 1)):
        exact(nr.roll(x, shifts, dims), np.roll(a, shifts, dims), "int64")
        exact(nr.roll(x.T[::-1], shifts, dims), np.roll(a.T[::-1], shifts, dims), "int64")
    r = nr.roll(x, 0, 0)
    r.fill_(0)
    exact(x, a, "int64")  # a fresh tensor even for a zero shift
    exact(nr.roll(make(np.zeros((0, 3)), device, "int64"), 2, 0), np.zeros((0, 3)), "int64")
    with pytest.raises(nr.ShapeError, match="differ in length"):
        nr.roll(x, (1, 2), 0)
    with pytest.raises(nr.ShapeError, match="dims None"):
        nr.roll(x, (1, 2))
    with pytest.raises(nr.IndexOutOfRange, match="roll"):
        nr.roll(x, 1, 3)
    with pytest.raises(nr.ShapeError, match="0-d"):
        nr.roll(x.sum(), 1, 0)


def test_meshgrid(device):
    a, b, c = np.arange(3.0), np.array([5.0, -1.0]), np.array([2.5, 0.5, 7.0, 1.0])
    ta, tb, tc = (make(v, device, "float32") for v in (a, b, c))
    for indexing in ("ij", "xy"):
        got = nr.meshgrid(ta, tb, tc, indexing=indexing)
        for g, e in zip(got, np.meshgrid(a, b, c, indexing=indexing), strict=True):
            exact(g, e, "float32")
            assert 0 in g.strides  # broadcast views
        got = nr.meshgrid([ta, tb], indexing=indexing)  # a list as the one argument
        for g, e in zip(got, np.meshgrid(a, b, indexing=indexing), strict=True):
            exact(g, e, "float32")
    (single,) = nr.meshgrid(tc.flip(0))
    exact(single, c[::-1], "float32")
    s = make(np.array(4.0), device, "float32")
    g0, g1 = nr.meshgrid(s, ta)
    exact(g0, np.full((1, 3), 4.0), "float32")
    exact(g1, a[None], "float32")
    with pytest.raises(nr.ShapeError, match="0-d or 1-d"):
        nr.meshgrid(ta, make(np.zeros((2, 2)), device, "float32"))
    with pytest.raises(nr.DTypeError, match="same dtype"):
        nr.meshgrid(ta, make(np.zeros(2), device, "int32"))
    with pytest.raises(ValueError, match="indexing"):
        nr.meshgrid(ta, tb, indexing="ji")
    with pytest.raises(nr.ShapeError, match="at least one"):
        nr.meshgrid()


@pytest.mark.parametrize("dtype", ["int8", "int32", "int64", "uint8", "uint64"])
def test_one_hot(device, dtype):
    idx = np.array([[0, 3], [2, 2], [1, 0]]).astype(dtype)
    t = make(idx, device, dtype)
    exact(nr.one_hot(t), np.eye(4, dtype=np.int64)[idx], "int64")
    exact(t.one_hot(6), np.eye(6, dtype=np.int64)[idx], "int64")
    exact(nr.one_hot(t.T[::-1], 5), np.eye(5, dtype=np.int64)[idx.T[::-1]], "int64")
    exact(nr.one_hot(t[0, 1], 4), np.eye(4, dtype=np.int64)[3], "int64")  # 0-d index
    exact(nr.one_hot(t[:0], 3), np.zeros((0, 2, 3)), "int64")
    with pytest.raises(nr.IndexOutOfRange, match="one_hot"):
        nr.one_hot(t, 3)
    if dtype[0] == "i":
        with pytest.raises(nr.IndexOutOfRange, match="-1"):
            nr.one_hot(make(np.array([0, -1], dtype), device, dtype), 3)


def test_one_hot_errors(device):
    with pytest.raises(nr.ShapeError, match="empty"):
        nr.one_hot(make(np.zeros(0, np.int64), device, "int64"))
    with pytest.raises(nr.DTypeError, match="integer"):
        nr.one_hot(make(np.zeros(2), device, "float32"), 2)
    with pytest.raises(nr.DTypeError, match="integer"):
        nr.one_hot(make(np.zeros(2, bool), device, "bool"), 2)


def test_movedim_and_swapaxes(device):
    a = np.arange(120.0).reshape(2, 3, 4, 5)
    x = make(a, device, "float32")
    for src, dst in ((0, 3), (-1, 0), ((0, 1), (-1, -2)), ([3, 0, 2], [0, 1, 3]), ((), ())):
        exact(nr.movedim(x, src, dst), np.moveaxis(a, src, dst), "float32")
        exact(x.moveaxis(src, dst), np.moveaxis(a, src, dst), "float32")
    exact(nr.swapaxes(x, 1, -1), np.swapaxes(a, 1, -1), "float32")
    exact(x.swapdims(0, 2), np.swapaxes(a, 0, 2), "float32")
    exact(nr.swapdims(x, dim0=0, dim1=2), np.swapaxes(a, 0, 2), "float32")  # torch's keyword names
    exact(nr.swapaxes(x, axis0=1, axis1=3), np.swapaxes(a, 1, 3), "float32")  # NumPy's
    assert nr.movedim(x, 0, 1)._storage is x._storage
    with pytest.raises(nr.ShapeError, match="length"):
        nr.movedim(x, (0, 1), 2)
    with pytest.raises(nr.ShapeError, match="repeated"):
        nr.movedim(x, (0, 0), (1, 2))
    with pytest.raises(nr.IndexOutOfRange, match="movedim"):
        nr.movedim(x, 4, 0)
    with pytest.raises(IndexError):
        nr.swapaxes(x, 0, 4)


def _f64(device):
    t = make(np.zeros(1), device, "float64")
    if t.dtype != nr.float64:
        pytest.skip(f"{device} has no float64")


# (name, f(x), the same linear map on a tangent) on a (3, 4) input
GRAD_CASES = [
    ("split", lambda v: nr.split(v, [1, 3], 1)[1], None),
    ("chunk", lambda v: v.chunk(2)[1], None),
    ("unbind", lambda v: nr.unbind(v, -1)[2], None),
    ("repeat", lambda v: v.repeat(2, 1, 3), None),
    ("tile", lambda v: nr.tile(v[::-1], (2, 1)), None),
    ("repeat_interleave", lambda v: nr.repeat_interleave(v, 2, 1), None),
    ("repeat_interleave_counts", lambda v: nr.repeat_interleave(v.T, nr.tensor([2, 0, 3, 1], device=v.device), 0),
     None),
    ("pad_constant", lambda v: nr.pad(v, (1, -1, 2, 0), value=3.0), lambda t: nr.pad(t, (1, -1, 2, 0))),
    ("pad_reflect", lambda v: nr.pad(v, (3, 1, 2, 2), "reflect"), None),
    ("pad_replicate", lambda v: nr.pad(v.T, (2, 1, 1, 3), "replicate"), None),
    ("pad_circular", lambda v: nr.pad(v, (4, 2, 3, 1), "circular"), None),
    ("roll", lambda v: nr.roll(v, (1, -3), (0, 1)), None),
    ("roll_flat", lambda v: nr.roll(v, 5), None),
    ("meshgrid", lambda v: nr.meshgrid(v[0], v[:2, 1], indexing="xy")[0], None),
    ("movedim", lambda v: nr.movedim(v[None], 0, -1), None),
    ("swapaxes", lambda v: v.swapaxes(0, 1), None),
]


@pytest.mark.parametrize("name,f,lin", GRAD_CASES, ids=[c[0] for c in GRAD_CASES])
def test_gradients(device, name, f, lin):
    """Reverse mode against central differences (gradcheck) with a weighted square, so repeated
    and padded elements must add up; forward mode: these are linear maps, so the tangent is the
    op applied to the tangent (the constant pad's value dropped)."""
    _f64(device)
    rng = np.random.default_rng(seed("grad", name))
    a = make(rng.standard_normal((3, 4)), device, "float64")
    w = make(rng.standard_normal(f(a).shape), device, "float64")
    assert gradcheck(lambda v: (f(v) * w) ** 2.0, (a,), atol=1e-6, rtol=1e-5)
    xv = Var(a)
    g = backward((f(xv) * w).sum())[xv]
    assert g.shape == a.shape and g.dtype == nr.float64
    t = make(rng.standard_normal((3, 4)), device, "float64")
    out, tan = jvp(f, (a,), (t,))
    exact(out, f(a).numpy(), "float64")
    exact(tan, (lin or f)(t).numpy(), "float64")


def test_gradients_of_all_pieces(device):
    """Every piece of split/chunk/unbind/meshgrid used at once: the gradient adds them back."""
    _f64(device)
    rng = np.random.default_rng(seed("pieces"))
    base = rng.standard_normal((4, 6))
    xv = Var(make(base, device, "float64"))
    w = [float(k + 1) for k in range(16)]
    parts = (*nr.split(xv, 4, 1), *xv.chunk(3, 0), *nr.unbind(xv, 0), *nr.meshgrid(xv[0], xv[1]))
    loss = sum(((p * c) ** 2.0).sum() for p, c in zip(parts, w, strict=False))
    expected = np.zeros_like(base)
    cuts = np.split(np.arange(24).reshape(4, 6), [4], 1) + np.split(np.arange(24).reshape(4, 6), [2], 0)
    cuts += list(np.arange(24).reshape(4, 6))
    for k, c in enumerate(cuts):
        np.add.at(expected.reshape(-1), c.reshape(-1), 2 * w[k] ** 2 * base.reshape(-1)[c.reshape(-1)])
    k = len(cuts)
    expected[0] += 2 * w[k] ** 2 * base[0] * 6  # meshgrid broadcasts row 0 over 6 columns ...
    expected[1] += 2 * w[k + 1] ** 2 * base[1] * 6  # ... and row 1 over 6 rows
    assert_close(backward(loss)[xv], expected, rtol=1e-12, atol=1e-12)


def test_one_hot_in_autograd(device):
    """one_hot takes no gradient: with a Var around it comes back a plain int64 tensor."""
    idx = make(np.array([1, 0, 2]), device, "int64")
    z = Var(make(np.eye(3), device, "float32"))
    loss = (z * nr.cast(nr.one_hot(idx, 3), nr.float32)).sum()
    exact(backward(loss)[z], np.eye(3)[[1, 0, 2]], "float32")
    _, tan = jvp(lambda v: v * nr.cast(nr.one_hot(idx, 3), nr.float32), (z.tensor,), (z.tensor,))
    exact(tan, np.eye(3) * np.eye(3)[[1, 0, 2]], "float32")


def test_keyword_arguments_with_vars(device):
    """Arguments by keyword reach the composites on Vars too (the dispatcher binds them)."""
    a = np.arange(6.0).reshape(2, 3)
    xv = Var(make(a, device, "float32"))
    y = nr.pad(xv, pad=(1, 1), mode="reflect")
    assert isinstance(y, Var)
    exact(y.tensor, np.pad(a, ((0, 0), (1, 1)), "reflect"), "float32")
    g = backward(nr.repeat_interleave(xv, repeats=[1, 2], dim=0).sum())[xv]
    exact(g, np.array([[1.0] * 3, [2.0] * 3]), "float32")
    pieces = nr.split(xv, split_size_or_sections=[1, 2], dim=1)
    assert [p.shape for p in pieces] == [(2, 1), (2, 2)] and all(isinstance(p, Var) for p in pieces)
    exact(nr.roll(xv, shifts=1, dims=0).tensor, np.roll(a, 1, 0), "float32")
    exact(nr.movedim(xv, source=0, destination=1).tensor, a.T, "float32")
