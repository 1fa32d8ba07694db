"""2:4 structured sparsity (nr.prune_to_24, Sparse24Tensor, nr.sparse_24_matmul) against a NumPy
oracle (stable sort of the magnitudes: ties to the lower index, NaN largest) and the float64
dense product: every float dtype on the CPU, float32 and one low precision dtype on the other
backends, batched and non-last dims, strided / offset / flipped / 1-d operands, empty shapes,
NaN, the wgpu loop-budget split, gradients through the composite, and errors."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_close, tolerance

import numr as nr
from numr.autograd import gradcheck, jvp
from numr.ops.generic import sparse24 as composite

FLOATS = ("float32", "float64", "float16", "bfloat16")


def np_prune(x, axis=-1):
    """(pruned dense, meta) of a float64 array along axis."""
    x = np.moveaxis(np.asarray(x, np.float64), axis, -1)
    g = x.reshape(x.shape[:-1] + (-1, 4))
    key = np.where(np.isnan(g), np.inf, np.abs(g))
    order = np.argsort(-key, axis=-1, kind="stable")[..., :2]
    c = np.sort(order, axis=-1)
    mask = np.zeros(g.shape, bool)
    np.put_along_axis(mask, c, True, axis=-1)
    out = np.where(mask, g, 0).reshape(x.shape)
    return np.moveaxis(out, -1, axis), (c[..., 0] + 4 * c[..., 1]).astype(np.uint8)


def sample(shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


def as_f64(t):
    return nr.cast(t, nr.float64).numpy()


@pytest.mark.parametrize("dtype", FLOATS + ("int32",))
def test_prune_matches_numpy(dtype):
    x = nr.cast(nr.tensor(sample((2, 3, 12)) * 10), dtype)
    a = nr.prune_to_24(x)
    dense, meta = np_prune(as_f64(x))
    assert a.shape == (2, 3, 12) and a.values.shape == (2, 3, 6) and a.values.dtype == nr.dtype(dtype)
    assert a.meta.dtype == nr.uint8 and a.meta.shape == (2, 3, 3)
    np.testing.assert_array_equal(a.meta.numpy(), meta)
    np.testing.assert_array_equal(as_f64(a.to_dense()), dense)
    np.testing.assert_array_equal(as_f64(nr.sparse_24_to_dense(a)), dense)


TIES_META = [[0 + 4 * 1, 0 + 4 * 1], [0 + 4 * 1, 1 + 4 * 3], [0 + 4 * 1, 0 + 4 * 1]]


def test_prune_ties_nan_inf_and_layouts():
    x = np.array([[1.0, 1.0, 1.0, 1.0, -2.0, 2.0, 1.0, 0.0],
                  [np.nan, 5.0, 1.0, 0.0, 0.0, -np.inf, 0.0, np.inf],
                  [0.0, 0.0, 0.0, 0.0, 0.0, 3.0, 0.0, 0.0]])
    a = nr.prune_to_24(nr.tensor(x))
    assert a.meta.numpy().tolist() == TIES_META
    np.testing.assert_array_equal(a.to_dense().numpy(), np_prune(x)[0])
    values, meta = composite.prune(nr.tensor(x))  # the composite (GPUs, Vars, integers): the same rule
    assert meta.numpy().tolist() == TIES_META
    np.testing.assert_array_equal(values.numpy(), a.values.numpy())
    base = sample((12, 16), 1)
    t = nr.tensor(base)
    for view, ref in ((t.T, base.T), (t[2:10, 4:12], base[2:10, 4:12]), (t.flip(1), base[:, ::-1])):
        np.testing.assert_array_equal(nr.prune_to_24(view).to_dense().numpy(), np_prune(ref)[0])
    a0 = nr.prune_to_24(t, dim=0)  # groups of 4 rows
    assert a0.dim == 0 and a0.values.shape == (16, 6)
    np.testing.assert_array_equal(a0.to_dense().numpy(), np_prune(base, axis=0)[0])
    for shape in ((0, 8), (3, 0), (4,)):
        e = nr.prune_to_24(nr.zeros(shape))
        assert e.to_dense().shape == shape and e.values.shape == shape[:-1] + (shape[-1] // 2,)


def check_matmul(device, dtype, m, k, n, b_view="plain", seed=0):
    a = nr.prune_to_24(nr.cast(nr.tensor(sample((m, k), seed), device=device), dtype))
    base = nr.cast(nr.tensor(sample((n, k) if b_view == "T" else (k + 4, n + 2), seed + 1), device=device), dtype)
    b = {"plain": base[:k, :n], "T": base.T, "offset": base[4:, 2:], "flip": base[:k, :n].flip(0)}[b_view]
    y = nr.sparse_24_matmul(a, b)
    rtol, atol = tolerance(dtype)
    expect = as_f64(a.to_dense()) @ as_f64(b)
    assert_close(y, expect, dtype, rtol=rtol * 4, atol=atol * 4 * max(1, k // 4))
    assert y.device == nr.device(device)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("b_view", ["plain", "T", "offset", "flip"])
def test_matmul_dtypes_and_layouts_cpu(dtype, b_view):
    check_matmul("cpu", dtype, 5, 16, 7, b_view)


def test_matmul_on_device(device):
    from numr.ops.traits import FAMILIES, Sparse24Ops
    assert isinstance(nr.device(device).client, Sparse24Ops) and Sparse24Ops not in FAMILIES
    for dtype, view in (("float32", "T"), ("float32", "flip"), ("bfloat16", "plain")):
        check_matmul(device, dtype, 3, 8, 5, view)
    a = nr.prune_to_24(nr.tensor(sample((2, 8)).astype(np.float32), device=device))
    v = nr.tensor(sample(8, 3).astype(np.float32), device=device)
    y = nr.sparse_24_matmul(a, v)  # 1-d operand -> 1-d result
    assert y.shape == (2,)
    assert_close(y, a.to_dense().numpy().astype(np.float64) @ v.numpy(), nr.float32, rtol=1e-5, atol=1e-5)
    assert (a @ v).shape == (2,)
    rows = [[1.0, 1.0, 1.0, 1.0], [np.nan, 5.0, 1.0, 0.0], [0.0, -np.inf, 0.0, np.inf]]
    ties = nr.prune_to_24(nr.tensor(np.array(rows, np.float32), device=device))
    assert ties.meta.numpy().tolist() == [[4], [4], [1 + 4 * 3]]
    empty = nr.sparse_24_matmul(nr.prune_to_24(nr.zeros((0, 8), dtype=nr.float32, device=device)),
                              nr.ones((8, 3), dtype=nr.float32, device=device))
    assert empty.shape == (0, 3) and empty.dtype == nr.float32
    b = nr.tensor(np.array([[np.nan], [1.0], [1.0], [1.0]], np.float32), device=device)
    keep01 = nr.prune_to_24(nr.tensor([[2.0, 3.0, 0.0, 0.0], [0.0, 0.0, 1.0, 1.0]], device=device))
    assert np.isnan(nr.sparse_24_matmul(keep01, b).numpy()[0, 0])  # NaN of a kept column propagates
    assert nr.sparse_24_matmul(keep01, b).numpy()[1, 0] == 2.0  # a pruned column's NaN is never read


@pytest.mark.parametrize("edge", [(1, 4, 1), (4, 4, 1), (1, 8, 9), (130, 136, 70)])
def test_matmul_shapes_cpu(edge):
    """Size-one dims, and (130, 136, 70): several row blocks, group blocks and a column tail."""
    check_matmul("cpu", "float64", *edge)


def test_float8_takes_the_composite():
    check_matmul("cpu", "float8_e4m3fn", 3, 8, 2)


def test_wgpu_splits_long_k(monkeypatch):
    try:
        client = nr.device("wgpu").client
    except Exception as e:  # noqa: BLE001  (no adapter)
        pytest.skip(str(e))
    monkeypatch.setattr(type(client.gpu), "loop_budget", property(lambda self: 70))  # 6 groups a dispatch
    check_matmul("wgpu", "float32", 3, 52, 4)


def test_gradients_through_the_composite():
    b = nr.tensor(sample((8, 3), 5))
    x = nr.tensor(sample((2, 8), 4))
    assert gradcheck(lambda xv, bv: nr.sparse_24_matmul(nr.prune_to_24(xv), bv), (x, b))
    t = nr.tensor(sample((2, 8), 6))
    _, tangent = jvp(lambda xv: nr.sparse_24_matmul(nr.prune_to_24(xv), b), (x,), (t,))
    kept = nr.prune_to_24(x).to_dense().numpy() != 0
    assert_close(tangent, (t.numpy() * kept) @ b.numpy(), nr.float64)  # the tangent flows through the kept entries


def test_errors():
    x = nr.tensor(sample((3, 8)))
    with pytest.raises(nr.ShapeError, match="multiple of 4"):
        nr.prune_to_24(nr.tensor(sample((3, 6))))
    with pytest.raises(nr.ShapeError, match="out of range"):
        nr.prune_to_24(x, dim=2)
    with pytest.raises(nr.ShapeError, match="out of range"):
        nr.prune_to_24(nr.tensor(1.0))
    with pytest.raises(nr.DTypeError, match="complex"):
        nr.prune_to_24(nr.cast(x, nr.complex64))
    with pytest.raises(nr.DTypeError, match="numr tensor"):
        nr.prune_to_24(sample((3, 8)))
    a = nr.prune_to_24(x)
    with pytest.raises(nr.ShapeError, match="do not align"):
        nr.sparse_24_matmul(a, nr.ones((4, 2), dtype=nr.float64))
    with pytest.raises(nr.ShapeError, match="1-d or 2-d"):
        nr.sparse_24_matmul(a, nr.ones((2, 8, 2), dtype=nr.float64))
    with pytest.raises(nr.DTypeError, match="Sparse24Tensor"):
        nr.sparse_24_matmul(x, x.T)
    with pytest.raises(nr.UnsupportedOperation, match="last dim"):
        nr.sparse_24_matmul(nr.prune_to_24(nr.tensor(sample((8, 8))), dim=0), x.T)
    client = x.client
    with pytest.raises(nr.DTypeError, match="uint8"):
        client.sparse24_matmul(a.values, nr.cast(a.meta, nr.int32), x.T)
    with pytest.raises(nr.DTypeError, match="floating"):
        client.sparse24_matmul(nr.cast(a.values, nr.int32), a.meta, nr.ones((8, 2), dtype=nr.int32))
    with pytest.raises(nr.ShapeError, match="meta"):
        client.sparse24_matmul(a.values, a.meta[:, :1], x.T)
