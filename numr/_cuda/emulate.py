"""A host emulator of the CUDA device for testing numr's CUDA backend without a GPU.

``NUMR_CUDA_EMULATE=1`` makes the "cuda" runtime report one emulated device. The real .cu kernel
sources are compiled with g++ (``numr/_cuda/emu/emu.h`` maps the CUDA built-ins they use: thread
indices, __syncthreads, warp shuffles and ballots as real barriers between cooperative threads,
software float16/bfloat16/float8 conversions) and the real Python client launches them through the
same argument packing as on a GPU. Tensor-core mma.sync is emulated from the PTX fragment layout.
Device memory is host memory. Not emulated: graphs, DLPack, CUDA's own math library accuracy. It
is a test tool, slow by design.
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
from ..runtime.caching_allocator import CachingAllocator
from . import compiler

EMU_DIR = Path(__file__).parent / "emu"
_lock = threading.Lock()
_libs: dict[tuple[str, int | None], Any] = {}


def enabled() -> bool:
    return os.environ.get("NUMR_CUDA_EMULATE") == "1"


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
        _libs[key] = lib
        return lib


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
        self.allocator = CachingAllocator(HostMemory(), name=f"cuda:{index}")

    def activate(self) -> None:
        return None

    def synchronize(self) -> None:
        return None

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
        if b[0] * b[1] * b[2] > 1024:
            raise DeviceError(f"emulator: block of {b} threads")
        lib.emu_launch(addr, params, *g, *b)
        del keep

    def run(self, family: str, dtype_code: int | None, name: str, grid: Any, block: Any, args: list[Any],
            shmem: int = 0) -> None:
        self.launch(self.function(family, dtype_code, name), grid, block, args, shmem)
