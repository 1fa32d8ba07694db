"""The runtime registry, device strings, the op-family protocols, and a
third-party runtime (tests/thirdparty_runtime.py) plugged in from outside numr."""

from __future__ import annotations

from importlib.metadata import EntryPoint

import numpy as np
import pytest
from thirdparty_runtime import ToyRuntime

import numr as nr
from numr.errors import DeviceError, DTypeError, UnsupportedDType, UnsupportedOperation
from numr.ops import traits
from numr.runtime import Device, Runtime, RuntimeClient, registry


@pytest.fixture
def toy():
    rt = nr.runtime.register(ToyRuntime("toy"))
    try:
        yield rt
    finally:
        nr.runtime.unregister("toy")


# ---- the CPU runtime through the registry --------------------------------------------------
def test_get_cpu():
    rt = nr.runtime.get("cpu")
    assert rt is nr.runtime.get("cpu")
    assert rt.name == "cpu" and rt.is_available() and rt.unavailable_reason() is None
    assert isinstance(rt, Runtime)
    dev = rt.default_device()
    assert rt.devices() == [dev] and str(dev) == "cpu" and dev.runtime_name == "cpu" and dev.index == 0
    assert dev.runtime is rt
    assert nr.dtype("float32") in rt.supported_dtypes(dev)
    assert set(rt.supported_dtypes(dev)) == set(nr.ALL_DTYPES)
    assert rt.supports_graph_capture() is False


def test_cpu_client_is_cached_and_shared():
    rt = nr.runtime.get("cpu")
    c = rt.client()
    assert c is rt.client() and c is rt.client(rt.default_device())
    assert c is nr.device("cpu").client
    assert c.device == "cpu"
    assert isinstance(c, RuntimeClient)
    x = nr.from_numpy(np.zeros(3))
    assert x.client is c and x.runtime is rt


def test_names_and_available():
    names = nr.runtime.names()
    assert names[:3] == ["cpu", "wgpu", "cuda"]
    av = nr.runtime.available()
    assert "cpu" in av and set(av) <= set(names)
    for name in names:  # every runtime answers, available or not, and unavailable ones say why
        rt = nr.runtime.get(name)
        if name not in av:
            assert not rt.is_available() and rt.unavailable_reason()
    assert [rt.name for rt in nr.runtime.all_runtimes()] == names


@pytest.mark.parametrize("spec", [None, "cpu", "cpu:0", " cpu "])
def test_device_strings(spec):
    d = nr.device(spec)
    assert isinstance(d, Device) and d.runtime_name == "cpu" and d.index == 0
    assert str(d) == "cpu" and repr(d) == "device('cpu')" and d.type == "cpu"
    assert d == "cpu" and d == "cpu:0" and d != "wgpu" and d != 3
    assert nr.device(d) is d
    assert hash(d) == hash(nr.device("cpu"))


@pytest.mark.parametrize("spec,match", [
    ("nope", "nope"), ("cpu:1", "no device 1"), ("cpu:x", "bad device index"), (3, "not a device"),
    ("", "no runtime"), (["cpu"], "not a device"),
])
def test_device_errors(spec, match):
    with pytest.raises(DeviceError, match=match):
        nr.device(spec)


def test_unknown_runtime_lists_known():
    with pytest.raises(DeviceError) as e:
        nr.runtime.get("tpu")
    assert "tpu" in str(e.value) and "cpu" in str(e.value)
    assert isinstance(e.value, RuntimeError)


def test_unavailable_builtin_gives_a_reason(monkeypatch):
    monkeypatch.setitem(registry._BUILTIN, "brokenrt", "numr_no_such_module.runtime:Nothing")
    try:
        rt = nr.runtime.get("brokenrt")
        assert not rt.is_available()
        assert "numr_no_such_module" in rt.unavailable_reason()
        assert "brokenrt" in nr.runtime.names() and "brokenrt" not in nr.runtime.available()
        with pytest.raises(DeviceError, match="brokenrt.*unavailable"):
            nr.device("brokenrt")
        with pytest.raises(DeviceError):
            nr.zeros(2, device="brokenrt")
    finally:
        nr.runtime.unregister("brokenrt")


@pytest.mark.parametrize("family", traits.FAMILIES, ids=[f.__name__ for f in traits.FAMILIES])
def test_cpu_client_implements_every_family(family):
    c = nr.runtime.get("cpu").client()
    missing = [m for m in traits.protocol_methods(family) if not callable(getattr(c, m, None))]
    assert not missing, f"CpuClient lacks {family.__name__} methods: {missing}"
    assert isinstance(c, family)


def test_traits_importable_by_name():
    from numr.ops.traits import BinaryOps, ReduceOps, UnaryOps  # noqa: F401
    for f in traits.FAMILIES:
        assert getattr(traits, f.__name__) is f
        assert traits.protocol_methods(f) == [n for n in vars(f) if callable(vars(f)[n]) and not n.startswith("_")]


def test_public_ops_come_from_traits():
    from numr.ops import api
    for fam in traits.FAMILIES:
        for name in traits.protocol_methods(fam):
            if name in api.NOT_PUBLIC or name == "cast":  # nr.cast also parses the dtype argument
                continue
            fn = getattr(nr, name)
            assert fn is api.OPS[name] and fn.__name__ == name
            assert fn.__doc__ == getattr(fam, name).__doc__


# ---- registration --------------------------------------------------------------------------
def test_register_rejects_non_runtimes():
    with pytest.raises(TypeError):
        nr.runtime.register(object())


def test_register_duplicate_and_replace(toy):
    with pytest.raises(DeviceError, match="already registered"):
        nr.runtime.register(ToyRuntime("toy"))
    d_old = nr.device("toy")
    new = nr.runtime.register(ToyRuntime("toy"), replace=True)
    assert nr.runtime.get("toy") is new
    d_new = nr.device("toy")
    assert d_new.runtime is new and d_new is not d_old  # the device cache follows the registry


def test_unregister_forgets_devices(toy):
    nr.device("toy")
    nr.runtime.unregister("toy")
    with pytest.raises(DeviceError):
        nr.device("toy")
    nr.runtime.register(toy)
    assert nr.device("toy").runtime is toy


# ---- the third-party runtime runs generic code -----------------------------------------------------
def test_toy_is_a_runtime(toy):
    assert isinstance(toy, Runtime)
    assert "toy" in nr.runtime.names() and "toy" in nr.runtime.available()
    d = nr.device("toy")
    assert str(d) == "toy:0" and d == "toy:0" and d != "cpu"
    c = toy.client()
    assert isinstance(c, RuntimeClient)
    assert not isinstance(c, traits.BinaryOps)  # it lacks pow, atan2, ...: isinstance tells
    assert isinstance(c, traits.ShapeOps)  # cat/stack come from the generic composites


def test_toy_creation(toy):
    a = np.arange(6.0).reshape(2, 3)
    t = nr.tensor(a, device="toy")
    assert t.device == "toy" and t.shape == (2, 3) and t.dtype == nr.float64
    np.testing.assert_array_equal(t.numpy(), a)
    assert nr.zeros(2, 3, device="toy").numpy().tolist() == [[0] * 3] * 2
    assert nr.ones((2,), dtype=nr.int32, device="toy").dtype == nr.int32
    assert nr.full((2, 2), 7, device="toy").dtype == nr.int64
    np.testing.assert_array_equal(nr.arange(5, device="toy").numpy(), np.arange(5))
    z = nr.zeros_like(t)
    assert z.device == t.device and z.shape == t.shape
    assert nr.tensor(3.5, device="toy").shape == ()
    assert "device='toy:0'" in repr(t)


def test_toy_arithmetic_and_generic_composites(toy):
    a = np.arange(6.0).reshape(2, 3)
    b = np.array([10.0, 20.0, 30.0])
    x, y = nr.tensor(a, device="toy"), nr.tensor(b, device="toy")
    for got, exp in [(x + y, a + b), (y - x, b - a), (x * 2, a * 2), (2 * x, 2 * a), (x / y, a / b), (1 - x, 1 - a)]:
        assert got.device == "toy" and got.shape == exp.shape
        np.testing.assert_allclose(got.numpy(), exp)
    i = nr.tensor([1, 2, 3], dtype=nr.int32, device="toy")
    assert (i + 1).dtype == nr.int32 and (i + 1.5).dtype == nr.float64 and (i / 2).dtype == nr.float64
    s = x.sum()
    assert s.shape == () and s.item() == a.sum()
    np.testing.assert_allclose(x.sum(dim=0).numpy(), a.sum(0))
    np.testing.assert_allclose(nr.sum(x, dim=(0, 1), keepdim=True).numpy(), a.sum((0, 1), keepdims=True))
    m = x.mean(dim=1)  # the generic composite: sum / count
    np.testing.assert_allclose(m.numpy(), a.mean(1))
    assert nr.mean(i).dtype == nr.float64 and nr.mean(i).item() == 2.0
    np.testing.assert_allclose(nr.var(x, dim=0, correction=1).numpy(), a.var(0, ddof=1))
    c = nr.cat([x, x], dim=1)
    assert c.device == "toy"
    np.testing.assert_array_equal(c.numpy(), np.concatenate([a, a], 1))
    np.testing.assert_array_equal(nr.stack([y, y]).numpy(), np.stack([b, b]))
    np.testing.assert_array_equal(nr.matmul_bias.__name__, "matmul_bias")


def test_toy_views(toy):
    a = np.arange(24.0).reshape(2, 3, 4)
    x = nr.tensor(a, device="toy")
    for got, exp in [(x.T, a.T), (x[:, ::-1, 1::2], a[:, ::-1, 1::2]), (x.permute(2, 0, 1), a.transpose(2, 0, 1)),
                     (x.reshape(6, 4), a.reshape(6, 4)), (x.flip(0), a[::-1]), (x[1, None, ..., 2], a[1, None, ..., 2]),
                     (x.unsqueeze(1).squeeze(1), a), (x[:, :1].expand(2, 3, 4), np.broadcast_to(a[:, :1], (2, 3, 4)))]:
        assert got._storage is x._storage
        np.testing.assert_array_equal(got.numpy(), exp)
    y = x.T.contiguous()
    assert y.is_contiguous() and y._storage is not x._storage
    np.testing.assert_array_equal(y.numpy(), a.T)
    x[0, 1:] = 5.0  # basic setitem through fill_/copy_
    a[0, 1:] = 5.0
    x[1] = nr.tensor(np.ones(4), device="toy")
    a[1] = 1.0
    np.testing.assert_array_equal(x.numpy(), a)


def test_toy_moves_between_devices(toy):
    a = np.arange(6.0).reshape(2, 3)
    x = nr.tensor(a, device="toy")
    c = x.to("cpu")
    assert c.device == "cpu"
    np.testing.assert_array_equal(c.numpy(), a)
    back = c.to("toy")
    assert back.device == "toy"
    np.testing.assert_array_equal(back.numpy(), a)
    np.testing.assert_array_equal(x.T.to("cpu").numpy(), a.T)  # a strided view moves correctly


def test_toy_unsupported(toy):
    x = nr.tensor([1.0, 2.0], device="toy")
    cases = [(lambda: x.exp(), "exp"), (lambda: nr.exp(x), "exp"), (lambda: -x, "neg"), (lambda: abs(x), "abs"),
             (lambda: x ** 2, "pow"), (lambda: x @ x, "matmul"), (lambda: x < 1, "lt"), (lambda: ~x, "bitwise_not")]
    for f, op in cases:
        with pytest.raises(UnsupportedOperation) as e:
            f()
        msg = str(e.value)
        assert "toy" in msg and op in msg and "float64" in msg, msg
        assert e.value.backend == "toy" and e.value.op == op
        assert isinstance(e.value, NotImplementedError)
    with pytest.raises(UnsupportedDType) as e:
        nr.zeros(3, dtype=nr.float16, device="toy")
    assert "toy" in str(e.value) and "float16" in str(e.value) and "full" in str(e.value)
    with pytest.raises(UnsupportedDType, match="toy.*float16"):
        x.astype(nr.float16)


def test_toy_and_cpu_do_not_mix(toy):
    x = nr.tensor([1.0, 2.0], device="toy")
    y = nr.from_numpy(np.array([1.0, 2.0]))
    with pytest.raises(DeviceError) as e:
        x + y
    assert "toy" in str(e.value) and "cpu" in str(e.value) and "add" in str(e.value)
    with pytest.raises(DeviceError):
        nr.add(x, y)
    with pytest.raises(DeviceError):
        x.copy_(y)
    np.testing.assert_array_equal(x.numpy(), [1.0, 2.0])


def test_toy_dtype_errors(toy):
    x = nr.tensor([1, 2], device="toy")
    with pytest.raises(DTypeError):
        x + "a"


# ---- entry points -------------------------------------------------------------------------------------
def _fake_entry_points(eps):
    def entry_points(group=None, **kw):
        assert group == "numr.runtimes"
        return [e for e in eps if e.group == group]
    return entry_points


def test_entry_point_group_is_read(monkeypatch):
    ep = EntryPoint(name="toy_ep", value="thirdparty_runtime:make_runtime", group="numr.runtimes")
    bad = EntryPoint(name="broken_ep", value="numr_no_such_plugin:Runtime", group="numr.runtimes")
    monkeypatch.setattr(registry, "entry_points", _fake_entry_points([ep, bad]))
    monkeypatch.setattr(registry, "_entry_points_loaded", False)
    try:
        names = nr.runtime.names()
        assert "toy_ep" in names and "broken_ep" in names
        assert "toy_ep" in nr.runtime.available() and "broken_ep" not in nr.runtime.available()
        assert "numr_no_such_plugin" in nr.runtime.get("broken_ep").unavailable_reason()
        x = nr.ones(3, device="toy_ep")
        assert str(x.device) == "toy_ep:0"
        assert (x + x).sum().item() == 6.0
    finally:
        nr.runtime.unregister("toy_ep")
        nr.runtime.unregister("broken_ep")


def test_entry_point_loaded_on_lookup(monkeypatch):
    ep = EntryPoint(name="toy_ep", value="thirdparty_runtime:make_runtime", group="numr.runtimes")
    monkeypatch.setattr(registry, "entry_points", _fake_entry_points([ep]))
    monkeypatch.setattr(registry, "_entry_points_loaded", False)
    try:
        assert nr.runtime.get("toy_ep").name == "toy_ep"
    finally:
        nr.runtime.unregister("toy_ep")


def test_entry_point_class_is_instantiated(monkeypatch):
    ep = EntryPoint(name="toy", value="thirdparty_runtime:ToyRuntime", group="numr.runtimes")
    monkeypatch.setattr(registry, "entry_points", _fake_entry_points([ep]))
    monkeypatch.setattr(registry, "_entry_points_loaded", False)
    try:
        assert isinstance(nr.runtime.get("toy"), ToyRuntime)
    finally:
        nr.runtime.unregister("toy")


def test_every_available_device_parses():
    for name in nr.runtime.available():
        rt = nr.runtime.get(name)
        assert rt.is_available() and isinstance(rt, Runtime)
        devs = rt.devices()
        assert devs and rt.default_device() in devs
        assert nr.device(name) is rt.default_device()
        for d in devs:
            assert nr.device(f"{name}:{d.index}") == d and d.runtime is rt
            assert str(d) == ("cpu" if name == "cpu" else f"{name}:{d.index}")
            info = rt.device_info(d)
            assert isinstance(info, dict)
            dts = rt.supported_dtypes(d)
            assert dts and all(isinstance(x, nr.DType) for x in dts)
        c = rt.client()
        assert c is rt.client(rt.default_device()) and c.device == rt.default_device()


def test_keyword_tensor_picks_the_client(device):
    # a call whose tensors all come by keyword goes to their device's client (it went to the
    # default device's, which raised a DeviceError naming a device no operand was on)
    x = nr.tensor([1.0, -2.0], device=device)
    assert str(nr.add(a=x, b=x).device) == str(x.device)
    np.testing.assert_array_equal(nr.add(a=x, b=x).numpy(), [2.0, -4.0])
    assert nr.sum(x=x).item() == -1.0
    np.testing.assert_array_equal(nr.clamp(x=x, min=0.0).numpy(), [1.0, 0.0])
    np.testing.assert_array_equal(nr.cat(tensors=[x, x]).numpy(), [1.0, -2.0, 1.0, -2.0])
    np.testing.assert_array_equal(nr.add(1.0, b=x).numpy(), [2.0, -1.0])
