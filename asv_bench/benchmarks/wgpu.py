"""The core benchmarks on the WebGPU backend ("numr-wgpu") beside NumPy: add, exp, sum,
matmul. Sizes are small-ish: CI runs WebGPU on Mesa's lavapipe (Vulkan on the CPU),
where speed is not a goal; on a real GPU raise them. Every timing includes waiting for
the GPU (``sync``), not the transfer of the inputs (made in ``setup``)."""

import numpy as np

from .common import Lib

LIBS = ["numr-wgpu", "numpy"]


class WgpuElementwise:
    params = [LIBS, [100_000, 1_000_000], ["float32"]]
    param_names = ["lib", "n", "dtype"]

    def setup(self, lib, n, dtype):
        self.L = Lib(lib)  # NotImplementedError (asv: skipped) without a wgpu adapter
        self.a = self.L.randn((n,), dtype, seed=1)
        self.b = self.L.randn((n,), dtype, seed=2)
        self.L.sync(self.L.exp(self.a + self.b))  # compile and cache the pipelines first

    def time_add(self, lib, n, dtype):
        self.L.sync(self.a + self.b)

    def time_exp(self, lib, n, dtype):
        self.L.sync(self.L.exp(self.a))


class WgpuSum:
    params = [LIBS, [100_000, 1_000_000], ["float32"]]
    param_names = ["lib", "n", "dtype"]

    def setup(self, lib, n, dtype):
        self.L = Lib(lib)
        self.x = self.L.randn((n,), dtype, seed=3)
        self.m = self.L.randn((n // 1000, 1000), dtype, seed=4)
        self.L.sync(self.L.sum(self.x))
        self.L.sync(self.L.sum(self.m, 1))

    def time_sum(self, lib, n, dtype):
        self.L.sync(self.L.sum(self.x))

    def time_sum_rows(self, lib, n, dtype):
        self.L.sync(self.L.sum(self.m, 1))


class WgpuMatmul:
    params = [LIBS, [128, 256], ["float32"]]
    param_names = ["lib", "n", "dtype"]

    def setup(self, lib, n, dtype):
        self.L = Lib(lib)
        self.a = self.L.randn((n, n), dtype, seed=5)
        self.b = self.L.randn((n, n), dtype, seed=6)
        self.L.sync(self.a @ self.b)

    def time_matmul(self, lib, n, dtype):
        self.L.sync(self.a @ self.b)


def _sort(L, x):
    """Stable sort along the last dim with indices (values returned)."""
    if L.ns is np:
        return np.take_along_axis(x, np.argsort(x, -1, kind="stable"), -1)
    if L.name == "torch":
        return L.ns.sort(x, dim=-1, stable=True)[0]
    return L.ns.sort(x, -1)[0]


class WgpuSort:
    """sort with indices: one row long enough for the global bitonic steps, and many short rows
    (a workgroup each)."""
    params = [LIBS + ["torch"], [(100_000,), (1000, 100)], ["float32"]]
    param_names = ["lib", "shape", "dtype"]

    def setup(self, lib, shape, dtype):
        self.L = Lib(lib)
        self.x = self.L.rand(shape, dtype, seed=7)
        self.L.sync(_sort(self.L, self.x))

    def time_sort(self, lib, shape, dtype):
        self.L.sync(_sort(self.L, self.x))


class WgpuLongLoops:
    """Kernels split below lavapipe's per-invocation loop budget (docs/architecture.md "Loop
    budget"): a dot product of k = 70001 (a multiply and a reduction) and a cumsum of 2M elements
    (segments of 2**14 side by side, then carries)."""

    params = [LIBS, ["float32"]]
    param_names = ["lib", "dtype"]

    def setup(self, lib, dtype):
        self.L = Lib(lib)
        self.a = self.L.randn((70001,), dtype, seed=7)
        self.b = self.L.randn((70001,), dtype, seed=8)
        self.x = self.L.randn((2_000_000,), dtype, seed=9)
        self.L.sync(self.a @ self.b)
        self.L.sync(self.L.ns.cumsum(self.x, 0))

    def time_dot_70001(self, lib, dtype):
        self.L.sync(self.a @ self.b)

    def time_cumsum_2m(self, lib, dtype):
        self.L.sync(self.L.ns.cumsum(self.x, 0))
