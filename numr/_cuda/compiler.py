"""NVRTC: compile numr's .cu programs to CUBIN, with a memory and a disk cache.

A *program* is one kernel source (``kernels/<family>.cu``) compiled for one
dtype (``-DNUMR_DTYPE=<code>``): every kernel of that family and dtype comes
out of one NVRTC call. Works without a GPU (the CI compiles everything).

Disk cache key: sha256 of the source (with numr's own headers), the sorted
options, the target arch, NVRTC's version and a hash of the CUDA headers
(cuda_fp16/bf16/fp8). Files are written atomically (temp file + os.replace).
``NUMR_CUDA_CACHE_DIR`` overrides the location (default
``$XDG_CACHE_HOME/numr/cuda`` or ``~/.cache/numr/cuda``); ``NUMR_CUDA_CACHE_DIR=off``
disables the disk cache.
"""

from __future__ import annotations

import functools
import hashlib
import os
import tempfile
import threading
from pathlib import Path

from ..errors import DeviceError, KernelCompileError

KERNEL_DIR = Path(__file__).parent / "kernels"
_HEADERS = ("cuda_fp16.h", "cuda_fp16.hpp", "cuda_bf16.h", "cuda_bf16.hpp", "cuda_fp8.h", "cuda_fp8.hpp", "mma.h")
_lock = threading.Lock()
_memory: dict[str, bytes] = {}
#: counters for tests: NVRTC compilations done, disk cache hits
stats = {"compiled": 0, "disk_hits": 0, "memory_hits": 0}


def _nvrtc():
    try:
        from cuda.bindings import nvrtc
    except Exception as e:
        raise DeviceError(f"cuda-python is not installed ({e}); pip install 'numr[cuda]'") from None
    return nvrtc


def _check(name: str, out, prog=None):
    nvrtc = _nvrtc()
    res, vals = out[0], out[1:]
    if res != nvrtc.nvrtcResult.NVRTC_SUCCESS:
        raise KernelCompileError(f"cuda: {name} failed with {getattr(res, 'name', res)}")
    return vals[0] if len(vals) == 1 else vals


@functools.lru_cache(maxsize=1)
def nvrtc_version() -> tuple[int, int]:
    major, minor = _check("nvrtcVersion", _nvrtc().nvrtcVersion())
    return int(major), int(minor)


@functools.lru_cache(maxsize=1)
def supported_archs() -> tuple[int, ...]:
    return tuple(int(a) for a in _check("nvrtcGetSupportedArchs", _nvrtc().nvrtcGetSupportedArchs()))


@functools.lru_cache(maxsize=1)
def cuda_include_dir() -> str:
    """The folder with cuda_fp16.h / cuda_bf16.h (NVRTC has none built in)."""
    try:
        import cuda.pathfinder as pf
        d = pf.find_nvidia_header_directory("cudart")
    except Exception as e:
        raise KernelCompileError(f"cuda: cannot locate the CUDA runtime headers ({e}); "
                                 "pip install nvidia-cuda-runtime") from None
    if not d or not os.path.exists(os.path.join(d, "cuda_fp16.h")):
        raise KernelCompileError(f"cuda: cuda_fp16.h not found (looked in {d!r}); pip install nvidia-cuda-runtime")
    return d


@functools.lru_cache(maxsize=1)
def header_hash() -> str:
    h = hashlib.sha256()
    inc = cuda_include_dir()
    for name in _HEADERS:
        p = os.path.join(inc, name)
        if os.path.exists(p):
            h.update(Path(p).read_bytes())
    return h.hexdigest()


def own_headers_text() -> str:
    return "".join(p.read_text() for p in sorted(KERNEL_DIR.glob("*.cuh")))


def pick_arch(major: int, minor: int) -> str:
    """The NVRTC target for a device of compute capability major.minor: its exact sm_XY when
    NVRTC supports it, else the newest supported sm of the same major not above it."""
    cc = major * 10 + minor
    archs = supported_archs()
    if cc in archs:
        return f"sm_{cc}"
    same = [a for a in archs if a // 10 == major and a <= cc]
    if same:
        return f"sm_{max(same)}"
    raise KernelCompileError(f"cuda: NVRTC {nvrtc_version()} cannot target compute capability {major}.{minor} "
                             f"(supported: {', '.join(map(str, archs))})")


def base_options(arch: str) -> list[str]:
    # No --use_fast_math: pow of negative bases, NaN/inf handling and accuracy must match the CPU.
    return ["--std=c++17", f"--gpu-architecture={arch}", f"--include-path={cuda_include_dir()}",
            f"--include-path={KERNEL_DIR}", "--device-as-default-execution-space", "-default-device"]


def cache_dir() -> Path | None:
    env = os.environ.get("NUMR_CUDA_CACHE_DIR")
    if env == "off":
        return None
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "numr" / "cuda"


def cache_key(source: str, options: list[str], arch: str) -> str:
    h = hashlib.sha256()
    for part in (source, own_headers_text(), "\0".join(sorted(options)), arch,
                 "{}.{}".format(*nvrtc_version()), header_hash()):
        h.update(part.encode())
        h.update(b"\x00\x01")
    return h.hexdigest()


def _atomic_write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def nvrtc_compile(name: str, source: str, options: list[str], arch: str) -> bytes:
    """Compile ``source`` with NVRTC to CUBIN (``sm_XY``) or PTX (``compute_XY``)."""
    nvrtc = _nvrtc()
    prog = _check("nvrtcCreateProgram", nvrtc.nvrtcCreateProgram(source.encode(), f"{name}.cu".encode(), 0, [], []))
    try:
        opts = [o.encode() for o in options]
        res = nvrtc.nvrtcCompileProgram(prog, len(opts), opts)[0]
        if res != nvrtc.nvrtcResult.NVRTC_SUCCESS:
            size = _check("nvrtcGetProgramLogSize", nvrtc.nvrtcGetProgramLogSize(prog))
            log = b" " * size
            _check("nvrtcGetProgramLog", nvrtc.nvrtcGetProgramLog(prog, log))
            raise KernelCompileError(f"cuda: NVRTC failed to compile {name} for {arch} "
                                     f"({getattr(res, 'name', res)})",
                                     log.decode(errors="replace").rstrip("\x00 "))
        if arch.startswith("sm_"):
            size = _check("nvrtcGetCUBINSize", nvrtc.nvrtcGetCUBINSize(prog))
            buf = b" " * size
            _check("nvrtcGetCUBIN", nvrtc.nvrtcGetCUBIN(prog, buf))
        else:
            size = _check("nvrtcGetPTXSize", nvrtc.nvrtcGetPTXSize(prog))
            buf = b" " * size
            _check("nvrtcGetPTX", nvrtc.nvrtcGetPTX(prog, buf))
        stats["compiled"] += 1
        return bytes(buf)
    finally:
        nvrtc.nvrtcDestroyProgram(prog)


def program_source(family: str) -> str:
    path = KERNEL_DIR / f"{family}.cu"
    try:
        return path.read_text()
    except OSError as e:
        raise KernelCompileError(f"cuda: kernel source {path} is missing ({e})") from None


def dtype_options(dtype_code: int | None, extra: tuple[str, ...] = ()) -> list[str]:
    opts = list(extra)
    if dtype_code is not None:
        opts.append(f"-DNUMR_DTYPE={dtype_code}")
    return opts


def compile_program(family: str, dtype_code: int | None, arch: str, extra: tuple[str, ...] = ()) -> bytes:
    """CUBIN of ``kernels/<family>.cu`` for one dtype and arch, from the caches when possible."""
    source = program_source(family)
    options = base_options(arch) + dtype_options(dtype_code, extra)
    key = cache_key(source, options, arch)
    with _lock:
        hit = _memory.get(key)
    if hit is not None:
        stats["memory_hits"] += 1
        return hit
    d = cache_dir()
    path = d / f"{family}-{dtype_code}-{arch}-{key[:32]}.cubin" if d is not None else None
    if path is not None and path.exists():
        try:
            data = path.read_bytes()
            if data:
                stats["disk_hits"] += 1
                with _lock:
                    _memory[key] = data
                return data
        except OSError:
            pass
    data = nvrtc_compile(f"{family}_{dtype_code}", source, options, arch)
    if path is not None:
        try:
            _atomic_write(path, data)
        except OSError:
            pass  # a read-only cache folder only costs recompiles
    with _lock:
        _memory[key] = data
    return data


def clear_memory_cache() -> None:
    with _lock:
        _memory.clear()
