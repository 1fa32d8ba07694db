"""The sorting family: a stable sort (values and indices) of 1M float32 / int64 and of 4096
rows of 256, argsort, topk of rows, searchsorted of 100k values into 1M, unique with counts
of 1M int64. numr beside NumPy (argsort(kind="stable") and a gather; argpartition for topk)
and PyTorch (stable=True) in one class each."""

import numpy as np

from .common import LIBS, Lib


def _sort(L, x, dim=-1):
    if L.ns is np:
        i = np.argsort(x, axis=dim, kind="stable")
        return np.take_along_axis(x, i, dim), i
    if L.name.startswith("numr"):
        return L.ns.sort(x, dim=dim)
    return L.ns.sort(x, dim=dim, stable=True)


class Sort:
    params = [LIBS, ["float32", "int64"], ["1M", "4096x256"]]
    param_names = ["lib", "dtype", "shape"]

    def setup(self, lib, dtype, shape):
        self.L = L = Lib(lib)
        rng = np.random.default_rng(1)
        n = (1 << 20,) if shape == "1M" else (4096, 256)
        a = rng.standard_normal(n).astype(np.float32) if dtype == "float32" else \
            rng.integers(-10**12, 10**12, n, dtype=np.int64)
        self.x = L.array(a)

    def time_sort(self, lib, dtype, shape):
        self.L.sync(_sort(self.L, self.x)[1])

    def time_argsort(self, lib, dtype, shape):
        L = self.L
        if L.ns is np:
            L.sync(np.argsort(self.x, kind="stable"))
        elif L.name.startswith("numr"):
            L.sync(L.ns.argsort(self.x))
        else:
            L.sync(L.ns.argsort(self.x, stable=True))


class TopkSearchUnique:
    params = [LIBS]
    param_names = ["lib"]

    def setup(self, lib):
        self.L = L = Lib(lib)
        rng = np.random.default_rng(2)
        self.rows = L.randn((4096, 256), "float32", seed=3)
        self.seq = L.array(np.sort(rng.standard_normal(1 << 20).astype(np.float32)))
        self.vals = L.array(rng.standard_normal(100_000).astype(np.float32))
        self.ints = L.array(rng.integers(0, 1000, 1 << 20, dtype=np.int64))

    def time_topk_rows_k8(self, lib):
        L, x, k = self.L, self.rows, 8
        if L.ns is np:
            part = np.argpartition(-x, k, axis=1)[:, :k]
            order = np.argsort(-np.take_along_axis(x, part, 1), axis=1, kind="stable")
            L.sync(np.take_along_axis(part, order, 1))
        else:
            L.sync(L.ns.topk(x, k, dim=1)[1])

    def time_searchsorted(self, lib):
        L = self.L
        if L.ns is np:
            L.sync(np.searchsorted(self.seq, self.vals))
        else:
            L.sync(L.ns.searchsorted(self.seq, self.vals))

    def time_unique_counts(self, lib):
        L = self.L
        if L.ns is np:
            L.sync(np.unique(self.ints, return_counts=True)[1])
        elif L.name.startswith("numr"):
            L.sync(L.ns.unique(self.ints, return_counts=True)[1])
        else:
            L.sync(L.ns.unique(self.ints, sorted=True, return_counts=True)[1])
