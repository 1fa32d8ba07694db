"""Layout: shape, strides (in elements) and offset (in elements).

Every view op is pure arithmetic on a Layout, identical for every backend.
Also the shared stride helpers: row-major strides, coalescing, result memory order.
Shape-only helpers (broadcasting, dim normalisation) are in shapes.py.
"""

from __future__ import annotations

from collections.abc import Sequence

from .errors import IndexOutOfRange, ShapeError
from .shapes import Shape, normalize_dim, normalize_dims, numel

_STRIDES: dict[Shape, Shape] = {}  # shape -> row-major strides (shapes recur constantly)


def contiguous_strides(shape: Sequence[int]) -> Shape:
    """Row-major strides in elements (size-0 dims count as 1, as NumPy)."""
    r = _STRIDES.get(shape) if type(shape) is tuple else None
    if r is not None:
        return r
    r = _contiguous_strides(shape)
    if type(shape) is tuple:
        if len(_STRIDES) > 4096:
            _STRIDES.clear()
        _STRIDES[shape] = r
    return r


def _contiguous_strides(shape: Sequence[int]) -> Shape:
    strides = []
    acc = 1
    for s in reversed(shape):
        strides.append(acc)
        acc *= max(s, 1)
    return tuple(reversed(strides))


_COAL: dict[tuple, tuple[Shape, tuple[Shape, ...]]] = {}  # (shape, strides...) -> coalesced


def coalesce(shape: Sequence[int], *strides: Sequence[int]) -> tuple[Shape, list[Shape]]:
    """Merge adjacent dims that are contiguous with each other in every operand.

    Size-1 dims are dropped. A kernel then walks the fewest dims possible;
    all-contiguous operands become one dim.
    """
    if type(shape) is not tuple:  # callers building lists: tuples make the plan cacheable
        shape = tuple(shape)
    key = (shape, *(st if type(st) is tuple else tuple(st) for st in strides))
    try:
        hit = _COAL.get(key)
    except TypeError:  # unhashable entries: not cached
        hit, key = None, None
    if hit is not None:
        return hit[0], list(hit[1])
    cshape, cstrides = _coalesce(shape, strides)
    if key is not None:
        if len(_COAL) > 4096:
            _COAL.clear()
        _COAL[key] = (cshape, tuple(cstrides))
    return cshape, cstrides


def result_strides(shape: Shape, operand_strides: Sequence[Shape]) -> Shape:
    """Strides of a fresh element-wise result: row-major, unless every operand without a
    broadcast (stride-0) dim has one and the same dense permuted layout (``x.T + y.T``). Then
    the result takes that layout, so the kernel walks all memory in order (NumPy's order="K",
    PyTorch's memory-format propagation) instead of reading across rows."""
    row_major = contiguous_strides(shape)
    cand = None
    for st in operand_strides:
        if 0 in st:
            continue
        if cand is None:
            cand = st
        elif st != cand:
            return row_major
    if cand is None or cand == row_major:
        return row_major
    out = list(row_major)
    expect = 1
    for d in sorted(range(len(shape)), key=lambda d: cand[d]):  # innermost first
        if shape[d] == 1:
            continue  # any stride will do: keep the row-major one
        if cand[d] != expect:
            return row_major  # gaps, overlaps or negative steps: not a permuted dense layout
        out[d] = expect
        expect *= shape[d]
    return tuple(out)


def coalesce_in_order(shape: Shape, order: Shape, *strides: Shape) -> tuple[Shape, list[Shape]]:
    """coalesce() after putting the dims in the memory order of the strides ``order`` (a
    result's, outermost first), so a result laid out like ``x.T`` collapses to one contiguous
    run with its operands."""
    perm = sorted(range(len(shape)), key=lambda d: -order[d])
    return coalesce([shape[d] for d in perm], *([st[d] for d in perm] for st in strides))


def _coalesce(shape: Sequence[int], strides: tuple) -> tuple[Shape, list[Shape]]:
    dims = [i for i, s in enumerate(shape) if s != 1]
    if not dims:
        return (), [() for _ in strides]
    new_shape = [shape[dims[0]]]
    new_strides = [[st[dims[0]]] for st in strides]
    for i in dims[1:]:
        n = shape[i]
        if all(ns[-1] == st[i] * n for ns, st in zip(new_strides, strides, strict=False)):
            new_shape[-1] *= n
            for ns, st in zip(new_strides, strides, strict=False):
                ns[-1] = st[i]
        else:
            new_shape.append(n)
            for ns, st in zip(new_strides, strides, strict=False):
                ns.append(st[i])
    return tuple(new_shape), [tuple(s) for s in new_strides]


class Layout:
    """Shape + strides + offset, all in elements. Immutable."""

    __slots__ = ("shape", "strides", "offset", "_contig", "_numel")

    def __init__(self, shape: Shape, strides: Shape | None = None, offset: int = 0):
        self.shape = shape
        if strides is None:
            self.strides = contiguous_strides(shape)
            self._contig = True  # known by construction: is_contiguous() costs nothing
        else:
            self.strides = strides
            self._contig = None  # computed on first use (a Layout never changes)
        self.offset = offset
        self._numel = None

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def numel(self) -> int:
        n = self._numel
        if n is None:
            n = self._numel = numel(self.shape)
        return n

    def is_contiguous(self) -> bool:
        """Row-major dense, ignoring size-1 dims (the offset may be non-zero)."""
        c = self._contig
        if c is None:
            c = self._contig = self._is_contiguous()
        return c

    def _is_contiguous(self) -> bool:
        acc = 1
        for s, st in zip(reversed(self.shape), reversed(self.strides), strict=False):
            if s != 1 and st != acc:
                return s == 0 or self.numel == 0
            acc *= s
        return True

    def extent(self) -> tuple[int, int]:
        """Lowest and one-past-highest element index this layout touches."""
        if self.numel == 0:
            return self.offset, self.offset
        lo = hi = self.offset
        for s, st in zip(self.shape, self.strides, strict=False):
            if st < 0:
                lo += (s - 1) * st
            else:
                hi += (s - 1) * st
        return lo, hi + 1

    def __repr__(self) -> str:
        return f"Layout(shape={self.shape}, strides={self.strides}, offset={self.offset})"

    # ---- views ---------------------------------------------------------
    def permute(self, dims: Sequence[int]) -> Layout:
        nd = self.ndim
        dims = tuple(normalize_dim(d, nd, "permute") for d in dims)
        if sorted(dims) != list(range(nd)):
            raise ShapeError(f"permute: {dims} is not a permutation of {nd} dims")
        return Layout(tuple(self.shape[d] for d in dims), tuple(self.strides[d] for d in dims), self.offset)

    def reversed(self) -> Layout:
        """Every dim in reverse order (``.T``): a permutation that needs no checking."""
        return Layout(self.shape[::-1], self.strides[::-1], self.offset)

    def transpose(self, d0: int, d1: int) -> Layout:
        nd = len(self.shape)
        d0, d1 = normalize_dim(d0, nd, "transpose"), normalize_dim(d1, nd, "transpose")
        if nd == 0:
            return self
        shape, strides = list(self.shape), list(self.strides)
        shape[d0], shape[d1] = shape[d1], shape[d0]
        strides[d0], strides[d1] = strides[d1], strides[d0]
        return Layout(tuple(shape), tuple(strides), self.offset)

    def reshape(self, shape: Shape) -> Layout | None:
        """A view with the new shape, or None if the strides do not allow one."""
        if self.is_contiguous():
            return Layout(shape, None, self.offset)
        # general case: split old dims into chunks matching new dims (NumPy's algorithm)
        old = [(s, st) for s, st in zip(self.shape, self.strides, strict=False) if s != 1]
        new_strides = [0] * len(shape)
        oi = 0
        ni = 0
        while ni < len(shape):
            if shape[ni] == 1:
                new_strides[ni] = 0
                ni += 1
                continue
            if oi >= len(old):
                return None
            # grow a group of old dims and new dims with equal products
            op_, np_ = old[oi][0], shape[ni]
            o_start, n_start = oi, ni
            while op_ != np_:
                if op_ < np_:
                    oi += 1
                    if oi >= len(old):
                        return None
                    op_ *= old[oi][0]
                else:
                    ni += 1
                    while ni < len(shape) and shape[ni] == 1:
                        ni += 1
                    if ni >= len(shape):
                        return None
                    np_ *= shape[ni]
            for k in range(o_start, oi):  # group must be contiguous within itself
                if old[k][1] != old[k + 1][1] * old[k + 1][0]:
                    return None
            st = old[oi][1]
            for k in range(ni, n_start - 1, -1):
                if shape[k] == 1:
                    new_strides[k] = 0
                    continue
                new_strides[k] = st
                st *= shape[k]
            oi += 1
            ni += 1
        if oi != len(old):
            return None
        return Layout(shape, tuple(new_strides), self.offset)

    def slice(self, dim: int, start: int, stop: int, step: int) -> Layout:
        """Python slice semantics on an already-normalised (start, stop, step)."""
        n = len(range(start, stop, step))
        shape = self.shape[:dim] + (n,) + self.shape[dim + 1:]
        strides = self.strides[:dim] + (self.strides[dim] * step,) + self.strides[dim + 1:]
        offset = self.offset + (start * self.strides[dim] if n else 0)
        return Layout(shape, strides, offset)

    def select(self, dim: int, index: int) -> Layout:
        size = self.shape[dim]
        if not -size <= index < size:
            raise IndexOutOfRange(f"index {index} is out of range for dim {dim} of size {size}")
        index %= size
        return Layout(self.shape[:dim] + self.shape[dim + 1:], self.strides[:dim] + self.strides[dim + 1:],
                      self.offset + index * self.strides[dim])

    def narrow(self, dim: int, start: int, length: int) -> Layout:
        dim = normalize_dim(dim, self.ndim, "narrow")
        size = self.shape[dim]
        if start < 0:
            start += size
        if not (0 <= start <= size and 0 <= length and start + length <= size):
            raise IndexOutOfRange(f"narrow: start {start} length {length} out of range for dim {dim} of size {size}")
        return self.slice(dim, start, start + length, 1)

    def unsqueeze(self, dim: int) -> Layout:
        n = self.ndim + 1
        if not isinstance(dim, int) or not -n <= dim < n:
            raise IndexOutOfRange(f"unsqueeze: dim {dim} out of range for a {self.ndim}-d tensor of shape "
                                  f"{self.shape} (expected {-n} to {n - 1})")
        dim %= n
        st = self.strides[dim] * self.shape[dim] if dim < self.ndim else 1
        return Layout(self.shape[:dim] + (1,) + self.shape[dim:], self.strides[:dim] + (st,) + self.strides[dim:],
                      self.offset)

    def squeeze(self, dim=None) -> Layout:
        if dim is None:
            keep = [i for i, s in enumerate(self.shape) if s != 1]
        else:
            dims = normalize_dims(dim, self.ndim, "squeeze")
            keep = [i for i in range(self.ndim) if i not in dims or self.shape[i] != 1]
        return Layout(tuple(self.shape[i] for i in keep), tuple(self.strides[i] for i in keep), self.offset)

    def expand(self, shape: Shape) -> Layout:
        """Broadcast to ``shape`` with stride 0 on new or size-1 dims (-1 keeps a dim)."""
        nd = len(shape)
        if nd < self.ndim:
            raise ShapeError(f"expand: cannot expand shape {self.shape} to {shape}")
        lead = nd - self.ndim
        out_shape, out_strides = [], []
        for i, s in enumerate(shape):
            if i < lead:
                if s < 0:
                    raise ShapeError(f"expand: -1 is not allowed for a new leading dim in {shape}")
                out_shape.append(s)
                out_strides.append(0)
                continue
            cur, st = self.shape[i - lead], self.strides[i - lead]
            if s == -1 or s == cur:
                out_shape.append(cur)
                out_strides.append(st)
            elif cur == 1:
                out_shape.append(s)
                out_strides.append(0)
            else:
                raise ShapeError(f"expand: cannot broadcast shape {self.shape} to {tuple(shape)}")
        return Layout(tuple(out_shape), tuple(out_strides), self.offset)

    def flip(self, dims) -> Layout:
        dims = normalize_dims(dims, self.ndim, "flip")
        offset = self.offset
        strides = list(self.strides)
        for d in dims:
            if self.shape[d] > 0:
                offset += (self.shape[d] - 1) * strides[d]
            strides[d] = -strides[d]
        return Layout(self.shape, tuple(strides), offset)

    # ---- complex <-> real reinterpretation (real/imag/view_as_real/view_as_complex) ----------
    def complex_part(self, part: int) -> Layout:
        """The real (part 0) or imaginary (part 1) components of a complex layout, counted in
        elements of the real dtype: strides doubled, offset 2 * offset + part."""
        return Layout(self.shape, tuple([2 * s for s in self.strides]), 2 * self.offset + part)

    def complex_pairs(self) -> Layout:
        """A complex layout as (..., 2) real (re, im) pairs (view_as_real)."""
        return Layout((*self.shape, 2), (*[2 * s for s in self.strides], 1), 2 * self.offset)

    def from_pairs(self) -> Layout | None:
        """The complex layout whose pairs these are (view_as_complex): the last dim of size 2
        with stride 1, even offset and even strides (dims of size 1 or an empty tensor: any);
        None when there is none."""
        if not self.shape or self.shape[-1] != 2:
            return None
        empty = self.numel == 0
        if not empty and (self.strides[-1] != 1 or self.offset % 2):
            return None
        strides = []
        for n, st in zip(self.shape[:-1], self.strides[:-1], strict=True):
            if n > 1 and not empty and st % 2:
                return None
            strides.append(st // 2)
        return Layout(self.shape[:-1], tuple(strides), self.offset // 2)
