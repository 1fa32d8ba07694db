"""The linear-algebra basics written once with numr's public functions (every backend runs
them; autograd differentiates through their parts): tensordot and inner through einsum (one
batched matmul), outer and kron as broadcast products, trace as the sum of the diagonal view,
diag/diag_embed and tril/triu as where() over a mask of arange comparisons."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...errors import ShapeError
from ...shapes import normalize_dim
from .einsum import _LETTERS, einsum_any
from .methods import client_methods

_ABC = sorted(_LETTERS)


def _dims_list(d: Any) -> list[int]:
    return [int(d)] if isinstance(d, int) or hasattr(d, "__index__") else [int(v) for v in d]


def tensordot_any(a: Any, b: Any, dims: int | Sequence[Sequence[int]] = 2) -> Any:
    """Sum over a's last ``dims`` dims against b's first (or the explicit pair of dim lists)."""
    if isinstance(dims, int) or hasattr(dims, "__index__") and not isinstance(dims, (list, tuple)):
        n = int(dims)
        if n < 0 or n > a.ndim or n > b.ndim:
            raise ShapeError(f"tensordot: dims={n} must be in [0, min(ndim)] for shapes {a.shape} and {b.shape}")
        da, db = list(range(a.ndim - n, a.ndim)), list(range(n))
    else:
        if len(dims) != 2:
            raise ShapeError(f"tensordot: dims must be an int or a pair of dim lists, got {dims!r}")
        da = [normalize_dim(d, a.ndim, "tensordot") for d in _dims_list(dims[0])]
        db = [normalize_dim(d, b.ndim, "tensordot") for d in _dims_list(dims[1])]
        if len(da) != len(db) or len(set(da)) != len(da) or len(set(db)) != len(db):
            raise ShapeError(f"tensordot: dims {dims!r} must be two lists of distinct dims of equal length")
    for i, j in zip(da, db, strict=True):
        if a.shape[i] != b.shape[j]:
            raise ShapeError(f"tensordot: dim {i} of a (shape {a.shape}) has size {a.shape[i]} but dim {j} "
                             f"of b (shape {b.shape}) has {b.shape[j]}")
    if a.ndim + b.ndim - len(da) > len(_ABC):
        raise ShapeError(f"tensordot: shapes {a.shape} and {b.shape} have too many dims")
    la = _ABC[:a.ndim]
    lb = [""] * b.ndim
    for i, j in zip(da, db, strict=True):
        lb[j] = la[i]
    free = iter(_ABC[a.ndim:])
    lb = [x or next(free) for x in lb]
    out = [x for i, x in enumerate(la) if i not in da] + [x for j, x in enumerate(lb) if j not in db]
    return einsum_any("".join(la) + "," + "".join(lb) + "->" + "".join(out), a, b)


def outer_any(a: Any, b: Any) -> Any:
    if a.ndim != 1 or b.ndim != 1:
        raise ShapeError(f"outer: needs two 1-d tensors, got shapes {a.shape} and {b.shape}")
    return a.reshape((a.shape[0], 1)) * b.reshape((1, b.shape[0]))


def inner_any(a: Any, b: Any) -> Any:
    if a.ndim == 0 or b.ndim == 0:
        return a * b
    if a.shape[-1] != b.shape[-1]:
        raise ShapeError(f"inner: last dims differ, shapes {a.shape} and {b.shape}")
    return tensordot_any(a, b, ([-1], [-1]))


def kron_any(a: Any, b: Any) -> Any:
    nd = max(a.ndim, b.ndim)
    sa = (1,) * (nd - a.ndim) + tuple(a.shape)
    sb = (1,) * (nd - b.ndim) + tuple(b.shape)
    pa = tuple(v for s in sa for v in (s, 1))
    pb = tuple(v for s in sb for v in (1, s))
    return (a.reshape(pa) * b.reshape(pb)).reshape(tuple(x * y for x, y in zip(sa, sb, strict=True)))


def trace_any(x: Any) -> Any:
    import numr as nr
    if x.ndim != 2:
        raise ShapeError(f"trace: needs a 2-d tensor, got shape {x.shape}")
    return nr.sum(nr.diagonal(x, 0, 0, 1))


def _index_diff(rows: int, cols: int, device: Any) -> Any:
    """col - row for each element of a (rows, cols) matrix, int32."""
    import numr as nr
    c = nr.arange(cols, dtype=nr.int32, device=device).reshape((1, cols))
    r = nr.arange(rows, dtype=nr.int32, device=device).reshape((rows, 1))
    return c - r


def _zero(x: Any) -> Any:
    return False if x.dtype.kind == "b" else 0


def diag_embed_any(x: Any, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Any:
    import numr as nr
    if x.ndim == 0:
        raise ShapeError("diag_embed: needs at least 1 dim, got a 0-d tensor")
    nd = x.ndim + 1
    d1, d2 = normalize_dim(dim1, nd, "diag_embed"), normalize_dim(dim2, nd, "diag_embed")
    if d1 == d2:
        raise ShapeError(f"diag_embed: dim1 and dim2 are the same dim ({dim1}, {dim2})")
    k = int(offset)
    n = x.shape[-1] + abs(k)
    v = x
    if k:
        pad = nr.zeros(tuple(x.shape[:-1]) + (abs(k),), dtype=x.dtype, device=x.device)
        v = nr.cat([x, pad], -1)
    v = v.unsqueeze(-1) if k >= 0 else v.unsqueeze(-2)  # row r holds v[r] (k >= 0), column c v[c]
    out = nr.where(_index_diff(n, n, x.device) == k, v, _zero(x))
    if (d1, d2) == (nd - 2, nd - 1):
        return out
    rest = iter(range(nd - 2))
    perm = [nd - 2 if p == d1 else nd - 1 if p == d2 else next(rest) for p in range(nd)]
    return out.permute(tuple(perm))


def diag_any(x: Any, diagonal: int = 0) -> Any:
    import numr as nr
    if x.ndim == 1:
        return diag_embed_any(x, diagonal)
    if x.ndim == 2:
        return nr.diagonal(x, diagonal, 0, 1).contiguous()
    raise ShapeError(f"diag: needs a 1-d or 2-d tensor, got shape {x.shape}")


def _triangle(op: str, x: Any, diagonal: int) -> Any:
    import numr as nr
    if x.ndim < 2:
        raise ShapeError(f"{op}: needs at least 2 dims, got shape {x.shape}")
    diff = _index_diff(x.shape[-2], x.shape[-1], x.device)
    mask = diff <= int(diagonal) if op == "tril" else diff >= int(diagonal)
    return nr.where(mask, x, _zero(x))


def tril_any(x: Any, diagonal: int = 0) -> Any:
    return _triangle("tril", x, diagonal)


def triu_any(x: Any, diagonal: int = 0) -> Any:
    return _triangle("triu", x, diagonal)


#: public name -> the composite taking the public arguments (autograd registers these)
COMPOSITES = {"tensordot": tensordot_any, "outer": outer_any, "inner": inner_any, "kron": kron_any,
              "trace": trace_any, "diag": diag_any, "diag_embed": diag_embed_any, "tril": tril_any,
              "triu": triu_any}


GENERIC = client_methods(COMPOSITES)


def diagonal(self: Any, x: Any, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Any:
    return x.diagonal(offset, dim1, dim2)


GENERIC["diagonal"] = diagonal
