"""masked_fill, scatter, scatter_reduce (sum, amax) on a 1024x1024 float32 matrix with a
(1024, 256) random index along dim 1 (repeats), and cdist of 1024x64 against 1024x64 (the p=2
matmul path). numr beside torch, and NumPy / scipy where they have the op (np.where,
np.put_along_axis, np.add.at / np.maximum.at, scipy.spatial.distance.cdist)."""

import numpy as np

from .common import LIBS, Lib

SHAPE = (1024, 1024)
INDEX = (1024, 256)


class MaskedFill:
    params = [LIBS]
    param_names = ["lib"]

    def setup(self, lib):
        self.L = L = Lib(lib)
        self.x = L.randn(SHAPE, "float32", seed=1)
        self.mask = self.x > 0

    def time_masked_fill(self, lib):
        if self.L.ns is np:
            self.L.sync(np.where(self.mask, np.float32(0.0), self.x))
        else:
            self.L.sync(self.x.masked_fill(self.mask, 0.0))


class Scatter:
    params = [LIBS, ["scatter", "sum", "amax"]]
    param_names = ["lib", "op"]

    def setup(self, lib, op):
        self.L = L = Lib(lib)
        rng = np.random.default_rng(2)
        self.x = L.randn(SHAPE, "float32", seed=3)
        self.src = L.randn(INDEX, "float32", seed=4)
        self.idx_np = rng.integers(0, SHAPE[1], INDEX)
        self.idx = L.array(self.idx_np)
        self.rows = np.arange(INDEX[0])[:, None]

    def time_scatter(self, lib, op):
        L = self.L
        if L.ns is np:
            out = self.x.copy()
            if op == "scatter":
                np.put_along_axis(out, self.idx_np, self.src, 1)
            else:
                (np.add if op == "sum" else np.maximum).at(out, (self.rows, self.idx_np), self.src)
            L.sync(out)
        elif op == "scatter":
            L.sync(self.x.scatter(1, self.idx, self.src))
        else:
            L.sync(self.x.scatter_reduce(1, self.idx, self.src, op))


class Cdist:
    params = [LIBS]
    param_names = ["lib"]

    def setup(self, lib):
        self.L = L = Lib(lib)
        self.a = L.randn((1024, 64), "float32", seed=5)
        self.b = L.randn((1024, 64), "float32", seed=6)

    def time_cdist(self, lib):
        if self.L.ns is np:
            from scipy.spatial.distance import cdist
            self.L.sync(cdist(self.a, self.b))
        else:
            self.L.sync(self.L.ns.cdist(self.a, self.b))
