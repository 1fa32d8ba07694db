"""Shape helpers shared by every op: element counts, shape and dim normalisation,
broadcasting and reshape inference. (Strides and views are in layout.py.)"""

from __future__ import annotations

import operator
from collections.abc import Sequence

from .errors import IndexOutOfRange, ShapeError

Shape = tuple[int, ...]


def numel(shape: Sequence[int]) -> int:
    n = 1
    for s in shape:
        n *= s
    return n


def _int_tuple(shape, op: str) -> Shape:
    """An int or a sequence of ints as a tuple of ints."""
    if hasattr(shape, "__index__"):
        shape = (shape,)
    try:
        return tuple(operator.index(s) for s in shape)
    except TypeError:
        raise ShapeError(f"{op}: shape must be an int or a sequence of ints, got {shape!r}") from None


def normalize_shape(shape, op: str = "shape") -> Shape:
    """Accept an int or a sequence of ints; reject negatives."""
    out = _int_tuple(shape, op)
    if any(s < 0 for s in out):
        raise ShapeError(f"{op}: negative dimension in shape {out}")
    return out


def normalize_dim(dim: int, ndim: int, op: str = "op") -> int:
    """Map a possibly negative dim into range(ndim) (0-d tensors accept -1 and 0)."""
    n = max(ndim, 1)
    if not isinstance(dim, int) or not -n <= dim < n:
        raise IndexOutOfRange(f"{op}: dim {dim} out of range for a {ndim}-d tensor")
    return dim % n


def normalize_dims(dim, ndim: int, op: str = "op") -> tuple[int, ...]:
    """None -> every dim; int or tuple -> sorted unique dims; duplicates are an error."""
    if dim is None:
        return tuple(range(ndim))
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    out = tuple(sorted(normalize_dim(d, ndim, op) for d in dims))
    if len(set(out)) != len(out):
        raise ShapeError(f"{op}: repeated dim in {dim}")
    if ndim == 0:
        return ()
    return out


_BCAST: dict[tuple, Shape] = {}  # shapes -> broadcast shape (the same few pairs recur every step)


def broadcast_shapes(*shapes: Sequence[int], op: str = "broadcast") -> Shape:
    """NumPy broadcasting of any number of shapes."""
    if len(shapes) == 2 and tuple(shapes[0]) == tuple(shapes[1]):
        return tuple(shapes[0])
    try:
        r = _BCAST.get(shapes)
    except TypeError:  # lists as shapes: not cached
        r = None
    else:
        if r is not None:
            return r
    r = _broadcast(shapes, op)
    if all(type(x) is tuple for x in shapes):
        if len(_BCAST) > 4096:
            _BCAST.clear()
        _BCAST[shapes] = r
    return r


def _broadcast(shapes: tuple, op: str) -> Shape:
    ndim = max((len(s) for s in shapes), default=0)
    out = [1] * ndim
    for s in shapes:
        for i, d in enumerate(s, ndim - len(s)):
            if d != out[i]:
                if out[i] == 1:
                    out[i] = d
                elif d != 1:
                    shown = " and ".join(str(tuple(x)) for x in shapes)
                    raise ShapeError(f"{op}: shapes {shown} cannot be broadcast together")
    return tuple(out)


def infer_reshape(shape: Sequence[int], n: int, op: str = "reshape") -> Shape:
    """Resolve one -1 in ``shape`` so that it holds ``n`` elements."""
    if type(shape) is tuple:  # fast path: a tuple of non-negative ints
        p = 1
        for s in shape:
            if type(s) is not int or s < 0:
                break
            p *= s
        else:
            if p == n:
                return shape
            raise ShapeError(f"{op}: cannot reshape {n} elements into shape {shape}")
    shape = _int_tuple(shape, op)
    if shape.count(-1) > 1:
        raise ShapeError(f"{op}: only one dim can be -1, got {shape}")
    if -1 in shape:
        rest = numel(s for s in shape if s != -1)
        if rest == 0 or n % rest:
            raise ShapeError(f"{op}: cannot reshape {n} elements into {shape}")
        shape = tuple(n // rest if s == -1 else s for s in shape)
    if any(s < 0 for s in shape) or numel(shape) != n:
        raise ShapeError(f"{op}: cannot reshape {n} elements into shape {shape}")
    return shape
