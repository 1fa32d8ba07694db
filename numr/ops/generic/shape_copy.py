"""The shape ops that copy: repeat, tile, repeat_interleave, roll and one_hot, each
O(output) on every backend with no new kernel: repeat is one broadcast view copied once,
roll is cat of two narrow views per dim, repeat_interleave with per-element counts is one
index_select (its index built on the device from a cumsum). Written with public functions
and views, so autograd Vars and DualTensors differentiate through them."""

from __future__ import annotations

from typing import Any

from ...errors import DTypeError, IndexOutOfRange, ShapeError
from ...shapes import normalize_dim
from .indexing import prepare_index
from .methods import client_methods
from .shape_views import int_arg


def _sizes(op: str, sizes: Any) -> tuple[int, ...]:
    if len(sizes) == 1 and isinstance(sizes[0], (list, tuple)):
        sizes = tuple(sizes[0])
    out = tuple(int_arg(op, "size", s) for s in sizes)
    if any(s < 0 for s in out):
        raise ShapeError(f"{op}: sizes must be >= 0, got {out}")
    return out


def repeat_any(x: Any, *sizes: Any) -> Any:
    reps = _sizes("repeat", sizes)
    if len(reps) < x.ndim:
        raise ShapeError(f"repeat: {len(reps)} sizes {reps} for a {x.ndim}-d tensor of shape {x.shape}; "
                         "give at least one per dim")
    return _tile(x, reps)


def _tile(x: Any, reps: tuple[int, ...]) -> Any:
    shape = (1,) * (len(reps) - x.ndim) + tuple(x.shape)
    pairs = tuple(v for s in shape for v in (1, s))
    big = tuple(v for r, s in zip(reps, shape, strict=True) for v in (r, s))
    out = tuple(r * s for r, s in zip(reps, shape, strict=True))
    return x.reshape(pairs).expand(big).clone().reshape(out)  # one copy, a fresh tensor even when reps are 1


def tile_any(x: Any, reps: Any) -> Any:
    reps = _sizes("tile", reps if isinstance(reps, (list, tuple)) else (reps,))
    return _tile(x, (1,) * (x.ndim - len(reps)) + reps)


def repeat_interleave_any(x: Any, repeats: Any, dim: int | None = None) -> Any:
    if dim is None:
        x, d = x.reshape(-1), 0
    else:
        d = normalize_dim(dim, x.ndim, "repeat_interleave")
        if x.ndim == 0:
            x = x.reshape(1)
    n = x.shape[d]
    if not isinstance(repeats, int) or isinstance(repeats, bool):
        if isinstance(repeats, bool):
            raise DTypeError("repeat_interleave: repeats must be an int or an integer tensor, got bool")
        reps = prepare_index(x, repeats)
        if not reps.dtype.is_integer or reps.dtype.kind == "b":
            raise DTypeError(f"repeat_interleave: repeats must be an integer tensor, got {reps.dtype}")
        if reps.ndim > 1 or (reps.size not in (1, n)):
            raise ShapeError(f"repeat_interleave: repeats of shape {reps.shape} must be 0-d, of size 1 or "
                             f"1-d of size {n} (the tensor's size along dim {d})")
        if reps.size != 1:
            return _by_counts(x, d, reps)
        repeats = int(reps.reshape(()).item())
    if repeats < 0:
        raise ShapeError(f"repeat_interleave: repeats must be >= 0, got {repeats}")
    shape = tuple(x.shape)
    big = shape[:d + 1] + (repeats,) + shape[d + 1:]
    return x.unsqueeze(d + 1).expand(big).clone().reshape(shape[:d] + (n * repeats,) + shape[d + 1:])


def _by_counts(x: Any, d: int, reps: Any) -> Any:
    """x's slices along d, slice i ``reps[i]`` times: index_select with idx[j] = #{i: cum[i] <= j}."""
    import numr as nr
    r = nr.cast(reps, nr.int64)
    cum = nr.cumsum(r, 0)
    lo, total = nr.stack([nr.amin(r), cum[-1]]).tolist() if r.size else (0, 0)  # one host read
    if lo < 0:
        raise ShapeError(f"repeat_interleave: repeats must be >= 0, got {lo}")
    marks = nr.zeros((total + 1,), dtype=nr.int64, device=r.device)
    marks = nr.index_add(marks, 0, cum, nr.ones((r.size,), dtype=nr.int64, device=r.device))
    idx = nr.cumsum(marks[:total], 0)
    return nr.index_select(x, d, idx)


def roll_any(x: Any, shifts: Any, dims: Any = None) -> Any:
    import numr as nr
    sh = [int_arg("roll", "shift", s) for s in (shifts if isinstance(shifts, (list, tuple)) else (shifts,))]
    if dims is None:
        if len(sh) != 1:
            raise ShapeError(f"roll: {len(sh)} shifts {tuple(sh)} need as many dims, got dims None")
        return roll_any(x.reshape(-1), sh[0], 0).reshape(x.shape)
    ds = [int_arg("roll", "dim", v) for v in (dims if isinstance(dims, (list, tuple)) else (dims,))]
    if len(ds) != len(sh):
        raise ShapeError(f"roll: shifts {tuple(sh)} and dims {tuple(ds)} differ in length")
    if x.ndim == 0:
        raise ShapeError("roll: a 0-d tensor has no dims to roll along; use dims=None")
    out = None
    for s, dim in zip(sh, ds, strict=True):
        d = normalize_dim(dim, x.ndim, "roll")
        n = x.shape[d]
        s = s % n if n else 0
        if s:
            cur = x if out is None else out
            out = nr.cat([cur.narrow(d, n - s, s), cur.narrow(d, 0, n - s)], d)
    return x.clone() if out is None else out


def one_hot_any(index: Any, num_classes: int = -1) -> Any:
    import numr as nr
    if not hasattr(index, "dtype") or not index.dtype.is_integer or index.dtype.kind == "b":
        raise DTypeError(f"one_hot: index must be an integer tensor, got {getattr(index, 'dtype', type(index))}")
    num_classes = int_arg("one_hot", "num_classes", num_classes)
    if num_classes < -1:
        raise ShapeError(f"one_hot: num_classes must be -1 or >= 0, got {num_classes}")
    if index.size:
        lo, hi = nr.stack([nr.amin(index), nr.amax(index)]).tolist()  # one host read
        if num_classes == -1:
            num_classes = hi + 1
        if lo < 0 or hi >= num_classes:
            raise IndexOutOfRange(f"one_hot: class {lo if lo < 0 else hi} out of range for {num_classes} classes "
                                  f"(index shape {tuple(index.shape)})")
    elif num_classes == -1:
        raise ShapeError("one_hot: cannot infer the number of classes of an empty tensor; give num_classes")
    classes = nr.arange(num_classes, dtype=index.dtype, device=index.device)
    return nr.cast(index.unsqueeze(-1) == classes, nr.int64)


COMPOSITES = {"repeat": repeat_any, "tile": tile_any, "repeat_interleave": repeat_interleave_any,
              "roll": roll_any, "one_hot": one_hot_any}
GENERIC = client_methods(COMPOSITES)
