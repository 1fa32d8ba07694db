"""WebGPU runtime: adapter, device strings, dtypes, pipeline cache, errors."""

from __future__ import annotations

import os

import numpy as np
import pytest
from wgpu_fixtures import wgpu_device_fixture  # noqa: F401  (provides the wgpu_device fixture)

import numr as nr


def test_adapter_backend(wgpu_device):
    rt = nr.runtime.get("wgpu")
    info = rt.device_info(wgpu_device)
    assert {"name", "backend", "features"} <= set(info)
    if os.environ.get("WGPU_BACKEND_TYPE") == "Vulkan" or "wgpu" in os.environ.get("NUMR_REQUIRE_BACKENDS", ""):
        # CI runs on Mesa's lavapipe: the OpenGL fallback has no f16/f64 and would hide bugs
        assert info["backend"] == "Vulkan", info
        assert "shader-f64" in info["features"] and "shader-f16" in info["features"]


def test_device_strings(wgpu_device):
    assert nr.device("wgpu") == wgpu_device
    assert str(wgpu_device) == "wgpu:0"
    x = nr.arange(4, dtype=nr.float32, device="wgpu:0")
    assert str(x.device) == "wgpu:0" and x.device == "wgpu"
    assert "device='wgpu:0'" in repr(x)
    n = len(nr.runtime.get("wgpu").devices())
    with pytest.raises(nr.DeviceError):
        nr.device(f"wgpu:{n + 5}")
    with pytest.raises(nr.DeviceError):
        nr.add(x, nr.arange(4, dtype=nr.float32))


def test_supported_dtypes_and_unsupported_messages(wgpu_device):
    sup = nr.runtime.get("wgpu").supported_dtypes(wgpu_device)
    assert {nr.float32, nr.int32, nr.uint32, nr.bool_, nr.int8, nr.uint8, nr.int16, nr.uint16} <= sup
    assert nr.complex64 not in sup and nr.float8_e4m3fn not in sup
    for d in ("complex64", "float8_e5m2"):
        with pytest.raises(nr.UnsupportedDType, match=f"wgpu.*{d}"):
            nr.zeros(3, dtype=d, device="wgpu")
        with pytest.raises(nr.UnsupportedDType, match=f"wgpu.*{d}"):
            nr.tensor(np.zeros(3, nr.dtype(d).np), device="wgpu")


def test_unsupported_dtype_names_backend_op_dtype(wgpu_device):
    # atan2 has no integer kernel on any backend: the rules turn ints into float64; bitwise ops on
    # floats are a DTypeError; a kind the WGSL kernels lack raises UnsupportedDType naming all three
    from numr._wgpu import launch
    client = nr.runtime.get("wgpu").client(wgpu_device)
    with pytest.raises(nr.UnsupportedDType) as e:
        launch.section(client, "unary.wgsl", "sqrt", launch.kind(client, nr.int32, "sqrt"), "sqrt", nr.int32)
    msg = str(e.value)
    assert "wgpu" in msg and "sqrt" in msg and "int32" in msg


def test_to_and_from_host_and_between_devices(wgpu_device):
    a = np.arange(24, dtype=np.float64).reshape(2, 3, 4)
    x = nr.tensor(a, device="wgpu")
    np.testing.assert_array_equal(x.numpy(), a)
    np.testing.assert_array_equal(x.to("cpu").numpy(), a)
    y = nr.tensor(a).to("wgpu")
    assert y.device == "wgpu" and y.dtype == nr.float64
    z = x.to("wgpu:0", copy=True)
    assert z._storage is not x._storage
    np.testing.assert_array_equal(z.permute(2, 0, 1).numpy(), a.transpose(2, 0, 1))


def test_dlpack_and_graph_capture_unsupported(wgpu_device):
    x = nr.ones(3, device="wgpu")
    with pytest.raises(nr.UnsupportedOperation, match="wgpu"):
        x.__dlpack__()
    rt = nr.runtime.get("wgpu")
    assert rt.supports_graph_capture() is False
    with pytest.raises(nr.UnsupportedOperation):
        rt.capture_graph(lambda: None)


def test_pipeline_cache(wgpu_device):
    client = nr.runtime.get("wgpu").client(wgpu_device)
    x = nr.arange(10, dtype=nr.float32, device="wgpu")
    nr.hypot(x, x)
    before = client.gpu.cached_pipelines
    for _ in range(3):
        nr.hypot(x[::2], x[1::2])            # other layouts, same kernel
    assert client.gpu.cached_pipelines == before
    keys = [k for k in client.gpu._pipelines if k[:2] == ("ew", ("hypot",))]
    nr.hypot(x.astype(nr.float64), x.astype(nr.float64))
    keys64 = [k for k in client.gpu._pipelines if k[:2] == ("ew", ("hypot",))]
    assert len(keys64) == len(set(keys) | {("ew", ("hypot",), ("float64",) * 3)})
    p32 = client.gpu._pipelines[("ew", ("hypot",), ("float32",) * 3)][0]
    assert p32 is not client.gpu._pipelines[("ew", ("hypot",), ("float64",) * 3)][0]


def test_synchronize(wgpu_device):
    x = nr.ones(1000, device="wgpu") * 2
    nr.runtime.get("wgpu").synchronize(wgpu_device)
    x.client.synchronize()
    assert float(x.sum().item()) == 2000.0


def test_every_adapter_computes(wgpu_device):
    """Each adapter (the OpenGL fallback too, whose GLSL ignores WGSL's @align) computes right."""
    rt = nr.runtime.get("wgpu")
    a = np.arange(10, dtype=np.float32)
    for dev in rt.devices():
        x = nr.tensor(a, device=dev)
        np.testing.assert_array_equal((x * 2 + 1).numpy(), a * 2 + 1, err_msg=str(rt.device_info(dev)))
        assert x.sum().item() == 45.0
        np.testing.assert_array_equal((nr.tensor([1, 2, 3], dtype=nr.int8, device=dev) * 2).numpy(), [2, 4, 6])
        m = x[:9].reshape(3, 3)
        np.testing.assert_allclose((m @ m).numpy(), a[:9].reshape(3, 3) @ a[:9].reshape(3, 3))
