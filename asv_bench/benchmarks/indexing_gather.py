"""gather and scatter_reduce (prod, mean, amin; indexing3.py has scatter, sum and amax) on a
1024x1024 float32 matrix with a (1024, 256) random index along dim 1 (repeats): numr's CPU runs
them natively (numr/_cpu/kernels/index_scatter.h). numr beside torch, and NumPy where it has the
op (np.take_along_axis, np.multiply.at / np.minimum.at)."""

import numpy as np

from .common import LIBS, Lib

SHAPE = (1024, 1024)
INDEX = (1024, 256)


class Gather:
    params = [LIBS]
    param_names = ["lib"]

    def setup(self, lib):
        self.L = L = Lib(lib)
        self.x = L.randn(SHAPE, "float32", seed=1)
        self.idx_np = np.random.default_rng(2).integers(0, SHAPE[1], INDEX)
        self.idx = L.array(self.idx_np)

    def time_gather(self, lib):
        if self.L.ns is np:
            self.L.sync(np.take_along_axis(self.x, self.idx_np, 1))
        else:
            self.L.sync(self.x.gather(1, self.idx))


class ScatterReduce:
    params = [LIBS, ["prod", "mean", "amin"]]
    param_names = ["lib", "op"]

    def setup(self, lib, op):
        self.L = L = Lib(lib)
        if L.ns is np and op == "mean":
            raise NotImplementedError  # NumPy has no scatter-mean
        self.x = L.randn(SHAPE, "float32", seed=3)
        self.src = L.randn(INDEX, "float32", seed=4)
        self.idx_np = np.random.default_rng(2).integers(0, SHAPE[1], INDEX)
        self.idx = L.array(self.idx_np)
        self.rows = np.arange(INDEX[0])[:, None]

    def time_scatter_reduce(self, lib, op):
        L = self.L
        if L.ns is np:
            out = self.x.copy()
            (np.multiply if op == "prod" else np.minimum).at(out, (self.rows, self.idx_np), self.src)
            L.sync(out)
        else:
            L.sync(self.x.scatter_reduce(1, self.idx, self.src, op))
