"""nr.cat and nr.stack against NumPy: every dtype, views as pieces, empty pieces, every dim."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_close
from elementwise_cases import ALL, make, seed, values

import numr as nr


def _pieces(dtype, shapes, name):
    d = nr.dtype(dtype)
    rng = np.random.default_rng(seed(name, dtype))
    return [values(d, int(np.prod(s)), rng, edge=False).reshape(s) for s in shapes]


@pytest.mark.parametrize("dtype", ALL)
def test_cat_and_stack_every_dtype(device, dtype):
    a, b, c = _pieces(dtype, [(2, 3), (1, 3), (4, 3)], "cat")
    ts = [make(x, device, dtype) for x in (a, b, c)]
    for dim in (0, -2):
        assert_close(nr.cat(ts, dim), np.concatenate([a, b, c], dim), dtype=dtype, rtol=0, atol=0)
    s = [make(x, device, dtype) for x in (a, a[::-1], a * 1)]
    for dim in (0, 1, 2, -1):
        assert_close(nr.stack(s, dim), np.stack([a, a[::-1], a], dim), dtype=dtype, rtol=0, atol=0)


@pytest.mark.parametrize("dim", [0, 1, 2, -1])
def test_cat_views_and_empty_pieces(device, dim):
    rng = np.random.default_rng(seed("cat-views", str(dim)))
    base = rng.standard_normal((6, 8, 10))
    x = make(base, device, "float64")
    shape = list(base.shape)
    shape[dim] = 0
    cases = [  # (numr piece, NumPy piece): transposed, stepped, offset, flipped, broadcast, empty
        (x.permute(0, 1, 2)[:2, :3, :4], base[:2, :3, :4]),
        (x[1:3, 2:5, 3:7], base[1:3, 2:5, 3:7]),
        (x[::3, ::2, 1:9:2][:2, :3, :4], base[::3, ::2, 1:9:2][:2, :3, :4]),
        (x.flip(0).flip(2)[:2, :3, :4], base[::-1, :, ::-1][:2, :3, :4]),
        (x[:1, :1, :1].broadcast_to((2, 3, 4)), np.broadcast_to(base[:1, :1, :1], (2, 3, 4))),
    ]
    pieces, refs = [p for p, _ in cases], [r for _, r in cases]
    empty = np.zeros([0 if i == dim % 3 else n for i, n in enumerate((2, 3, 4))])
    pieces.insert(2, make(empty, device, "float64"))
    refs.insert(2, empty)
    out = nr.cat(pieces, dim)
    assert_close(out, np.concatenate(refs, dim), dtype="float64", rtol=0, atol=0)
    out.fill_(0.0)  # the result owns its memory: the pieces are untouched
    np.testing.assert_array_equal(x.numpy(), base)
    t = x.T  # a transposed whole tensor, and the same tensor twice
    assert_close(nr.cat([t, t], dim), np.concatenate([base.T, base.T], dim), rtol=0, atol=0)


def test_cat_single_piece_and_all_empty(device):
    a = np.arange(12.0).reshape(3, 4)
    x = make(a, device, "float32")
    one = nr.cat([x], 1)
    assert_close(one, a, dtype="float32", rtol=0, atol=0)
    one.fill_(-1.0)
    np.testing.assert_array_equal(x.numpy(), a)  # a copy, not the piece itself
    e = make(np.zeros((0, 4)), device, "float32")
    assert_close(nr.cat([e, e], 0), np.zeros((0, 4)), dtype="float32")
    assert_close(nr.stack([e, e], 1), np.zeros((0, 2, 4)), dtype="float32")
    assert_close(nr.cat([make(np.zeros(0), device, "float32")] * 3), np.zeros(0), dtype="float32")


def test_cat_promotes(device):
    i = make(np.array([[1, -2]], np.int32), device, "int32")
    h = make(np.array([[0.5, 1.5]], np.float16), device, "float16")
    b = make(np.array([[True, False]]), device, "bool")
    for ts in ([i, h], [b, i], [h, b, i]):
        d = nr.result_type(*ts)
        ref = np.concatenate([t.numpy().astype(np.float64) for t in ts], 0)
        assert_close(nr.cat(ts, 0), ref.astype(d.np), dtype=d, rtol=0, atol=0)


def test_cat_stack_errors(device):
    x = make(np.zeros((2, 3)), device, "float32")
    with pytest.raises(nr.ShapeError, match="at least one"):
        nr.cat([])
    with pytest.raises(nr.ShapeError, match="zero-dimensional"):
        nr.cat([x.sum(), x.sum()])
    with pytest.raises(nr.ShapeError, match="differ outside dim"):
        nr.cat([x, x.T], 0)
    with pytest.raises(nr.ShapeError, match="differ outside dim"):
        nr.cat([x, x.reshape(6)], 0)
    with pytest.raises(IndexError):
        nr.cat([x, x], 2)
    with pytest.raises(nr.ShapeError, match="same shape"):
        nr.stack([x, x.T])
    with pytest.raises(IndexError):
        nr.stack([x, x], 3)
