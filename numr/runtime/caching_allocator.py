"""A stream-ordered caching allocator for one device (CUDA memory, and large host buffers).

Every numr kernel of a device runs on its one compute stream, so a freed block
can be handed to the next allocation at once: stream order guarantees the
old kernels finish first. Blocks are rounded up to size classes and kept on
bounded free lists (per class and in total); what does not fit is returned to
the driver. On out-of-memory: release the cache, synchronise, retry, then
raise ``OutOfMemoryError`` with the sizes.

During graph capture the allocator is *frozen*: new blocks are private to the
graph and never reused, and frees are deferred, so captured addresses stay
valid for every replay until the graph is released.

The driver is injected (``mem_alloc(nbytes) -> int``, ``mem_free(ptr)``,
``synchronize()``, ``mem_info() -> (free, total)``) so the bookkeeping is
testable without a GPU.
"""

from __future__ import annotations

import threading
from collections import defaultdict
from typing import Any, Protocol

from ..errors import OutOfMemoryError

KiB, MiB, GiB = 1 << 10, 1 << 20, 1 << 30
SMALL = 1 * MiB
MIN_BLOCK = 512
PER_CLASS_LIMIT = 64


class DriverMemory(Protocol):
    def mem_alloc(self, nbytes: int) -> int: ...
    def mem_free(self, ptr: int) -> None: ...
    def synchronize(self) -> None: ...
    def mem_info(self) -> tuple[int, int]: ...


def round_size(n: int) -> int:
    """Size class of an n-byte request: multiples of 512 B below 1 MiB, then four
    classes per power of two (at most 25% slack)."""
    if n <= 0:
        return 0
    if n < SMALL:
        return (n + MIN_BLOCK - 1) // MIN_BLOCK * MIN_BLOCK
    p = 1 << (n - 1).bit_length()  # next power of two >= n
    step = p // 8
    return (n + step - 1) // step * step


class Block:
    """A device allocation: ``ptr`` and its class ``size``; ``graph`` marks graph-private blocks."""

    __slots__ = ("ptr", "size", "graph")

    def __init__(self, ptr: int, size: int, graph: Any = None):
        self.ptr, self.size, self.graph = ptr, size, graph

    def __repr__(self) -> str:
        return f"Block(0x{self.ptr:x}, {self.size})"


class CachingAllocator:
    """Size-class free lists over a driver; see the module docstring."""

    def __init__(self, driver: DriverMemory, name: str = "cuda:0", max_cached: int | None = None):
        self.driver = driver
        self.name = name
        self.max_cached = 2 * GiB if max_cached is None else max_cached
        self._free: dict[int, list[Block]] = defaultdict(list)
        self._lock = threading.RLock()
        self.allocated_bytes = 0  # in use by tensors (class sizes)
        self.cached_bytes = 0  # held on the free lists
        self.peak_allocated_bytes = 0
        self._capture: Any = None  # the Graph being captured, if any

    # ---- public -------------------------------------------------------------
    def malloc(self, nbytes: int) -> Block:
        size = round_size(nbytes)
        if size == 0:
            return Block(0, 0)
        with self._lock:
            if self._capture is not None:
                block = Block(self._raw_alloc(size, nbytes), size, self._capture)
                self._capture.private_blocks.append(block)
            else:
                lst = self._free.get(size)
                if lst:
                    block = lst.pop()
                    self.cached_bytes -= size
                else:
                    block = Block(self._raw_alloc(size, nbytes), size)
            self.allocated_bytes += size
            self.peak_allocated_bytes = max(self.peak_allocated_bytes, self.allocated_bytes)
            return block

    def free(self, block: Block) -> None:
        if block.size == 0:
            return
        with self._lock:
            self.allocated_bytes -= block.size
            if block.graph is not None:  # graph-private: stays reserved until the graph goes
                block.graph.released_blocks.append(block)
                return
            if self._capture is not None:  # a replay may still read it: hold until the graph goes
                self._capture.released_blocks.append(block)
                self._capture.held_bytes += block.size
                return
            self._cache_or_release(block)

    def empty_cache(self) -> None:
        """Return every cached (unused) block to the driver."""
        with self._lock:
            for lst in self._free.values():
                for b in lst:
                    self.driver.mem_free(b.ptr)
                lst.clear()
            self._free.clear()
            self.cached_bytes = 0

    def stats(self) -> dict[str, int]:
        return {"allocated_bytes": self.allocated_bytes, "cached_bytes": self.cached_bytes,
                "peak_allocated_bytes": self.peak_allocated_bytes}

    # ---- graph capture ----------------------------------------------------------
    def begin_capture(self, graph: Any) -> None:
        with self._lock:
            if self._capture is not None:
                raise RuntimeError(f"{self.name}: a graph capture is already in progress")
            self._capture = graph

    def end_capture(self) -> None:
        with self._lock:
            self._capture = None

    def release_graph(self, graph: Any) -> None:
        """The graph is gone: its private blocks that tensors no longer use, and the
        blocks freed during its capture, go back to the driver / the cache."""
        with self._lock:
            for b in graph.released_blocks:
                if b.graph is graph:
                    self.driver.mem_free(b.ptr)
                else:
                    self._cache_or_release(b)
            graph.released_blocks.clear()
            # private blocks still used by live tensors become ordinary blocks
            for b in graph.private_blocks:
                b.graph = None
            graph.private_blocks.clear()

    # ---- internals ------------------------------------------------------------
    def _cache_or_release(self, block: Block) -> None:
        """An unused block onto its free list, or back to the driver when the lists are full."""
        lst = self._free[block.size]
        if len(lst) < PER_CLASS_LIMIT and self.cached_bytes + block.size <= self.max_cached:
            lst.append(block)
            self.cached_bytes += block.size
        else:
            self.driver.mem_free(block.ptr)

    def _raw_alloc(self, size: int, requested: int) -> int:
        try:
            return self.driver.mem_alloc(size)
        except OutOfMemoryError:
            pass
        # OOM path: release the cache, wait for pending frees, retry once
        self.empty_cache()
        self.driver.synchronize()
        try:
            return self.driver.mem_alloc(size)
        except OutOfMemoryError:
            try:
                free, total = self.driver.mem_info()
                dev = f"; device free {free / MiB:.1f} MiB of {total / MiB:.1f} MiB"
            except Exception:
                dev = ""
            raise OutOfMemoryError(
                f"{self.name}: out of memory allocating {requested} bytes ({size / MiB:.2f} MiB block); "
                f"numr holds {self.allocated_bytes / MiB:.1f} MiB in tensors and "
                f"{self.cached_bytes / MiB:.1f} MiB cached{dev}") from None
