"""matmul: numr's packed GEMM beside NumPy (OpenBLAS) and PyTorch in one class.
Target (2 cores): 1024x1024 float32 and float64 throughput >= 0.8x NumPy's."""

from .common import LIBS, Lib


class Matmul:
    params = [LIBS, [1024], ["float32", "float64"]]
    param_names = ["lib", "n", "dtype"]

    def setup(self, lib, n, dtype):
        self.L = Lib(lib)
        self.a = self.L.rand((n, n), dtype, seed=1)
        self.b = self.L.rand((n, n), dtype, seed=2)

    def time_matmul(self, lib, n, dtype):
        self.L.sync(self.a @ self.b)

    def time_matmul_transposed(self, lib, n, dtype):
        """A transposed left operand: numr's packing reads it through its strides."""
        self.L.sync(self.a.T @ self.b)


class MatmulMidSize:
    """Products numr runs unpacked (gemm_direct.h), threaded from 2**17 multiply-adds; complex
    as one real GEMM against B's real embedding."""

    params = [LIBS, ["64x64x64", "128x128x128", "256x256x256", "96x512x96", "512x512x512"],
              ["float32", "float64", "complex64"]]
    param_names = ["lib", "mkn", "dtype"]

    def setup(self, lib, mkn, dtype):
        self.L = Lib(lib)
        m, k, n = (int(v) for v in mkn.split("x"))
        real = "float32" if dtype == "complex64" else dtype
        a, b = self.L.rand((m, k), real, seed=1), self.L.rand((k, n), real, seed=2)
        self.a, self.b = (self.L.astype(a, dtype), self.L.astype(b, dtype)) if real != dtype else (a, b)

    def time_matmul(self, lib, mkn, dtype):
        self.L.sync(self.a @ self.b)


class MatVec:
    params = [LIBS]
    param_names = ["lib"]

    def setup(self, lib):
        self.L = Lib(lib)
        self.a = self.L.rand((4096, 4096), "float32", seed=1)
        self.v = self.L.rand((4096,), "float32", seed=2)

    def time_matvec(self, lib):
        self.L.sync(self.a @ self.v)

    def time_vecmat(self, lib):
        self.L.sync(self.v @ self.a)


class BatchedSmall:
    """Many small products: numr splits the batch between threads."""

    params = [LIBS]
    param_names = ["lib"]

    def setup(self, lib):
        self.L = Lib(lib)
        self.a = self.L.rand((512, 32, 64), "float32", seed=1)
        self.b = self.L.rand((512, 64, 32), "float32", seed=2)

    def time_batched(self, lib):
        self.L.sync(self.a @ self.b)
