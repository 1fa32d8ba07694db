"""CUDA runtime logic that needs no GPU: availability reasons, the caching allocator with a fake
driver, kernel-argument packing, scalar encoding and graph bookkeeping."""

from __future__ import annotations

import ctypes

import numpy as np
import pytest

import numr as nr
from numr._cuda import launch
from numr.errors import OutOfMemoryError
from numr.runtime import caching_allocator as al


# ---- availability -----------------------------------------------------------------------
def test_runtime_importable_and_reason():
    rt = nr.runtime.get("cuda")
    assert rt.name == "cuda"
    assert rt.supports_graph_capture()
    if rt.is_available():
        pytest.skip("a CUDA device is present here")
    why = rt.unavailable_reason()
    assert isinstance(why, str) and why
    assert any(w in why for w in ("driver", "cuda-python", "device", "cuInit", "libcuda")), why
    assert rt.devices() == []
    with pytest.raises(nr.DeviceError, match="unavailable"):
        nr.device("cuda")
    with pytest.raises(nr.DeviceError):
        nr.zeros(3, device="cuda")


def test_probe_reasons(monkeypatch):
    from numr._cuda import driver

    class NoLib:
        class CUresult:
            CUDA_SUCCESS = 0

        @staticmethod
        def cuInit(flags):
            raise RuntimeError("libcuda.so.1 not found")

    monkeypatch.setattr(driver, "cu", NoLib)
    n, why = driver.probe()
    assert n == 0 and "driver" in why and "libcuda" in why

    class Res:
        def __init__(self, name):
            self.name = name

        def __eq__(self, other):
            return isinstance(other, Res) and other.name == self.name

        def __ne__(self, other):
            return not self == other

    class NoDevice:
        class CUresult:
            CUDA_SUCCESS = Res("CUDA_SUCCESS")

        @staticmethod
        def cuInit(flags):
            return (Res("CUDA_ERROR_NO_DEVICE"),)

    monkeypatch.setattr(driver, "cu", NoDevice)
    n, why = driver.probe()
    assert n == 0 and "no CUDA device" in why
    monkeypatch.setattr(driver, "cu", None)
    monkeypatch.setattr(driver, "IMPORT_ERROR", "cuda-python is not installed")
    assert driver.probe() == (0, "cuda-python is not installed")


# ---- allocator ------------------------------------------------------------------------------
class FakeDriver:
    def __init__(self, capacity: int):
        self.capacity = capacity
        self.used = 0
        self.live: dict[int, int] = {}
        self.next = 0x10000
        self.syncs = 0

    def mem_alloc(self, n):
        if self.used + n > self.capacity:
            raise OutOfMemoryError("fake OOM")
        p = self.next
        self.next += n + 256
        self.live[p] = n
        self.used += n
        return p

    def mem_free(self, p):
        self.used -= self.live.pop(p)

    def synchronize(self):
        self.syncs += 1

    def mem_info(self):
        return self.capacity - self.used, self.capacity


def test_round_size():
    assert al.round_size(0) == 0
    assert al.round_size(1) == 512
    assert al.round_size(513) == 1024
    assert al.round_size(al.MiB) == al.MiB
    assert al.round_size(al.MiB + 1) == al.MiB + al.MiB // 4
    for n in (3 << 20, 5 << 20, 1000003, 123456789):
        r = al.round_size(n)
        assert n <= r <= n * 1.25 + 512


def test_reuse_and_stats():
    drv = FakeDriver(1 << 30)
    a = al.CachingAllocator(drv)
    b1 = a.malloc(1000)
    assert a.allocated_bytes == 1024 and a.cached_bytes == 0
    a.free(b1)
    assert a.allocated_bytes == 0 and a.cached_bytes == 1024
    b2 = a.malloc(900)  # same class: reused, no driver call
    assert b2.ptr == b1.ptr and len(drv.live) == 1
    a.free(b2)
    a.empty_cache()
    assert a.cached_bytes == 0 and drv.used == 0
    assert a.malloc(0).ptr == 0


def test_bounded_cache():
    drv = FakeDriver(1 << 30)
    a = al.CachingAllocator(drv, max_cached=4096)
    blocks = [a.malloc(2048) for _ in range(4)]
    for b in blocks:
        a.free(b)
    assert a.cached_bytes == 4096 and len(drv.live) == 2  # two released to the driver
    many = [a.malloc(512) for _ in range(al.PER_CLASS_LIMIT + 5)]
    a2 = al.CachingAllocator(drv, max_cached=1 << 30)
    for b in many:
        a2.free(b)
    assert len(a2._free[512]) == al.PER_CLASS_LIMIT


def test_oom_path_releases_cache_then_raises():
    drv = FakeDriver(8192)
    a = al.CachingAllocator(drv)
    x = a.malloc(4096)
    a.free(x)  # cached: the driver still counts it
    y = a.malloc(8192)  # needs the cache released first
    assert drv.syncs == 1 and a.cached_bytes == 0 and y.size == 8192
    with pytest.raises(OutOfMemoryError) as e:
        a.malloc(4096)
    msg = str(e.value)
    assert "4096 bytes" in msg and "MiB" in msg and "cuda:0" in msg


class FakeGraph:
    def __init__(self):
        self.private_blocks, self.released_blocks, self.held_bytes = [], [], 0


def test_frozen_during_capture():
    drv = FakeDriver(1 << 30)
    a = al.CachingAllocator(drv)
    pre = a.malloc(1024)
    a.free(pre)  # cached before the capture
    g = FakeGraph()
    a.begin_capture(g)
    inside = a.malloc(1024)
    assert inside.ptr != pre.ptr, "capture must not reuse cached blocks"
    before_free = a.malloc(2048)
    a.end_capture()
    a.free(inside)  # graph-private: held for replays
    assert a.cached_bytes == 1024 and inside in g.released_blocks
    reuse = a.malloc(1024)
    assert reuse.ptr == pre.ptr
    a.release_graph(g)
    assert inside.ptr not in drv.live
    a.free(before_free)  # now an ordinary block
    assert a.cached_bytes == 2048


# ---- argument packing -------------------------------------------------------------------
def test_struct_layout_matches_common_cuh():
    assert ctypes.sizeof(launch.Shp) == 8 + 8 * launch.MAXD
    assert ctypes.sizeof(launch.Str) == 8 * launch.MAXD
    assert launch.Shp.size.offset == 8


def test_pack_addresses():
    vals = [launch.u64(7), launch.i64(-3), launch.shp((2, 3))]
    keep, addr = launch.pack(vals)
    arr = (ctypes.c_void_p * 3).from_address(addr)
    assert arr[0] == ctypes.addressof(vals[0])
    assert ctypes.c_int64.from_address(arr[1]).value == -3
    assert launch.Shp.from_address(arr[2]).nd == 2


def test_elementwise_layout_coalesces():
    from numr.layout import Layout

    class T:
        def __init__(self, shape, strides):
            self._layout = Layout(shape, strides)

    sh, st = launch.elementwise_layout((4, 5, 6), T((4, 5, 6), (30, 6, 1)), T((4, 5, 6), (0, 6, 1)))
    assert sh.nd == 2 and list(sh.size[:2]) == [4, 30]
    assert list(st[1].s[:2]) == [0, 1]
    sh, st = launch.elementwise_layout((), T((), ()))
    assert sh.nd == 1 and sh.size[0] == 1
    big = (2,) * 9
    strides = tuple(4 ** (9 - i) for i in range(9))  # gaps everywhere: nothing merges
    with pytest.raises(nr.ShapeError, match="maximum of 8"):
        launch.elementwise_layout(big, T(big, strides))


def test_scalar_encoding_follows_cast_rules():
    from numr._cuda.ops.cast import scalar_value
    assert scalar_value("fill", float("nan"), nr.int32)[0] == 0
    assert scalar_value("fill", float("inf"), nr.int8)[0] == 127
    assert scalar_value("fill", -1e30, nr.uint16)[0] == 0
    assert scalar_value("fill", 2.9, nr.int64)[0] == 2
    assert scalar_value("fill", 3 + 4j, nr.float32)[0] == 3.0
    assert bool(scalar_value("fill", float("nan"), nr.bool_)[0]) is True
    assert scalar_value("fill", 1e6, nr.float8_e4m3fn).dtype == nr.float8_e4m3fn.np
    with pytest.raises(nr.DTypeError, match="out of range"):
        scalar_value("fill", 300, nr.uint8)
    assert scalar_value("fill", 2 ** 64 - 1, nr.uint64)[0] == np.uint64(2 ** 64 - 1)
