"""Per-device CUDA state: primary context, compute stream, allocator, modules.

One ``DeviceState`` per GPU, created on first use. The primary context is the
one CuPy and PyTorch use too, so DLPack pointers are valid across libraries.
Every numr kernel of the device runs on its one non-blocking compute stream.
"""

from __future__ import annotations

import threading
from typing import Any

from ..runtime.caching_allocator import CachingAllocator
from . import compiler
from .driver import call, cu, ptr, try_call
from .launch import pack

_tls = threading.local()


class _DriverMemory:
    """The allocator's view of the driver: stream-ordered alloc/free on the compute
    stream; plain cuMemAlloc while a graph is being captured."""

    def __init__(self, state: DeviceState):
        self.state = state
        self._sync_allocated: set[int] = set()

    def mem_alloc(self, nbytes: int) -> int:
        self.state.activate()
        if self.state.allocator._capture is not None:
            p = ptr(call("cuMemAlloc", nbytes))
            self._sync_allocated.add(p)
            return p
        return ptr(call("cuMemAllocAsync", nbytes, self.state.stream))

    def mem_free(self, p: int) -> None:
        self.state.activate()
        if p in self._sync_allocated:
            self._sync_allocated.discard(p)
            call("cuMemFree", cu.CUdeviceptr(p))
        else:
            call("cuMemFreeAsync", cu.CUdeviceptr(p), self.state.stream)

    def synchronize(self) -> None:
        self.state.synchronize()

    def mem_info(self) -> tuple[int, int]:
        self.state.activate()
        free, total = call("cuMemGetInfo")
        return int(free), int(total)


class DeviceState:
    def __init__(self, index: int):
        self.index = index
        self.dev = call("cuDeviceGet", index)
        self.ctx = call("cuDevicePrimaryCtxRetain", self.dev)
        self.activate()
        major = self.attr("CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR")
        minor = self.attr("CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR")
        self.cc = (major, minor)
        self.sm_count = self.attr("CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT")
        self.name = call("cuDeviceGetName", 256, self.dev).split(b"\0")[0].decode(errors="replace")
        self.total_memory = int(call("cuDeviceTotalMem", self.dev))
        self.arch = compiler.pick_arch(major, minor)
        self.stream = call("cuStreamCreate", cu.CUstream_flags.CU_STREAM_NON_BLOCKING.value)
        self.stream_int = ptr(self.stream)
        self.allocator = CachingAllocator(_DriverMemory(self), name=f"cuda:{index}",
                                          max_cached=max(self.total_memory // 2, 1 << 30))
        self._modules: dict[tuple, Any] = {}
        self._functions: dict[tuple, Any] = {}
        self._lock = threading.Lock()

    def attr(self, name: str) -> int:
        return int(call("cuDeviceGetAttribute", getattr(cu.CUdevice_attribute, name), self.dev))

    def activate(self) -> None:
        """Make this device's primary context current on the calling thread."""
        if getattr(_tls, "ctx", None) is not self:
            call("cuCtxSetCurrent", self.ctx)
            _tls.ctx = self

    def synchronize(self) -> None:
        self.activate()
        call("cuStreamSynchronize", self.stream)

    def make_visible_to(self, stream: int) -> None:
        """Work queued so far on numr's stream completes before later work on ``stream`` starts."""
        self.activate()
        ev = call("cuEventCreate", cu.CUevent_flags.CU_EVENT_DISABLE_TIMING.value)
        call("cuEventRecord", ev, self.stream)
        call("cuStreamWaitEvent", cu.CUstream(stream), ev, 0)
        call("cuEventDestroy", ev)

    def function(self, family: str, dtype_code: int | None, name: str) -> Any:
        key = (family, dtype_code, name)
        fn = self._functions.get(key)
        if fn is not None:
            return fn
        with self._lock:
            mkey = (family, dtype_code)
            mod = self._modules.get(mkey)
            if mod is None:
                self.activate()
                cubin = compiler.compile_program(family, dtype_code, self.arch)
                mod = call("cuModuleLoadData", cubin)
                self._modules[mkey] = mod
            err, fn = try_call("cuModuleGetFunction", mod, name.encode())
            if err is not None:
                from ..errors import UnsupportedOperation
                raise UnsupportedOperation("cuda", name, reason=f"kernel {name} not found in {family}.cu ({err})")
            self._functions[key] = fn
            return fn

    def launch(self, fn: Any, grid: int | tuple[int, int, int], block: int | tuple[int, int, int],
               args: list[Any], shmem: int = 0) -> None:
        self.activate()
        g = (grid, 1, 1) if isinstance(grid, int) else grid
        b = (block, 1, 1) if isinstance(block, int) else block
        keep, addr = pack(args)
        call("cuLaunchKernel", fn, g[0], g[1], g[2], b[0], b[1], b[2], shmem, self.stream, addr, 0)
        del keep

    def run(self, family: str, dtype_code: int | None, name: str, grid: Any, block: Any, args: list[Any],
            shmem: int = 0) -> None:
        self.launch(self.function(family, dtype_code, name), grid, block, args, shmem)
