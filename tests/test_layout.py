"""Layout view arithmetic against NumPy's strided views (Hypothesis).

A Layout addresses element offsets into a storage. The oracle: a NumPy view
of ``np.arange(n)`` holds, at each position, the storage offset it addresses.
So every view op on a Layout must address exactly the values of the same op
on the NumPy view.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from numr.errors import IndexOutOfRange, ShapeError
from numr.layout import Layout, coalesce, coalesce_in_order, contiguous_strides, result_strides
from numr.shapes import broadcast_shapes, infer_reshape, normalize_dim, normalize_dims, normalize_shape, numel

settings.register_profile("numr", max_examples=150, deadline=None)
settings.load_profile("numr")


def offsets(lay: Layout) -> np.ndarray:
    """The storage offset of every element a layout addresses, with its shape."""
    out = np.full(lay.shape, lay.offset, dtype=np.int64)
    for d, (n, s) in enumerate(zip(lay.shape, lay.strides, strict=False)):
        idx = np.arange(n, dtype=np.int64).reshape((n,) + (1,) * (lay.ndim - d - 1))
        out = out + idx * s
    return out


def from_np(view: np.ndarray, base: np.ndarray) -> Layout:
    """The Layout of a NumPy view of ``base`` (itemsize 8)."""
    off = (view.__array_interface__["data"][0] - base.__array_interface__["data"][0]) // 8
    return Layout(view.shape, tuple(s // 8 for s in view.strides), off)


def check(lay: Layout, expected: np.ndarray) -> None:
    assert lay.shape == expected.shape
    assert len(lay.strides) == len(lay.shape)
    np.testing.assert_array_equal(offsets(lay), expected)


# ---- strategies: a random strided view of arange storage --------------------------------
shapes = st.lists(st.integers(0, 5), min_size=0, max_size=4).map(tuple)
nonempty_shapes = st.lists(st.integers(1, 5), min_size=0, max_size=4).map(tuple)


@st.composite
def strided(draw, shape_st=shapes):
    """(numpy view of arange storage, base): random slices with any step, transposes, flips."""
    shape = draw(shape_st)
    steps = [draw(st.sampled_from([1, 1, 2, -1, -2])) for _ in shape]
    extras = [draw(st.integers(0, 2)) for _ in shape]
    big = tuple(s * abs(k) + e for s, k, e in zip(shape, steps, extras, strict=False))
    pad = draw(st.integers(0, 3))
    base = np.arange(numel(big) + pad + 2, dtype=np.int64)
    a = base[pad:pad + numel(big)].reshape(big)
    for d, (s, k, e) in enumerate(zip(shape, steps, extras, strict=False)):
        if k < 0:
            a = np.flip(a, d)
        start = draw(st.integers(0, e))
        a = a[(slice(None),) * d + (slice(start, start + s * abs(k), abs(k)),)]
    v = a
    assert v.shape == shape, (v.shape, shape)
    if v.ndim > 1 and draw(st.booleans()):
        v = v.transpose(draw(st.permutations(range(v.ndim))))
    return v, base


def lay_of(vb):
    v, base = vb
    return from_np(v, base)


@given(strided())
def test_from_np_roundtrip(vb):
    v, _ = vb
    check(lay_of(vb), v)


# ---- reshape ---------------------------------------------------------------------------------
def factorizations(n: int, draw) -> tuple[int, ...]:
    dims = []
    rest = n
    for _ in range(draw(st.integers(0, 4))):
        divs = [d for d in range(1, rest + 1) if rest % d == 0]
        d = draw(st.sampled_from(divs))
        dims.append(d)
        rest //= d
    dims.append(rest)
    if draw(st.booleans()):
        dims.insert(draw(st.integers(0, len(dims))), 1)
    return tuple(dims)


@given(strided(nonempty_shapes), st.data())
def test_reshape_matches_numpy(vb, data):
    v, _ = vb
    lay = lay_of(vb)
    new = factorizations(v.size, data.draw)
    got = lay.reshape(new)
    try:
        np_view = np.reshape(v, new, copy=False)
    except ValueError:
        np_view = None
    if np_view is not None:
        assert got is not None, f"numpy has a view for {v.shape}{v.strides} -> {new}, Layout.reshape gave None"
    if got is not None:
        check(got, v.reshape(new))  # a view must address exactly the elements NumPy's reshape holds
    else:
        assert np_view is None


@given(strided(), st.data())
def test_reshape_keeps_offset_when_contiguous(vb, data):
    v, base = vb
    lay = lay_of(vb)
    if lay.is_contiguous() and v.size:
        new = factorizations(v.size, data.draw)
        got = lay.reshape(new)
        assert got is not None and got.offset == lay.offset
        check(got, v.reshape(new))


def test_reshape_no_view_cases():
    base = np.arange(24)
    a = base.reshape(4, 6)
    assert from_np(a.T, base).reshape((24,)) is None
    assert from_np(a[:, ::2], base).reshape((12,)) is not None  # strides (6, 2): one stride-2 run
    assert from_np(a[:, :3], base).reshape((12,)) is None
    assert from_np(a[:, :3], base).reshape((2, 2, 3)) is not None
    assert from_np(a[::2], base).reshape((12,)) is None
    assert from_np(a[::2, :2], base).reshape((4,)) is None
    check(from_np(a[1:], base).reshape((18,)), a[1:].reshape(18))
    b = base.reshape(2, 3, 4).transpose(0, 2, 1)  # strides (12, 1, 4)
    assert from_np(b, base).reshape((8, 3)) is None
    check(from_np(b, base).reshape((2, 12)), b.reshape(2, 12)) if from_np(b, base).reshape((2, 12)) else None
    assert from_np(b, base).reshape((2, 4, 3, 1)) is not None


def test_is_contiguous():
    assert Layout((2, 3)).is_contiguous()
    assert Layout((2, 3), (3, 1), 7).is_contiguous()
    assert not Layout((2, 3), (1, 2)).is_contiguous()
    assert Layout((2, 1, 3), (3, 99, 1)).is_contiguous()  # size-1 strides do not matter
    assert Layout((0, 3), (5, 7)).is_contiguous()  # empty
    assert not Layout((3,), (0,)).is_contiguous()
    assert Layout(()).is_contiguous()
    assert contiguous_strides((2, 0, 3)) == (3, 3, 1)


@given(strided())
def test_is_contiguous_matches_numpy(vb):
    v, _ = vb
    assert lay_of(vb).is_contiguous() == (v.flags.c_contiguous or v.size == 0)


@given(strided())
def test_extent(vb):
    v, _ = vb
    lay = lay_of(vb)
    lo, hi = lay.extent()
    if v.size:
        assert lo == v.min() and hi == v.max() + 1
    else:
        assert lo == hi


# ---- permute / transpose / select / slice / narrow ----------------------------------------------
@given(strided(), st.data())
def test_permute(vb, data):
    v, _ = vb
    perm = data.draw(st.permutations(range(v.ndim)))
    check(lay_of(vb).permute(perm), v.transpose(perm))
    neg = [p - v.ndim for p in perm]
    check(lay_of(vb).permute(neg), v.transpose(perm))


@given(strided(), st.data())
def test_transpose(vb, data):
    v, _ = vb
    assume(v.ndim >= 1)
    d0 = data.draw(st.integers(-v.ndim, v.ndim - 1))
    d1 = data.draw(st.integers(-v.ndim, v.ndim - 1))
    check(lay_of(vb).transpose(d0, d1), np.swapaxes(v, d0, d1))


def test_permute_errors():
    lay = Layout((2, 3, 4))
    with pytest.raises(ShapeError):
        lay.permute((0, 1))
    with pytest.raises(ShapeError):
        lay.permute((0, 0, 1))
    with pytest.raises(IndexOutOfRange):
        lay.permute((0, 1, 3))
    with pytest.raises(IndexOutOfRange):
        lay.transpose(0, 3)


@given(strided(), st.data())
def test_slice_any_step(vb, data):
    v, _ = vb
    assume(v.ndim >= 1)
    d = data.draw(st.integers(0, v.ndim - 1))
    n = v.shape[d]
    start = data.draw(st.none() | st.integers(-n - 2, n + 2))
    stop = data.draw(st.none() | st.integers(-n - 2, n + 2))
    step = data.draw(st.sampled_from([1, 2, 3, -1, -2, -3, None]))
    s = slice(start, stop, step)
    idx = (slice(None),) * d + (s,)
    check(lay_of(vb).slice(d, *s.indices(n)), v[idx])


@given(strided(nonempty_shapes), st.data())
def test_select(vb, data):
    v, _ = vb
    assume(v.ndim >= 1)
    d = data.draw(st.integers(0, v.ndim - 1))
    i = data.draw(st.integers(-v.shape[d], v.shape[d] - 1))
    check(lay_of(vb).select(d, i), v[(slice(None),) * d + (i,)])
    with pytest.raises(IndexOutOfRange):
        lay_of(vb).select(d, v.shape[d])
    with pytest.raises(IndexOutOfRange):
        lay_of(vb).select(d, -v.shape[d] - 1)


@given(strided(), st.data())
def test_narrow(vb, data):
    v, _ = vb
    assume(v.ndim >= 1)
    d = data.draw(st.integers(-v.ndim, v.ndim - 1))
    n = v.shape[d]
    start = data.draw(st.integers(0, n))
    length = data.draw(st.integers(0, n - start))
    idx = (slice(None),) * (d % v.ndim) + (slice(start, start + length),)
    check(lay_of(vb).narrow(d, start, length), v[idx])
    if n:
        neg = data.draw(st.integers(-n, -1))
        check(lay_of(vb).narrow(d, neg, 1), v[(slice(None),) * (d % v.ndim) + (slice(n + neg, n + neg + 1),)])
    with pytest.raises(IndexOutOfRange):
        lay_of(vb).narrow(d, start, n - start + 1)
    with pytest.raises(IndexOutOfRange):
        lay_of(vb).narrow(d, 0, -1)


# ---- squeeze / unsqueeze / expand / flip ------------------------------------------------------------
@given(strided(st.lists(st.integers(0, 3), max_size=4).map(tuple)), st.data())
def test_squeeze(vb, data):
    v, _ = vb
    check(lay_of(vb).squeeze(), np.squeeze(v))
    ones = [i for i, s in enumerate(v.shape) if s == 1]
    if ones:
        sub = tuple(data.draw(st.lists(st.sampled_from(ones), min_size=1, unique=True)))
        check(lay_of(vb).squeeze(sub), np.squeeze(v, sub))
        check(lay_of(vb).squeeze(sub[0]), np.squeeze(v, sub[0]))
    others = [i for i, s in enumerate(v.shape) if s != 1]
    if others:  # PyTorch semantics: squeezing a dim that is not size 1 leaves it
        check(lay_of(vb).squeeze(others[0]), v)


@given(strided(), st.data())
def test_unsqueeze(vb, data):
    v, _ = vb
    d = data.draw(st.integers(-v.ndim - 1, v.ndim))
    check(lay_of(vb).unsqueeze(d), np.expand_dims(v, d))
    with pytest.raises(IndexOutOfRange):
        lay_of(vb).unsqueeze(v.ndim + 1)


@given(strided(st.lists(st.integers(0, 3), max_size=3).map(tuple)), st.data())
def test_expand(vb, data):
    v, _ = vb
    lead = tuple(data.draw(st.lists(st.integers(0, 3), max_size=2)))
    target = lead + tuple(data.draw(st.integers(0, 3)) if s == 1 else s for s in v.shape)
    check(lay_of(vb).expand(target), np.broadcast_to(v, target))
    keep = lead + tuple(-1 for _ in v.shape)
    check(lay_of(vb).expand(keep), np.broadcast_to(v, lead + v.shape))
    got = lay_of(vb).expand(target)
    for n, s, o in zip(target, got.strides, (1,) * len(lead) + v.shape, strict=True):
        if o == 1 and n != 1:
            assert s == 0


def test_expand_errors():
    with pytest.raises(ShapeError):
        Layout((2, 3)).expand((3, 3))
    with pytest.raises(ShapeError):
        Layout((2, 3)).expand((3,))
    with pytest.raises(ShapeError):
        Layout((3,)).expand((-1, 3))
    with pytest.raises(ShapeError):
        Layout((0,)).expand((1,))


@given(strided(), st.data())
def test_flip(vb, data):
    v, _ = vb
    dims = tuple(data.draw(st.lists(st.integers(0, max(v.ndim - 1, 0)), unique=True))) if v.ndim else ()
    check(lay_of(vb).flip(dims), np.flip(v, dims) if dims else v)
    check(lay_of(vb).flip(None), np.flip(v) if v.ndim else v)
    assert offsets(lay_of(vb).flip(dims).flip(dims)).tolist() == v.tolist()


@given(strided(), st.data())
def test_chained_views(vb, data):
    """A random sequence of views keeps addressing what NumPy addresses."""
    v, base = vb
    lay = lay_of(vb)
    for _ in range(data.draw(st.integers(1, 5))):
        op = data.draw(st.sampled_from(["flip", "permute", "unsqueeze", "slice", "squeeze", "reshape"]))
        if op == "flip" and v.ndim:
            d = data.draw(st.integers(0, v.ndim - 1))
            lay, v = lay.flip(d), np.flip(v, d)
        elif op == "permute":
            p = data.draw(st.permutations(range(v.ndim)))
            lay, v = lay.permute(p), v.transpose(p)
        elif op == "unsqueeze":
            d = data.draw(st.integers(0, v.ndim))
            lay, v = lay.unsqueeze(d), np.expand_dims(v, d)
        elif op == "squeeze":
            lay, v = lay.squeeze(), np.squeeze(v)
        elif op == "slice" and v.ndim:
            d = data.draw(st.integers(0, v.ndim - 1))
            s = slice(data.draw(st.none() | st.integers(-4, 4)), None, data.draw(st.sampled_from([1, 2, -1, -3])))
            lay, v = lay.slice(d, *s.indices(v.shape[d])), v[(slice(None),) * d + (s,)]
        elif op == "reshape" and v.size:
            new = factorizations(v.size, data.draw)
            r = lay.reshape(new)
            if r is not None:
                lay, v = r, v.reshape(new)
        check(lay, v)


# ---- broadcast_shapes / coalesce / helpers ------------------------------------------------------------
@given(st.lists(st.lists(st.integers(0, 3), max_size=4).map(tuple), min_size=1, max_size=4))
def test_broadcast_shapes(shapes_):
    try:
        expected = np.broadcast_shapes(*shapes_)
    except ValueError:
        with pytest.raises(ShapeError) as e:
            broadcast_shapes(*shapes_, op="myop")
        assert "myop" in str(e.value) and str(shapes_[0]) in str(e.value)
        return
    assert broadcast_shapes(*shapes_) == expected


def test_broadcast_shapes_cases():
    assert broadcast_shapes() == ()
    assert broadcast_shapes((), ()) == ()
    assert broadcast_shapes((3,), ()) == (3,)
    assert broadcast_shapes((2, 1), (1, 3)) == (2, 3)
    assert broadcast_shapes((0,), (1,)) == (0,)
    assert broadcast_shapes((5, 1, 4), (3, 1), (4,)) == (5, 3, 4)
    with pytest.raises(ShapeError):
        broadcast_shapes((2,), (3,))
    with pytest.raises(ShapeError):
        broadcast_shapes((0,), (2,))


@given(strided(), st.data())
def test_coalesce_preserves_offsets(vb, data):
    """Coalescing the dims of several operands addresses the same offsets in the same order."""
    v, base = vb
    lay = lay_of(vb)
    other = lay.flip(tuple(i for i in range(lay.ndim) if data.draw(st.booleans())))
    bcast = Layout(lay.shape, tuple(0 if data.draw(st.booleans()) else s for s in contiguous_strides(lay.shape)))
    operands = [lay, other, bcast, Layout(lay.shape)]
    k = data.draw(st.integers(1, len(operands)))
    ops = operands[:k]
    shape, strides = coalesce(lay.shape, *(o.strides for o in ops))
    assert len(strides) == k and all(len(s) == len(shape) for s in strides)
    assert numel(shape) == numel(lay.shape)
    assert 1 not in shape
    for o, s in zip(ops, strides, strict=False):
        np.testing.assert_array_equal(offsets(Layout(shape, s, o.offset)).ravel(), offsets(o).ravel())


def test_coalesce_merges():
    assert coalesce((2, 3, 4), (12, 4, 1)) == ((24,), [(1,)])
    assert coalesce((2, 3, 4), (12, 4, 1), (0, 0, 0)) == ((24,), [(1,), (0,)])
    assert coalesce((2, 3, 4), (12, 4, 1), (0, 1, 0))[0] == (2, 3, 4)
    assert coalesce((1, 1), (5, 7)) == ((), [()])
    assert coalesce((), ()) == ((), [()])
    assert coalesce((3, 1, 4), (4, 99, 1)) == ((12,), [(1,)])


def test_normalize_helpers():
    assert normalize_dim(-1, 3) == 2 and normalize_dim(0, 0) == 0 and normalize_dim(-1, 0) == 0
    with pytest.raises(IndexOutOfRange, match="myop"):
        normalize_dim(3, 3, "myop")
    with pytest.raises(IndexOutOfRange):
        normalize_dim(1, 0)
    with pytest.raises(IndexOutOfRange):
        normalize_dim(1.0, 3)
    assert normalize_dims(None, 3) == (0, 1, 2)
    assert normalize_dims((-1, 0), 3) == (0, 2)
    assert normalize_dims(0, 0) == ()
    with pytest.raises(ShapeError):
        normalize_dims((0, -3), 3)
    assert normalize_shape(3) == (3,) and normalize_shape([2, 0]) == (2, 0) and normalize_shape(()) == ()
    assert normalize_shape(np.int64(4)) == (4,)
    with pytest.raises(ShapeError):
        normalize_shape((2, -1))
    with pytest.raises(ShapeError):
        normalize_shape("ab")


def test_infer_reshape():
    assert infer_reshape((-1,), 6) == (6,)
    assert infer_reshape((2, -1), 6) == (2, 3)
    assert infer_reshape(6, 6) == (6,)
    assert infer_reshape((), 1) == ()
    with pytest.raises(ShapeError):  # -1 is ambiguous next to a 0 (NumPy and PyTorch reject it too)
        infer_reshape((0, -1), 0)
    with pytest.raises(ShapeError):
        infer_reshape((-1, -1), 6)
    with pytest.raises(ShapeError):
        infer_reshape((4, -1), 6)
    with pytest.raises(ShapeError):
        infer_reshape((7,), 6)
    with pytest.raises(ShapeError):
        infer_reshape((-2, -3), 6)
    assert infer_reshape(np.int64(6), 6) == (6,)


def test_result_strides_follow_a_shared_permuted_dense_layout():
    """Element-wise results take the operands' memory order only when it is one dense permuted
    layout shared by every operand without broadcast dims (what NumPy's order="K" gives)."""
    base = np.empty(24, np.int8)  # int8: NumPy's byte strides are element strides
    for shape, operands in [((3, 4), [(1, 3)]), ((3, 4), [(1, 3), (1, 3), (0, 1)]), ((2, 3, 4), [(1, 8, 2)]),
                            ((4, 3, 2), [(1, 4, 12)])]:
        view = np.lib.stride_tricks.as_strided(base, shape, operands[0])
        assert result_strides(shape, operands) == np.empty_like(view, order="K").strides
    assert result_strides((2, 1, 3), [(1, 9, 2)]) == (1, 3, 2)  # a size-1 dim: any stride, still dense
    row = (4, 1)
    assert result_strides((3, 4), [(1, 3), (4, 1)]) == row  # operands disagree
    assert result_strides((3, 4), [(1, 6)]) == row  # gaps: not dense
    assert result_strides((3, 4), [(-1, 3)]) == row  # a reversed dim
    assert result_strides((3, 4), [(0, 1), (4, 0)]) == row  # only broadcasts
    assert result_strides((1, 4), [(7, 1)]) == row  # size-1 dims keep row-major strides
    assert result_strides((0, 4), [(1, 0)]) == row  # empty
    shape, strides = coalesce_in_order((3, 4), (1, 3), (1, 3), (1, 3), (0, 1))
    assert shape == (4, 3) and strides == [(3, 1), (3, 1), (1, 0)]
    assert coalesce_in_order((3, 4), (1, 3), (1, 3), (1, 3)) == ((12,), [(1,), (1,)])
