"""One wgpu device per adapter, buffers, the pipeline cache, uniform packing and dispatch.

Everything that talks to wgpu-py directly lives here; the op families only
describe kernels (shader, dtypes, parameters, bindings) and call ``launch``.
"""

from __future__ import annotations

import functools
import math
import os
import struct
import threading
from typing import Any

import numpy as np

from ..errors import DeviceError, KernelCompileError, OutOfMemoryError

WG = 256  # threads per workgroup of the 1-d kernels
MAXD = 8  # dims a strided kernel walks after coalescing (two vec4 slots)

#: features requested when the adapter has them
WANTED_FEATURES = ("shader-f16", "shader-f64", "shader-int64", "subgroup")

#: the loop-limit probe: one invocation counts a loop whose trip count it reads from memory
#: (no unrolling). Mesa's llvmpipe/lavapipe caps the loop iterations ONE invocation runs, summed
#: over all its loops, at 65535 and then exits every loop silently; real GPUs count to the end.
PROBE_ITERS = 1 << 20
PROBE_WGSL = """
@group(0) @binding(0) var<storage, read_write> buf: array<u32>;
@compute @workgroup_size(1)
fn main() {
  let n = buf[0];
  var c = 0u;
  for (var i = 0u; i < n; i = i + 1u) { c = c + 1u; }
  buf[1] = c;
}
"""


def budget_override() -> tuple[bool, int | None]:
    """NUMR_WGPU_LOOP_BUDGET: a positive integer simulates that loop budget on any adapter
    (exercises the splitting paths with small tensors); "none" means unlimited."""
    v = os.environ.get("NUMR_WGPU_LOOP_BUDGET", "").strip().lower()
    if not v:
        return False, None
    if v in ("none", "0", "inf", "unlimited"):
        return True, None
    try:
        n = int(v)
    except ValueError:
        raise DeviceError(f"NUMR_WGPU_LOOP_BUDGET={v!r}: expected a positive integer or 'none'") from None
    return True, (n if n > 0 else None)


class ParamSpec:
    """A uniform-buffer layout: every field starts on a 16-byte boundary (padding members).

    The WGSL struct and the bytes come from the same field list, so they cannot
    disagree. Types: u32, i32, f32, f64, i64, u64 (scalars, 16 bytes each),
    i4 (vec4<i32>), ivec (array<vec4<i32>, 2>: MAXD ints, 32 bytes).
    """

    _FMT = {"u32": "<I", "i32": "<i", "f32": "<f", "f64": "<d", "i64": "<q", "u64": "<Q"}

    def __init__(self, fields: list[tuple[str, str]]):
        self.fields = list(fields)
        self.offsets: dict[str, tuple[int, str]] = {}
        off = 0
        for name, ty in self.fields:
            self.offsets[name] = (off, ty)
            off += 32 if ty == "ivec" else 16
        self.size = max(off, 16)

    @property
    def wgsl(self) -> str:
        # explicit padding members rather than @align(16): naga's GLSL backend ignores the
        # attribute, so the OpenGL adapter would read shifted fields
        body = []
        for name, ty in self.fields:
            wty = {"ivec": "array<vec4<i32>, 2>", "i4": "vec4<i32>"}.get(ty, ty)
            body.append(f"  {name}: {wty},")
            pad = {"f64": 1, "i64": 1, "u64": 1, "ivec": 0, "i4": 0}.get(ty, 3)
            body += [f"  _pad_{name}{j}: {'u64' if ty in ('i64', 'u64') else 'f64' if ty == 'f64' else 'u32'},"
                     for j in range(pad)]
        return "struct Params {\n" + "\n".join(body) + "\n}\n@group(0) @binding(0) var<uniform> P: Params;\n"

    def pack(self, values: dict[str, Any]) -> bytes:
        buf = bytearray(self.size)
        for name, (off, ty) in self.offsets.items():
            v = values.get(name, () if ty in ("ivec", "i4") else 0)
            if ty in ("ivec", "i4"):
                n = 8 if ty == "ivec" else 4
                vals = list(v) + [0] * (n - len(v))
                struct.pack_into(f"<{n}i", buf, off, *vals)
            else:
                struct.pack_into(self._FMT[ty], buf, off, v)
        return bytes(buf)


def disabled_features() -> set[str]:
    """Features to leave off (NUMR_WGPU_DISABLE=shader-f64,shader-int64): tests the paths
    taken on adapters without them, e.g. browsers' WebGPU."""
    return {f.strip() for f in os.environ.get("NUMR_WGPU_DISABLE", "").split(",") if f.strip()}


def dispatch_shape(groups: int) -> tuple[int, int, int]:
    """Workgroup counts for ``groups`` workgroups: 2-d past the per-dimension limit."""
    if groups <= 65535:
        return (max(groups, 1), 1, 1)
    y = math.ceil(groups / 65535)
    return (math.ceil(groups / y), y, 1)


class WgpuStorage:
    """A GPU buffer holding ``nbytes`` bytes (rounded up to 4) on one WgpuDevice."""

    __slots__ = ("buffer", "nbytes", "gpu")

    def __init__(self, buffer: Any, nbytes: int, gpu: WgpuDevice):
        self.buffer = buffer
        self.nbytes = nbytes
        self.gpu = gpu


class Binding:
    """A storage operand of one dispatch: a window of a buffer."""

    __slots__ = ("buffer", "offset", "size")

    def __init__(self, buffer: Any, offset: int = 0, size: int | None = None):
        self.buffer = buffer
        self.offset = offset
        self.size = buffer.size - offset if size is None else size


class WgpuDevice:
    """The wgpu device of one adapter, shared by every tensor on it."""

    def __init__(self, adapter: Any):
        import wgpu
        self.wgpu = wgpu
        self.adapter = adapter
        feats = set(adapter.features) - disabled_features()
        self.features = frozenset(f for f in WANTED_FEATURES if f in feats)
        try:
            self.device = adapter.request_device_sync(required_features=sorted(self.features))
        except Exception as e:  # pragma: no cover - depends on the driver
            raise DeviceError(f"wgpu: could not create a device on {adapter.info.get('device')}: {e}") from e
        lim = self.device.limits
        self.max_binding = int(lim["max-storage-buffer-binding-size"])
        self.max_buffer = int(lim["max-buffer-size"])
        self.offset_align = int(lim["min-storage-buffer-offset-alignment"])
        self.wg_storage = int(lim["max-compute-workgroup-storage-size"])
        self._pipelines: dict[Any, tuple[Any, ParamSpec]] = {}
        self._lock = threading.Lock()
        self._usage = (wgpu.BufferUsage.STORAGE | wgpu.BufferUsage.COPY_SRC | wgpu.BufferUsage.COPY_DST)
        self._sync_buf = None

    @functools.cached_property
    def loop_budget(self) -> int | None:
        """Loop iterations one shader invocation may run in all (None: unlimited); kernels whose
        trip counts grow with the data split their work to stay below it (docs/architecture.md).
        Measured on first use, so a device that never runs such a kernel never probes."""
        overridden, budget = budget_override()
        return budget if overridden else self._probe_loop_budget()

    def _probe_loop_budget(self) -> int | None:
        """Run PROBE_WGSL once: None when the loop ran all PROBE_ITERS, else the iterations it got."""
        dev = self.device
        try:
            buf = dev.create_buffer_with_data(data=struct.pack("<II", PROBE_ITERS, 0), usage=self._usage)
            pipe = dev.create_compute_pipeline(
                layout="auto", compute={"module": dev.create_shader_module(code=PROBE_WGSL), "entry_point": "main"})
            bg = dev.create_bind_group(layout=pipe.get_bind_group_layout(0), entries=[
                {"binding": 0, "resource": {"buffer": buf, "offset": 0, "size": 8}}])
            enc = dev.create_command_encoder()
            cp = enc.begin_compute_pass()
            cp.set_pipeline(pipe)
            cp.set_bind_group(0, bg)
            cp.dispatch_workgroups(1, 1, 1)
            cp.end()
            dev.queue.submit([enc.finish()])
            count = struct.unpack("<I", bytes(dev.queue.read_buffer(buf, 4, 4)))[0]
        except Exception as e:  # pragma: no cover - depends on the driver
            raise DeviceError(f"wgpu: the loop-limit probe failed on {self.adapter.info.get('device')}: {e}") from e
        return None if count >= PROBE_ITERS else int(count)

    def loop_room(self, reserve: int = 0) -> int | None:
        """Loop iterations one invocation may spend after ``reserve`` others (None: unlimited).
        Raises nothing: callers compare, split, or raise UnsupportedOperation themselves."""
        if self.loop_budget is None:
            return None
        return max(0, self.loop_budget - reserve)

    # ---- buffers -----------------------------------------------------------
    def alloc(self, nbytes: int) -> WgpuStorage:
        size = max(4, (nbytes + 3) // 4 * 4)
        if size > self.max_buffer:
            raise OutOfMemoryError(f"wgpu: {nbytes} bytes exceed the adapter's max buffer size {self.max_buffer}")
        try:
            buf = self.device.create_buffer(size=size, usage=self._usage)
        except Exception as e:
            raise OutOfMemoryError(f"wgpu: allocating {nbytes} bytes failed: {e}") from e
        return WgpuStorage(buf, nbytes, self)

    def upload(self, data: np.ndarray) -> WgpuStorage:
        raw = np.ascontiguousarray(data).reshape(-1).view(np.uint8)
        st = self.alloc(raw.nbytes)
        if raw.nbytes:
            pad = (-raw.nbytes) % 4
            if pad:
                raw = np.concatenate([raw, np.zeros(pad, np.uint8)])
            self.device.queue.write_buffer(st.buffer, 0, raw)
        return st

    def read(self, st: WgpuStorage, byte_offset: int, nbytes: int) -> np.ndarray:
        """Bytes [byte_offset, byte_offset + nbytes) of a buffer (waits for pending work)."""
        if nbytes <= 0:
            return np.empty(0, np.uint8)
        lo = byte_offset // 4 * 4
        hi = min((byte_offset + nbytes + 3) // 4 * 4, st.buffer.size)
        mv = self.device.queue.read_buffer(st.buffer, lo, hi - lo)
        raw = np.frombuffer(mv, np.uint8)
        return raw[byte_offset - lo: byte_offset - lo + nbytes]

    def synchronize(self) -> None:
        """Wait for every submitted command (reading a few bytes is the portable sync point)."""
        if self._sync_buf is None:
            self._sync_buf = self.alloc(4)
        self.device.queue.read_buffer(self._sync_buf.buffer, 0, 4)

    # ---- pipelines ---------------------------------------------------------
    def pipeline(self, key: Any, build: Any) -> tuple[Any, ParamSpec]:
        """The cached (pipeline, ParamSpec) for ``key``; ``build()`` gives (source, spec) on a miss."""
        hit = self._pipelines.get(key)
        if hit is not None:
            return hit
        with self._lock:
            hit = self._pipelines.get(key)
            if hit is not None:
                return hit
            source, spec = build()
            try:
                module = self.device.create_shader_module(code=source)
                pipe = self.device.create_compute_pipeline(
                    layout="auto", compute={"module": module, "entry_point": "main"})
            except Exception as e:
                raise KernelCompileError(f"wgpu: compiling kernel {key} failed",
                                         f"{e}\n--- source ---\n{source}") from e
            self._pipelines[key] = (pipe, spec)
            return pipe, spec

    @property
    def cached_pipelines(self) -> int:
        return len(self._pipelines)

    # ---- dispatch ----------------------------------------------------------
    def run(self, passes: list[tuple[Any, ParamSpec, dict, list[Binding], tuple[int, int, int]]]) -> None:
        """Record and submit dispatches in order: (pipeline, spec, params, bindings, workgroups)."""
        dev = self.device
        enc = dev.create_command_encoder()
        cp = enc.begin_compute_pass()
        keep = []
        for pipe, spec, params, bindings, groups in passes:
            if groups[0] * groups[1] * groups[2] == 0:
                continue
            ubuf = dev.create_buffer_with_data(data=spec.pack(params), usage=self.wgpu.BufferUsage.UNIFORM)
            entries = [{"binding": 0, "resource": {"buffer": ubuf, "offset": 0, "size": ubuf.size}}]
            for i, b in enumerate(bindings, 1):
                entries.append({"binding": i, "resource": {"buffer": b.buffer, "offset": b.offset,
                                                           "size": max(4, b.size)}})
            bg = dev.create_bind_group(layout=pipe.get_bind_group_layout(0), entries=entries)
            keep.append((ubuf, bg))
            cp.set_pipeline(pipe)
            cp.set_bind_group(0, bg)
            cp.dispatch_workgroups(*groups)
        cp.end()
        dev.queue.submit([enc.finish()])

    def copy_buffer(self, src: WgpuStorage, src_off: int, dst: WgpuStorage, dst_off: int, nbytes: int) -> None:
        enc = self.device.create_command_encoder()
        enc.copy_buffer_to_buffer(src.buffer, src_off, dst.buffer, dst_off, nbytes)
        self.device.queue.submit([enc.finish()])


def window(st: WgpuStorage, lo: int, hi: int, itemsize: int, align: int) -> tuple[Binding, int]:
    """A binding covering elements [lo, hi) of ``st``; returns it and the element
    index of the buffer's element 0 relative to the binding start (subtract it)."""
    start = lo * itemsize // align * align
    end = min(max((hi * itemsize + 3) // 4 * 4, start + 4), st.buffer.size)
    return Binding(st.buffer, start, end - start), start // itemsize
