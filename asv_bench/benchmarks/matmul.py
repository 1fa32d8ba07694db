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
