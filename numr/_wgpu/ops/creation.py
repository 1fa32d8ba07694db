"""wgpu creation ops: empty, full, arange, linspace, eye (values computed on the device)."""

from __future__ import annotations

from typing import Any

from ... import dtypes as dt
from ...dtypes import DType
from ...ops import prepare
from ...tensor import Tensor
from .. import launch
from .. import template as tpl
from .cast import convert_fn


class CreationWgpu:
    """Mixin of WgpuClient: the creation ops."""

    def empty(self, shape: tuple[int, ...], dtype: DType) -> Tensor:
        return launch.empty(self, tuple(shape), dtype)

    def full(self, shape: tuple[int, ...], value: Any, dtype: DType) -> Tensor:
        return self.fill_(self.empty(shape, dtype), value, "full")

    def _wide(self, integer: bool) -> tpl.Kind:
        """The kind arange/linspace compute in: int64/float64 when the adapter has them."""
        if integer:
            return tpl.KINDS["int64" if "shader-int64" in self.gpu.features else "int32"]
        return tpl.KINDS["float64" if "shader-f64" in self.gpu.features else "float32"]

    def _index_kernel(self, name: str, out: Tensor, wide: tpl.Kind, fields: list, values: dict) -> Tensor:
        ko = launch.kind(self, out.dtype, name)
        body = tpl.sections("creation.wgsl")[name]
        return launch.elementwise(
            self, (name, wide.name), out, [],
            lambda: {"body": body, "parts": [convert_fn(wide, ko, out.dtype)], "fields": fields,
                     "aliases": {"TW": wide.ct}},
            values=values, kinds=[ko])

    def arange(self, start: float, step: float, n: int, dtype: DType) -> Tensor:
        out = self.empty((n,), dtype)
        integer = all(isinstance(v, int) for v in (start, step))
        wide = self._wide(integer)
        if wide.name == "int32" and not all(-(1 << 31) <= v < (1 << 31) for v in (start, start + n * step)):
            from ...errors import UnsupportedDType
            raise UnsupportedDType("wgpu", "arange", dtype, "values beyond int32 need shader-int64")
        ty = wide.ct
        name = "arange_int" if wide.cls in "il" else "arange_float"
        cv = prepare.wrap_i64 if wide.cls in "il" else float
        return self._index_kernel(name, out, wide, [("start", ty), ("step", ty)],
                                  {"start": cv(start), "step": cv(step)})

    def linspace(self, start: float, stop: float, n: int, endpoint: bool, dtype: DType) -> Tensor:
        out = self.empty((n,), dtype)
        wide = self._wide(False)
        div = (n - 1) if endpoint else n
        delta = float(stop) - float(start)
        step = delta / div if div > 0 else float("nan")
        ty = wide.ct
        fields = [("start", ty), ("stop", ty), ("step", ty), ("delta", ty), ("div", ty), ("total", "i32"),
                  ("endpoint", "i32"), ("stepzero", "i32"), ("isint", "i32")]
        vals = {"start": float(start), "stop": float(stop), "step": step, "delta": delta, "div": float(max(div, 1)),
                "total": n, "endpoint": int(bool(endpoint) and n > 1), "stepzero": int(div <= 0 or step == 0),
                "isint": int(dtype.kind in "iu")}
        return self._index_kernel("linspace", out, wide, fields, vals)

    def eye(self, n: int, m: int, k: int, dtype: DType) -> Tensor:
        out = self.empty((n, m), dtype)
        ko = launch.kind(self, dtype, "eye")
        return launch.elementwise(
            self, ("eye",), out, [],
            lambda: {"body": tpl.sections("creation.wgsl")["eye"], "fields": [("m", "i32"), ("diag", "i32")]},
            values={"m": m, "diag": k}, kinds=[ko])


__all__ = ["CreationWgpu", "dt"]
