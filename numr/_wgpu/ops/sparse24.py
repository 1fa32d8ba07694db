"""wgpu 2:4 sparse @ dense (shaders/sparse24.wgsl: one invocation per output element, b read
in place with any strides) for float32, float16 and bfloat16 (computed in float32) and float64
where the adapter has shader-f64; the groups split over dispatches past the loop budget."""

from __future__ import annotations

from typing import Any

from ...ops.generic import sparse24 as generic
from ...tensor import Tensor
from .. import launch
from .. import template as tpl
from ..device import ParamSpec, dispatch_shape, window

FILE = "sparse24.wgsl"
FIELDS = [("m", "i32"), ("n", "i32"), ("q0", "i32"), ("q1", "i32"), ("first", "i32"), ("ooff", "i32"),
          ("aoff", "i32"), ("boff", "i32"), ("coff", "i32"), ("rsa", "i32"), ("rsb", "i32"), ("csb", "i32"),
          ("rsc", "i32")]


class Sparse24Wgpu:
    """Mixin of WgpuClient: sparse24_matmul."""

    def sparse24_matmul(self, values: Tensor, meta: Tensor, dense: Tensor) -> Tensor:
        m, k, n, d = generic.check(self, values, meta, dense)
        if type(values) is not Tensor or type(dense) is not Tensor:
            return generic.sparse24_matmul(self, values, meta, dense)
        kind = launch.kind(self, d, "sparse24_matmul")
        out = self.empty((m, n), d)
        if out.size == 0:
            return out
        values = values if values.dtype == d else self.cast(values, d)
        dense = dense if dense.dtype == d else self.cast(dense, d)
        if values.strides[1] != 1:
            values = values.contiguous()
        if meta.strides[1] != 1:
            meta = meta.contiguous()
        _launch(self, out, values, meta, dense, kind, k // 4)
        return out


def _launch(client: Any, out: Tensor, a: Tensor, c: Tensor, b: Tensor, kind: Any, groups: int) -> None:
    gpu = client.gpu
    ck = tpl.KINDS["uint8"]

    def build():
        spec = ParamSpec(FIELDS)
        operands = [("o", kind, True), ("a", kind, False), ("b", kind, False), ("c", ck, False)]
        src = tpl.build((FILE, "main"), [], operands, {"ACC": kind.ct, "TO": kind.ct}, spec.wgsl)
        return src, spec

    pipe, spec = gpu.pipeline(("sparse24_matmul", kind.name), build)
    binds, offs = [], []
    for t in (out, a, b, c):
        lo, hi = t._layout.extent()
        bnd, base = window(t._storage, lo, hi, t.dtype.itemsize, gpu.offset_align)
        binds.append(bnd)
        offs.append(t._layout.offset - base)
    m, n = out.shape
    room = gpu.loop_room(64)
    step = groups if room is None else max(1, room)
    base = {"m": m, "n": n, "ooff": offs[0], "aoff": offs[1], "boff": offs[2], "coff": offs[3],
            "rsa": a.strides[0], "rsb": b.strides[0], "csb": b.strides[1], "rsc": c.strides[0]}
    shape = dispatch_shape(-(-(m * n) // 64))
    passes = [(pipe, spec, {**base, "q0": q0, "q1": min(groups, q0 + step), "first": int(q0 == 0)}, binds, shape)
              for q0 in range(0, max(groups, 1), step)]
    gpu.run(passes)


__all__ = ["Sparse24Wgpu"]
