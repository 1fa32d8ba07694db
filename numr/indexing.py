"""``Tensor.__getitem__`` / ``__setitem__``: NumPy indexing.

Basic indices (ints, slices with any step, None, ...) are layout arithmetic:
zero-copy views. Integer and bool tensors are advanced indices, turned into
one linear index over the indexed dims and gathered (``index_select``) or
scattered (``index_put_``) by the device's own kernels.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import dtypes as dt
from .errors import IndexOutOfRange, ShapeError
from .layout import Layout, numel
from .tensor import Tensor


def _as_index_tensor(item: Any, x: Tensor) -> Tensor | None:
    if isinstance(item, Tensor):
        t = item
    elif isinstance(item, (list, np.ndarray)):
        from .creation import tensor
        t = tensor(item, device=x.device)
        if t.size == 0 and t.dtype.kind == "f":
            t = t.astype(dt.int64)
    else:
        return None
    if t.device != x.device:
        t = t.to(x.device)
    if t.dtype is not dt.bool_ and not t.dtype.is_integer:
        raise IndexOutOfRange(f"tensors used as indices must be integer or bool, got {t.dtype}")
    return t


def _split(x: Tensor, index: Any):
    """Apply the basic part of ``index``; return the view and the advanced indices
    as (position in the view, int64 index tensor, size of that dim)."""
    items = index if isinstance(index, tuple) else (index,)
    conv = []
    for it in items:
        t = None if (it is None or it is Ellipsis or isinstance(it, slice)) else _as_index_tensor(it, x)
        if t is not None and t.ndim == 0 and t.dtype is not dt.bool_:
            conv.append(int(t.item()))
        else:
            conv.append(t if t is not None else it)
    used = sum(it.ndim if isinstance(it, Tensor) and it.dtype is dt.bool_ else 1
               for it in conv if it is not None and it is not Ellipsis)
    n_ell = sum(1 for it in conv if it is Ellipsis)
    if n_ell > 1:
        raise IndexOutOfRange("an index can only have a single ellipsis (...)")
    if used > x.ndim:
        raise IndexOutOfRange(f"too many indices for a tensor of dimension {x.ndim}")
    lay = x._layout
    shape, strides, offset = [], [], lay.offset
    adv: list[tuple[int, Tensor, int]] = []
    d = 0
    for it in conv:
        if it is None:
            shape.append(1)
            strides.append(0)
        elif it is Ellipsis:
            for _ in range(x.ndim - used):
                shape.append(lay.shape[d])
                strides.append(lay.strides[d])
                d += 1
        elif isinstance(it, slice):
            start, stop, step = it.indices(lay.shape[d])
            n = len(range(start, stop, step))
            shape.append(n)
            strides.append(lay.strides[d] * step)
            if n:
                offset += start * lay.strides[d]
            d += 1
        elif isinstance(it, Tensor):
            if it.dtype is dt.bool_:
                k = it.ndim
                if it.shape != lay.shape[d:d + k]:
                    raise IndexOutOfRange(f"boolean index of shape {it.shape} does not match the indexed "
                                          f"dims {lay.shape[d:d + k]} of a tensor of shape {x.shape}")
                coords = it.client.nonzero(it)
                for j in range(k):
                    adv.append((len(shape), coords[:, j], lay.shape[d]))
                    shape.append(lay.shape[d])
                    strides.append(lay.strides[d])
                    d += 1
            else:
                adv.append((len(shape), it, lay.shape[d]))
                shape.append(lay.shape[d])
                strides.append(lay.strides[d])
                d += 1
        elif isinstance(it, (int, np.integer)) and not isinstance(it, (bool, np.bool_)):
            size = lay.shape[d]
            i = int(it)
            if not -size <= i < size:
                raise IndexOutOfRange(f"index {i} is out of range for dim {d} of size {size} (shape {x.shape})")
            offset += (i % size) * lay.strides[d]
            d += 1
        else:
            raise IndexOutOfRange(f"unsupported index {it!r} of type {type(it).__name__}")
    shape += lay.shape[d:]
    strides += lay.strides[d:]
    return x._view(Layout(tuple(shape), tuple(strides), offset)), adv


def _linear_index(v: Tensor, adv: list[tuple[int, Tensor, int]]):
    """Permute the advanced dims of ``v`` to the front; return (that view, the
    broadcast index shape, a 1-d int64 linear index into the merged front dims)."""
    from .layout import broadcast_shapes
    pos = [p for p, _, _ in adv]
    rest = [i for i in range(v.ndim) if i not in pos]
    w = v.permute(pos + rest)
    bshape = broadcast_shapes(*(t.shape for _, t, _ in adv), op="indexing")
    c = v.client
    lin = None
    for _, t, size in adv:
        t = t if t.dtype is dt.int64 else c.cast(t, dt.int64)
        if t.size:
            bad = c.any(c.logical_or(c.lt(t, -size), c.ge(t, size)))
            if bool(bad.item()):
                raise IndexOutOfRange(f"index out of range for a dim of size {size} (shape {v.shape})")
            t = c.where(c.lt(t, 0), c.add(t, size), t)
        lin = t if lin is None else c.add(c.mul(lin, size), t)
    lin = lin.broadcast_to(bshape).reshape(-1)
    return w, bshape, lin, pos


def _adjacent(pos: list[int]) -> bool:
    return pos == list(range(pos[0], pos[0] + len(pos)))


def getitem(x: Tensor, index: Any) -> Tensor:
    v, adv = _split(x, index)
    if not adv:
        return v
    w, bshape, lin, pos = _linear_index(v, adv)
    k = len(adv)
    rest_shape = w.shape[k:]
    merged = w.reshape((numel(w.shape[:k]),) + rest_shape)
    out = v.client.index_select(merged, 0, lin).reshape(bshape + rest_shape)
    if _adjacent(pos) and pos[0] > 0:
        nb = len(bshape)
        order = list(range(nb, nb + pos[0])) + list(range(nb)) + list(range(nb + pos[0], out.ndim))
        out = out.permute(order)
    return out


def setitem(x: Tensor, index: Any, value: Any) -> None:
    from .ops.prepare import SCALAR_TYPES, to_operand
    c = x.client
    v, adv = _split(x, index)
    value = to_operand("setitem", c, value)
    if not adv:
        if isinstance(value, SCALAR_TYPES):
            c.fill_(v, value)
        else:
            c.copy_(v, value)
        return
    w, bshape, lin, pos = _linear_index(v, adv)
    k = len(adv)
    rest_shape = w.shape[k:]
    target_shape = (numel(w.shape[:k]),) + rest_shape
    if _adjacent(pos) and pos[0] > 0 and not isinstance(value, SCALAR_TYPES):
        # value is laid out like the getitem result: move its index dims to the front
        vshape = v.shape[:pos[0]] + bshape + rest_shape[pos[0]:]
        try:
            value = value.broadcast_to(vshape)
        except ShapeError:
            raise ShapeError(f"setitem: value of shape {value.shape} does not fit the indexed shape {vshape}") from None
        nb = len(bshape)
        order = list(range(pos[0], pos[0] + nb)) + list(range(pos[0])) + list(range(pos[0] + nb, value.ndim))
        value = value.permute(order)
    vals_shape = (lin.shape[0],) + rest_shape
    if isinstance(value, SCALAR_TYPES):
        vals = c.full(vals_shape, value, x.dtype)
    else:
        try:
            vals = value.broadcast_to(bshape + rest_shape).reshape(vals_shape)
        except ShapeError:
            raise ShapeError(f"setitem: value of shape {value.shape} does not fit the indexed shape "
                             f"{bshape + rest_shape}") from None
    lay = w._layout.reshape(target_shape)
    if lay is not None:
        c.index_put_(w._view(lay), 0, lin, vals)
        return
    tmp = w.contiguous()
    c.index_put_(tmp.reshape(target_shape), 0, lin, vals)
    c.copy_(w, tmp)
