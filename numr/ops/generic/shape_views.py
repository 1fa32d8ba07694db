"""The shape ops that return views: split, chunk, unbind, meshgrid, movedim and swapaxes.
Written with the view methods (narrow, select, reshape, expand, permute) that Tensor, the
autograd Var and the forward-mode DualTensor all have, so one function serves them all
and gradients come from the views' own rules."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...errors import DTypeError, ShapeError
from ...shapes import normalize_dim
from .methods import client_methods


def _dim_of(op: str, x: Any, dim: int) -> int:
    if x.ndim == 0:
        raise ShapeError(f"{op}: needs a tensor with at least 1 dim, got a 0-d tensor")
    return normalize_dim(dim, x.ndim, op)


def int_arg(op: str, name: str, v: Any) -> int:
    if isinstance(v, bool) or not hasattr(v, "__index__"):
        raise DTypeError(f"{op}: {name} must be an int, got {type(v).__name__}")
    return int(v.__index__())


def split_sizes(op: str, n: int, split_size_or_sections: Any) -> list[int]:
    """The piece sizes of torch.split along a dim of size n."""
    if isinstance(split_size_or_sections, (list, tuple)):
        sizes = [int_arg(op, "section size", s) for s in split_size_or_sections]
        if any(s < 0 for s in sizes) or sum(sizes) != n:
            raise ShapeError(f"{op}: section sizes {sizes} must be >= 0 and sum to the dim's size {n}")
        return sizes
    size = int_arg(op, "split_size", split_size_or_sections)
    if size < 0 or (size == 0 and n > 0):
        raise ShapeError(f"{op}: split_size must be positive, got {size} for a dim of size {n}")
    if n == 0:
        return [0]
    return [size] * (n // size) + ([n % size] if n % size else [])


def _pieces(x: Any, d: int, sizes: list[int]) -> tuple[Any, ...]:
    out, start = [], 0
    for s in sizes:
        out.append(x.narrow(d, start, s))
        start += s
    return tuple(out)


def split_any(x: Any, split_size_or_sections: int | Sequence[int], dim: int = 0) -> tuple[Any, ...]:
    d = _dim_of("split", x, dim)
    return _pieces(x, d, split_sizes("split", x.shape[d], split_size_or_sections))


def chunk_any(x: Any, chunks: int, dim: int = 0) -> tuple[Any, ...]:
    d = _dim_of("chunk", x, dim)
    chunks = int_arg("chunk", "chunks", chunks)
    if chunks <= 0:
        raise ShapeError(f"chunk: chunks must be positive, got {chunks}")
    n = x.shape[d]
    if n == 0:  # torch: ``chunks`` empty pieces
        return _pieces(x, d, [0] * chunks)
    return _pieces(x, d, split_sizes("chunk", n, -(-n // chunks)))


def unbind_any(x: Any, dim: int = 0) -> tuple[Any, ...]:
    d = _dim_of("unbind", x, dim)
    lead = (slice(None),) * d
    return tuple(x[lead + (i,)] for i in range(x.shape[d]))


def meshgrid_any(*tensors: Any, indexing: str = "ij") -> tuple[Any, ...]:
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    if not tensors:
        raise ShapeError("meshgrid: needs at least one tensor")
    if indexing not in ("ij", "xy"):
        raise ValueError(f"meshgrid: indexing must be 'ij' or 'xy', got {indexing!r}")
    if any(t.ndim > 1 for t in tensors):
        raise ShapeError(f"meshgrid: every tensor must be 0-d or 1-d, got shapes {[tuple(t.shape) for t in tensors]}")
    d0 = tensors[0].dtype
    if any(t.dtype is not d0 for t in tensors):
        raise DTypeError(f"meshgrid: every tensor needs the same dtype, got {[t.dtype.name for t in tensors]}")
    pos = list(range(len(tensors)))
    if indexing == "xy" and len(tensors) > 1:
        pos[0], pos[1] = 1, 0
    shape = [0] * len(tensors)
    for t, p in zip(tensors, pos, strict=True):
        shape[p] = t.size
    out = []
    for t, p in zip(tensors, pos, strict=True):
        view = [1] * len(tensors)
        view[p] = t.size
        out.append(t.reshape(tuple(view)).expand(tuple(shape)))
    return tuple(out)


def _dims(op: str, v: Any, ndim: int) -> list[int]:
    items = list(v) if isinstance(v, (list, tuple)) else [v]
    return [normalize_dim(int_arg(op, "dim", i), ndim, op) for i in items]


def movedim_any(x: Any, source: Any, destination: Any) -> Any:
    nd = x.ndim
    src, dst = _dims("movedim", source, nd), _dims("movedim", destination, nd)
    if len(src) != len(dst):
        raise ShapeError(f"movedim: source {source} and destination {destination} differ in length")
    if len(set(src)) != len(src) or len(set(dst)) != len(dst):
        raise ShapeError(f"movedim: repeated dim in source {source} or destination {destination}")
    order: list[int | None] = [None] * max(nd, 1)
    for s, d in zip(src, dst, strict=True):
        order[d] = s
    rest = iter(i for i in range(nd) if i not in src)
    perm = tuple(o if o is not None else next(rest) for o in order[:nd])
    return x.permute(perm)


def swapaxes_any(x: Any, axis0: int, axis1: int) -> Any:
    return x.transpose(axis0, axis1)


def swapdims_any(x: Any, dim0: int, dim1: int) -> Any:
    """swapaxes with torch's argument names (they are part of the keyword contract)."""
    return x.transpose(dim0, dim1)


#: the composites by op name: the client methods below, and the autograd registrations
COMPOSITES = {"split": split_any, "chunk": chunk_any, "unbind": unbind_any, "meshgrid": meshgrid_any,
              "movedim": movedim_any, "moveaxis": movedim_any, "swapaxes": swapaxes_any, "swapdims": swapdims_any}


GENERIC = client_methods(COMPOSITES)
