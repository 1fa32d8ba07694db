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
from .errors import IndexOutOfRange, ShapeError, UnsupportedOperation
from .layout import Layout
from .shapes import numel
from .tensor import Tensor


class _Need:
    """A client whose missing ops raise UnsupportedOperation (backend, op, dtype) instead of
    AttributeError: indexing is built from several client ops a backend may lack."""

    __slots__ = ("_c", "_dtype")

    def __init__(self, client: Any, dtype: Any):
        self._c, self._dtype = client, dtype

    def __getattr__(self, name: str) -> Any:
        fn = getattr(self._c, name, None)
        if fn is None:
            raise UnsupportedOperation(self._c.device.runtime_name, name, self._dtype, reason="needed by indexing")
        return fn


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
    """Apply the basic part of ``index``. Returns (the view, the advanced indices as
    (position in the view, int64/bool-derived index tensor, size of that dim), insert),
    where ``insert`` is the view position the broadcast index dims take when the advanced
    indices are consecutive in the index (NumPy's rule, ints counting as advanced when
    any array index is present), or None when they go first."""
    items = index if isinstance(index, tuple) else (index,)
    conv = []
    for it in items:
        if it is None or it is Ellipsis or isinstance(it, slice):
            conv.append(it)
            continue
        if isinstance(it, (bool, np.bool_)):  # x[True] / x[False]: a new dim of size 1 / 0
            from .creation import tensor
            conv.append(tensor(bool(it), device=x.device))
            continue
        t = _as_index_tensor(it, x)
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
        raise IndexOutOfRange(f"too many indices for a tensor of dimension {x.ndim} (index {index!r})")
    has_adv = any(isinstance(it, Tensor) for it in conv)
    lay = x._layout
    shape, strides, offset = [], [], lay.offset
    adv: list[tuple[int, Tensor, int, bool]] = []  # (view position, index, dim size, from a mask)
    adv_items: list[int] = []  # positions in ``conv`` of the advanced items
    insert = None
    d = 0
    for k, it in enumerate(conv):
        if isinstance(it, Tensor) or (has_adv and isinstance(it, (int, np.integer))):
            adv_items.append(k)
            if insert is None:
                insert = len(shape)
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
                k_dims = it.ndim
                if it.shape != lay.shape[d:d + k_dims]:
                    raise IndexOutOfRange(f"boolean index of shape {it.shape} does not match the indexed "
                                          f"dims {lay.shape[d:d + k_dims]} of a tensor of shape {x.shape}")
                if k_dims == 0:  # 0-d mask: a new dim holding the tensor once (True) or not at all (False)
                    n = 1 if bool(it.item()) else 0
                    adv.append((len(shape), _Need(x.client, x.dtype).full((n,), 0, dt.int64), 1, True))
                    shape.append(1)
                    strides.append(0)
                    continue
                if k_dims > 1 and all(lay.strides[d + i] == lay.strides[d + i + 1] * lay.shape[d + i + 1]
                                      for i in range(k_dims - 1)):
                    # the masked dims merge into one: one flat index (x[x > 0] is one gather)
                    size = numel(it.shape)
                    adv.append((len(shape), _Need(it.client, it.dtype).nonzero(it.reshape(-1))[:, 0], size, True))
                    shape.append(size)
                    strides.append(lay.strides[d + k_dims - 1])
                    d += k_dims
                    continue
                coords = _Need(it.client, it.dtype).nonzero(it)
                for j in range(k_dims):
                    adv.append((len(shape), coords[:, j], lay.shape[d], True))
                    shape.append(lay.shape[d])
                    strides.append(lay.strides[d])
                    d += 1
            else:
                adv.append((len(shape), it, lay.shape[d], False))
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
    if adv_items and adv_items != list(range(adv_items[0], adv_items[-1] + 1)):
        insert = None
    return x._view(Layout(tuple(shape), tuple(strides), offset)), adv, insert


def _linear_index(v: Tensor, adv: list[tuple[int, Tensor, int, bool]]):
    """Permute the advanced dims of ``v`` to the front; return (that view, the
    broadcast index shape, a 1-d int64 linear index into the merged front dims). Indices
    from a mask (nonzero's coordinates) are in range already: only the others are checked
    and wrapped."""
    from .shapes import broadcast_shapes
    pos = [p for p, _, _, _ in adv]
    rest = [i for i in range(v.ndim) if i not in pos]
    w = v.permute(pos + rest)
    try:
        bshape = broadcast_shapes(*(t.shape for _, t, _, _ in adv), op="indexing")
    except ShapeError as e:  # NumPy and PyTorch raise IndexError here
        raise IndexOutOfRange(f"shape mismatch: index tensors cannot be broadcast together ({e})") from None
    c = _Need(v.client, v.dtype)
    lin = None
    for _, t, size, from_mask in adv:
        t = t if t.dtype is dt.int64 else c.cast(t, dt.int64)
        if t.size and not from_mask:
            bad = c.any(c.logical_or(c.lt(t, -size), c.ge(t, size)))
            if bool(bad.item()):
                raise IndexOutOfRange(f"index out of range for a dim of size {size} (shape {v.shape})")
            t = c.where(c.lt(t, 0), c.add(t, size), t)
        lin = t if lin is None else c.add(c.mul(lin, size), t)
    lin = lin.broadcast_to(bshape).reshape(-1)
    return w, bshape, lin, pos


def _overlaps(a: Tensor, b: Tensor) -> bool:
    """Whether two tensors may share elements (same storage, intersecting extents)."""
    if a._storage is not b._storage:
        return False
    (lo1, hi1), (lo2, hi2) = a._layout.extent(), b._layout.extent()
    return lo1 < hi2 and lo2 < hi1


_NoneType, _EllipsisType = type(None), type(Ellipsis)


def _basic(x: Tensor, index: Any) -> Tensor | None:
    """The view for an index made only of ints, slices, None and one Ellipsis (the common,
    per-call-cheap case); None when the index holds anything else."""
    items = index if type(index) is tuple else (index,)
    used = 0
    ell = False
    for it in items:
        t = type(it)
        if t is int or t is slice:
            used += 1
        elif t is _EllipsisType:
            if ell:
                return None  # two ellipses: the general path raises
            ell = True
        elif t is not _NoneType:
            return None
    lay = x._layout
    ndim = len(lay.shape)
    if used > ndim:
        return None
    shape, strides, offset = [], [], lay.offset
    d = 0
    for it in items:
        t = type(it)
        if t is int:
            size = lay.shape[d]
            if not -size <= it < size:
                raise IndexOutOfRange(f"index {it} is out of range for dim {d} of size {size} (shape {x.shape})")
            offset += (it % size) * lay.strides[d]
            d += 1
        elif t is slice:
            st = lay.strides[d]
            start, stop, step = it.indices(lay.shape[d])
            n = len(range(start, stop, step))
            shape.append(n)
            strides.append(st * step)
            if n:
                offset += start * st
            d += 1
        elif it is None:
            shape.append(1)
            strides.append(0)
        else:
            k = ndim - used
            shape += lay.shape[d:d + k]
            strides += lay.strides[d:d + k]
            d += k
    shape += lay.shape[d:]
    strides += lay.strides[d:]
    t = Tensor(x._storage, Layout(tuple(shape), tuple(strides), offset), x.dtype, x.device)
    t._version = x._version  # a view: in-place writes through it count for x too
    return t


def _whole_mask(x: Tensor, index: Any) -> tuple[Tensor, Tensor] | None:
    """For ``x[mask]`` with a bool mask of x's shape over a tensor whose dims merge into one:
    (x as a flat view, the flat indices of the mask's true elements); else None."""
    if (type(index) is not Tensor or index.dtype is not dt.bool_ or not x.ndim or index.shape != x.shape
            or index.device != x.device):
        return None
    lay = x._layout.reshape((x._layout.numel,))
    if lay is None:
        return None
    return x._view(lay), _Need(index.client, index.dtype).nonzero(index.reshape(-1))[:, 0]


def getitem(x: Tensor, index: Any) -> Tensor:
    if (type(index) is Tensor and index.ndim == 1 and index.dtype.is_integer and x.ndim
            and index.device == x.device):  # x[idx]: straight to the gather
        return _Need(x.client, x.dtype).index_select(x, 0, index)
    masked = _whole_mask(x, index)
    if masked is not None:  # x[x > 0]: one gather of the flat indices
        return _Need(x.client, x.dtype).index_select(masked[0], 0, masked[1])
    v = _basic(x, index)
    if v is not None:
        return v
    v, adv, insert = _split(x, index)
    if not adv:
        return v
    if len(adv) == 1 and adv[0][1].ndim == 1:  # x[idx], x[:, idx]: one gather, bounds checked in it
        pos, idx = adv[0][0], adv[0][1]
        out = _Need(v.client, v.dtype).index_select(v, pos, idx)
        to = insert or 0  # NumPy's placement: in place, or first when an int split the indices
        if to != pos:
            order = [d for d in range(out.ndim) if d != pos]
            out = out.permute(order[:to] + [pos] + order[to:])
        return out
    w, bshape, lin, pos = _linear_index(v, adv)
    k = len(adv)
    rest_shape = w.shape[k:]
    merged = w.reshape((numel(w.shape[:k]),) + rest_shape)
    out = _Need(v.client, v.dtype).index_select(merged, 0, lin).reshape(bshape + rest_shape)
    if insert:  # consecutive advanced indices: their dims replace them in place
        nb = len(bshape)
        order = list(range(nb, nb + insert)) + list(range(nb)) + list(range(nb + insert, out.ndim))
        out = out.permute(order)
    return out


def setitem(x: Tensor, index: Any, value: Any) -> None:
    from .ops.prepare import SCALAR_TYPES, to_operand
    c = _Need(x.client, x.dtype)
    if isinstance(value, SCALAR_TYPES):
        masked = _whole_mask(x, index)
        if masked is not None:  # x[x < 0] = 0: one scatter of the scalar at the flat indices
            c.index_put_(masked[0], 0, masked[1], value)
            return
    v = _basic(x, index)
    adv: list = []
    insert = None
    if v is None:
        v, adv, insert = _split(x, index)
    value = to_operand("setitem", c, value)
    if isinstance(value, Tensor) and _overlaps(value, x):  # x[1:] = x[:-1] reads what it writes: copy first
        value = value.clone()
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
    if insert and not isinstance(value, SCALAR_TYPES):
        # value is laid out like the getitem result: move its index dims to the front
        vshape = rest_shape[:insert] + bshape + rest_shape[insert:]
        try:
            value = value.broadcast_to(vshape)
        except ShapeError:
            raise ShapeError(f"setitem: value of shape {value.shape} does not fit the indexed shape {vshape}") from None
        nb = len(bshape)
        order = list(range(insert, insert + nb)) + list(range(insert)) + list(range(insert + nb, value.ndim))
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
