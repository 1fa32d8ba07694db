"""Host memory for large CPU tensors: anonymous mappings behind numr's caching allocator.

Why: a fresh 64 MiB result is 16K page faults that the kernel zeroes one by one, which
costs more than the add that fills it (3 ms against 4 ms for 16M float32 elements), and
two threads faulting in the same mapping at once made the time erratic (6-12 ms). A
mapping that a dead tensor gave back is already faulted in, so reusing it costs nothing.

Buffers of ``POOL_MIN`` bytes or more come from ``numr.runtime.caching_allocator`` (the
CUDA backend's size classes and bounded free lists) over ``mmap``; smaller ones stay with
NumPy's allocator, whose heap already reuses them. A buffer is lent to NumPy through the
array interface of a ``_Lease``: NumPy keeps the lease as the base of every view, so the
block goes back to the free lists only when the last view of it is gone.

``NUMR_CPU_CACHE_BYTES`` bounds the bytes held on the free lists (default: an eighth of
the machine's memory, at most 2 GiB; 0 turns caching off).
"""

from __future__ import annotations

import ctypes
import mmap
import os

import numpy as np

from ..errors import OutOfMemoryError
from ..runtime.caching_allocator import Block, CachingAllocator, GiB, MiB

POOL_MIN = 1 * MiB


class _MmapDriver:
    """The caching allocator's driver: anonymous private mappings, huge pages advised.
    The allocator calls it under its own lock."""

    def __init__(self) -> None:
        self._maps: dict[int, mmap.mmap] = {}

    def mem_alloc(self, nbytes: int) -> int:
        try:
            mm = mmap.mmap(-1, nbytes, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
        except OSError as e:
            raise OutOfMemoryError(f"cpu: mmap of {nbytes} bytes failed: {e}") from None
        if nbytes >= 4 * MiB and hasattr(mmap, "MADV_HUGEPAGE"):
            try:
                mm.madvise(mmap.MADV_HUGEPAGE)
            except OSError:  # kernels without transparent huge pages
                pass
        probe = ctypes.c_char.from_buffer(mm)
        addr = ctypes.addressof(probe)
        del probe  # ends its buffer export, so the mapping can be closed later
        self._maps[addr] = mm
        return addr

    def mem_free(self, ptr: int) -> None:
        self._maps.pop(ptr).close()

    def synchronize(self) -> None:
        """Host kernels finish before they return: nothing is pending."""

    def mem_info(self) -> tuple[int, int]:
        page = os.sysconf("SC_PAGE_SIZE")
        return os.sysconf("SC_AVPHYS_PAGES") * page, os.sysconf("SC_PHYS_PAGES") * page


def _default_cache_limit() -> int:
    env = os.environ.get("NUMR_CPU_CACHE_BYTES")
    if env is not None:
        try:
            return max(0, int(env))
        except ValueError:
            raise ValueError(f"NUMR_CPU_CACHE_BYTES must be a byte count, got {env!r}") from None
    try:
        total = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError):
        total = 16 * GiB
    return min(2 * GiB, total // 8)


ALLOCATOR = CachingAllocator(_MmapDriver(), name="cpu", max_cached=_default_cache_limit())


class _Lease:
    """One block lent to NumPy; returns it to the allocator when NumPy drops the last view."""

    __slots__ = ("__array_interface__", "block")

    def __init__(self, block: Block, nbytes: int):
        self.block = block
        self.__array_interface__ = {"shape": (nbytes,), "typestr": "|u1", "version": 3,
                                    "data": (block.ptr, False)}

    def __del__(self) -> None:
        try:
            ALLOCATOR.free(self.block)
        except Exception:  # interpreter shutdown: the allocator may already be gone
            pass


def empty_bytes(nbytes: int) -> np.ndarray:
    """A writable, page-aligned uint8 array of ``nbytes`` (>= POOL_MIN), uninitialised."""
    return np.asarray(_Lease(ALLOCATOR.malloc(nbytes), nbytes))
