"""The CPU backend's caching allocator for large buffers (numr/_cpu/hostmem.py)."""

from __future__ import annotations

import gc

import numpy as np
import pytest

import numr as nr
from numr._cpu import hostmem
from numr.runtime.caching_allocator import round_size

CPU = nr.runtime.get("cpu")
N = (4 << 20) // 4  # 4 MiB of float32: above hostmem.POOL_MIN


def _ptr(t: nr.Tensor) -> int:
    return t.numpy().ctypes.data


def test_freed_buffer_is_reused_and_counted():
    gc.collect()
    base_alloc = CPU.allocated_bytes()
    a = nr.empty((N,), dtype=nr.float32)
    assert CPU.allocated_bytes() >= base_alloc + 4 * N
    p = _ptr(a)
    assert p % 4096 == 0  # whole pages
    del a
    cached = CPU.cached_bytes()
    assert cached >= 4 * N
    b = nr.zeros((N,), dtype=nr.float32)
    assert _ptr(b) == p  # the same, already faulted-in mapping
    assert CPU.cached_bytes() == cached - round_size(4 * N)
    np.testing.assert_array_equal(b.numpy(), np.zeros(N, np.float32))  # zeros fills a reused block


def test_views_keep_the_buffer_alive():
    x = nr.arange(N, dtype=nr.float32)
    view = x[1::3]  # a strided view with an offset
    arr = x.numpy()[5:]
    ref_view = np.arange(N, dtype=np.float32)[1::3]
    del x
    gc.collect()
    # new allocations must not land on the memory the views still read
    others = [nr.full((N,), -1.0, dtype=nr.float32) for _ in range(3)]
    np.testing.assert_array_equal(view.numpy(), ref_view)
    np.testing.assert_array_equal(arr, np.arange(5, N, dtype=np.float32))
    assert all(float(o.min()) == -1.0 for o in others)


def test_results_of_ops_on_pooled_buffers_match_numpy():
    rng = np.random.default_rng(0)
    an = rng.standard_normal(3 * N).astype(np.float32)
    bn = rng.standard_normal(3 * N).astype(np.float32)
    a, b = nr.tensor(an), nr.tensor(bn)
    for _ in range(3):  # later rounds run on reused blocks
        c = a + b
        e = nr.exp(a)
        np.testing.assert_array_equal(c.numpy(), an + bn)
        np.testing.assert_allclose(e.numpy(), np.exp(an), rtol=4e-7)  # numr's exp: <= 1.44 ulp
        assert c.shape == (3 * N,) and c.dtype == nr.float32
        del c, e


def test_empty_cache_unmaps_cached_blocks():
    a = nr.empty((N,), dtype=nr.float32)
    del a
    assert CPU.cached_bytes() > 0
    CPU.empty_cache()
    assert CPU.cached_bytes() == 0
    stats = CPU.memory_stats()
    assert set(stats) >= {"allocated_bytes", "cached_bytes", "peak_allocated_bytes"}


def test_cache_limit_zero_caches_nothing():
    alloc = hostmem.CachingAllocator(hostmem._MmapDriver(), name="cpu", max_cached=0)
    block = alloc.malloc(2 << 20)
    assert alloc.allocated_bytes == block.size
    alloc.free(block)
    assert alloc.cached_bytes == 0 and alloc.allocated_bytes == 0


def test_impossible_allocation_raises_out_of_memory():
    with pytest.raises(nr.OutOfMemoryError, match="cpu") as info:
        nr.empty((1 << 61,), dtype=nr.uint8)
    assert isinstance(info.value, MemoryError)  # numr's error subclasses the built-in
    assert "bytes" in str(info.value)
