"""Data movement beside NumPy and PyTorch: dtype casts, a transposed copy, fill and the
seeded random generators, 16M float32 elements (4096 x 4096).

numr's rand/randn draw Philox4x32-10 streams (reproducible on every backend); NumPy's and
PyTorch's use their own generators, so those rows compare speed only.
"""

from __future__ import annotations

import numpy as np

import numr as nr

from .common import LIBS, Lib

SHAPE = (4096, 4096)


class Cast:
    params = [LIBS, [("float32", "float16"), ("float32", "bfloat16"), ("float64", "float32"),
                     ("float32", "int32"), ("float64", "float16")]]
    param_names = ["lib", "pair"]

    def setup(self, lib, pair):
        self.L = Lib(lib)
        if pair[1] == "bfloat16" and self.L.ns is np:
            import ml_dtypes  # NumPy casts through ml_dtypes' registered cast
            pair = (pair[0], ml_dtypes.bfloat16)
        self.dst = pair[1]
        self.x = self.L.randn(SHAPE, pair[0], seed=0)

    def time_cast(self, lib, pair):
        self.L.sync(self.L.astype(self.x, self.dst))


class TransposedCopy:
    params = [LIBS, ["float32", "float64"]]
    param_names = ["lib", "dtype"]

    def setup(self, lib, dtype):
        self.L = Lib(lib)
        self.x = self.L.randn(SHAPE, dtype, seed=0)

    def time_contiguous_transpose(self, lib, dtype):
        ns = self.L.ns
        if ns is np:
            np.ascontiguousarray(self.x.T)
        elif ns is nr:
            self.L.sync(self.x.T.contiguous())
        else:
            self.x.T.contiguous()


class Fill:
    params = [LIBS, ["float32"]]
    param_names = ["lib", "dtype"]

    def setup(self, lib, dtype):
        self.L = Lib(lib)
        self.dt = self.L.dtype(dtype)

    def time_full(self, lib, dtype):
        ns = self.L.ns
        if ns is nr:
            self.L.sync(nr.full(SHAPE, 2.5, dtype=self.dt, device=self.L.device))
        elif ns is np:
            np.full(SHAPE, 2.5, dtype=self.dt)
        else:
            ns.full(SHAPE, 2.5, dtype=self.dt)


class Random:
    params = [LIBS, ["float32", "float64"]]
    param_names = ["lib", "dtype"]

    def setup(self, lib, dtype):
        self.L = Lib(lib)
        self.dtype = dtype
        if self.L.ns is not np and self.L.ns is not nr:
            self.gen = self.L.ns.Generator().manual_seed(0)

    def time_rand(self, lib, dtype):
        ns = self.L.ns
        if ns is nr:
            self.L.sync(nr.rand(SHAPE, dtype=dtype, seed=0, device=self.L.device))
        elif ns is np:
            np.random.default_rng(0).random(SHAPE, dtype=dtype)
        else:
            ns.rand(SHAPE, dtype=self.L.dtype(dtype), generator=self.gen)

    def time_randn(self, lib, dtype):
        ns = self.L.ns
        if ns is nr:
            self.L.sync(nr.randn(SHAPE, dtype=dtype, seed=0, device=self.L.device))
        elif ns is np:
            np.random.default_rng(0).standard_normal(SHAPE, dtype=dtype)
        else:
            ns.randn(SHAPE, dtype=self.L.dtype(dtype), generator=self.gen)
