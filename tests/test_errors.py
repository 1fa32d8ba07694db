"""numr's errors: the classes, and bad inputs that must raise them (naming op,
shapes and dtypes) before any kernel runs, leaving every input unchanged."""

from __future__ import annotations

import numpy as np
import pytest

import numr as nr
from numr import errors
from numr.errors import (
    DeviceError,
    DTypeError,
    IndexOutOfRange,
    KernelCompileError,
    NumrError,
    OutOfMemoryError,
    ShapeError,
    UnsupportedDType,
    UnsupportedOperation,
)


# ---- the classes ---------------------------------------------------------------------------------
@pytest.mark.parametrize("cls,builtin", [
    (ShapeError, ValueError), (DTypeError, TypeError), (DeviceError, RuntimeError),
    (UnsupportedOperation, NotImplementedError), (UnsupportedDType, NotImplementedError),
    (OutOfMemoryError, MemoryError), (IndexOutOfRange, IndexError), (KernelCompileError, RuntimeError),
])
def test_error_classes(cls, builtin):
    assert issubclass(cls, NumrError) and issubclass(cls, builtin)
    assert cls.__name__ in errors.__all__
    assert getattr(nr, cls.__name__) is cls


def test_unsupported_message():
    e = UnsupportedOperation("wgpu", "exp", nr.float64, reason="no f64 on this adapter")
    assert str(e) == "wgpu: exp is not supported for dtype float64 (no f64 on this adapter)"
    assert (e.backend, e.op, e.dtype) == ("wgpu", "exp", nr.float64)
    assert str(UnsupportedOperation("cpu", "graph capture")) == "cpu: graph capture is not supported"
    d = UnsupportedDType("cuda", "add", nr.bool_)
    assert isinstance(d, UnsupportedOperation) and "bool" in str(d)


def test_kernel_compile_error_keeps_log():
    e = KernelCompileError("add_f32 failed", log="error: expected ';'")
    assert e.log == "error: expected ';'" and "expected ';'" in str(e) and "add_f32" in str(e)


# ---- bad inputs -------------------------------------------------------------------------------------
def t(a, device, dtype=None):
    """A tensor of ``a``; float data as float32 so that every backend (WebGPU has no f64) can run it."""
    a = np.asarray(a)
    if dtype is None and a.dtype == np.float64:
        dtype = nr.float32
    return nr.tensor(a, dtype=dtype, device=device)


def snapshot(*ts):
    return [x.numpy().copy() for x in ts]


def unchanged(ts, before):
    for x, b in zip(ts, before, strict=True):
        np.testing.assert_array_equal(x.numpy(), b)


def expect(exc, fn, *words):
    with pytest.raises(exc) as e:
        fn()
    msg = str(e.value)
    for w in words:
        assert str(w) in msg, f"{w!r} not in {type(e.value).__name__}: {msg}"
    return e.value


def test_shape_errors_name_op_and_shapes(device):
    x = t(np.arange(6.0).reshape(2, 3), device)
    y = t(np.arange(4.0), device)
    before = snapshot(x, y)
    expect(ShapeError, lambda: x + y, "add", "(2, 3)", "(4,)")
    expect(ShapeError, lambda: nr.mul(x, y), "mul", "(2, 3)", "(4,)")
    expect(ShapeError, lambda: x < y, "lt", "(2, 3)", "(4,)")
    expect(ShapeError, lambda: x @ x, "matmul", "(2, 3)")
    expect(ShapeError, lambda: nr.matmul(t(1.0, device), x), "matmul", "()")
    expect(ShapeError, lambda: x.reshape(4, 2), "reshape", "(4, 2)", "6")
    expect(ShapeError, lambda: x.expand(3, 3), "expand", "(2, 3)", "(3, 3)")
    expect(ShapeError, lambda: nr.cat([x, y]), "cat", "(2, 3)", "(4,)")
    expect(ShapeError, lambda: nr.stack([x, x.T]), "stack", "(2, 3)", "(3, 2)")
    expect(ShapeError, lambda: x.item(), "item", "(2, 3)")
    expect(ShapeError, lambda: nr.where(t([True, False], device), x, y), "where")
    unchanged([x, y], before)


def test_dim_errors(device):
    x = t(np.arange(6.0).reshape(2, 3), device)
    before = snapshot(x)
    for fn, op in [(lambda: x.sum(dim=2), "sum"), (lambda: x.max(dim=-3), "max"), (lambda: x.mean(dim=5), "mean"),
                   (lambda: x.var(dim=4), "var"), (lambda: x.cumsum(dim=2), "cumsum"),
                   (lambda: x.argmax(dim=3), "argmax"), (lambda: x.transpose(0, 2), "transpose"),
                   (lambda: x.unsqueeze(4), "unsqueeze"), (lambda: x.flip(2), "flip"),
                   (lambda: x.narrow(2, 0, 1), "narrow")]:
        e = expect(IndexOutOfRange, fn, op)
        assert "2-d" in str(e) or "(2, 3)" in str(e), str(e)
    expect(ShapeError, lambda: x.sum(dim=(0, -2)), "sum", "repeated")
    expect(ShapeError, lambda: x.permute(0, 0), "permute")
    unchanged([x], before)


def test_dtype_errors_name_op_and_dtype(device):
    f = t([1.5, 2.5], device)
    expect(DTypeError, lambda: f & f, "bitwise_and", "float32")
    expect(DTypeError, lambda: ~f, "bitwise_not", "float32")
    b = t([True, False], device)
    expect(DTypeError, lambda: -b, "neg", "bool")
    expect(DTypeError, lambda: b - b, "sub", "bool")
    expect(DTypeError, lambda: f + "a", "add", "str")
    expect(DTypeError, lambda: f.fill_("a"), "fill_")
    expect(DTypeError, lambda: nr.rand(3, dtype=nr.int32, device=device), "rand", "int32")
    expect(DTypeError, lambda: nr.randint(0, 10, size=3, dtype=nr.float32, device=device), "randint", "float32")
    expect(DTypeError, lambda: nr.tensor([object()], device=device), "object")
    expect(DTypeError, lambda: f.astype("foo"), "foo")
    expect(DTypeError, lambda: nr.zeros(2, dtype="nope", device=device), "nope")


def test_complex_ordering_errors(device):
    dev = nr.device(device)
    if nr.complex128 not in dev.runtime.supported_dtypes(dev):
        pytest.skip(f"{device} has no complex128")
    c = t([1j, 2j], device)
    expect(DTypeError, lambda: c < c, "lt", "complex128")
    expect(DTypeError, lambda: nr.maximum(c, c), "maximum", "complex128")
    expect(DTypeError, lambda: c.floor(), "floor", "complex128")


def test_weak_scalar_out_of_range(device):
    """A Python int that does not fit the tensor's integer dtype is an error (as NumPy 2), not a wrap."""
    dev = nr.device(device)
    if nr.int8 not in dev.runtime.supported_dtypes(dev):
        pytest.skip(f"{device} has no int8")
    i8 = t([1, 2, 3], device, nr.int8)
    before = snapshot(i8)
    expect(DTypeError, lambda: i8 + 1000, "1000", "int8")
    expect(DTypeError, lambda: nr.full((2,), 300, dtype=nr.int8, device=device), "300", "int8")
    unchanged([i8], before)


def test_creation_errors(device):
    expect(ShapeError, lambda: nr.zeros(-1, device=device), "zeros", "-1")
    expect(ShapeError, lambda: nr.ones((2, -3), device=device), "ones")
    expect(ShapeError, lambda: nr.empty("ab", device=device), "empty")
    expect(ShapeError, lambda: nr.arange(0, 5, 0, device=device), "arange", "step")
    expect(ShapeError, lambda: nr.linspace(0, 1, -1, device=device), "linspace")
    expect(ShapeError, lambda: nr.eye(-1, device=device), "eye")
    expect(ShapeError, lambda: nr.randint(5, 5, size=3, device=device), "randint", "[5, 5)")
    expect(DTypeError, lambda: nr.randint(0, 300, size=3, dtype=nr.uint8, device=device), "randint", "uint8")


def test_device_errors(device):
    expect(DeviceError, lambda: nr.zeros(2, device="nope"), "nope")
    expect(DeviceError, lambda: nr.zeros(2, device="cpu:3"), "cpu", "3")
    expect(DeviceError, lambda: t([1.0], device).to("nope"), "nope")


def test_wrong_device_through_third_party_runtime(device):
    from thirdparty_runtime import ToyRuntime
    nr.runtime.register(ToyRuntime("toy"))
    try:
        a = nr.tensor([1.0, 2.0], device="toy")
        b = t([3.0, 4.0], device)
        before = snapshot(a, b)
        e = expect(DeviceError, lambda: a + b, "add", "toy", device)
        assert isinstance(e, RuntimeError)
        expect(DeviceError, lambda: b + a, "add", "toy", device)
        expect(DeviceError, lambda: nr.add(b, a), "add", "toy")
        expect(DeviceError, lambda: nr.where(t([True, False], device), b, a), "where", "toy")
        expect(DeviceError, lambda: b.copy_(a), "copy_", "toy")
        expect(DeviceError, lambda: b.__setitem__(0, a[0]), "toy")
        expect(DeviceError, lambda: nr.cat([b, a]), "toy")
        unchanged([a, b], before)
        expect(UnsupportedOperation, lambda: a.exp(), "toy", "exp", "float")
        expect(UnsupportedDType, lambda: a.astype(nr.float16), "toy", "float16")
    finally:
        nr.runtime.unregister("toy")


# ---- failed ops leave their inputs unchanged -------------------------------------------------------------
def test_failed_inplace_ops_leave_inputs(device):
    x = t(np.arange(6.0).reshape(2, 3), device)
    i = t([1, 2, 3], device, nr.int32)
    big = t(np.ones((4, 2, 3)), device)
    before = snapshot(x, i, big)

    def iadd_big():
        y = x
        y += big

    def iadd_float():
        j = i
        j += 1.5

    def itrue_div():
        j = i
        j /= 2

    e = expect(ShapeError, iadd_big, "(2, 3)", "(4, 2, 3)")
    assert "add" in str(e)
    expect(DTypeError, iadd_float, "int32", "float")
    expect(DTypeError, itrue_div, "int32", "float")
    expect(ShapeError, lambda: x.copy_(t(np.ones(4), device)), "(2, 3)", "(4,)")
    expect((IndexOutOfRange, ShapeError), lambda: x.__setitem__((slice(None), 0), t(np.ones(3), device)))
    expect(IndexOutOfRange, lambda: x.__setitem__(5, 1.0), "5")
    expect(IndexOutOfRange, lambda: x.__setitem__((0, 3), 1.0), "3")
    unchanged([x, i, big], before)


def test_inplace_same_category_is_allowed(device):
    """float32 += float64 and int8 += int64 narrow inside their category (NumPy same_kind, PyTorch)."""
    dev = nr.device(device)
    if nr.float64 in dev.runtime.supported_dtypes(dev):
        x = t([1.0, 2.0], device, nr.float32)
        x += t([0.5, 0.5], device, nr.float64)
        assert x.dtype == nr.float32 and x.tolist() == [1.5, 2.5]
    if nr.int8 in dev.runtime.supported_dtypes(dev) and nr.int64 in dev.runtime.supported_dtypes(dev):
        i = t([1, 2], device, nr.int8)
        i += t([1, 1], device, nr.int64)
        assert i.dtype == nr.int8 and i.tolist() == [2, 3]


def test_errors_raised_before_kernels_leave_outputs_alone(device):
    x = t(np.arange(6.0).reshape(2, 3), device)
    before = snapshot(x)
    expect(ShapeError, lambda: x.fill_(1.0) if False else nr.clamp(x, t([0.0, 1.0], device), None), "clamp")
    expect(ShapeError, lambda: x.__iadd__(t(np.ones((2, 2)), device)), "add")
    unchanged([x], before)
