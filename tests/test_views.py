"""Tensor views (zero copy, shared storage, offsets), conversion and interchange.

NumPy is the oracle for values; storage sharing is checked on the storage
object itself (every backend) and, on the CPU, with np.shares_memory.
"""

from __future__ import annotations

import numpy as np
import pytest

import numr as nr
from numr.errors import DTypeError, IndexOutOfRange, ShapeError, UnsupportedDType
from numr.layout import contiguous_strides

ALL = list(nr.ALL_DTYPES)


def arange(shape, dtype=np.float64):
    n = int(np.prod(shape))
    return (np.arange(n) + 1).astype(dtype).reshape(shape)


def supported(device, dtype) -> bool:
    """Whether the backend stores ``dtype``; where it does not, creating one must raise UnsupportedDType."""
    dev = nr.device(device)
    if dtype in dev.runtime.supported_dtypes(dev):
        return True
    with pytest.raises(UnsupportedDType) as e:
        nr.tensor(np.zeros(2, dtype.np), device=device)
    assert dtype.name in str(e.value) and dev.runtime_name in str(e.value)
    return False


def same_storage(a, b):
    return a._storage is b._storage


def eq(t, expected):
    expected = np.asarray(expected)
    assert t.shape == expected.shape, (t.shape, expected.shape)
    np.testing.assert_array_equal(t.numpy(), expected)


# ---- attributes -------------------------------------------------------------------------------
def test_attributes(device):
    a = arange((2, 3, 4), np.float32)
    x = nr.tensor(a, device=device)
    assert x.shape == (2, 3, 4) and isinstance(x.shape, tuple)
    assert x.dtype == nr.float32 and x.ndim == 3 and x.dim() == 3
    assert x.size == 24 and x.numel() == 24 and len(x) == 2
    assert x.strides == (12, 4, 1) and x.is_contiguous() and x.storage_offset() == 0
    assert x.itemsize == 4 and x.nbytes == 96
    assert str(x.device) == device if device == "cpu" else str(x.device).startswith(device)
    s = nr.tensor(3.0, device=device)
    assert s.shape == () and s.ndim == 0 and s.size == 1 and s.strides == ()
    with pytest.raises(TypeError):
        len(s)
    e = nr.tensor(np.zeros((0, 3)), device=device)
    assert e.shape == (0, 3) and e.size == 0 and e.is_contiguous()


# ---- views share storage ------------------------------------------------------------------------
VIEWS = [
    ("T", lambda x: x.T, lambda a: a.T),
    ("mT", lambda x: x.mT, lambda a: np.swapaxes(a, -1, -2)),
    ("transpose", lambda x: x.transpose(0, 2), lambda a: np.swapaxes(a, 0, 2)),
    ("permute", lambda x: x.permute(2, 0, 1), lambda a: a.transpose(2, 0, 1)),
    ("permute_list", lambda x: x.permute([1, 2, 0]), lambda a: a.transpose(1, 2, 0)),
    ("narrow", lambda x: x.narrow(1, 1, 2), lambda a: a[:, 1:3]),
    ("narrow_neg", lambda x: x.narrow(-1, -2, 2), lambda a: a[..., 2:4]),
    ("unsqueeze", lambda x: x.unsqueeze(1), lambda a: a[:, None]),
    ("unsqueeze_neg", lambda x: x.unsqueeze(-1), lambda a: a[..., None]),
    ("squeeze", lambda x: x[:, :1].squeeze(), lambda a: a[:, 0]),
    ("squeeze_dim", lambda x: x[:, :1].squeeze(1), lambda a: a[:, 0]),
    ("squeeze_noop", lambda x: x.squeeze(0), lambda a: a),
    ("expand", lambda x: x[:, :1].expand(2, 3, 4), lambda a: np.broadcast_to(a[:, :1], (2, 3, 4))),
    ("expand_new", lambda x: x.expand(5, -1, -1, -1), lambda a: np.broadcast_to(a, (5, 2, 3, 4))),
    ("broadcast_to", lambda x: nr.broadcast_to(x[0, :, :1], (2, 3, 4)),
     lambda a: np.broadcast_to(a[0, :, :1], (2, 3, 4))),
    ("expand_as", lambda x: x[:1].expand_as(x), lambda a: np.broadcast_to(a[:1], a.shape)),
    ("flip", lambda x: x.flip(0), lambda a: a[::-1]),
    ("flip_dims", lambda x: x.flip((0, 2)), lambda a: a[::-1, :, ::-1]),
    ("flip_all", lambda x: x.flip(), lambda a: a[::-1, ::-1, ::-1]),
    ("flip_varargs", lambda x: x.flip(0, 2), lambda a: a[::-1, :, ::-1]),
    ("reshape", lambda x: x.reshape(6, 4), lambda a: a.reshape(6, 4)),
    ("reshape_infer", lambda x: x.reshape(-1, 2), lambda a: a.reshape(-1, 2)),
    ("reshape_tuple", lambda x: x.reshape((4, 6)), lambda a: a.reshape(4, 6)),
    ("view", lambda x: x.view(2, 12), lambda a: a.reshape(2, 12)),
    ("flatten", lambda x: x.flatten(), lambda a: a.reshape(-1)),
    ("flatten_part", lambda x: x.flatten(1), lambda a: a.reshape(2, 12)),
    ("flatten_mid", lambda x: x.flatten(0, 1), lambda a: a.reshape(6, 4)),
    ("ravel", lambda x: x.ravel(), lambda a: a.ravel()),
    ("slice_neg_step", lambda x: x[:, ::-2, 1::2], lambda a: a[:, ::-2, 1::2]),
    ("select", lambda x: x[1], lambda a: a[1]),
    ("chain", lambda x: x.T.flip(1)[1:, :, ::-1].unsqueeze(0), lambda a: a.T[:, ::-1][1:, :, ::-1][None]),
]


@pytest.mark.parametrize("name,op,ref", VIEWS, ids=[v[0] for v in VIEWS])
def test_views_share_storage(device, name, op, ref):
    a = arange((2, 3, 4))
    x = nr.tensor(a, device=device)
    v = op(x)
    assert same_storage(v, x), f"{name} copied"
    eq(v, ref(a))
    assert v.dtype == x.dtype and v.device == x.device
    if device == "cpu":
        assert np.shares_memory(v.numpy(), x.numpy())


@pytest.mark.parametrize("dtype", ALL, ids=[d.name for d in ALL])
def test_views_every_dtype(device, dtype):
    if not supported(device, dtype):
        return
    a = arange((2, 3), np.float64).astype(dtype.np)
    x = nr.tensor(a, device=device)
    assert x.dtype is dtype
    eq(x.T, a.T)
    eq(x[:, ::-1], a[:, ::-1])
    eq(x.reshape(3, 2), a.reshape(3, 2))


def test_write_through_views(device):
    a = arange((3, 4))
    x = nr.tensor(a, device=device)
    x.T[1].fill_(-1.0)  # column 1
    a[:, 1] = -1
    x.flip(0)[0] = 9.0  # last row
    a[-1] = 9
    x[:, ::-2] = 7.0
    a[:, ::-2] = 7
    x.narrow(0, 1, 1).unsqueeze(0).squeeze().fill_(5.0)
    a[1] = 5
    eq(x, a)
    r = x.reshape(12)
    r[3:6] = 0.0
    a.reshape(12)[3:6] = 0
    eq(x, a)


def test_reshape_keeps_offset(device):
    a = np.arange(30.0)
    x = nr.tensor(a, device=device)
    v = x[6:18].reshape(3, 4)
    assert same_storage(v, x) and v.storage_offset() == 6
    eq(v, a[6:18].reshape(3, 4))
    w = v[1:].reshape(-1)
    assert w.storage_offset() == 10 and same_storage(w, x)
    eq(w, a[10:18])
    w.fill_(0.0)
    a[10:18] = 0
    eq(x, a)


def test_reshape_copies_when_it_must(device):
    a = arange((3, 4))
    x = nr.tensor(a, device=device)
    r = x.T.reshape(-1)
    assert not same_storage(r, x)
    eq(r, a.T.reshape(-1))
    r.fill_(0.0)
    eq(x, a)  # the copy is independent
    eq(x[:, 1::2].flatten(), a[:, 1::2].flatten())
    with pytest.raises(ShapeError, match="view"):
        x.T.view(12)
    with pytest.raises(ShapeError):
        x.reshape(5, -1)
    with pytest.raises(ShapeError):
        x.reshape(-1, -1)


def test_view_errors(device):
    x = nr.tensor(arange((2, 3)), device=device)
    with pytest.raises(IndexOutOfRange):
        x.transpose(0, 2)
    with pytest.raises(ShapeError):
        x.permute(0, 0)
    with pytest.raises(IndexOutOfRange):
        x.narrow(0, 1, 2)
    with pytest.raises(ShapeError):
        x.expand(3, 3)
    with pytest.raises(ShapeError):
        x.broadcast_to((2, -1))
    with pytest.raises(ShapeError):
        _ = nr.tensor([1.0], device=device).mT
    with pytest.raises(ShapeError):
        x.flatten(1, 0)


def test_zero_d_and_empty_views(device):
    s = nr.tensor(5.0, device=device)
    eq(s.reshape(1, 1), [[5.0]])
    eq(s.unsqueeze(0), [5.0])
    eq(s.flatten(), [5.0])
    eq(s.T, 5.0)
    eq(s.expand(3), [5.0] * 3)
    eq(s.flip(), 5.0)
    e = nr.tensor(np.zeros((0, 3)), device=device)
    eq(e.T, np.zeros((3, 0)))
    eq(e.reshape(3, 0, 5), np.zeros((3, 0, 5)))
    eq(e.flatten(), np.zeros(0))
    eq(e.flip(0), np.zeros((0, 3)))
    eq(e[:, 1:], np.zeros((0, 2)))


# ---- contiguous / clone / copies -------------------------------------------------------------------
def test_contiguous_and_clone(device):
    a = arange((3, 4))
    x = nr.tensor(a, device=device)
    assert x.contiguous() is x
    cases = [(x.T, a.T), (x[1:], a[1:]), (x.flip(1), a[:, ::-1]), (x[:1].expand(3, 4), np.broadcast_to(a[:1], (3, 4)))]
    for v, ref in cases:
        c = v.contiguous()
        assert c.is_contiguous() and c.storage_offset() == 0 and not same_storage(c, x)
        assert c.strides == contiguous_strides(c.shape)
        eq(c, ref)
    c = x.clone()
    assert not same_storage(c, x)
    c.fill_(0.0)
    eq(x, a)
    assert x.copy is not None


def test_tensor_factory_copies(device):
    a = arange((2, 2))
    x = nr.tensor(a, device=device)
    a[0, 0] = 100
    assert x.numpy()[0, 0] == 1
    y = nr.tensor(x)
    assert not same_storage(x, y)
    eq(y, x.numpy())
    z = nr.tensor(x.T, dtype=nr.float32)
    assert z.dtype == nr.float32
    eq(z, a.T.astype(np.float32) * 0 + x.T.numpy())


# ---- NumPy interchange --------------------------------------------------------------------------------
@pytest.mark.parametrize("make", [
    lambda: arange((3, 4)),
    lambda: arange((3, 4))[:, ::2],
    lambda: arange((3, 4))[::-1],
    lambda: arange((3, 4))[::-2, ::-1],
    lambda: arange((3, 4)).T,
    lambda: arange((3, 4))[1:, 2:],
    lambda: np.array(5.0),
    lambda: np.zeros((0, 4)),
    lambda: np.broadcast_to(np.arange(3.0), (2, 3)).copy()[:, ::-1],
], ids=["contig", "step2", "neg", "neg2", "T", "offset", "0d", "empty", "bcastcopy"])
def test_from_numpy_zero_copy(make):
    a = make()
    x = nr.from_numpy(a)
    assert x.shape == a.shape and x.dtype == nr.dtype(a.dtype) and x.device == "cpu"
    eq(x, a)
    if a.size:
        assert np.shares_memory(x.numpy(), a)
        a[(0,) * a.ndim] = -42
        assert x.numpy()[(0,) * a.ndim] == -42
        x.fill_(3.0)
        assert (a == 3).all()


@pytest.mark.parametrize("dtype", ALL, ids=[d.name for d in ALL])
def test_from_numpy_every_dtype(dtype):
    a = arange((2, 3)).astype(dtype.np)[:, ::-1]
    x = nr.from_numpy(a)
    assert x.dtype is dtype
    assert np.shares_memory(x.numpy(), a)
    np.testing.assert_array_equal(x.numpy(), a)
    assert x.numpy().dtype == dtype.np


def test_from_numpy_read_only_is_copied():
    a = arange((2, 3))
    a.flags.writeable = False
    x = nr.from_numpy(a)
    assert not np.shares_memory(x.numpy(), a)
    eq(x, a)
    x.fill_(0.0)
    assert a[0, 0] == 1
    b = np.broadcast_to(np.arange(3.0), (2, 3))  # read-only stride-0 view
    eq(nr.from_numpy(b), b)


def test_from_numpy_errors():
    with pytest.raises(DTypeError):
        nr.from_numpy([1, 2])
    with pytest.raises(DTypeError):
        nr.from_numpy(np.array(["a"]))
    with pytest.raises(DTypeError):
        nr.from_numpy(np.zeros(2, dtype=object))


def test_from_numpy_other_device(device):
    a = arange((2, 3))[:, ::-1]
    x = nr.from_numpy(a, device=device)
    assert x.device == device
    eq(x, a)


def test_asarray(device):
    a = arange((2, 3))
    x = nr.asarray(a)
    assert np.shares_memory(x.numpy(), a)
    assert nr.asarray(x) is x
    y = nr.asarray(a, dtype=nr.float32, device=device)
    assert y.dtype == nr.float32 and y.device == device
    eq(y, a.astype(np.float32))
    eq(nr.asarray([[1, 2], [3, 4]], device=device), [[1, 2], [3, 4]])
    assert nr.asarray([1.5]).dtype == nr.float64 and nr.asarray([1]).dtype == nr.int64
    assert nr.asarray([True]).dtype == nr.bool_ and nr.asarray(1j).dtype == nr.complex128


def test_numpy_and_array_protocol(device):
    a = arange((3, 4))
    x = nr.tensor(a, device=device)
    v = x[:, ::-1].T
    eq(v, a[:, ::-1].T)
    np.testing.assert_array_equal(np.asarray(v), a[:, ::-1].T)
    f = np.asarray(v, dtype=np.float32)
    assert f.dtype == np.float32
    np.testing.assert_array_equal(f, a[:, ::-1].T.astype(np.float32))
    assert np.array(v, copy=True).flags.owndata
    if device == "cpu":
        assert np.shares_memory(np.asarray(x), x.numpy())
        n = x.numpy()
        n[0, 0] = 77  # .numpy() is a view on the CPU (as torch's)
        assert x[0, 0].item() == 77


@pytest.mark.parametrize("dtype", ALL, ids=[d.name for d in ALL])
def test_tolist_item(device, dtype):
    if not supported(device, dtype):
        return
    a = arange((2, 2)).astype(dtype.np)
    x = nr.tensor(a, device=device)
    assert x.tolist() == a.tolist()
    it = x[1, 0].item()
    assert it == a[1, 0].item()
    py = {"b": bool, "i": int, "u": int, "f": float, "c": complex}[dtype.kind]
    assert type(it) is py, type(it)
    assert nr.tensor(a[:1, :1], device=device).item() == a[0, 0].item()
    with pytest.raises(ShapeError):
        x.item()


def test_python_scalars_conversion(device):
    x = nr.tensor([2.5], device=device)
    assert float(x) == 2.5 and int(x) == 2 and bool(x) and complex(x) == 2.5
    i = nr.tensor(3, device=device)
    assert [10, 11, 12, 13][i] == 13 and range(10)[i] == 3
    with pytest.raises(ValueError):
        bool(nr.tensor([1.0, 2.0], device=device))
    with pytest.raises(TypeError):
        [1, 2][x]


def test_iteration(device):
    a = arange((3, 2))
    rows = list(nr.tensor(a, device=device))
    assert len(rows) == 3
    for r, e in zip(rows, a, strict=True):
        eq(r, e)
    with pytest.raises(TypeError):
        iter(nr.tensor(1.0, device=device))


# ---- to / astype ------------------------------------------------------------------------------------
def test_to_and_astype(device):
    a = np.array([[1.5, -2.5], [3.0, 0.0]])
    x = nr.tensor(a, device=device)
    assert x.to(device) is x
    assert x.to(x.device) is x
    c = x.to(device, copy=True)
    assert c is not x and not same_storage(c, x)
    eq(c, a)
    y = x.to(nr.float32)
    assert y.dtype == nr.float32 and y.device == x.device
    eq(y, a.astype(np.float32))
    assert x.to("float32").dtype == nr.float32
    assert x.to(device, nr.int32).dtype == nr.int32
    assert x.to(dtype=nr.int64).dtype == nr.int64
    z = x.astype(nr.int32)
    eq(z, a.astype(np.int32))
    assert x.astype(nr.float64, copy=False) is x
    d = x.astype(nr.float64)
    assert d is not x and not same_storage(d, x)
    eq(d, a)
    assert x.T.astype("float16").dtype == nr.float16
    eq(x.T.astype("float16"), a.T.astype(np.float16))
    h = x.to("cpu")
    assert h.device == "cpu"
    eq(h, a)
    assert x.cpu().device == "cpu"
    with pytest.raises(nr.DeviceError):
        x.to("nope")


# ---- DLPack ------------------------------------------------------------------------------------------
def test_dlpack_numpy_roundtrip():
    a = arange((3, 4))
    x = nr.from_numpy(a)
    assert x.__dlpack_device__() == (1, 0)
    for v, ref in [(x, a), (x.T, a.T), (x[1:, ::2], a[1:, ::2])]:
        b = np.from_dlpack(v)
        np.testing.assert_array_equal(b, ref)
        assert np.shares_memory(b, a)
    np.testing.assert_array_equal(np.from_dlpack(x.flip(0)), a[::-1])  # negative strides: exported as a copy
    y = nr.from_dlpack(a[:, 1:])
    assert np.shares_memory(y.numpy(), a)
    eq(y, a[:, 1:])
    z = nr.from_dlpack(x.T)
    assert same_storage(z, x) or np.shares_memory(z.numpy(), a)
    eq(z, a.T)
    assert nr.from_dlpack(np.array([True, False])).dtype == nr.bool_


def test_dlpack_torch_roundtrip():
    torch = pytest.importorskip("torch")
    a = arange((3, 4))
    x = nr.from_numpy(a)
    t = torch.from_dlpack(x)
    assert t.dtype == torch.float64 and tuple(t.shape) == (3, 4)
    t[0, 0] = -1
    assert a[0, 0] == -1  # shared
    tt = torch.from_dlpack(x.T[1:])
    np.testing.assert_array_equal(tt.numpy(), a.T[1:])
    tf = torch.from_dlpack(x.flip(1))  # negative strides: a copy, never a crash
    np.testing.assert_array_equal(tf.numpy(), a[:, ::-1])
    src = torch.arange(12, dtype=torch.float32).reshape(3, 4)
    y = nr.from_dlpack(src.T)
    assert y.dtype == nr.float32 and y.shape == (4, 3)
    np.testing.assert_array_equal(y.numpy(), src.T.numpy())
    src[0, 1] = 100
    assert y[1, 0].item() == 100  # zero copy from torch
    for td, nd in [(torch.int32, nr.int32), (torch.bool, nr.bool_), (torch.uint8, nr.uint8),
                   (torch.float16, nr.float16), (torch.complex64, nr.complex64)]:
        s = torch.ones(3, dtype=td)
        r = nr.from_dlpack(s)
        assert r.dtype == nd
        back = torch.from_dlpack(r)
        assert back.dtype == td and bool((back == s).all())
    with pytest.raises(DTypeError):
        nr.from_dlpack(torch.zeros(2, dtype=torch.bfloat16))  # NumPy cannot import bfloat16 DLPack: a clean error


def test_dlpack_unsupported_dtype():
    x = nr.from_numpy(np.zeros(2, dtype=nr.bfloat16.np))
    with pytest.raises(DTypeError, match="bfloat16"):
        x.__dlpack__()


# ---- repr ---------------------------------------------------------------------------------------------
def test_repr(device):
    x = nr.tensor([[1.5, 2.0], [3.0, 4.0]], device=device)
    r = repr(x)
    assert r.startswith("tensor(") and "1.5" in r and "dtype=float64" in r
    if device != "cpu":
        assert f"device='{x.device}'" in r
    else:
        assert "device" not in r
    assert "dtype=int32" in repr(nr.tensor([1, 2], dtype=nr.int32, device=device))
    assert "bfloat16" in repr(nr.tensor([1, 2], dtype=nr.bfloat16, device=device))
    assert "..." in repr(nr.tensor(np.zeros(10000), device=device))  # summarised
    assert "tensor(" in repr(nr.tensor(np.zeros((0, 3)), device=device))
    assert repr(nr.tensor(7, device=device)).startswith("tensor(7")


# ---- method and operator sugar defined by the core ---------------------------------------------
def test_method_sugar(device):
    a = np.array([[1.5, -2.5], [3.0, 0.5]], dtype=np.float32)
    x = nr.tensor(a, device=device)
    cond = nr.tensor(a > 0, device=device)
    y = nr.zeros_like(x)
    np.testing.assert_array_equal(x.where(cond, y).numpy(), np.where(a > 0, a, 0))  # PyTorch's order
    np.testing.assert_array_equal(round(x).numpy(), np.round(a))
    assert (x == None) is False and (x != None) is True  # noqa: E711
    assert x.sum(dim=0).shape == (2,) and x.sum(0, True).shape == (1, 2)
    np.testing.assert_allclose(x.sum(dim=(0, 1)).item(), a.sum(), rtol=1e-6)
    np.testing.assert_array_equal((2 - x).numpy(), 2 - a)
    np.testing.assert_array_equal((x.T @ x).numpy(), a.T @ a)
    np.testing.assert_array_equal(abs(-x).numpy(), np.abs(a))


def test_strided_views_move_between_devices(device):
    a = arange((3, 4, 5))
    x = nr.tensor(a, device=device)
    cases = [(x.T, a.T), (x[:, ::-2, 1:], a[:, ::-2, 1:]),
             (x[1:, :1].expand(2, 3, 5), np.broadcast_to(a[1:, :1], (2, 3, 5)))]
    for v, ref in cases:
        h = v.to("cpu")
        assert h.device == "cpu"
        eq(h, ref)
        back = h.T.to(device)
        assert back.device == device
        eq(back, ref.T)
    c = nr.from_numpy(a[::-1, 1::2])
    eq(c.to(device), a[::-1, 1::2])


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.complex128, np.float16])
def test_from_numpy_misaligned(dtype):
    """A misaligned array (an odd byte offset into a buffer) is wrapped or copied, and kernels
    (vectorised ones included) give the right answers without crashing."""
    size = np.dtype(dtype).itemsize
    buf = np.zeros(size * 48 * 48 + 3, np.uint8)
    a = buf[1:1 + size * 48 * 48].view(dtype).reshape(48, 48)
    a[:] = (np.arange(48 * 48).reshape(48, 48) % 7).astype(dtype)
    assert not a.flags.aligned
    x = nr.from_numpy(a)
    eq(x, a)
    np.testing.assert_array_equal((x + x).numpy(), a + a)
    np.testing.assert_array_equal(x.T.contiguous().numpy(), a.T)
    assert x.sum().item() == a.sum()
    if a.dtype.kind in "fc":
        np.testing.assert_allclose((x @ x).numpy(), a @ a, rtol=1e-3)
    x[1:3] = 5
    a[1:3] = 5
    eq(x, a)


# ---- random chains of views on real tensors (Hypothesis) --------------------------------------------
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_random_view_chains_write_through(device, data):
    shape = tuple(data.draw(st.lists(st.integers(1, 4), min_size=1, max_size=3)))
    a = arange(shape, np.float32)
    x = nr.tensor(a, device=device)
    v, av = x, a
    for _ in range(data.draw(st.integers(1, 5))):
        op = data.draw(st.sampled_from(["T", "flip", "slice", "unsqueeze", "squeeze", "reshape", "permute", "select"]))
        if op == "T":
            v, av = v.T, av.T
        elif op == "flip" and av.ndim:
            d = data.draw(st.integers(0, av.ndim - 1))
            v, av = v.flip(d), np.flip(av, d)
        elif op == "slice" and av.ndim:
            d = data.draw(st.integers(0, av.ndim - 1))
            s = slice(data.draw(st.none() | st.integers(-3, 3)), None, data.draw(st.sampled_from([1, 2, -1, -2])))
            idx = (slice(None),) * d + (s,)
            v, av = v[idx], av[idx]
        elif op == "unsqueeze":
            d = data.draw(st.integers(0, av.ndim))
            v, av = v.unsqueeze(d), np.expand_dims(av, d)
        elif op == "squeeze":
            v, av = v.squeeze(), np.squeeze(av)
        elif op == "reshape" and av.size:
            new = (-1,) if data.draw(st.booleans()) else (av.size, 1)
            r = v.reshape(new)
            if r._storage is not x._storage:
                continue  # a copy: writes would not reach x (NumPy's reshape copies there too)
            v, av = r, av.reshape(new)
        elif op == "permute" and av.ndim:
            p = data.draw(st.permutations(range(av.ndim)))
            v, av = v.permute(p), av.transpose(p)
        elif op == "select" and av.ndim and av.shape[0]:
            i = data.draw(st.integers(-av.shape[0], av.shape[0] - 1))
            v, av = v[i], av[i, ...]  # a 0-d view, not a NumPy scalar
        assert v._storage is x._storage
        eq(v, av)
    if av.size:
        v.fill_(-7.0)
        av[...] = -7.0  # av is a view of a: the same elements change
        eq(x, a)


def test_array_protocol_copy_argument(device):
    a = arange((2, 3), np.float32)
    x = nr.tensor(a, device=device)
    np.testing.assert_array_equal(np.asarray(x, dtype=np.float64), a)
    assert np.array(x, copy=True).flags.owndata
    with pytest.raises(ValueError):
        np.asarray(x, dtype=np.float64, copy=False)
    if device == "cpu":
        v = np.asarray(x, copy=False)
        assert np.shares_memory(v, x.numpy())
    else:
        with pytest.raises(ValueError):
            np.asarray(x, copy=False)


def test_cpu_allocations_are_aligned():
    """Buffers of 4 KiB and more start on 64 bytes (smaller ones are NumPy's own, 16)."""
    for n, d in [(10000, nr.float32), (4097, nr.float64), (70000, nr.uint8), (3000, nr.complex128),
                 (1024, nr.float32), (65535, nr.int16)]:
        t = nr.empty(n, dtype=d)
        assert t.numpy().ctypes.data % 64 == 0, (n, d)
        assert t._storage.nbytes == n * d.itemsize  # the whole buffer, not a stray slice
        np.testing.assert_array_equal(nr.full((n,), 3, dtype=d).numpy(), np.full(n, 3, d.np))
        z = nr.zeros((n // 7, 7), dtype=d)
        assert z.nbytes < 4096 or z.numpy().ctypes.data % 64 == 0, (n, d)
