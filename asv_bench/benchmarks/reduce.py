"""Reductions: numr beside NumPy and PyTorch (when installed) in one class, so the
ratios come from one run. Target: sum float32 16M, numr/NumPy <= 1.0."""

import numpy as np

import numr as nr


def _torch():
    try:
        import torch
    except ImportError:
        raise NotImplementedError("torch is not installed") from None
    return torch


class Sum:
    params = (["numr", "numpy", "torch"], [16_000_000])
    param_names = ["lib", "n"]

    def setup(self, lib, n):
        a = np.random.default_rng(0).random(n, dtype=np.float32)
        if lib == "numr":
            x = nr.from_numpy(a)
            self.fn = lambda: x.sum()
        elif lib == "numpy":
            self.fn = a.sum
        else:
            t = _torch().from_numpy(a)
            self.fn = t.sum

    def time_sum_float32(self, lib, n):
        self.fn()


class SumAxis:
    """Row sums (contiguous reduced dim) and column sums (vertical kernel) of a 4000x4000 matrix."""

    params = (["numr", "numpy", "torch"], [0, 1])
    param_names = ["lib", "dim"]

    def setup(self, lib, dim):
        a = np.random.default_rng(0).random((4000, 4000), dtype=np.float32)
        if lib == "numr":
            x = nr.from_numpy(a)
            self.fn = lambda: x.sum(dim)
        elif lib == "numpy":
            self.fn = lambda: a.sum(dim)
        else:
            t = _torch().from_numpy(a)
            self.fn = lambda: t.sum(dim)

    def time_sum_dim(self, lib, dim):
        self.fn()


class ArgMax:
    params = (["numr", "numpy", "torch"],)
    param_names = ["lib"]

    def setup(self, lib):
        a = np.random.default_rng(0).random(16_000_000, dtype=np.float32)
        if lib == "numr":
            x = nr.from_numpy(a)
            self.fn = lambda: x.argmax()
        elif lib == "numpy":
            self.fn = a.argmax
        else:
            t = _torch().from_numpy(a)
            self.fn = t.argmax

    def time_argmax_float32(self, lib):
        self.fn()
