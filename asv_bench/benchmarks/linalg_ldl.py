"""Bunch-Kaufman LDL^T: numr's CPU kernel (numr/_cpu/kernels/linalg_ldl.h, LAPACK's sytf2 step for
step) beside torch.linalg.ldl_factor and, in the "numpy" row, scipy's LAPACK dsytrf (blocked)."""

import numpy as np

from .common import LIBS, Lib

CPU_LIBS = [x for x in LIBS if not x.startswith("numr-")]


class Ldl:
    params = [CPU_LIBS, ["float64"], [16, 256]]
    param_names = ["lib", "dtype", "n"]

    def setup(self, lib, dtype, n):
        self.L = Lib(lib)
        a = np.random.default_rng(8).standard_normal((n, n))
        a = (a + a.T).astype(dtype)
        if self.L.ns is np:
            from scipy.linalg import lapack
            self.a, self.f = a, lambda x: lapack.dsytrf(x, lower=1)
        else:
            self.a, self.f = self.L.array(a), self.L.ns.linalg.ldl_factor
            b = np.random.default_rng(9).standard_normal((64, 16, 16))
            self.ab = self.L.array(b + np.swapaxes(b, -1, -2))

    def time_ldl_factor(self, lib, dtype, n):
        self.f(self.a)

    def time_ldl_factor_batch64(self, lib, dtype, n):
        if n > 16 or self.L.ns is np:
            raise NotImplementedError("the batch runs at n = 16, numr and torch (scipy's sytrf takes one matrix)")
        self.f(self.ab)
