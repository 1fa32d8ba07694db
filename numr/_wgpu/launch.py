"""Helpers every wgpu op family uses: dtype kinds, allocation, and the strided
element-wise launcher (coalescing, chunking past the binding limit, aliasing)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..dtypes import DType
from ..errors import UnsupportedDType, UnsupportedOperation
from ..layout import Layout, coalesce
from ..shapes import numel
from ..tensor import Tensor
from . import template as tpl
from .device import MAXD, WG, ParamSpec, dispatch_shape, window

EW = "elementwise.wgsl"
# Loop budget (device.loop_budget): a skeleton thread handles one element; its loops are the
# coords walk (<= MAXD) and the op's own fixed-trip loops (fmod's <= 2200 exact steps, erf's
# series, int pow's bits), all far below lavapipe's 65535: only bodies that loop over data
# (index_add_'s accumulate) bound themselves, in their launchers.
BASE_FIELDS = [("n", "i32"), ("ndim", "i32"), ("i0", "i32"), ("offs", "i4"), ("shape", "ivec"),
               ("st0", "ivec"), ("st1", "ivec"), ("st2", "ivec"), ("st3", "ivec")]
NAMES = ("o", "a", "b", "c")


#: ops that work on widened int64/uint64 (no shader-int64): exact in 32-bit arithmetic
W64_OPS = frozenset("empty allocate from_numpy copy_ cast fill_ full where index_select index_put_ nonzero "
                    "argmax argmin arange arange_int eye".split())


def kind(client: Any, d: DType, op: str) -> tpl.Kind:
    """The storage kind of ``d`` on this device, or UnsupportedDType naming op and dtype."""
    k = tpl.kind(d)
    if k is not None and k.feature == "shader-int64" and k.feature not in client.gpu.features:
        if op in W64_OPS:
            return tpl.KINDS[d.name + "w"]
        raise UnsupportedDType("wgpu", op, d, "the adapter lacks shader-int64: int64 tensors hold data, index "
                               "results and integer casts here, not arithmetic")
    if k is None or (k.feature is not None and k.feature not in client.gpu.features):
        why = f"the adapter lacks {k.feature}" if k is not None else "no WGSL representation"
        raise UnsupportedDType("wgpu", op, d, why)
    return k


def section(client: Any, fname: str, name: str, k: tpl.Kind, op: str, d: DType) -> str:
    """An op section for compute class ``k.cls``, or UnsupportedDType."""
    s = tpl.find(fname, name, k.cls)
    if s is None:
        raise UnsupportedDType("wgpu", op, d, f"no {k.ct} kernel")
    return s


def empty(client: Any, shape: tuple[int, ...], dtype: DType) -> Tensor:
    kind(client, dtype, "empty")
    st = client.gpu.alloc(numel(shape) * dtype.itemsize)
    return Tensor(st, Layout(tuple(shape)), dtype, client.device)


def _extent(shape, strides, off) -> tuple[int, int]:
    lo = hi = off
    for s, st in zip(shape, strides, strict=False):
        if s == 0:
            return off, off
        if st < 0:
            lo += (s - 1) * st
        else:
            hi += (s - 1) * st
    return lo, hi + 1


def chunks(shape: tuple[int, ...], strides: list[tuple[int, ...]], offs: list[int], sizes: list[int],
           limit: int, i0: int = 0):
    """Split an element-wise problem along its leading dims until every operand's
    touched bytes fit one binding. Yields (shape, strides, offsets, first index)."""
    exts = [_extent(shape, st, o) for st, o in zip(strides, offs, strict=True)]
    fits = all((e[1] - e[0]) * sz <= limit for e, sz in zip(exts, sizes, strict=True))
    if fits or not shape or numel(shape) <= 1:
        yield shape, strides, offs, i0
        return
    n0 = shape[0]
    if n0 == 1:
        yield from chunks(shape[1:], [st[1:] for st in strides], offs, sizes, limit, i0)
        return
    half = n0 // 2
    rest = numel(shape[1:])
    yield from chunks((half,) + shape[1:], strides, offs, sizes, limit, i0)
    moved = [o + half * st[0] for o, st in zip(offs, strides, strict=True)]
    yield from chunks((n0 - half,) + shape[1:], strides, moved, sizes, limit, i0 + half * rest)


def elementwise(client: Any, key: Any, out: Tensor, ins: list[Tensor], make: Callable[[], dict],
                values: dict | None = None, kinds: list[tpl.Kind] | None = None,
                fixed: dict[int, Tensor] | None = None) -> Tensor:
    """Run the element-wise skeleton: ``out`` and ``ins`` share out's shape (inputs
    already broadcast). ``make()`` gives {body, parts, aliases, fields} on a cache miss.
    ``fixed`` maps operand positions (0 = out) to tensors whose whole extent is bound
    (gathers/scatters address them through data, not through the shared shape)."""
    if out.size == 0:
        return out
    gpu = client.gpu
    fixed = fixed or {}
    ins = [x.clone() if x._storage is out._storage and i + 1 not in fixed else x for i, x in enumerate(ins)]
    ops = [out] + ins
    kinds = kinds or [kind(client, t.dtype, str(key[0])) for t in ops]

    def build():
        m = make()
        spec = ParamSpec(BASE_FIELDS + m.get("fields", []))
        aliases = {"T" + n.upper(): k.ct for n, k in zip(NAMES, kinds, strict=False)}
        aliases["T"] = kinds[1].ct if len(kinds) > 1 else kinds[0].ct
        aliases.update(m.get("aliases", {}))
        aliases = {a: t for a, t in aliases.items() if a not in ("TO",)} | {"TO": aliases["TO"]}
        operands = [(n, k, i == 0) for i, (n, k) in enumerate(zip(NAMES, kinds, strict=False))]
        src = tpl.build((EW, "main"), m.get("parts", []), operands, aliases, spec.wgsl, {"BODY": m["body"]})
        return src, spec

    pipe, spec = gpu.pipeline(("ew", key, tuple(k.name for k in kinds)), build)
    shape, strides = coalesce(out.shape, *(t.strides for t in ops))
    if len(shape) > MAXD:
        raise UnsupportedOperation("wgpu", str(key[0]), reason=f"more than {MAXD} non-mergeable dims {out.shape}")
    sizes = [t.dtype.itemsize for t in ops]
    limit = gpu.max_binding - gpu.offset_align - 8
    for t in fixed.values():
        lo, hi = t._layout.extent()
        if (hi - lo) * t.dtype.itemsize > limit:
            raise UnsupportedOperation("wgpu", str(key[0]), t.dtype, "an indexed operand exceeds the binding limit")
    passes = []
    csizes = [0 if j in fixed else sz for j, sz in enumerate(sizes)]
    for shp, sts, offs, i0 in chunks(shape, strides, [t._layout.offset for t in ops], csizes, limit):
        binds, rel = [], []
        for j, (t, st, o, sz) in enumerate(zip(ops, sts, offs, sizes, strict=False)):
            lo, hi = _extent(shp, st, o) if j not in fixed else fixed[j]._layout.extent()
            b, base = window(t._storage, lo, hi, sz, gpu.offset_align)
            binds.append(b)
            rel.append(o - base)
        n = numel(shp)
        p = {"n": n, "ndim": len(shp), "i0": i0, "offs": rel, "shape": list(shp)}
        for j, st in enumerate(sts):
            p[f"st{j}"] = list(st)
        p.update(values or {})
        passes.append((pipe, spec, p, binds, dispatch_shape(-(-n // WG))))
    gpu.run(passes)
    return out


def whole(st: Any) -> Any:
    """A binding of a whole scratch buffer."""
    from .device import Binding
    return Binding(st.buffer, 0, st.buffer.size)
