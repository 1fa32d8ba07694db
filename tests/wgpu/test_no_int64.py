"""Adapters without shader-int64 (most browsers' WebGPU): int64 is widened to two u32 words;
index results, copies, integer casts and small aranges work, arithmetic raises UnsupportedDType."""

from __future__ import annotations

import numpy as np
import pytest
from wgpu_fixtures import wgpu_device_fixture  # noqa: F401  (provides the wgpu_device fixture)

import numr as nr
from numr._wgpu.runtime import WgpuRuntime


class _NoInt64(WgpuRuntime):
    name = "wgpunoi64"


@pytest.fixture(scope="module")
def dev(wgpu_device):
    mp = pytest.MonkeyPatch()
    mp.setenv("NUMR_WGPU_DISABLE", "shader-int64")
    rt = nr.runtime.register(_NoInt64())
    d = rt.default_device()
    rt.client(d)  # the device is created now, without the feature
    yield str(d)
    nr.runtime.unregister(rt.name)
    mp.undo()


def test_index_results_and_casts(dev):
    a = np.array([[1.0, 5.0, np.nan, 5.0], [0.0, -1.0, 2.0, 2.0]], np.float32)
    x = nr.tensor(a, device=dev)
    assert "shader-int64" not in x.client.gpu.features
    r = x.client.argmax(x, 1)
    assert r.dtype == nr.int64
    np.testing.assert_array_equal(r.numpy(), np.argmax(a, 1))
    np.testing.assert_array_equal(x.client.nonzero(x).numpy(), np.argwhere(a))
    big = np.array([-1, 2**40, -5], np.int64)
    t = nr.tensor(big, device=dev)
    np.testing.assert_array_equal(t.numpy(), big)
    np.testing.assert_array_equal(t.astype(nr.int32).numpy(), big.astype(np.int32))
    np.testing.assert_array_equal(t.astype(nr.uint64).numpy(), big.astype(np.uint64))
    np.testing.assert_array_equal(nr.tensor([-3, 4], dtype=nr.int32, device=dev).astype(nr.int64).numpy(), [-3, 4])
    np.testing.assert_array_equal(nr.arange(5, device=dev).numpy(), np.arange(5))
    np.testing.assert_array_equal(x.client.index_select(x, 1, nr.tensor([3, -4], device=dev)).numpy(), a[:, [3, 0]])
    with pytest.raises(nr.IndexOutOfRange):
        x.client.index_select(x, 1, nr.tensor([2**33], device=dev))


def test_arithmetic_raises(dev):
    t = nr.arange(5, device=dev)
    with pytest.raises(nr.UnsupportedDType, match="wgpu.*add.*int64"):
        t + 1
    with pytest.raises(nr.UnsupportedDType, match="int64"):
        t.astype(nr.float32)
    with pytest.raises(nr.UnsupportedDType, match="int64"):
        nr.arange(2**40, 2**40 + 3, device=dev)


def test_max_min_gradients_need_no_int64(dev):
    # the tie count of max/min's gradient (reverse and forward mode) was a bool sum (int64) cast
    # to the float dtype: UnsupportedDType on these adapters, for float32 data (found by tools/fuzz
    # with NUMR_WGPU_DISABLE=shader-int64)
    from numr.autograd import Var, backward, jvp
    a = np.array([[1.0, 3.0, 3.0], [2.0, 0.5, 2.0]], np.float32)
    x = nr.tensor(a, device=dev)
    v = Var(x)
    for op, want in (("max", [[0, 0.5, 0.5], [0.5, 0, 0.5]]), ("amin", [[1, 0, 0], [0, 1, 0]])):
        g = backward(getattr(nr, op)(v, dim=1).sum())[v]
        assert g.dtype == nr.float32
        np.testing.assert_array_equal(g.numpy(), want)
        _, t = jvp(lambda u, op=op: getattr(nr, op)(u, dim=1), (x,), (nr.ones_like(x),))
        np.testing.assert_array_equal(t.numpy(), [1.0, 1.0])
