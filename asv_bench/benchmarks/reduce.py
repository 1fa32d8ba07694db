"""Reductions: numr beside NumPy and PyTorch (when installed) in one class, so the ratios
come from one run. Target (2 cores): sum float32 of 16M elements, numr/NumPy <= 1.0."""

from .common import LIBS, Lib

N = 16_000_000


class Sum:
    params = [LIBS, [N], ["float32"]]
    param_names = ["lib", "n", "dtype"]

    def setup(self, lib, n, dtype):
        self.L = Lib(lib)
        self.x = self.L.rand((n,), dtype)

    def time_sum(self, lib, n, dtype):
        self.L.sync(self.L.sum(self.x))

    def time_max(self, lib, n, dtype):
        self.L.sync(self.L.max(self.x))


class SumDim:
    """Row sums (contiguous reduced dim) and column sums (numr's vertical kernel) of 4000x4000."""

    params = [LIBS, [0, 1]]
    param_names = ["lib", "dim"]

    def setup(self, lib, dim):
        self.L = Lib(lib)
        self.x = self.L.rand((4000, 4000), "float32")

    def time_sum_dim(self, lib, dim):
        self.L.sync(self.L.sum(self.x, dim))


class SumShortRows:
    """Row sums of short rows (per-op cost and the per-row lane fold dominate)."""

    params = [LIBS, ["64x64", "2000x16", "100x300"]]
    param_names = ["lib", "shape"]

    def setup(self, lib, shape):
        self.L = Lib(lib)
        self.x = self.L.rand(tuple(int(v) for v in shape.split("x")), "float32")

    def time_sum_rows(self, lib, shape):
        self.L.sync(self.L.sum(self.x, 1))


class MaxRows:
    """max over the last dim (softmax's first step): NaN-sticky lanes, tails and lane folds."""

    params = [LIBS, [(20000, 50), (8192, 128), (512, 1024)], ["float32", "float64"]]
    param_names = ["lib", "shape", "dtype"]

    def setup(self, lib, shape, dtype):
        self.L = Lib(lib)
        self.x = self.L.randn(shape, dtype, seed=6)

    def time_max_rows(self, lib, shape, dtype):
        self.L.sync(self.L.max(self.x, 1))


class ArgMax:
    params = [LIBS]
    param_names = ["lib"]

    def setup(self, lib):
        self.L = Lib(lib)
        self.x = self.L.rand((N,), "float32")

    def time_argmax(self, lib):
        self.L.sync(self.x.argmax())


class ArgMaxRows:
    """argmax over the last dim: long rows and many short ones (per-row overhead)."""

    params = [LIBS, [(512, 1024), (4096, 128)]]
    param_names = ["lib", "shape"]

    def setup(self, lib, shape):
        self.L = Lib(lib)
        self.x = self.L.randn(shape, "float32", seed=5)

    def time_argmax_rows(self, lib, shape):
        self.L.sync(self.L.argmax(self.x, 1))


class Cumsum:
    params = [LIBS]
    param_names = ["lib"]

    def setup(self, lib):
        self.L = Lib(lib)
        self.x = self.L.rand((2000, 2000), "float32")
        self.fn = (lambda: self.x.cumsum(0)) if lib != "numpy" else (lambda: self.x.cumsum(axis=0))

    def time_cumsum_dim0(self, lib):
        self.L.sync(self.fn())
