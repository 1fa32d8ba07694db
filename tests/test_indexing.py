"""__getitem__ / __setitem__ against NumPy: basic indices (views), integer and
bool tensors (gather/scatter), NumPy's placement of advanced-index dims, and
out-of-range errors. Hypothesis draws random basic and mixed indices."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import numr as nr
from numr.errors import IndexOutOfRange, ShapeError

settings.register_profile("numr-indexing", max_examples=60, deadline=None,
                          suppress_health_check=[HealthCheck.function_scoped_fixture])
settings.load_profile("numr-indexing")


def base(shape, dtype=np.float64):
    return (np.arange(int(np.prod(shape))) + 1).astype(dtype).reshape(shape)


def to_nr(idx, device, as_tensor=True):
    """The same index with NumPy arrays turned into numr tensors (lists stay lists)."""
    def conv(i):
        if isinstance(i, np.ndarray):
            return nr.tensor(i, device=device) if as_tensor else i.tolist()
        return i
    return tuple(conv(i) for i in idx) if isinstance(idx, tuple) else conv(idx)


def check_get(x, a, idx, device, as_tensor=True):
    expected = a[idx]
    got = x[to_nr(idx, device, as_tensor)]
    assert got.shape == expected.shape, f"index {idx!r}: shape {got.shape} != NumPy {expected.shape}"
    assert got.dtype == x.dtype
    np.testing.assert_array_equal(got.numpy(), expected)
    return got


# ---- basic indices: views -------------------------------------------------------------------------
BASIC = [
    0, -1, 2, (1, 2), (-2, -1, 0), slice(None), slice(1, None), slice(None, None, 2), slice(None, None, -1),
    slice(-1, 0, -2), slice(5, 1, -1), slice(100, None), slice(-100, 100), slice(2, 2), (slice(None), 1),
    (Ellipsis, 1), (1, Ellipsis), Ellipsis, (), None, (None, 1), (1, None, slice(None, None, -1)),
    (Ellipsis, None), (None, Ellipsis, None), (slice(None), None, slice(1, 3), None), (0, 0, 0),
    (slice(None, None, 3), slice(None, None, -2), slice(None, None, -3)), (Ellipsis, slice(None, None, -1)),
]


@pytest.mark.parametrize("idx", BASIC, ids=[repr(i) for i in BASIC])
def test_basic_views(device, idx):
    a = base((4, 5, 6))
    x = nr.tensor(a, device=device)
    got = check_get(x, a, idx, device)
    assert got._storage is x._storage  # a view, not a copy


def test_basic_on_views_and_0d(device):
    a = base((4, 5, 6))
    x = nr.tensor(a, device=device)
    v, av = x.T[1:, ::-1], a.T[1:, ::-1]
    for idx in [(0,), (slice(None, None, -2), 1), (Ellipsis, 2, None), (-1, -1, -1)]:
        check_get(v, av, idx, device)
    s = nr.tensor(3.0, device=device)
    assert s[()].shape == () and s[...].shape == () and s[None].shape == (1,)
    assert s[None, ..., None].shape == (1, 1)
    e = nr.tensor(np.zeros((0, 3)), device=device)
    check_get(e, np.zeros((0, 3)), (slice(None), 1), device)
    check_get(e, np.zeros((0, 3)), (slice(None, None, -1),), device)


def test_numpy_and_tensor_scalars_as_indices(device):
    a = base((4, 5))
    x = nr.tensor(a, device=device)
    np.testing.assert_array_equal(x[np.int64(2)].numpy(), a[2])
    np.testing.assert_array_equal(x[nr.tensor(3, device=device)].numpy(), a[3])
    np.testing.assert_array_equal(x[1, np.int32(-1)].numpy(), a[1, -1])
    i = nr.tensor(1, device=device)
    np.testing.assert_array_equal(x[i:i + 2].numpy(), a[1:3])


@st.composite
def basic_index(draw, ndim):
    items = []
    dims_left = ndim
    used_ellipsis = False
    for _ in range(draw(st.integers(0, ndim + 2))):
        kind = draw(st.sampled_from(["int", "slice", "slice", "none", "ellipsis"]))
        if kind == "none":
            items.append(None)
        elif kind == "ellipsis" and not used_ellipsis:
            used_ellipsis = True
            items.append(Ellipsis)
        elif dims_left > 0 and kind == "int":
            items.append(draw(st.integers(-3, 2)))
            dims_left -= 1
        elif dims_left > 0:
            items.append(slice(draw(st.none() | st.integers(-6, 6)), draw(st.none() | st.integers(-6, 6)),
                               draw(st.none() | st.sampled_from([1, 2, 3, -1, -2, -3]))))
            dims_left -= 1
    return tuple(items)


@given(st.data())
def test_basic_random(device, data):
    shape = tuple(data.draw(st.lists(st.integers(0, 4), min_size=0, max_size=4)))
    a = base(shape)
    x = nr.tensor(a, device=device)
    if data.draw(st.booleans()) and a.ndim:  # index a strided view, not only a fresh tensor
        x, a = x.flip(0), a[::-1]
    idx = data.draw(basic_index(a.ndim))
    try:
        expected = a[idx]
    except IndexError:
        with pytest.raises(IndexError):
            x[idx]
        return
    got = x[idx]
    assert got.shape == expected.shape and got._storage is x._storage
    np.testing.assert_array_equal(got.numpy(), expected)


# ---- advanced indices: gather ------------------------------------------------------------------------
I = np.array  # noqa: E741
ADVANCED = [
    I([0, 2, 3]), I([-1, 0]), I([[0, 1], [3, 2]]), I([], dtype=np.int64), I([1, 1, 1]),
    (slice(None), I([4, 0])), (Ellipsis, I([0, 5, 1])), (I([0, 1]), I([1, 2])), (I([0, 1]), I([1, 2]), I([3, 4])),
    (I([[0], [1]]), I([1, 2, 3])),  # broadcast index shapes
    (1, I([0, 2])), (I([0, 2]), 1), (slice(1, 3), I([0, 2])), (I([0, 2]), slice(None, None, -1)),
    (slice(None), 0, I([1, 2])),  # int + array adjacent: dims stay in place
    (I([1, 2]), slice(None), 0),  # separated by a slice: dims first
    (slice(None), I([0, 1]), slice(None), ),
    (0, slice(None), I([0, 1])),  # int and array separated: dims first
    (I([0, 1]), None, I([0, 1])),  # None separates
    (slice(None), I([0, 1]), None, I([0, 1])),
    (I([0, 1]), Ellipsis, I([0, 1])),
    (None, I([0, 1]), I([2, 3])),
    (slice(None, None, -1), I([[0, 1]]), I([[2], [3]])),
    (I([True, False, True, True]),),  # bool masks
    (slice(None), I([True, False, True, False, True])),
    (I([[True, False, True, True, False]] * 4),),  # 2-d mask over two dims
    (I([[True, False, True, True, False]] * 4), 0),
    (I([True, False, False, True]), slice(None), I([0, 5])),
    (I([False] * 4),),
    (True,), (False,), (Ellipsis, True), (0, True), (True, 0), (slice(None), None, True), (np.True_, I([0, 1])),
]


@pytest.mark.parametrize("idx", ADVANCED, ids=[f"adv{i}" for i in range(len(ADVANCED))])
def test_advanced_getitem(device, idx):
    a = base((4, 5, 6))
    x = nr.tensor(a, device=device)
    check_get(x, a, idx, device)
    check_get(x, a, idx, device, as_tensor=False)  # Python lists behave as arrays
    check_get(x.permute(1, 0, 2).permute(1, 0, 2), a, idx, device)  # strided input


@pytest.mark.parametrize("dtype", [nr.bool_, nr.int8, nr.uint16, nr.int64, nr.float16, nr.bfloat16, nr.float32,
                                   nr.complex64], ids=lambda d: d.name)
def test_advanced_dtypes(device, dtype):
    dev = nr.device(device)
    if dtype not in dev.runtime.supported_dtypes(dev):
        pytest.skip(f"{device} does not store {dtype}")
    a = base((3, 4)).astype(dtype.np)
    x = nr.tensor(a, device=device)
    check_get(x, a, (I([2, 0]),), device)
    check_get(x, a, (slice(None), I([3, 3, 0])), device)
    check_get(x, a, (a.astype(np.float64) > 5,), device)


def test_index_tensor_dtypes(device):
    a = base((5, 3))
    x = nr.tensor(a, device=device)
    for d in (nr.int8, nr.int16, nr.int32, nr.int64, nr.uint8):
        dev = nr.device(device)
        if d not in dev.runtime.supported_dtypes(dev):
            continue
        i = nr.tensor([4, 0, 2], dtype=d, device=device)
        np.testing.assert_array_equal(x[i].numpy(), a[[4, 0, 2]])
    np.testing.assert_array_equal(x[x > 7.0].numpy(), a[a > 7])
    with pytest.raises(IndexError):
        x[nr.tensor([0.0, 1.0], device=device)]


@st.composite
def mixed_index(draw, shape):
    """Ints, slices, None, one Ellipsis and integer arrays of broadcastable shapes."""
    ishape = tuple(draw(st.lists(st.integers(1, 3), min_size=1, max_size=2)))
    items, d = [], 0
    ell = False
    while d < len(shape) and len(items) < len(shape) + 2:
        kind = draw(st.sampled_from(["int", "slice", "array", "array", "none", "ellipsis", "stop"]))
        if kind == "stop":
            break
        if kind == "none":
            items.append(None)
            continue
        if kind == "ellipsis":
            if not ell:
                ell = True
                items.append(Ellipsis)
                d = len(shape) - sum(1 for i in items if i is not None and i is not Ellipsis)
                d = max(d, d)
            continue
        n = shape[d]
        if kind == "int":
            items.append(draw(st.integers(-n, n - 1)))
        elif kind == "slice":
            items.append(slice(draw(st.none() | st.integers(-n, n)), None, draw(st.sampled_from([1, -1, 2]))))
        else:
            sub = ishape[draw(st.integers(0, len(ishape))):]  # a broadcastable suffix
            vals = draw(st.lists(st.integers(-n, n - 1), min_size=int(np.prod(sub)), max_size=int(np.prod(sub))))
            items.append(np.array(vals, dtype=np.int64).reshape(sub))
        d += 1
    return tuple(items)


@given(st.data())
def test_mixed_random(device, data):
    shape = tuple(data.draw(st.lists(st.integers(1, 4), min_size=1, max_size=4)))
    a = base(shape)
    x = nr.tensor(a, device=device)
    idx = data.draw(mixed_index(shape))
    try:
        expected = a[idx]
    except IndexError:
        with pytest.raises(IndexError):
            x[to_nr(idx, device)]
        return
    got = x[to_nr(idx, device)]
    assert got.shape == expected.shape, f"index {idx!r}: shape {got.shape} != NumPy {expected.shape}"
    np.testing.assert_array_equal(got.numpy(), expected)


# ---- errors -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("idx", [
    4, -5, (0, 5), (0, 0, 6), (0, 0, -7), (0, 0, 0, 0), (Ellipsis, Ellipsis), "a", 1.5,
    I([0, 4]), I([-5]), (slice(None), I([5])), (I([0, 1]), I([0, 1, 2])), I([True, False]),
    (I([[True, False]]),),
])
def test_out_of_range(device, idx):
    a = base((4, 5, 6))
    x = nr.tensor(a, device=device)
    before = x.numpy().copy()
    with pytest.raises(IndexError) as e:
        x[to_nr(idx, device)]
    assert isinstance(e.value, nr.NumrError), f"{type(e.value).__name__}: {e.value}"
    np.testing.assert_array_equal(x.numpy(), before)


def test_out_of_range_message_names_index_and_shape(device):
    x = nr.tensor(base((4, 5)), device=device)
    with pytest.raises(IndexOutOfRange) as e:
        x[1, 7]
    assert "7" in str(e.value) and "5" in str(e.value) and "(4, 5)" in str(e.value)
    with pytest.raises(IndexOutOfRange) as e:
        x[nr.tensor([0, 9], device=device)]
    assert "4" in str(e.value)


# ---- __setitem__ ---------------------------------------------------------------------------------------
SET_CASES = [
    (0, 5.0), (-1, -2.0), ((1, 2), 3.0), (slice(None, None, 2), 0.0), (slice(None, None, -1), np.arange(6.0)),
    ((slice(1, 3), slice(None, None, -2)), 9.0), ((Ellipsis, 0), np.arange(5.0)), ((slice(None), 1), np.ones(6)),
    ((slice(None), slice(None)), np.arange(6.0)),  # broadcast along the leading dims
    ((None, 0), 1.5), ((), 2.0), (Ellipsis, np.arange(6.0)[::-1]),
    (I([0, 2]), 7.0), (I([3, 0]), np.arange(12.0).reshape(2, 1, 6)), ((slice(None), I([4, 1])), -1.0),
    ((slice(None), I([4, 1])), np.arange(6.0)), ((I([0, 1]), I([2, 3])), np.arange(6.0)),
    ((0, slice(None), I([5, 0])), np.arange(5.0)), ((I([1, 2]), slice(None), 0), np.arange(5.0)),
    ((slice(None), 0, I([1, 2])), np.arange(2.0)), ((I([0, 1]), None, I([0, 1])), 4.0),
    (I([-1, -4]), 3.0),
    ("mask", 0.0), ("mask", "vals"), ("mask2", 1.0), (True, 8.0), (False, 8.0),
]


@pytest.mark.parametrize("idx,value", SET_CASES, ids=[f"set{i}" for i in range(len(SET_CASES))])
def test_setitem(device, idx, value):
    a = base((4, 5, 6))
    if isinstance(idx, str) and idx == "mask":
        idx = a > 60
        if isinstance(value, str):
            value = -np.arange(int(idx.sum()), dtype=np.float64)
    elif isinstance(idx, str):
        idx = (slice(None), a[0, :, 0] > 2)
    x = nr.tensor(a, device=device)
    a[idx] = value
    x[to_nr(idx, device)] = nr.tensor(value, device=device) if isinstance(value, np.ndarray) else value
    np.testing.assert_array_equal(x.numpy(), a)


@pytest.mark.parametrize("view", ["whole", "offset_rows", "transposed", "all_false", "all_true"])
def test_whole_mask_get_and_set(device, view):
    """x[mask] / x[mask] = scalar with a mask of x's own shape (one flat gather/scatter when x's
    dims merge; transposed views take the general path), int8 and float16 too."""
    for dtype in (np.float64, np.int8, np.float16):
        a = base((4, 6)).astype(dtype)
        x = nr.tensor(a, device=device)
        v, av = {"whole": (x, a), "offset_rows": (x[1:], a[1:]), "transposed": (x.T, a.T),
                 "all_false": (x, a), "all_true": (x[2:], a[2:])}[view]
        m = av > 7 if view not in ("all_false", "all_true") else np.full(av.shape, view == "all_true")
        mt = nr.tensor(m, device=device)
        got = v[mt]
        assert got.shape == av[m].shape and got.dtype == v.dtype
        np.testing.assert_array_equal(got.numpy(), av[m])
        v[mt] = -3
        av[m] = -3
        np.testing.assert_array_equal(x.numpy(), a)  # written through the view, nothing else
    with pytest.raises(IndexError):
        x[nr.tensor(np.ones((6, 4), bool), device=device)]
    with pytest.raises(IndexError):
        x[nr.tensor(np.ones((6, 4), bool), device=device)] = 1.0


def test_setitem_through_strided_view(device):
    a = base((4, 6))
    x = nr.tensor(a, device=device)
    v, av = x.T[::-1], a.T[::-1]  # a negative-stride, transposed view of x
    v[1:3] = 0.0
    av[1:3] = 0.0
    v[I([0, 5])] = -1.0
    av[[0, 5]] = -1.0
    v[nr.tensor(av > 10, device=device)] = 100.0
    av[av > 10] = 100.0
    np.testing.assert_array_equal(x.numpy(), a)


def test_setitem_casts_and_broadcasts(device):
    a = base((3, 4), np.int32)
    x = nr.tensor(a, device=device)
    x[0] = 2.7  # cast to the tensor's dtype, as NumPy
    a[0] = 2.7
    x[1:] = nr.tensor([10, 20, 30, 40], dtype=nr.int32, device=device)
    a[1:] = [10, 20, 30, 40]
    x[:, 0] = True
    a[:, 0] = True
    np.testing.assert_array_equal(x.numpy(), a)
    assert x.dtype == nr.int32
    b = nr.tensor(np.zeros(4, bool), device=device)
    b[1] = 1
    b[I([2])] = True
    assert b.tolist() == [False, True, True, False]


def test_setitem_overlapping_source(device):
    """x[1:] = x[:-1] reads the elements it writes: must behave as NumPy (a copy of the source)."""
    a = np.arange(8.0)
    x = nr.tensor(a, device=device)
    x[1:] = x[:-1]
    a[1:] = a[:-1].copy()
    np.testing.assert_array_equal(x.numpy(), a)
    x[:-2] = x[2:]
    a[:-2] = a[2:].copy()
    np.testing.assert_array_equal(x.numpy(), a)
    x[::-1] = x
    a[::-1] = a.copy()
    np.testing.assert_array_equal(x.numpy(), a)
    x[I([1, 2, 3])] = x[0:3]
    a[[1, 2, 3]] = a[0:3].copy()
    np.testing.assert_array_equal(x.numpy(), a)


@given(st.data())
def test_setitem_basic_random(device, data):
    shape = tuple(data.draw(st.lists(st.integers(1, 4), min_size=1, max_size=3)))
    a = base(shape)
    x = nr.tensor(a, device=device)
    idx = data.draw(basic_index(a.ndim))
    try:
        target = a[idx]
    except IndexError:
        return
    if data.draw(st.booleans()):
        value = -1.5
        x[idx] = value
    else:  # a value broadcast from a suffix of the target shape
        k = data.draw(st.integers(0, target.ndim))
        vshape = tuple(1 if data.draw(st.booleans()) else s for s in target.shape[k:])
        value = -np.arange(int(np.prod(vshape)), dtype=np.float64).reshape(vshape)
        x[idx] = nr.tensor(value, device=device)
    a[idx] = value
    np.testing.assert_array_equal(x.numpy(), a)


@given(st.data())
def test_setitem_mixed_random(device, data):
    shape = tuple(data.draw(st.lists(st.integers(1, 4), min_size=1, max_size=3)))
    a = base(shape)
    x = nr.tensor(a, device=device)
    idx = data.draw(mixed_index(shape))
    try:
        target = a[idx]
    except IndexError:
        return
    # distinct targets only (NumPy leaves the winner of duplicate indices unspecified)
    marker = np.zeros(shape, dtype=np.int64)
    np.add.at(marker, idx, 1)
    if marker.max(initial=0) > 1:
        return
    value = -np.arange(target.size, dtype=np.float64).reshape(target.shape) - 1
    a[idx] = value
    x[to_nr(idx, device)] = nr.tensor(value, device=device)
    np.testing.assert_array_equal(x.numpy(), a)


def test_setitem_errors_leave_tensor_unchanged(device):
    a = base((3, 4))
    x = nr.tensor(a, device=device)
    for idx, value in [(0, nr.tensor([1.0, 2.0], device=device)), (5, 1.0), (I([0, 7]), 1.0),
                       (I([0, 1]), nr.tensor(np.ones((3, 4)), device=device)), ((0, 0, 0), 1.0),
                       (nr.tensor(np.ones(3, bool), device=device)[:2], 1.0)]:
        with pytest.raises((IndexOutOfRange, ShapeError)):
            x[to_nr(idx, device)] = value
        np.testing.assert_array_equal(x.numpy(), a)
