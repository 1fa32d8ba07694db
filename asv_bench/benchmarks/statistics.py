"""The statistics family: logsumexp of 4096 rows of 1024 float32 (scipy.special.logsumexp's
formula for NumPy: max-shifted exp, sum, log), median and quantile of 1M float32, bincount of
1M int64 in [0, 1000). numr beside NumPy and PyTorch in one class."""

import numpy as np

from .common import LIBS, Lib


class Statistics:
    params = [LIBS]
    param_names = ["lib"]

    def setup(self, lib):
        self.L = L = Lib(lib)
        rng = np.random.default_rng(1)
        self.rows = L.randn((4096, 1024), "float32", seed=2)
        self.flat = L.array(rng.standard_normal(1 << 20).astype(np.float32))
        self.ints = L.array(rng.integers(0, 1000, 1 << 20, dtype=np.int64))
        self.q = L.array(np.array([0.1, 0.5, 0.9], np.float32))

    def time_logsumexp_rows(self, lib):
        L, x = self.L, self.rows
        if L.ns is np:
            m = np.max(x, axis=1, keepdims=True)
            L.sync(np.log(np.sum(np.exp(x - m), axis=1)) + m[:, 0])
        else:
            L.sync(L.ns.logsumexp(x, 1))

    def time_median_1m(self, lib):
        L = self.L
        L.sync(np.median(self.flat) if L.ns is np else L.ns.median(self.flat))

    def time_quantile_1m(self, lib):
        L = self.L
        L.sync(np.quantile(self.flat, self.q) if L.ns is np else L.ns.quantile(self.flat, self.q))

    def time_bincount_1m(self, lib):
        L = self.L
        L.sync(L.ns.bincount(self.ints))
