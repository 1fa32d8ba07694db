"""Transcendental, power and division ops and the element-wise activations, float32 and
float64 (1M elements): numr beside NumPy and PyTorch in one class, so the ratios come from one run.

The CPU computes each with branch-free vector math (``numr/_cpu/kernels/vmath*.h``):
these benchmarks watch that every one of them stays vectorised (a loop that silently
falls back to one libm call per element is 10-60x slower).
"""

from __future__ import annotations

import numpy as np

from .common import LIBS, Lib

N = 1 << 20

#: op -> (numr name, NumPy name, torch name)
UNARY = {
    "exp2": ("exp2", "exp2", "exp2"), "log2": ("log2", "log2", "log2"),
    "log10": ("log10", "log10", "log10"), "tan": ("tan", "tan", "tan"),
    "atan": ("atan", "arctan", "atan"), "asin": ("asin", "arcsin", "asin"),
    "acos": ("acos", "arccos", "acos"), "sinh": ("sinh", "sinh", "sinh"),
    "cosh": ("cosh", "cosh", "cosh"), "sin": ("sin", "sin", "sin"), "asinh": ("asinh", "arcsinh", "asinh"),
    "acosh": ("acosh", "arccosh", "acosh"), "atanh": ("atanh", "arctanh", "atanh"),
    "cbrt": ("cbrt", "cbrt", None), "expm1": ("expm1", "expm1", "expm1"), "log1p": ("log1p", "log1p", "log1p"),
}
BINARY = {"pow": ("pow", "power", "pow"), "atan2": ("atan2", "arctan2", "atan2"),
          "hypot": ("hypot", "hypot", "hypot")}


def _fn(L: Lib, names: tuple[str, str, str]):
    numr_name, np_name, torch_name = names
    if L.ns is np:
        return getattr(np, np_name)
    return getattr(L.ns, torch_name if L.name == "torch" else numr_name)


class Unary:
    params = [LIBS, sorted(UNARY), ["float32", "float64"]]
    param_names = ["lib", "op", "dtype"]

    def setup(self, lib, op, dtype):
        self.L = Lib(lib)
        # uniform [-1, 1) (asin/acos/atanh need it), positive for the logs, >= 1 for acosh
        lo, hi = (0.01, 1.0) if op.startswith("log") else (1.0, 4.0) if op == "acosh" else (-1.0, 1.0)
        self.x = self.L.array(np.random.default_rng(1).uniform(lo, hi, N).astype(dtype))
        if UNARY[op][2] is None and self.L.name == "torch":
            raise NotImplementedError(f"torch has no {op}")
        self.f = _fn(self.L, UNARY[op])

    def time_unary(self, lib, op, dtype):
        self.L.sync(self.f(self.x))


class Binary:
    params = [LIBS, sorted(BINARY), ["float32", "float64"]]
    param_names = ["lib", "op", "dtype"]

    def setup(self, lib, op, dtype):
        self.L = Lib(lib)
        rng = np.random.default_rng(2)
        self.a = self.L.array(rng.uniform(0.1, 4, N).astype(dtype))
        self.b = self.L.array(rng.uniform(-3, 3, N).astype(dtype))
        self.f = _fn(self.L, BINARY[op])

    def time_binary(self, lib, op, dtype):
        self.L.sync(self.f(self.a, self.b))


class Activation:
    """numr's kernels vs torch.nn.functional vs NumPy's formula (SciPy-free: erf-less GELU
    has no NumPy form, so NumPy skips it)."""

    params = [LIBS, ["sigmoid", "silu", "gelu", "elu", "softplus"], ["float32", "float64"]]
    param_names = ["lib", "op", "dtype"]

    def setup(self, lib, op, dtype):
        self.L = Lib(lib)
        self.x = self.L.randn((N,), dtype, seed=3)
        if self.L.ns is np:
            forms = {"sigmoid": lambda x: 1 / (1 + np.exp(-x)), "silu": lambda x: x / (1 + np.exp(-x)),
                     "elu": lambda x: np.where(x > 0, x, np.expm1(x)),
                     "softplus": lambda x: np.maximum(x, 0) + np.log1p(np.exp(-np.abs(x)))}
            if op not in forms:
                raise NotImplementedError(f"no NumPy form of {op}")
            self.f = forms[op]
        elif self.L.name == "torch":
            import torch
            self.f = getattr(torch.nn.functional, op) if op != "sigmoid" else torch.sigmoid
        else:
            self.f = getattr(self.L.ns, op)

    def time_activation(self, lib, op, dtype):
        self.L.sync(self.f(self.x))


class IntegerDivision:
    params = [LIBS, ["int32", "int64"]]
    param_names = ["lib", "dtype"]

    def setup(self, lib, dtype):
        self.L = Lib(lib)
        rng = np.random.default_rng(4)
        self.a = self.L.array(rng.integers(-10**6, 10**6, N).astype(dtype))
        self.b = self.L.array(rng.integers(1, 1000, N).astype(dtype))

    def time_floor_divide(self, lib, dtype):
        self.L.sync(self.a // self.b)

    def time_remainder(self, lib, dtype):
        self.L.sync(self.a % self.b)

    def time_floor_divide_scalar(self, lib, dtype):
        """One divisor for the whole tensor: numr's 64-bit loop multiplies by a magic number."""
        self.L.sync(self.a // 7)

    def time_remainder_scalar(self, lib, dtype):
        self.L.sync(self.a % 7)


class PowScalar:
    """x ** e for one exponent: 0.5 and -1 have exact shortcuts (sqrt, 1/x) in numr that keep
    C99 pow's results; 2.5 is the general loop."""

    params = [LIBS, ["float32", "float64"], [0.5, -1.0, 2.5]]
    param_names = ["lib", "dtype", "exponent"]

    def setup(self, lib, dtype, exponent):
        self.L = Lib(lib)
        self.x = self.L.array(np.random.default_rng(5).uniform(0.1, 4, N).astype(dtype))

    def time_pow_scalar(self, lib, dtype, exponent):
        self.L.sync(self.x ** exponent)
