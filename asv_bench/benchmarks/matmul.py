"""matmul: numr's packed GEMM beside NumPy (OpenBLAS) and PyTorch in one class.
Target (2 cores): 1024x1024 float32 and float64 throughput >= 0.8x NumPy's."""

import numpy as np

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


class _Square512:
    """Two 512 x 512 float32 operands and a 512 bias, the same for every library."""

    params = [LIBS]
    param_names = ["lib"]

    def setup(self, lib):
        self.L = Lib(lib)
        self.a = self.L.randn((512, 512), "float32", seed=1)
        self.b = self.L.randn((512, 512), "float32", seed=2)
        self.c = self.L.randn((512,), "float32", seed=3)


class SemiringMinPlus(_Square512):
    """min-plus (tropical) 512^3 float32: numr's semiring kernel (semiring.h) beside NumPy
    reducing broadcast row chunks (np.min(a[i:i+32, :, None] + b, axis=1)) and torch's
    broadcast + amin over the same chunks."""

    def time_min_plus(self, lib):
        if self.L.name == "numpy":
            a, b = self.a, self.b
            return [np.min(a[i:i + 32, :, None] + b[None], axis=1) for i in range(0, 512, 32)]
        if self.L.name == "torch":
            a, b = self.a, self.b
            return [(a[i:i + 32, :, None] + b[None]).amin(1) for i in range(0, 512, 32)]
        return self.L.sync(self.L.ns.semiring_matmul(self.a, self.b, "min_plus"))


class ScaledMM:
    """float8_e4m3fn 1024^3 with per-tensor scales to float32: numr's scaled_mm (exact fp8 ->
    float32 cast + its float32 GEMM) beside torch._scaled_mm on the CPU and NumPy's cast + matmul."""

    params = [LIBS]
    param_names = ["lib"]

    def setup(self, lib):
        import ml_dtypes
        self.L = Lib(lib)
        rng = np.random.default_rng(1)
        a, b = (rng.standard_normal((1024, 1024)).astype(ml_dtypes.float8_e4m3fn) for _ in range(2))
        if lib == "numpy":
            self.a, self.b = a, b
        elif lib == "torch":
            import torch
            self.a = torch.from_numpy(a.view(np.uint8)).view(torch.float8_e4m3fn)
            self.b = torch.from_numpy(b.view(np.uint8)).view(torch.float8_e4m3fn).t().contiguous().t()
            self.sa, self.sb = torch.tensor(0.5), torch.tensor(2.0)
            torch._scaled_mm(self.a, self.b, self.sa, self.sb, out_dtype=torch.float32)  # raises if absent
        else:
            self.a, self.b = self.L.array(a), self.L.array(b)

    def time_scaled_mm(self, lib):
        if self.L.name == "numpy":
            return (self.a.astype(np.float32) @ self.b.astype(np.float32)) * np.float32(0.5) * np.float32(2.0)
        if self.L.name == "torch":
            import torch
            return torch._scaled_mm(self.a, self.b, self.sa, self.sb, out_dtype=torch.float32)
        return self.L.sync(self.L.ns.scaled_mm(self.a, self.b, 0.5, 2.0))


class MatmulBiasAct(_Square512):
    """relu(a @ b + bias) 512^3 float32: numr's matmul_bias_act (matmul_bias, then relu) beside
    torch.addmm + relu and NumPy's matmul + add + maximum."""

    def time_matmul_bias_relu(self, lib):
        if self.L.name == "numpy":
            return np.maximum(self.a @ self.b + self.c, 0)
        if self.L.name == "torch":
            return self.L.ns.relu(self.L.ns.addmm(self.c, self.a, self.b))
        return self.L.sync(self.L.ns.matmul_bias_act(self.a, self.b, self.c, "relu"))
