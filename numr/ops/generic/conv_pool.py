"""Pooling written once on the window view: the input padded (-inf for max, 0 for mean, plus
the extra right border a ceil_mode window reaches), then a max or sum over the kh*kw strided
slices of the window view (one per kernel offset) as a chain of elementwise ops: on the CPU
that is 3-4x faster than a reduction over the strided window dims. The max also tracks the
first maximum's offset (ties go to the first, a NaN wins: the last NaN, as torch's kernel); a traced input (autograd
Var, DualTensor) then takes its value through where() over the slices, so the gradient goes
to that first maximum and reaches the input through the slices' rules."""

from __future__ import annotations

import math
from typing import Any

from ...dtypes import iinfo
from ...errors import DTypeError, ShapeError
from ...tensor import Tensor
from .. import api
from ..prepare import plain
from .conv import batched, out_len, tup


def _pool_len(op: str, size: int, k: int, s: int, p: int, d: int, ceil_mode: bool, what: str) -> tuple[int, int]:
    """(windows, extra right padding) along one dim, torch's rule: with ceil_mode a last window
    may run past the padded input but must start inside the input or its left padding."""
    if p > k // 2:
        raise ShapeError(f"{op}: padding {p} must be at most half the kernel size {k} (along {what})")
    span = d * (k - 1) + 1
    padded = size + 2 * p
    if not ceil_mode:
        return out_len(op, padded, k, d, s, what), 0
    n = (padded - span + s - 1) // s + 1  # floor division, as torch's div_rtn
    if (n - 1) * s >= size + p:
        n -= 1
    if n < 1:
        raise ShapeError(f"{op}: the kernel (size {k}, dilation {d}) leaves no window on the padded input "
                         f"({padded}) along {what}")
    return n, max(0, (n - 1) * s + span - padded)


def _setup(op: str, x: Any, kernel_size: Any, stride: Any, padding: Any, dilation: Any, ceil_mode: bool) -> tuple:
    x4, added = batched(op, x, 2)
    k = tup(op, "kernel_size", kernel_size)
    s = k if stride is None or (isinstance(stride, (list, tuple)) and not stride) else tup(op, "stride", stride)
    p, d = tup(op, "padding", padding, lo=0), tup(op, "dilation", dilation)
    (oh, eh), (ow, ew) = (_pool_len(op, x4.shape[2 + i], k[i], s[i], p[i], d[i], ceil_mode, w)
                          for i, w in enumerate(("height", "width")))
    return x4, added, k, s, p, d, (oh, ow), (eh, ew)


def max_pool2d_any(x: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, dilation: Any = 1,
                   ceil_mode: bool = False, return_indices: bool = False) -> Any:
    """torch.nn.functional.max_pool2d."""
    op = "max_pool2d"
    if x.dtype.kind not in "fiu":
        raise DTypeError(f"{op}: needs a numeric tensor, got {x.dtype}")
    x4, added, k, s, p, d, (oh, ow), (eh, ew) = _setup(op, x, kernel_size, stride, padding, dilation, ceil_mode)
    n, c, h, w = x4.shape
    if any(p) or eh or ew:
        low = -math.inf if x.dtype.kind == "f" else int(iinfo(x.dtype).min)
        x4 = api.call("pad", (x4, (p[1], p[1] + ew, p[0], p[0] + eh)), {"value": low})
    wins = _windows(x4, k, d, s, (oh, ow))
    raw = [plain(v) for v in wins]
    geo = _geometry((h, w), k, s, p, d, (oh, ow)) if any(p) or eh or ew else None
    best, idx = _first_max(raw, x.dtype.kind == "f", return_indices or type(x4) is not Tensor,
                           None if geo is None else geo[0])
    if type(x4) is Tensor:
        out = best
    else:  # the traced value: each cell picks its first maximum's window, so the gradient goes there
        out = wins[-1]
        for kk in range(len(wins) - 2, -1, -1):
            out = api.call("where", (idx == kk, wins[kk], out), {})
    out = out[0] if added else out
    if not return_indices:
        return out
    import numr as nr
    t, dev = idx, idx.device
    it = _itype(h * w)
    row = (nr.arange(oh, dtype=it, device=dev) * s[0] - p[0]).reshape(oh, 1)
    col = nr.arange(ow, dtype=it, device=dev) * s[1] - p[1]
    flat = (row + nr.floor_divide(t, k[1]) * d[0]) * w + col + nr.remainder(t, k[1]) * d[1]
    if geo is not None and geo[1] is not None:  # windows wholly in the padding: no element
        flat = nr.where(nr.tensor(geo[1], device=dev), -1, flat)
    flat = nr.cast(flat, nr.int64)
    return out, (flat[0] if added else flat)


def _geometry(hw: tuple, k: tuple, s: tuple, p: tuple, d: tuple, o: tuple) -> tuple[Any, Any]:
    """Where the padding is, per output cell (host arithmetic on sizes): the int32 (oh, ow) number
    of the first kernel offset inside the input (a maximum tie at the padding's -inf goes to it,
    as torch never looks at padding), and the mask of windows wholly in the padding (None if
    none; only dilation makes them): their index is -1, no input element (torch gives an index
    past the window, even past the input, where its backward then writes out of bounds)."""
    import numr as nr
    first = [[next((i for i in range(k[a]) if 0 <= y * s[a] - p[a] + i * d[a] < hw[a]), None)
              for y in range(o[a])] for a in range(2)]
    k0 = [[(fi or 0) * k[1] + (fj or 0) for fj in first[1]] for fi in first[0]]
    empty = [[fi is None or fj is None for fj in first[1]] for fi in first[0]]
    k0t = nr.tensor(k0, dtype=nr.int32).reshape(o)
    return k0t, (empty if any(map(any, empty)) else None)


def _itype(n: int) -> Any:
    """int32 for index arithmetic where it fits (WebGPU without shader-int64 has no int64
    arithmetic); the indices returned are cast to int64."""
    import numr as nr
    return nr.int32 if n < 2**31 else nr.int64


def _windows(x4: Any, k: tuple, d: tuple, s: tuple, o: tuple) -> list:
    """The kh*kw strided views x4[:, :, i*d : : s, j*d : : s] of (oh, ow) cells, row-major:
    slices of the window view, so Vars and DualTensors take them too."""
    return [x4[:, :, i * d[0]: i * d[0] + s[0] * (o[0] - 1) + 1: s[0], j * d[1]: j * d[1] + s[1] * (o[1] - 1) + 1: s[1]]
            for i in range(k[0]) for j in range(k[1])]


def _first_max(vals: list, is_float: bool, want_idx: bool, k0: Any = None) -> tuple[Any, Any]:
    """Elementwise maximum over the windows and the (int32) number of the first maximum (of the
    last NaN if any, as torch): a chain of compare/where ops, on the CPU 2x faster than
    nr.maximum on strided views and 4x faster than a reduction over window dims.
    ``k0``: per cell the first offset inside the input, which keeps a tie with the padding."""
    import numr as nr
    best, idx = vals[0], None
    if want_idx:
        idx = nr.zeros(best.shape, dtype=nr.int32, device=best.device)
        if k0 is not None:  # vals[0] is either that first offset or the padding's lowest value
            idx = idx + k0.to(best.device)
    for kk, v in enumerate(vals[1:], 1):
        upd = v > best
        if is_float:
            upd = upd | nr.isnan(v)  # as torch's kernel: the last NaN of a window wins
        best = nr.where(upd, v, best)
        if want_idx:
            idx = nr.where(upd, kk, idx)
    return best, idx


def _counts(size: int, k: int, s: int, p: int, n: int, include_pad: bool) -> list[int]:
    """Per window along one dim, the divisor part (torch's avg_pool rule)."""
    out = []
    for o in range(n):
        start = o * s - p
        end = min(start + k, size + p)
        out.append(end - start if include_pad else min(end, size) - max(start, 0))
    return out


def avg_pool2d_any(x: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: bool = False,
                   count_include_pad: bool = True, divisor_override: int | None = None) -> Any:
    """torch.nn.functional.avg_pool2d."""
    op = "avg_pool2d"
    if x.dtype.kind != "f":
        raise DTypeError(f"{op}: needs a floating tensor (as torch), got {x.dtype}")
    x4, added, k, s, p, d, (oh, ow), (eh, ew) = _setup(op, x, kernel_size, stride, padding, 1, ceil_mode)
    n, c, h, w = x4.shape
    if any(p) or eh or ew:
        x4 = api.call("pad", (x4, (p[1], p[1] + ew, p[0], p[0] + eh)), {})
    if divisor_override is not None and (isinstance(divisor_override, bool) or int(divisor_override) == 0):
        raise ShapeError(f"{op}: divisor_override must be a non-zero int, got {divisor_override!r}")
    import numr as nr
    acc = nr.float32 if x.dtype.is_low_precision else x.dtype  # 16/8-bit floats sum in float32
    wins = _windows(x4, k, d, s, (oh, ow))
    total = wins[0] if acc is x.dtype else api.call("cast", (wins[0], acc), {})
    for v in wins[1:]:
        total = total + v
    if divisor_override is not None:
        out = total / float(divisor_override)
    else:
        ch = _counts(h, k[0], s[0], p[0], oh, count_include_pad)
        cw = _counts(w, k[1], s[1], p[1], ow, count_include_pad)
        div = nr.tensor([[float(a * b) for b in cw] for a in ch], dtype=acc, device=x.device).reshape(oh, ow)
        out = total / div
    if acc is not x.dtype:
        out = api.call("cast", (out, x.dtype), {})
    return out[0] if added else out


def _adaptive_matrix(size: int, n: int, dtype: Any, device: Any) -> Any:
    """(n, size): row i averages [floor(i*size/n), ceil((i+1)*size/n))."""
    import numr as nr
    rows = []
    for i in range(n):
        a, b = (i * size) // n, -(-((i + 1) * size) // n)
        rows.append([1.0 / (b - a) if a <= j < b else 0.0 for j in range(size)])
    return nr.tensor(rows, dtype=dtype, device=device).reshape(n, size)


def _adaptive_size(op: str, x4: Any, output_size: Any) -> tuple[int, int]:
    h, w = x4.shape[2:]
    sz = list(output_size) if isinstance(output_size, (list, tuple)) else [output_size] * 2
    if len(sz) != 2:
        raise ShapeError(f"{op}: output_size must be an int or 2 ints/None, got {output_size!r}")
    oh, ow = tup(op, "output_size", [h if sz[0] is None else sz[0], w if sz[1] is None else sz[1]])
    if (h == 0 or w == 0) and x4.shape[0] * x4.shape[1]:
        raise ShapeError(f"{op}: input of shape {x4.shape} has an empty spatial dim")
    return oh, ow


def adaptive_avg_pool2d_any(x: Any, output_size: Any) -> Any:
    """torch.nn.functional.adaptive_avg_pool2d: A_h @ x @ A_w^T with averaging matrices."""
    op = "adaptive_avg_pool2d"
    if x.dtype.kind != "f":
        raise DTypeError(f"{op}: needs a floating tensor (as torch), got {x.dtype}")
    x4, added = batched(op, x, 2)
    h, w = x4.shape[2:]
    oh, ow = _adaptive_size(op, x4, output_size)
    import numr as nr
    low = x.dtype.is_low_precision  # 16/8-bit floats: float32 weights and intermediate, one rounding
    acc = nr.float32 if low else x.dtype
    out = api.call("cast", (x4, acc), {}) if low else x4
    if oh != h:
        out = _adaptive_matrix(h, oh, acc, x.device) @ out
    if ow != w:
        out = out @ _adaptive_matrix(w, ow, acc, x.device).transpose(0, 1)
    if low:
        out = api.call("cast", (out, x.dtype), {})
    return out[0] if added else out


def _adaptive_rows(size: int, n: int) -> tuple[list[int], int]:
    """Row numbers (n windows of kmax each; a short window repeats its last row, which changes
    neither its maximum nor, ties going to the first, where that maximum is) and kmax."""
    bounds = [((i * size) // n, -(-((i + 1) * size) // n)) for i in range(n)]
    kmax = max(b - a for a, b in bounds)
    return [min(a + j, b - 1) for a, b in bounds for j in range(kmax)], kmax


def adaptive_max_pool2d_any(x: Any, output_size: Any, return_indices: bool = False) -> Any:
    """torch.nn.functional.adaptive_max_pool2d: the windows gathered with index_select (short
    ones padded by repeating a row), then the first-maximum chain of max_pool2d."""
    import numr as nr
    op = "adaptive_max_pool2d"
    if x.dtype.kind not in "fiu":
        raise DTypeError(f"{op}: needs a numeric tensor, got {x.dtype}")
    x4, added = batched(op, x, 2)
    n, c, h, w = x4.shape
    oh, ow = _adaptive_size(op, x4, output_size)
    (rh, kh), (rw, kw) = _adaptive_rows(h, oh), _adaptive_rows(w, ow)
    ih = nr.tensor(rh, dtype=nr.int64, device=x.device)
    iw = nr.tensor(rw, dtype=nr.int64, device=x.device)
    g = api.call("index_select", (api.call("index_select", (x4, 2, ih), {}), 3, iw), {})
    g = g.reshape(n, c, oh, kh, ow, kw)
    wins = [g[:, :, :, i, :, j] for i in range(kh) for j in range(kw)]
    best, idx = _first_max([plain(v) for v in wins], x.dtype.kind == "f", return_indices or type(x4) is not Tensor)
    out = best
    if type(x4) is not Tensor:
        out = wins[-1]
        for k in range(len(wins) - 2, -1, -1):
            out = api.call("where", (idx == k, wins[k], out), {})
    out = out[0] if added else out
    if not return_indices:
        return out
    it = _itype(h * w)
    pos = nr.tensor([[a * w + b for b in rw] for a in rh], dtype=it, device=x.device)
    pos = pos.reshape(oh, kh, ow, kw)
    flat = nr.zeros(idx.shape, dtype=it, device=x.device)
    for k in range(len(wins)):
        flat = nr.where(idx == k, pos[:, k // kw, :, k % kw], flat)
    flat = nr.cast(flat, nr.int64)
    return out, (flat[0] if added else flat)


def _check_1d(op: str, x: Any) -> None:
    if x.ndim not in (2, 3):
        raise ShapeError(f"{op}: input must be 2-d (unbatched) or 3-d, got shape {x.shape}")


def max_pool1d_any(x: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, dilation: Any = 1,
                   ceil_mode: bool = False, return_indices: bool = False) -> Any:
    """torch.nn.functional.max_pool1d: max_pool2d of height 1 (indices already index L)."""
    _check_1d("max_pool1d", x)
    one = (lambda v: (1, tup("max_pool1d", "argument", v, 1, 0)[0]))
    res = max_pool2d_any(x.unsqueeze(-2), one(kernel_size), None if stride is None else one(stride),
                         (0, tup("max_pool1d", "padding", padding, 1, 0)[0]), one(dilation), ceil_mode, return_indices)
    if return_indices:
        return res[0].squeeze(-2), res[1].squeeze(-2)
    return res.squeeze(-2)


def avg_pool1d_any(x: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: bool = False,
                   count_include_pad: bool = True) -> Any:
    """torch.nn.functional.avg_pool1d: avg_pool2d of height 1."""
    _check_1d("avg_pool1d", x)
    one = (lambda v: (1, tup("avg_pool1d", "argument", v, 1, 0)[0]))
    return avg_pool2d_any(x.unsqueeze(-2), one(kernel_size), None if stride is None else one(stride),
                          (0, tup("avg_pool1d", "padding", padding, 1, 0)[0]), ceil_mode,
                          count_include_pad).squeeze(-2)


#: public name -> the composite taking the public arguments (autograd registers these)
COMPOSITES = {"max_pool1d": max_pool1d_any, "max_pool2d": max_pool2d_any, "avg_pool1d": avg_pool1d_any,
              "avg_pool2d": avg_pool2d_any, "adaptive_avg_pool2d": adaptive_avg_pool2d_any,
              "adaptive_max_pool2d": adaptive_max_pool2d_any}
