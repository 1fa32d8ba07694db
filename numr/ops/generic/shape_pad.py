"""pad (torch.nn.functional.pad): constant, reflect, replicate and circular modes.

On tensors it is one allocation filled in O(output): the (cropped) input copied into the
centre, then per padded dim its two border strips copied from the already filled part of
the output (or filled with the value). Autograd Vars and DualTensors take ``pad_any``, the
same result as a cat of narrow/flip/expand views per dim, so gradients come from those."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...errors import ShapeError
from .shape_views import int_arg

MODES = ("constant", "reflect", "replicate", "circular")


def pad_plan(shape: tuple[int, ...], pad: Sequence[int], mode: str) -> list[tuple[int, int, int]]:
    """torch's checks; (dim, left, right) for each dim with non-zero padding."""
    if mode not in MODES:
        raise ValueError(f"pad: mode must be one of {MODES}, got {mode!r}")
    if not isinstance(pad, (list, tuple)):
        raise ShapeError(f"pad: pad must be a sequence of ints, got {type(pad).__name__}")
    p = [int_arg("pad", "pad", v) for v in pad]
    nd = len(shape)
    if len(p) % 2 or len(p) // 2 > nd:
        raise ShapeError(f"pad: pad {tuple(p)} must have an even length of at most 2 * {nd} for shape {shape}")
    plan = []
    for k in range(len(p) // 2):
        d, left, right = nd - 1 - k, p[2 * k], p[2 * k + 1]
        n = shape[d] + min(left, 0) + min(right, 0)  # negative pads crop first (every mode, as torch)
        lo, hi = max(left, 0), max(right, 0)
        if n < 0:
            raise ShapeError(f"pad: pad ({left}, {right}) crops more than dim {d} of shape {shape} holds")
        if mode == "reflect" and (lo >= n or hi >= n) and (lo or hi):
            raise ShapeError(f"pad: reflect pad ({left}, {right}) must be smaller than dim {d}'s size {n} "
                             f"after cropping (shape {shape})")
        if mode == "replicate" and n == 0 and (lo or hi):
            raise ShapeError(f"pad: replicate cannot pad the empty dim {d} (shape {shape})")
        if mode == "circular" and (lo > n or hi > n):
            raise ShapeError(f"pad: circular pad ({left}, {right}) wraps around dim {d} of size {n} more than "
                             f"once (shape {shape})")
        if left or right:
            plan.append((d, left, right))
    return plan


def _strips(x: Any, d: int, left: int, right: int, n: int, at: int, mode: str) -> tuple[Any, Any]:
    """The (left, right) border strips for mode reflect/replicate/circular, as views of x whose
    centre (size n along d) starts at ``at``."""
    if mode == "reflect":
        return x.narrow(d, at + 1, left).flip(d), x.narrow(d, at + n - 1 - right, right).flip(d)
    if mode == "circular":
        return x.narrow(d, at + n - left, left), x.narrow(d, at, right)
    shape = list(x.shape)
    shape[d] = left
    lo = x.narrow(d, at, 1).expand(tuple(shape))
    shape[d] = right
    return lo, x.narrow(d, at + n - 1, 1).expand(tuple(shape))


def _crop(x: Any, d: int, left: int, right: int) -> tuple[Any, int, int]:
    """Negative pads crop x first: (x cropped, left, right) with pads >= 0."""
    if left < 0 or right < 0:
        lc, rc = max(-left, 0), max(-right, 0)
        x = x.narrow(d, lc, x.shape[d] - lc - rc)
    return x, max(left, 0), max(right, 0)


def pad_any(x: Any, pad: Sequence[int], mode: str = "constant", value: Any = 0) -> Any:
    """pad as a cat of (full, x, full) or of x's border views per padded dim: for autograd."""
    import numr as nr
    plan = pad_plan(tuple(x.shape), pad, mode)
    for d, left, right in plan:
        x, left, right = _crop(x, d, left, right)
        if not (left or right):
            continue
        if mode == "constant":
            shape = list(x.shape)
            shape[d] = left
            lo = nr.full(tuple(shape), value, dtype=x.dtype, device=x.device)
            shape[d] = right
            hi = nr.full(tuple(shape), value, dtype=x.dtype, device=x.device)
        else:
            lo, hi = _strips(x, d, left, right, x.shape[d], 0, mode)
        x = nr.cat([p for p in (lo, x, hi) if p.shape[d]] or [x], d)
    return x if plan else x.clone()


def pad(self: Any, x: Any, pad: Sequence[int], mode: str = "constant", value: Any = 0) -> Any:
    """The client method: one allocation, the centre copied in, then the border strips."""
    plan = pad_plan(tuple(x.shape), pad, mode)
    shape, centre = list(x.shape), [slice(None)] * x.ndim
    for d, left, right in plan:
        x, left, right = _crop(x, d, left, right)
        shape[d] = left + x.shape[d] + right
        centre[d] = slice(left, left + x.shape[d])
    out = self.empty(tuple(shape), x.dtype)
    if x.size:
        self.copy_(out[tuple(centre)], x)
    if mode == "constant":
        for d, _, _ in plan:
            s = centre[d]
            for strip in (out.narrow(d, 0, s.start), out.narrow(d, s.stop, shape[d] - s.stop)):
                if strip.size:
                    self.fill_(strip, value)
        return out
    region = list(centre)  # dims done so far span the whole output, the others their centre
    for d, _, _ in plan:
        s = centre[d]
        region[d] = slice(None)
        base = out[tuple(region)]
        left, right, n = s.start, shape[d] - s.stop, s.stop - s.start
        if not (left or right):
            continue
        lo, hi = _strips(base, d, left, right, n, left, mode)
        for dst, src in ((base.narrow(d, 0, left), lo), (base.narrow(d, left + n, right), hi)):
            if dst.size:
                self.copy_(dst, src)
    return out
