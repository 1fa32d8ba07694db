"""A host emulator of the CUDA device for testing numr's CUDA backend without a GPU.

``NUMR_CUDA_EMULATE=1`` makes the "cuda" runtime report one emulated device. The real .cu kernel
sources are compiled with g++ (``numr/_cuda/emu/emu.h`` maps the CUDA built-ins they use: thread
indices, __syncthreads, warp shuffles and ballots as real barriers between cooperative threads,
software float16/bfloat16/float8 conversions) and the real Python client launches them through the
same argument packing as on a GPU. Tensor-core mma.sync is emulated from the PTX fragment layout.
Device memory is host memory, filled with 0xFF bytes (NaN, -1) on every allocation, and shared
memory before every block, as a GPU's would hold garbage; a misaligned 16-byte vector access
aborts. Graph capture records the launches and device copies and
replay runs them again; host copies and synchronisation inside a capture raise, as on a GPU.
DLPack capsules are the real ones (so numr exchanges with itself); not emulated: other CUDA
libraries, CUDA's own math library accuracy. It is a test tool, slow by design.

Two modes show what a GPU run would only show as flaky results. ``NUMR_CUDA_EMULATE_CHECK=1``:
every allocation is its own mapping whose last byte touches an inaccessible page and which is
unmapped when freed, so a read or write past the end or after the free faults at once.
``NUMR_CUDA_EMULATE_ORDER=reverse``: threads and blocks run in reverse order, so a missing
``__syncthreads`` or a dependence on block order that the default order hides gives a wrong result.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import re
import subprocess
import threading
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import DeviceError, KernelCompileError, UnsupportedOperation
from ..runtime.caching_allocator import Block, CachingAllocator
from . import compiler
from .graph import Graph

EMU_DIR = Path(__file__).parent / "emu"
_lock = threading.Lock()
_libs: dict[tuple[str, int | None], Any] = {}


def enabled() -> bool:
    return os.environ.get("NUMR_CUDA_EMULATE") == "1"


def checking() -> bool:
    return os.environ.get("NUMR_CUDA_EMULATE_CHECK") == "1"


def _cache() -> Path:
    d = compiler.cache_dir() or Path(os.path.expanduser("~/.cache/numr/cuda"))
    return d / "emu"


def build(family: str, dtype_code: int | None) -> ctypes.CDLL:
    """The emulated program ``kernels/<family>.cu`` for one dtype, as a loaded shared library."""
    key = (family, dtype_code)
    with _lock:
        if key in _libs:
            return _libs[key]
        src = compiler.program_source(family)
        flags = ["-std=c++17", "-O1", "-fPIC", "-shared", "-w", f"-I{compiler.KERNEL_DIR}", f"-I{EMU_DIR}",
                 "-include", "emu.h"] + ([f"-DNUMR_DTYPE={dtype_code}"] if dtype_code is not None else [])
        h = hashlib.sha256("\0".join([src, compiler.own_headers_text(), (EMU_DIR / "emu.h").read_text(),
                                      (EMU_DIR / "emu_runtime.h").read_text(), *flags]).encode()).hexdigest()[:24]
        out = _cache() / f"{family}-{dtype_code}-{h}.so"
        if not out.exists():
            out.parent.mkdir(parents=True, exist_ok=True)
            kdir = compiler.KERNEL_DIR
            pre = subprocess.run(["g++", "-E", *flags[:1], *flags[5:], "-x", "c++", str(kdir / f"{family}.cu")],
                                 capture_output=True, text=True)
            if pre.returncode:
                raise KernelCompileError(f"emulator: preprocessing {family}.cu failed", pre.stderr[-4000:])
            names = sorted(set(re.findall(r'extern\s+"C"\s+void\s+(?:__attribute__\(\(\w+\)\)\s+)?(\w+)\s*\(',
                                          pre.stdout)) - {"emu_launch"})
            unit = out.with_suffix(".cpp")
            unit.write_text(f'#include "{family}.cu"\n#include "emu_runtime.h"\n'
                            + "".join(f"EMU_K({n})\n" for n in names))
            tmp = out.with_suffix(f".{os.getpid()}.tmp")
            r = subprocess.run(["g++", *flags, str(unit), "-o", str(tmp)], capture_output=True, text=True)
            if r.returncode:
                raise KernelCompileError(f"emulator: g++ failed on {family}.cu (dtype {dtype_code})", r.stderr[-6000:])
            os.replace(tmp, out)
        lib = ctypes.CDLL(str(out))
        lib.emu_launch.argtypes = [ctypes.c_void_p, ctypes.c_void_p] + [ctypes.c_uint] * 6
        lib.emu_launch.restype = None
        _register_shared(lib, out)
        _libs[key] = lib
        return lib


def _register_shared(lib: ctypes.CDLL, path: Path) -> None:
    """Tell the program where its __shared__ variables are: the function-local statics (``_ZZ``
    symbols in .bss/.data; the kernel sources have no other kind), found with objdump."""
    r = subprocess.run(["objdump", "-t", str(path)], capture_output=True, text=True)
    if r.returncode:
        raise KernelCompileError(f"emulator: objdump -t failed on {path.name}", r.stderr[-2000:])
    syms = {}
    for line in r.stdout.splitlines():
        f = line.split()  # address, flags..., section, size, name
        if len(f) >= 5 and (f[-1] == "emu_launch" or (f[-1].startswith("_ZZ") and f[-3] in (".bss", ".data"))):
            syms[f[-1]] = (int(f[0], 16), int(f[-2], 16))
    base = ctypes.cast(lib.emu_launch, ctypes.c_void_p).value - syms.pop("emu_launch")[0]
    lib.emu_add_shared.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
    for offset, size in syms.values():
        lib.emu_add_shared(base + offset, size)


class HostMemory:
    """The allocator's 'driver' in emulation: 256-byte aligned host buffers."""

    def __init__(self) -> None:
        self.live: dict[int, np.ndarray] = {}

    def mem_alloc(self, nbytes: int) -> int:
        raw = np.empty(nbytes + 256, np.uint8)
        p = raw.ctypes.data
        p += (-p) % 256
        self.live[p] = raw
        return p

    def mem_free(self, p: int) -> None:
        self.live.pop(p, None)

    def synchronize(self) -> None:
        return None

    def mem_info(self) -> tuple[int, int]:
        return (1 << 34, 1 << 34)


class GuardedMemory(HostMemory):
    """Check mode: each buffer is a private mapping whose last byte touches a PROT_NONE page
    (so it is aligned only to its size's largest power-of-two factor, at least the itemsize);
    freeing unmaps it."""

    PAGE = 4096

    def __init__(self) -> None:
        super().__init__()
        self.maps: dict[int, tuple[int, int]] = {}
        libc = ctypes.CDLL(None, use_errno=True)
        self._mmap, self._mprotect, self._munmap = libc.mmap, libc.mprotect, libc.munmap
        self._mmap.restype = ctypes.c_void_p
        self._mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                               ctypes.c_long]
        self._mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
        self._munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]

    def mem_alloc(self, nbytes: int) -> int:
        pages = (nbytes + self.PAGE - 1) // self.PAGE * self.PAGE
        total = pages + self.PAGE
        base = self._mmap(None, total, 3, 0x22, -1, 0)  # PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS
        if base in (None, ctypes.c_void_p(-1).value) or self._mprotect(base + pages, self.PAGE, 0):
            raise DeviceError(f"emulator: cannot map a guarded buffer of {nbytes} bytes")
        ptr = base + pages - nbytes
        self.maps[ptr] = (base, total)
        return ptr

    def mem_free(self, p: int) -> None:
        base, total = self.maps.pop(p)
        self._munmap(base, total)


class EmuAllocator(CachingAllocator):
    """The caching allocator with every new buffer filled with 0xFF; in check mode it caches
    nothing and maps each buffer at its exact size (GuardedMemory)."""

    def __init__(self, name: str):
        self.check = checking()
        super().__init__(GuardedMemory() if self.check else HostMemory(), name=name)

    def malloc(self, nbytes: int) -> Block:
        block = super().malloc(nbytes)
        if nbytes > 0:
            ctypes.memset(block.ptr, 0xFF, nbytes)
        return block

    def _raw_alloc(self, size: int, requested: int) -> int:
        return super()._raw_alloc(requested if self.check else size, requested)

    def _cache_or_release(self, block: Block) -> None:
        if self.check:
            self.driver.mem_free(block.ptr)
        else:
            super()._cache_or_release(block)


class EmuDeviceState:
    """Stands in for numr._cuda.device.DeviceState."""

    emulated = True

    def __init__(self, index: int = 0):
        self.index = index
        # sm_80+: float16/bfloat16 matmul takes the tensor-core kernel (mma.sync emulated in emu.h);
        # NUMR_CUDA_EMULATE_CC=7.5 makes it the SIMT kernel instead
        self.cc = tuple(int(x) for x in os.environ.get("NUMR_CUDA_EMULATE_CC", "9.0").split("."))
        self.arch = "sm_90"
        self.sm_count = 2
        self.name = "numr CUDA emulator (host)"
        self.total_memory = 1 << 34
        self.stream = None
        self.stream_int = 0
        self.ctx = None
        self.allocator = EmuAllocator(name=f"cuda:{index}")
        self.capture: list[Any] | None = None  # the operations of a graph being captured

    def activate(self) -> None:
        return None

    def synchronize(self) -> None:
        self._no_capture("stream synchronisation")

    def make_visible_to(self, stream: int) -> None:
        return None  # emulated work is finished when its launch returns

    def _no_capture(self, what: str) -> None:
        if self.capture is not None:
            raise DeviceError(f"cuda graph: {what} is not allowed during a graph capture")

    def host_copy(self, dst: int, src: int, nbytes: int) -> None:
        self._no_capture("a host copy")
        ctypes.memmove(dst, src, nbytes)

    def device_copy(self, dst: int, src: int, nbytes: int) -> None:
        self._enqueue(lambda: ctypes.memmove(dst, src, nbytes))

    def _enqueue(self, op: Any) -> None:
        if self.capture is not None:
            self.capture.append(op)
        else:
            op()

    def function(self, family: str, dtype_code: int | None, name: str) -> Any:
        lib = build(family, dtype_code)
        try:
            return lib, ctypes.cast(getattr(lib, f"emu_k_{name}"), ctypes.c_void_p).value
        except AttributeError:
            raise UnsupportedOperation("cuda", name, reason=f"kernel {name} not found in {family}.cu") from None

    def launch(self, fn: Any, grid: Any, block: Any, args: list[Any], shmem: int = 0) -> None:
        from .launch import pack
        lib, addr = fn
        g = (grid, 1, 1) if isinstance(grid, int) else grid
        b = (block, 1, 1) if isinstance(block, int) else block
        keep, params = pack(args)
        _check_launch(g, b, shmem)

        def op() -> None:
            lib.emu_launch(addr, params, *g, *b)
            _ = keep  # the packed arguments live as long as the (captured) launch

        self._enqueue(op)

    def run(self, family: str, dtype_code: int | None, name: str, grid: Any, block: Any, args: list[Any],
            shmem: int = 0) -> None:
        self.launch(self.function(family, dtype_code, name), grid, block, args, shmem)


def _check_launch(grid: tuple[int, int, int], block: tuple[int, int, int], shmem: int) -> None:
    """cuLaunchKernel's limits (CUDA_ERROR_INVALID_VALUE on a GPU): no empty grid or block."""
    if not (1 <= grid[0] < 2**31 and 1 <= grid[1] <= 65535 and 1 <= grid[2] <= 65535):
        raise DeviceError(f"emulator: grid {grid} is outside CUDA's launch limits")
    if not (min(block) >= 1 and block[0] * block[1] * block[2] <= 1024 and block[2] <= 64):
        raise DeviceError(f"emulator: block {block} is outside CUDA's launch limits")
    if shmem > 48 * 1024:
        raise DeviceError(f"emulator: {shmem} bytes of dynamic shared memory need an opt-in attribute")


class EmuGraph(Graph):
    """Graph capture on the emulator: the recorded operations, replayed in order."""

    def _begin_capture(self) -> None:
        self.state.capture = []

    def _end_capture(self) -> Any:
        ops, self.state.capture = self.state.capture, None
        return ops

    def _instantiate(self, graph: Any) -> Any:
        return graph

    def _launch(self) -> None:
        for op in self._exec:
            op()

    def _destroy(self) -> None:
        self._exec = self._graph = None
