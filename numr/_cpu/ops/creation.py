"""CPU implementation of the creation op family (see numr/ops/traits/creation.py)."""

from __future__ import annotations

from typing import Any

from ... import dtypes as dt
from ...dtypes import DType
from ...layout import Layout
from ...ops import prepare
from ...tensor import Tensor
from .. import storage
from ..kernels import copy as _k
from .cast import run_fill


class CreationCpu:
    """Mixin of CpuClient: new tensors (uninitialised, filled, ranges, identity)."""

    def empty(self, shape: tuple[int, ...], dtype: DType) -> Tensor:
        return storage.empty(self.device, tuple(shape), dt.dtype(dtype))

    def full(self, shape: tuple[int, ...], value: Any, dtype: DType) -> Tensor:
        out = storage.empty(self.device, tuple(shape), dt.dtype(dtype))
        run_fill(out, value, "full", fresh=True)
        return out

    def arange(self, start: Any, step: Any, n: int, dtype: DType) -> Tensor:
        """start + i*step: int64 (wrapping) arithmetic for integer start/step, else float64
        (complex128 for complex), then converted to ``dtype``."""
        d = dt.dtype(dtype)
        start, step = prepare.number("arange", start), prepare.number("arange", step)
        out = storage.empty(self.device, (int(n),), d)
        if n <= 0:
            return out
        if isinstance(start, int) and isinstance(step, int):
            _k.seq_int(out._storage, d.code, n, prepare.wrap_i64(start), prepare.wrap_i64(step))
        elif isinstance(start, complex) or isinstance(step, complex):
            _k.seq_complex(out._storage, d.code, n, complex(start), complex(step))
        else:
            _k.seq_float(out._storage, d.code, n, float(start), float(step))
        return out

    def linspace(self, start: Any, stop: Any, n: int, endpoint: bool, dtype: DType) -> Tensor:
        """NumPy's linspace: i * step + start in float64 (complex128), the last value equal to
        stop when ``endpoint``; integer dtypes get the floor (as NumPy)."""
        d = dt.dtype(dtype)
        start, stop = prepare.number("linspace", start), prepare.number("linspace", stop)
        out = storage.empty(self.device, (int(n),), d)
        if n <= 0:
            return out
        div = n - 1 if endpoint else n
        set_last = bool(endpoint and n > 1)
        if isinstance(start, complex) or isinstance(stop, complex):
            start, stop = complex(start), complex(stop)
            step = (stop - start) / div if div > 0 else 0j
            _k.seq_complex(out._storage, d.code, n, start, step, set_last, stop)
        else:
            start, stop = float(start), float(stop)
            step = (stop - start) / div if div > 0 else 0.0
            _k.seq_float(out._storage, d.code, n, start, step, d.is_integer, set_last, stop)
        return out

    def eye(self, n: int, m: int, k: int, dtype: DType) -> Tensor:
        d = dt.dtype(dtype)
        out = storage.empty(self.device, (n, m), d)
        run_fill(out, 0, "eye", fresh=True)
        length = max(0, min(n, m - k) if k >= 0 else min(n + k, m))
        if length:
            offset = k if k >= 0 else -k * m
            diag = Tensor(out._storage, Layout((length,), (m + 1,), offset), d, self.device)
            run_fill(diag, 1, "eye")
        return out
