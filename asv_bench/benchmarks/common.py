"""Shared helpers: every numr benchmark runs numr beside NumPy and PyTorch in one asv run.

How to write a benchmark file (elementwise.py, reduce.py, matmul.py, ... follow this)::

    from .common import LIBS, Lib

    class Exp:
        params = [LIBS, [1_000, 16_000_000], ["float32"]]
        param_names = ["lib", "n", "dtype"]          # "lib" FIRST: tools/bench_ratios.py relies on it

        def setup(self, lib, n, dtype):
            self.L = Lib(lib)                         # NotImplementedError (asv: skipped) if torch is absent
            self.x = self.L.randn((n,), dtype)        # the same numbers for every library (NumPy's seeded rng)

        def time_exp(self, lib, n, dtype):
            self.L.sync(self.L.exp(self.x))           # sync: wait for a GPU backend to finish

Rules of thumb:

- ``lib`` values: "numr" (CPU), "numpy", "torch", plus "numr-wgpu" / "numr-cuda" when the
  environment variable ``NUMR_BENCH_DEVICES`` names them (``NUMR_BENCH_DEVICES=cpu,wgpu``).
  A benchmark meant for one backend only can use its own ``params``; keep the first
  parameter named "lib" with values starting with "numr" for numr's rows.
- ``Lib(lib).ns`` is the module (numpy / torch / numr); the methods below give one spelling for
  ops whose names or arguments differ (axis vs dim, amax vs max, ...). Operators (``+ - * / @``)
  are the same in all three, use them directly.
- With a ``setup`` method this asv times every call on its own (number=1 per sample): fine for
  calls above ~10 us. For per-call overheads of a few microseconds, build the operands without
  ``setup`` (see overhead.py) so asv can batch many calls per sample.
- ``python tools/bench_ratios.py`` runs the suite and prints numr/NumPy and numr/torch ratios.
"""

from __future__ import annotations

import importlib.util
import os
from typing import Any

import numpy as np

import numr as nr


def _torch_available() -> bool:
    """Whether torch is installed, without importing it: importing torch loads its own OpenMP
    runtime and allocator hooks, which slowed numr's and NumPy's 16M-element ops by up to 2x
    in the same process. torch is imported only when its variant runs (after numr and numpy)."""
    return importlib.util.find_spec("torch") is not None


def _numr_libs() -> list[str]:
    """"numr" for the CPU, "numr-<backend>" for other backends named in NUMR_BENCH_DEVICES."""
    wanted = [d.strip() for d in os.environ.get("NUMR_BENCH_DEVICES", "cpu").split(",") if d.strip()]
    return ["numr" if d == "cpu" else f"numr-{d}" for d in wanted]


#: the libraries every benchmark compares, numr first
LIBS: list[str] = _numr_libs() + ["numpy"] + (["torch"] if _torch_available() else [])


class Lib:
    """One library behind a common interface: arrays from NumPy data, a few ops, sync."""

    def __init__(self, lib: str):
        self.name = lib
        self.device = None
        if lib == "numpy":
            self.ns = np
        elif lib == "torch":
            if not _torch_available():
                raise NotImplementedError("torch is not installed")
            import torch
            self.ns = torch
        elif lib == "numr" or lib.startswith("numr-"):
            self.ns = nr
            self.device = "cpu" if lib == "numr" else lib.removeprefix("numr-")
            if self.device not in nr.runtime.available():
                raise NotImplementedError(f"numr backend {self.device} is not available here")
        else:
            raise ValueError(f"unknown benchmark library {lib!r}")

    # ---- data -----------------------------------------------------------------------------
    def dtype(self, name: str) -> Any:
        if self.ns is np:
            return np.dtype(name)
        if self.ns is nr:
            return nr.dtype(name)
        return getattr(self.ns, name)

    def array(self, a: np.ndarray) -> Any:
        """A contiguous array/tensor of this library holding a copy of ``a``."""
        a = np.ascontiguousarray(a)
        if self.ns is np:
            return a.copy()
        if self.ns is nr:
            return nr.tensor(a, device=self.device)
        return self.ns.from_numpy(a.copy())

    def randn(self, shape: tuple[int, ...], dtype: str = "float32", seed: int = 0) -> Any:
        """Standard normal numbers, identical for every library."""
        return self.array(np.random.default_rng(seed).standard_normal(shape).astype(dtype))

    def rand(self, shape: tuple[int, ...], dtype: str = "float32", seed: int = 0) -> Any:
        """Uniform [0, 1) numbers, identical for every library."""
        return self.array(np.random.default_rng(seed).random(shape).astype(dtype))

    def to_numpy(self, x: Any) -> np.ndarray:
        if self.ns is np:
            return np.asarray(x)
        return np.asarray(x.numpy())

    def sync(self, x: Any = None) -> Any:
        """Wait until ``x`` is computed (GPU backends run asynchronously); returns x."""
        if self.ns is nr and isinstance(x, nr.Tensor):
            x.client.synchronize()
        return x

    # ---- ops whose spelling differs --------------------------------------------------------
    def _reduce(self, name: str, x: Any, dim: Any, keepdim: bool) -> Any:
        if self.ns is np:
            return getattr(np, name)(x, axis=dim, keepdims=keepdim)
        if self.ns is nr:
            return getattr(nr, name)(x, dim=dim, keepdim=keepdim)
        fn = getattr(self.ns, {"max": "amax", "min": "amin"}.get(name, name))
        return fn(x) if dim is None and not keepdim else fn(x, dim=() if dim is None else dim, keepdim=keepdim)

    def sum(self, x: Any, dim: Any = None, keepdim: bool = False) -> Any:
        return self._reduce("sum", x, dim, keepdim)

    def mean(self, x: Any, dim: Any = None, keepdim: bool = False) -> Any:
        return self._reduce("mean", x, dim, keepdim)

    def max(self, x: Any, dim: Any = None, keepdim: bool = False) -> Any:
        """Maximum values (torch.amax, np.max, nr.max)."""
        return self._reduce("max", x, dim, keepdim)

    def min(self, x: Any, dim: Any = None, keepdim: bool = False) -> Any:
        return self._reduce("min", x, dim, keepdim)

    def exp(self, x: Any) -> Any:
        return self.ns.exp(x)

    def tanh(self, x: Any) -> Any:
        return self.ns.tanh(x)

    def sqrt(self, x: Any) -> Any:
        return self.ns.sqrt(x)

    def maximum(self, a: Any, b: Any) -> Any:
        return self.ns.maximum(a, b)

    def where(self, cond: Any, a: Any, b: Any) -> Any:
        return self.ns.where(cond, a, b)

    def clamp(self, x: Any, lo: float, hi: float) -> Any:
        return np.clip(x, lo, hi) if self.ns is np else self.ns.clamp(x, lo, hi)

    def relu(self, x: Any) -> Any:
        return np.maximum(x, 0) if self.ns is np else self.ns.relu(x)

    def cat(self, xs: list, dim: int = 0) -> Any:
        return np.concatenate(xs, dim) if self.ns is np else self.ns.cat(xs, dim)

    def argmax(self, x: Any, dim: int) -> Any:
        return np.argmax(x, axis=dim) if self.ns is np else self.ns.argmax(x, dim)

    def astype(self, x: Any, dtype: str) -> Any:
        if self.ns is np:
            return x.astype(dtype)
        if self.ns is nr:
            return x.astype(dtype)
        return x.to(self.dtype(dtype))

    def full(self, shape: tuple[int, ...], value: float, dtype: str) -> Any:
        if self.ns is nr:
            return nr.full(shape, value, dtype=dtype, device=self.device)
        return self.ns.full(shape, value, dtype=self.dtype(dtype))

    def transposed_copy(self, x: Any) -> Any:
        """A contiguous copy of the 2-d transpose x.T."""
        return np.ascontiguousarray(x.T) if self.ns is np else x.T.contiguous()

    def generate(self, kind: str, shape: tuple[int, ...], dtype: str, seed: int = 0) -> Any:
        """Fresh ``kind`` ("rand" uniform [0, 1) or "randn" normal) numbers from the library's own
        seeded generator: the numbers differ between libraries, the work does not."""
        if self.ns is nr:
            return getattr(nr, kind)(shape, dtype=dtype, seed=seed, device=self.device)
        if self.ns is np:
            rng = np.random.default_rng(seed)
            return (rng.random if kind == "rand" else rng.standard_normal)(shape, dtype=dtype)
        gen = self.ns.Generator().manual_seed(seed)
        return getattr(self.ns, kind)(shape, dtype=self.dtype(dtype), generator=gen)

    def softmax_composite(self, x: Any, dim: int = -1) -> Any:
        """exp(x - max) / sum(exp(x - max)), built from core ops the same way in every library."""
        e = self.exp(x - self.max(x, dim, keepdim=True))
        return e / self.sum(e, dim, keepdim=True)


__all__ = ["LIBS", "Lib"]
