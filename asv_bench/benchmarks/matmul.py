"""matmul: numr's packed GEMM beside NumPy (OpenBLAS) and PyTorch in one class.
Target: 1024x1024 float32 and float64 throughput >= 0.8x NumPy's."""

import numpy as np

import numr as nr


def _torch():
    try:
        import torch
    except ImportError:
        raise NotImplementedError("torch is not installed") from None
    return torch


class Matmul:
    params = (["numr", "numpy", "torch"], ["float32", "float64"], [1024])
    param_names = ["lib", "dtype", "n"]

    def setup(self, lib, dtype, n):
        rng = np.random.default_rng(0)
        a = rng.random((n, n)).astype(dtype)
        b = rng.random((n, n)).astype(dtype)
        if lib == "numr":
            x, y = nr.from_numpy(a), nr.from_numpy(b)
            self.fn = lambda: x @ y
        elif lib == "numpy":
            self.fn = lambda: a @ b
        else:
            torch = _torch()
            x, y = torch.from_numpy(a), torch.from_numpy(b)
            self.fn = lambda: x @ y

    def time_matmul(self, lib, dtype, n):
        self.fn()


class MatmulTransposed:
    """A transposed left operand (read through strides by the packing routine)."""

    params = (["numr", "numpy", "torch"], ["float32"])
    param_names = ["lib", "dtype"]

    def setup(self, lib, dtype):
        rng = np.random.default_rng(0)
        a = rng.random((1024, 1024)).astype(dtype)
        b = rng.random((1024, 1024)).astype(dtype)
        if lib == "numr":
            x, y = nr.from_numpy(a), nr.from_numpy(b)
            self.fn = lambda: x.T @ y
        elif lib == "numpy":
            self.fn = lambda: a.T @ b
        else:
            torch = _torch()
            x, y = torch.from_numpy(a), torch.from_numpy(b)
            self.fn = lambda: x.T @ y

    def time_matmul_t(self, lib, dtype):
        self.fn()


class BatchedSmall:
    """Many small products: numr splits the batch between threads."""

    params = (["numr", "numpy", "torch"],)
    param_names = ["lib"]

    def setup(self, lib):
        rng = np.random.default_rng(0)
        a = rng.random((512, 32, 64)).astype(np.float32)
        b = rng.random((512, 64, 32)).astype(np.float32)
        if lib == "numr":
            x, y = nr.from_numpy(a), nr.from_numpy(b)
            self.fn = lambda: x @ y
        elif lib == "numpy":
            self.fn = lambda: a @ b
        else:
            torch = _torch()
            x, y = torch.from_numpy(a), torch.from_numpy(b)
            self.fn = lambda: x @ y

    def time_batched(self, lib):
        self.fn()
