"""wgpu seeded random numbers: Philox4x32-10, the same streams as the CPU backend."""

from __future__ import annotations

from typing import Any

from ... import dtypes as dt
from ...dtypes import DType
from ...ops import prepare_random as prand
from ...tensor import Tensor
from .. import launch
from .. import template as tpl
from ..device import WG, ParamSpec, dispatch_shape, window

FILE = "random.wgsl"
FIELDS = [("n", "i32"), ("nblocks", "i32"), ("per", "i32"), ("seed_lo", "u32"), ("seed_hi", "u32"),
          ("stream_lo", "u32"), ("stream_hi", "u32"), ("low_lo", "u32"), ("low_hi", "u32"),
          ("span_lo", "u32"), ("span_hi", "u32"), ("b0", "u32")]
M32 = 0xFFFFFFFF
# Loop budget: a thread runs Philox's 10 rounds and `per` (<= 4) outputs whatever the size.


def _run(client: Any, section: str, out: Tensor, per: int, seed: int, stream: int, extra: dict | None = None,
         parts: list[str] | None = None) -> Tensor:
    n = out.size
    if n == 0:
        return out
    gpu = client.gpu
    ko = launch.kind(client, out.dtype, section)

    def build():
        spec = ParamSpec(FIELDS)
        src = tpl.build((FILE, "main"), parts or [], [("o", ko, True)], {"TO": ko.ct}, spec.wgsl,
                        {"BODY": tpl.sections(FILE)[section]})
        return src, spec

    pipe, spec = gpu.pipeline(("random", section, ko.name), build)
    seed &= (1 << 64) - 1
    stream &= (1 << 64) - 1
    base = {"per": per, "seed_lo": seed & M32, "seed_hi": seed >> 32, "stream_lo": stream & M32,
            "stream_hi": stream >> 32}
    base.update(extra or {})
    # outputs past one binding: chunks of whole Philox blocks starting on the offset alignment;
    # b0 continues the block counter, so the stream is the same as in one piece
    step = per * gpu.offset_align
    chunk = max(step, (gpu.max_binding - gpu.offset_align) // out.dtype.itemsize // step * step)
    passes = []
    for e0 in range(0, n, chunk):
        m = min(chunk, n - e0)
        nblocks = -(-m // per)
        b, _ = window(out._storage, e0, e0 + m, out.dtype.itemsize, gpu.offset_align)
        p = dict(base, n=m, nblocks=nblocks, b0=e0 // per)
        passes.append((pipe, spec, p, [b], dispatch_shape(-(-nblocks // WG))))
    gpu.run(passes)
    return out


class RandomWgpu:
    """Mixin of WgpuClient: seeded random tensors."""

    def rand(self, shape: tuple[int, ...], dtype: DType, seed: int, stream: int) -> Tensor:
        d = prand.float_dtype("rand", dtype)
        out = self.empty(tuple(shape), d)
        if d is dt.float64:
            return _run(self, "rand_f64", out, 2, seed, stream)
        return _run(self, "rand", out, 4, seed, stream)

    def randn(self, shape: tuple[int, ...], dtype: DType, seed: int, stream: int) -> Tensor:
        d = prand.float_dtype("randn", dtype)
        out = self.empty(tuple(shape), d)
        if d is dt.float64:
            return _run(self, "randn_f64", out, 2, seed, stream, parts=[tpl.find("common.wgsl", "consts", "d")])
        if "shader-f64" in self.gpu.features:  # correctly rounded log/cos: the CPU's libm values
            return _run(self, "randn_wide", out, 2, seed, stream, parts=[tpl.find("common.wgsl", "consts", "d")])
        return _run(self, "randn", out, 2, seed, stream)

    def randint(self, low: int, high: int, shape: tuple[int, ...], dtype: DType, seed: int, stream: int) -> Tensor:
        d, span = prand.randint_args(low, high, dtype)
        out = self.empty(tuple(shape), d)
        span &= (1 << 64) - 1
        lo = low & ((1 << 64) - 1)
        extra = {"low_lo": lo & M32, "low_hi": lo >> 32, "span_lo": span & M32, "span_hi": span >> 32}
        small = span != 0 and span <= 1 << 32
        if d.itemsize == 8:
            return _run(self, "randint64_small" if small else "randint64", out, 4 if small else 2, seed, stream,
                        extra)
        return _run(self, "randint", out, 4, seed, stream, extra)
