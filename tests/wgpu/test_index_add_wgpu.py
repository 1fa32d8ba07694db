"""index_add_'s wgpu-only paths: x and source split across bindings (a lowered binding limit),
indices run in several dispatches, a long index vector range by range (every range checked
before the first write), packed dtypes written by neighbouring threads, and int64 tensors on
an adapter without shader-int64 (UnsupportedDType, nothing written)."""

from __future__ import annotations

import numpy as np
import pytest
from wgpu_fixtures import wgpu_device_fixture  # noqa: F401  (provides the wgpu_device fixture)

import numr as nr
from numr._wgpu.ops import indexing as wi
from numr._wgpu.runtime import WgpuRuntime


def _oracle(a, dim, idx, src):
    out = np.moveaxis(a.astype(np.float64 if a.dtype.kind == "f" else np.int64), dim, 0).copy()
    np.add.at(out, idx, np.moveaxis(np.broadcast_to(src, a.shape[:dim] + (len(idx),) + a.shape[dim + 1:]), dim, 0))
    return np.moveaxis(out, 0, dim).astype(a.dtype)


def test_pieces_and_index_steps_under_a_lowered_limit(wgpu_device, monkeypatch):
    """x past one binding (split along the other dims, then along dim) and a source past one
    binding (split along the indices), with few indices per dispatch: the CPU's exact sums."""
    gpu = nr.runtime.get("wgpu").client(wgpu_device).gpu
    monkeypatch.setattr(gpu, "max_binding", 1 << 12)
    monkeypatch.setattr(wi, "KSTEP", 7)
    rng = np.random.default_rng(1)
    for dtype, dim, shape in [("float32", 0, (40, 30)), ("int16", 1, (20, 300)), ("float64", 0, (1500,)),
                              ("uint8", 1, (9, 500, 3))]:
        a = rng.integers(0, 5, shape).astype(dtype)
        n = shape[dim]
        idx = rng.integers(-n, n, 61)
        src = rng.integers(0, 4, shape[:dim] + (61,) + shape[dim + 1:]).astype(dtype)
        x = nr.tensor(a, device="wgpu")
        if x.ndim > 1:  # a transposed view of x: dims 0 and -1 swapped
            view, vd = x.transpose(0, -1), {0: x.ndim - 1, x.ndim - 1: 0}.get(dim, dim)
            s, base = np.swapaxes(src, 0, -1), np.swapaxes(a, 0, -1)
        else:  # a flipped view
            view, vd, s, base = x.flip(0), dim, src, a[::-1]
        view.index_add_(vd, nr.tensor(idx, device="wgpu"), nr.tensor(np.ascontiguousarray(s), device="wgpu"))
        want = _oracle(base, vd, idx % n, s)
        got = view.numpy()
        np.testing.assert_array_equal(got, want, err_msg=f"{dtype} dim {dim}")
    # a sparse source view (its k-step's extent exceeds the binding: copied to a compact one)
    wide = rng.integers(-3, 4, (61, 3000)).astype(np.float32)
    x = nr.tensor(np.zeros((40, 30), np.float32), device="wgpu")
    idx = rng.integers(0, 40, 61)
    x.index_add_(0, nr.tensor(idx, device="wgpu"), nr.tensor(wide, device="wgpu")[:, ::100])
    np.testing.assert_array_equal(x.numpy(), _oracle(np.zeros((40, 30), np.float32), 0, idx, wide[:, ::100]))


def test_index_vector_past_one_binding(wgpu_device, monkeypatch):
    gpu = nr.runtime.get("wgpu").client(wgpu_device).gpu
    monkeypatch.setattr(gpu, "max_binding", 1 << 12)
    rng = np.random.default_rng(2)
    idx = rng.integers(-40, 40, 2000)
    src = rng.integers(-3, 4, (2000, 2)).astype(np.float32)
    a = np.zeros((40, 2), np.float32)
    t = nr.tensor(a, device="wgpu")
    t.index_add_(0, nr.tensor(idx, device="wgpu"), nr.tensor(src, device="wgpu"), alpha=2.0)
    want = _oracle(a, 0, idx % 40, 2 * src)
    np.testing.assert_array_equal(t.numpy(), want)
    bad = idx.copy()
    bad[-1] = 40  # out of range in the last range: nothing may be written
    with pytest.raises(nr.IndexOutOfRange, match="index_add_"):
        t.index_add_(0, nr.tensor(bad, device="wgpu"), 1.0)
    np.testing.assert_array_equal(t.numpy(), want)


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "uint16", "bfloat16", "float16"])
def test_packed_neighbours_and_wrapping(wgpu_device, dtype):
    """Neighbouring threads add into the same 32-bit word; integers wrap like the CPU's."""
    npd = nr.dtype(dtype).np
    a = (np.arange(39) - (0 if dtype[0] == "u" else 20)).astype(npd).reshape(3, 13)
    src = np.full((5, 13), 100 if "int" in dtype else 3, npd)
    idx = np.array([0, 2, 0, 0, -1])
    x = nr.tensor(a, device="wgpu")
    x[1:].index_add_(0, nr.tensor(idx[:3] % 2, device="wgpu"), nr.tensor(src[:3], device="wgpu"))
    y = nr.tensor(a, device="wgpu")
    cpu = nr.tensor(a)
    for t in (y, cpu):
        t.index_add_(0, nr.tensor(idx, device=t.device), nr.tensor(src, device=t.device))
    np.testing.assert_array_equal(y.numpy().view(np.uint8), cpu.numpy().view(np.uint8))
    c = nr.tensor(a)
    c[1:].index_add_(0, nr.tensor(idx[:3] % 2), nr.tensor(src[:3]))
    np.testing.assert_array_equal(x.numpy().view(np.uint8), c.numpy().view(np.uint8))


def test_past_one_real_binding(wgpu_device):
    """An embedding-gradient shaped x just past the adapter's binding limit (128 MiB on
    lavapipe), split into row ranges: touched rows equal the oracle, the rest stay zero."""
    limit = nr.runtime.get("wgpu").client(wgpu_device).gpu.max_binding
    if limit > 256 << 20:
        pytest.skip(f"the adapter's binding limit {limit} would need a huge tensor")
    n = limit // (4 * 64) + 1001
    x = nr.zeros((n, 64), dtype=nr.float32, device="wgpu")
    rng = np.random.default_rng(3)
    idx = np.concatenate([[0, n - 1, -1, n // 2, n // 2 + 1], rng.integers(-n, n, 200)])
    src = rng.integers(-8, 9, (len(idx), 64)).astype(np.float32)
    x.index_add_(0, nr.tensor(idx, device="wgpu"), nr.tensor(src, device="wgpu"))
    rows = np.unique(np.concatenate([idx % n, [1, n - 2, n // 2 - 1, n // 2 + 2]]))
    want = np.zeros((len(rows), 64), np.float64)
    np.add.at(want, np.searchsorted(rows, idx % n), src)
    got = nr.index_select(x, 0, nr.tensor(rows, device="wgpu")).numpy()
    np.testing.assert_array_equal(got, want.astype(np.float32))
    assert float(nr.sum(nr.abs(x)).item()) == float(np.abs(want).sum())


class _NoInt64(WgpuRuntime):
    name = "wgpunoi64add"


def test_int64_without_shader_int64(wgpu_device):
    mp = pytest.MonkeyPatch()
    mp.setenv("NUMR_WGPU_DISABLE", "shader-int64")
    rt = nr.runtime.register(_NoInt64())
    try:
        dev = str(rt.default_device())
        rt.client(rt.default_device())
        x = nr.tensor(np.arange(4), device=dev)
        with pytest.raises(nr.UnsupportedDType, match="wgpu.*index_add_.*int64"):
            x.index_add_(0, nr.tensor([1], device=dev), nr.tensor([5], device=dev))
        np.testing.assert_array_equal(x.numpy(), np.arange(4))
        f = nr.tensor(np.zeros(4, np.float32), device=dev)  # int64 indices (widened) still work
        f.index_add_(0, nr.tensor([3, -1, 0], device=dev), 1.5)
        np.testing.assert_array_equal(f.numpy(), [1.5, 0, 0, 3.0])
    finally:
        nr.runtime.unregister(rt.name)
        mp.undo()
