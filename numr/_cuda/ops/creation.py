"""CUDA creation ops (kernels/creation.cu, fill in kernels/utility.cu). Allocations are not
zeroed: zeros/full launch a fill."""

from __future__ import annotations

from typing import Any

from ... import dtypes as dt
from ...dtypes import DType
from ...ops import prepare
from ...tensor import Tensor
from ..launch import BLOCK, f64, i32, i64, ptr
from ..storage import empty as _empty
from ._base import grid
from .utility import run_fill


class CreationCuda:
    """Mixin of CudaClient: new tensors (uninitialised, filled, ranges, identity)."""

    def empty(self, shape: tuple[int, ...], dtype: DType) -> Tensor:
        return _empty(self.device, self._st, tuple(shape), dt.dtype(dtype))

    def full(self, shape: tuple[int, ...], value: Any, dtype: DType) -> Tensor:
        return run_fill(self, self.empty(shape, dtype), value, "full")

    def arange(self, start: Any, step: Any, n: int, dtype: DType) -> Tensor:
        """start + i*step in int64 (wrapping) for integer start/step, else float64, then converted."""
        d = dt.dtype(dtype)
        start, step = prepare.number("arange", start), prepare.number("arange", step)
        out = self.empty((int(n),), d)
        if n <= 0:
            return out
        if isinstance(start, complex) or isinstance(step, complex):
            return self._arange_complex(out, complex(start), complex(step), None)
        integer = isinstance(start, int) and isinstance(step, int)
        args = [ptr(out), i64(n), f64(float(start)), f64(float(step)),
                i64(prepare.wrap_i64(int(start)) if integer else 0), i64(prepare.wrap_i64(int(step)) if integer else 0),
                i32(integer)]
        self._st.run("creation", d.code, f"arange_{d.name}", grid(self, n), BLOCK, args)
        return out

    def linspace(self, start: Any, stop: Any, n: int, endpoint: bool, dtype: DType) -> Tensor:
        """NumPy's linspace: i * step + start in float64, the last value exactly stop when endpoint."""
        d = dt.dtype(dtype)
        start, stop = prepare.number("linspace", start), prepare.number("linspace", stop)
        out = self.empty((int(n),), d)
        if n <= 0:
            return out
        div = n - 1 if endpoint else n
        if isinstance(start, complex) or isinstance(stop, complex):
            start, stop = complex(start), complex(stop)
            step_c = (stop - start) / div if div > 0 else 0j
            return self._arange_complex(out, start, step_c, stop if endpoint and n > 1 else None)
        step = (float(stop) - float(start)) / div if div > 0 else 0.0
        self._st.run("creation", d.code, f"linspace_{d.name}", grid(self, n), BLOCK,
                     [ptr(out), i64(n), f64(float(start)), f64(step), f64(float(stop)), i32(bool(endpoint))])
        return out

    def _arange_complex(self, out: Tensor, start: complex, step: complex, last: complex | None) -> Tensor:
        n, d = out.size, out.dtype
        e = last if last is not None else 0j
        self._st.run("creation", d.code, f"arange_complex_{d.name}", grid(self, n), BLOCK,
                     [ptr(out), i64(n), f64(start.real), f64(start.imag), f64(step.real), f64(step.imag),
                      f64(e.real), f64(e.imag), i32(last is not None)])
        return out

    def eye(self, n: int, m: int, k: int, dtype: DType) -> Tensor:
        d = dt.dtype(dtype)
        out = self.empty((n, m), d)
        if n * m:
            self._st.run("creation", d.code, f"eye_{d.name}", grid(self, n * m), BLOCK,
                         [ptr(out), i64(n), i64(m), i64(k)])
        return out
