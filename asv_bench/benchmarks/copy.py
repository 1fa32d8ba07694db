"""Data movement beside NumPy and PyTorch: dtype casts, a transposed copy, fill and the
seeded random generators, 16M float32 elements (4096 x 4096).

numr's rand/randn draw Philox4x32-10 streams (reproducible on every backend); NumPy's and
PyTorch's use their own generators, so those rows compare speed only.
"""

from __future__ import annotations

import numpy as np

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

    def time_cast_transposed(self, lib, pair):
        """x.T.astype(...): a permuted dense input keeps its memory order (one contiguous run)."""
        self.L.sync(self.L.astype(self.x.T, self.dst))


class TransposedCopy:
    params = [LIBS, ["float32", "float64"]]
    param_names = ["lib", "dtype"]

    def setup(self, lib, dtype):
        self.L = Lib(lib)
        self.x = self.L.randn(SHAPE, dtype, seed=0)

    def time_contiguous_transpose(self, lib, dtype):
        self.L.sync(self.L.transposed_copy(self.x))

    def time_contiguous_flip(self, lib, dtype):
        """A contiguous copy of x[:, ::-1] (rows read backwards)."""
        x = self.x
        self.L.sync(np.ascontiguousarray(x[:, ::-1]) if self.L.ns is np else x.flip(1).contiguous())


class Fill:
    params = [LIBS, ["float32"]]
    param_names = ["lib", "dtype"]

    def setup(self, lib, dtype):
        self.L = Lib(lib)

    def time_full(self, lib, dtype):
        self.L.sync(self.L.full(SHAPE, 2.5, dtype))


class Random:
    params = [LIBS, ["float32", "float64"]]
    param_names = ["lib", "dtype"]

    def setup(self, lib, dtype):
        self.L = Lib(lib)

    def time_rand(self, lib, dtype):
        self.L.sync(self.L.generate("rand", SHAPE, dtype))

    def time_randn(self, lib, dtype):
        self.L.sync(self.L.generate("randn", SHAPE, dtype))
