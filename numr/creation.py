"""Creating tensors: from data, filled, ranges, identity and random."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from . import dtypes as dt
from .errors import DTypeError, ShapeError
from .layout import Layout
from .random import next_stream
from .runtime import device as parse_device
from .shapes import normalize_shape
from .tensor import Tensor


def _dev(device: Any):
    return parse_device(device)


def _op(device: Any, name: str, dtype: dt.DType):
    """The creation op ``name`` of the device's client (UnsupportedOperation when it lacks it);
    called after the arguments are validated, so bad input gets its own error first."""
    dev = _dev(device)
    fn = getattr(dev.client, name, None)
    if fn is None:
        from .errors import UnsupportedOperation
        raise UnsupportedOperation(dev.runtime_name, name, dtype)
    return fn


def _host_array(data: Any, dtype: dt.DType | None) -> np.ndarray:
    if isinstance(data, Tensor):
        data = data.numpy()
    if isinstance(data, (list, tuple)) and any(isinstance(x, Tensor) for x in data):
        data = [x.numpy() if isinstance(x, Tensor) else x for x in data]
    if dtype is not None:
        return np.asarray(data, dtype=dtype.np)
    a = np.asarray(data)
    if a.dtype not in dt._BY_NP:
        raise DTypeError(f"tensor: cannot make a tensor from data of NumPy dtype {a.dtype}")
    return a


def from_host(a: np.ndarray, device: Any = None, dtype: dt.DType | None = None) -> Tensor:
    """Copy a host array into a new contiguous tensor on ``device`` (always a copy: the
    tensor never aliases the caller's array; 0-d stays 0-d)."""
    dev = _dev(device)
    d = dtype or dt.dtype(a.dtype)
    a = np.array(a, dtype=d.np, order="C", copy=True)
    return Tensor(dev.runtime.from_numpy(a, dev), Layout(a.shape), d, dev)


def tensor(data: Any, dtype: Any = None, device: Any = None) -> Tensor:
    """A new tensor holding a copy of ``data`` (nested lists, scalars, arrays, tensors).

    Python floats default to float64 and ints to int64, as in NumPy."""
    d = None if dtype is None else dt.dtype(dtype)
    if isinstance(data, Tensor):
        out = data.to(device if device is not None else data.device, d, copy=True)
        return out if out is not data else data.clone()
    return from_host(_host_array(data, d), device, d)


def asarray(data: Any, dtype: Any = None, device: Any = None) -> Tensor:
    """Like ``tensor`` but returns tensors (and CPU NumPy arrays) without copying when possible."""
    if isinstance(data, Tensor):
        return data.to(device if device is not None else data.device, dtype)
    same_dtype = dtype is None or dt.dtype(dtype).np == getattr(data, "dtype", None)
    if isinstance(data, np.ndarray) and _dev(device).runtime_name == "cpu" and same_dtype:
        try:
            return from_numpy(data)
        except DTypeError:
            pass
    return tensor(data, dtype, device)


def from_numpy(a: np.ndarray, device: Any = None) -> Tensor:
    """A tensor sharing ``a``'s memory on the CPU (a copy on other devices or
    when the strides are not whole elements or the array is read-only)."""
    if not isinstance(a, np.ndarray):
        raise DTypeError(f"from_numpy expects a numpy.ndarray, got {type(a).__name__}")
    d = dt.dtype(a.dtype)
    dev = _dev(device)
    if dev.runtime_name == "cpu":
        t = dev.runtime.wrap_numpy(a, dev, d)
        if t is not None:
            return t
    return from_host(a, dev, d)


def from_dlpack(obj: Any, device: Any = None) -> Tensor:
    """A tensor sharing the memory of any DLPack producer (NumPy, PyTorch, CuPy, numr)."""
    kind = obj.__dlpack_device__()[0] if hasattr(obj, "__dlpack_device__") else 1
    if kind in (1, 3):  # CPU, CUDA host memory
        try:
            a = np.from_dlpack(obj)
        except (BufferError, TypeError, RuntimeError) as e:
            raise DTypeError(f"from_dlpack: cannot import {type(obj).__name__} ({e})") from None
        return from_numpy(a, device)
    from .runtime import get
    for name in ("cuda",) if kind in (2, 13) else ():
        t = get(name).from_dlpack(obj)
        return t if device is None else t.to(device)
    raise DTypeError(f"from_dlpack: unsupported DLPack device type {kind}")


def move_to_device(x: Tensor, dev: Any) -> Tensor:
    """Copy a tensor to another device (through the host unless both runtimes share memory)."""
    mover = getattr(dev.runtime, "copy_from", None)
    if mover is not None:
        out = mover(x, dev)
        if out is not None:
            return out
    return from_host(x.numpy(), dev, x.dtype)


def _dtype_or(dtype: Any, default: dt.DType) -> dt.DType:
    return default if dtype is None else dt.dtype(dtype)


def empty(*shape: Any, dtype: Any = None, device: Any = None) -> Tensor:
    shape = normalize_shape(shape[0] if len(shape) == 1 else shape, "empty")
    d = _dtype_or(dtype, dt.default_float)
    return _op(device, "empty", d)(shape, d)


def full(shape: Any, fill_value: Any, dtype: Any = None, device: Any = None) -> Tensor:
    shape = normalize_shape(shape, "full")
    d = _dtype_or(dtype, dt.result_type(fill_value))
    return _op(device, "full", d)(shape, fill_value, d)


def zeros(*shape: Any, dtype: Any = None, device: Any = None) -> Tensor:
    shape = normalize_shape(shape[0] if len(shape) == 1 else shape, "zeros")
    d = _dtype_or(dtype, dt.default_float)
    return _op(device, "full", d)(shape, 0, d)


def ones(*shape: Any, dtype: Any = None, device: Any = None) -> Tensor:
    shape = normalize_shape(shape[0] if len(shape) == 1 else shape, "ones")
    d = _dtype_or(dtype, dt.default_float)
    return _op(device, "full", d)(shape, 1, d)


def _like(x: Tensor, dtype: Any, device: Any) -> tuple[dt.DType, Any]:
    return _dtype_or(dtype, x.dtype), (x.device if device is None else device)


def empty_like(x: Tensor, dtype: Any = None, device: Any = None) -> Tensor:
    d, dev = _like(x, dtype, device)
    return empty(x.shape, dtype=d, device=dev)


def zeros_like(x: Tensor, dtype: Any = None, device: Any = None) -> Tensor:
    d, dev = _like(x, dtype, device)
    return zeros(x.shape, dtype=d, device=dev)


def ones_like(x: Tensor, dtype: Any = None, device: Any = None) -> Tensor:
    d, dev = _like(x, dtype, device)
    return ones(x.shape, dtype=d, device=dev)


def full_like(x: Tensor, fill_value: Any, dtype: Any = None, device: Any = None) -> Tensor:
    d, dev = _like(x, dtype, device)
    return full(x.shape, fill_value, dtype=d, device=dev)


def arange(start: Any, stop: Any = None, step: Any = 1, dtype: Any = None, device: Any = None) -> Tensor:
    """Values from start (inclusive) to stop (exclusive) by step, as NumPy's arange."""
    if stop is None:
        start, stop = 0, start
    if step == 0:
        raise ShapeError("arange: step must not be 0")
    default = dt.int64 if all(isinstance(v, int) for v in (start, stop, step)) else dt.default_float
    if default is dt.int64:  # exact for any Python ints (float division loses precision above 2**53)
        n = max(0, -((start - stop) // step))
    else:
        n = max(0, math.ceil((stop - start) / step))
    d = _dtype_or(dtype, default)
    return _op(device, "arange", d)(start, step, n, d)


def linspace(start: float, stop: float, num: int = 50, endpoint: bool = True, dtype: Any = None,
             device: Any = None) -> Tensor:
    if num < 0:
        raise ShapeError(f"linspace: num must be >= 0, got {num}")
    default = dt.complex128 if isinstance(start, complex) or isinstance(stop, complex) else dt.default_float
    d = _dtype_or(dtype, default)
    return _op(device, "linspace", d)(start, stop, int(num), endpoint, d)


def eye(n: int, m: int | None = None, k: int = 0, dtype: Any = None, device: Any = None) -> Tensor:
    m = n if m is None else m
    if n < 0 or m < 0:
        raise ShapeError(f"eye: sizes must be >= 0, got {n} x {m}")
    d = _dtype_or(dtype, dt.default_float)
    return _op(device, "eye", d)(int(n), int(m), int(k), d)


def _random_float_dtype(op: str, dtype: Any) -> dt.DType:
    d = _dtype_or(dtype, dt.default_float)
    if d.kind != "f":
        raise DTypeError(f"{op}: needs a float dtype, got {d}")
    return d


def rand(*shape: Any, dtype: Any = None, device: Any = None, seed: int | None = None) -> Tensor:
    """Uniform [0, 1) numbers from Philox4x32-10 (same numbers on every backend)."""
    shape = normalize_shape(shape[0] if len(shape) == 1 else shape, "rand")
    d = _random_float_dtype("rand", dtype)
    return _op(device, "rand", d)(shape, d, *next_stream(seed))


def randn(*shape: Any, dtype: Any = None, device: Any = None, seed: int | None = None) -> Tensor:
    """Standard normal numbers (Box-Muller over Philox4x32-10)."""
    shape = normalize_shape(shape[0] if len(shape) == 1 else shape, "randn")
    d = _random_float_dtype("randn", dtype)
    return _op(device, "randn", d)(shape, d, *next_stream(seed))


def randint(low: int, high: int | None = None, size: Any = (), dtype: Any = None, device: Any = None,
            seed: int | None = None) -> Tensor:
    """Integers uniform on [low, high) (``randint(high, size=...)`` starts at 0)."""
    if high is None:
        low, high = 0, low
    if high <= low:
        raise ShapeError(f"randint: empty range [{low}, {high})")
    d = _dtype_or(dtype, dt.int64)
    if not d.is_integer:
        raise DTypeError(f"randint: needs an integer dtype, got {d}")
    info = np.iinfo(d.np)
    if low < info.min or high - 1 > info.max:
        raise DTypeError(f"randint: [{low}, {high}) does not fit in {d}")
    shape = normalize_shape(size, "randint")
    return _op(device, "randint", d)(int(low), int(high), shape, d, *next_stream(seed))
