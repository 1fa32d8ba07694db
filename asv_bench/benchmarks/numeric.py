"""The numeric, polynomial and NaN-reduction composites: polyval (degree 7) on 1M float32, interp
of 1M float32 points into 1024 nodes, histogram of 1M float32 into 100 bins, convolve of 64k by
64 float32 ("full"), nanvar of 1024 rows of 1024 float32 with 10% NaN. numr beside NumPy and,
where torch has the op, PyTorch (torch.histc for histogram, F.conv1d with a flipped kernel for
convolve, in Numeric); torch has no polyval, interp or nanvar (NumericNoTorch)."""

import numpy as np

from .common import LIBS, Lib


class _Inputs:
    param_names = ["lib"]

    def setup(self, lib):
        self.L = L = Lib(lib)
        rng = np.random.default_rng(3)
        self.p = L.array(rng.standard_normal(8).astype(np.float32))
        self.x = L.array(rng.uniform(-1, 1, 1 << 20).astype(np.float32))
        self.xp = L.array(np.linspace(-1, 1, 1024, dtype=np.float32))
        self.fp = L.array(rng.standard_normal(1024).astype(np.float32))
        self.a = L.array(rng.standard_normal(1 << 16).astype(np.float32))
        self.v = L.array(rng.standard_normal(64).astype(np.float32))
        rows = rng.standard_normal((1024, 1024)).astype(np.float32)
        rows[rng.uniform(size=rows.shape) < 0.1] = np.nan
        self.rows = L.array(rows)


class Numeric(_Inputs):
    params = [LIBS]

    def time_histogram_1m(self, lib):
        L = self.L
        if L.ns.__name__ == "torch":
            L.sync(L.ns.histc(self.x, 100, -1.0, 1.0))
        else:
            L.sync(L.ns.histogram(self.x, 100, range=(-1.0, 1.0))[0])

    def time_convolve_64k_64(self, lib):
        L = self.L
        if L.ns.__name__ == "torch":
            import torch.nn.functional as F
            L.sync(F.conv1d(self.a.reshape(1, 1, -1), self.v.flip(0).reshape(1, 1, -1), padding=63))
        else:
            L.sync(L.ns.convolve(self.a, self.v))


class NumericNoTorch(_Inputs):
    params = [[lib for lib in LIBS if lib != "torch"]]

    def time_polyval_1m(self, lib):
        self.L.sync(self.L.ns.polyval(self.p, self.x))

    def time_interp_1m(self, lib):
        self.L.sync(self.L.ns.interp(self.x, self.xp, self.fp))

    def time_nanvar_rows(self, lib):
        L = self.L
        L.sync(np.nanvar(self.rows, axis=1) if L.ns is np else L.ns.nanvar(self.rows, 1))
