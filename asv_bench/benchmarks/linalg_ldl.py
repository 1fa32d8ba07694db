"""Bunch-Kaufman LDL^T: numr's CPU kernel (numr/_cpu/kernels/linalg_ldl.h, LAPACK's sytf2 step for
step; ldl_solve: sytrs) beside torch.linalg.ldl_factor/ldl_solve and, in the "numpy" row, scipy's
LAPACK dsytrf (blocked) and dsytrs."""

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
        b = np.random.default_rng(10).standard_normal((n, 4))
        if self.L.ns is np:
            from scipy.linalg import lapack
            self.a, self.f = a, lambda x: lapack.dsytrf(x, lower=1)
            ld, piv, _ = self.f(a)
            self.s = lambda: lapack.dsytrs(ld, piv, b, lower=1)
        else:
            self.a, self.f = self.L.array(a), self.L.ns.linalg.ldl_factor
            ld, piv = self.f(self.a)
            bb = self.L.array(b)
            self.s = lambda: self.L.ns.linalg.ldl_solve(ld, piv, bb)

    def time_ldl_factor(self, lib, dtype, n):
        self.f(self.a)

    def time_ldl_solve_k4(self, lib, dtype, n):
        self.s()


class LdlBatch:
    """64 matrices of 16 x 16 in one call (scipy's sytrf takes one matrix: no numpy row)."""

    params = [[x for x in CPU_LIBS if x != "numpy"], ["float64"]]
    param_names = ["lib", "dtype"]

    def setup(self, lib, dtype):
        self.L = Lib(lib)
        b = np.random.default_rng(9).standard_normal((64, 16, 16))
        self.ab = self.L.array((b + np.swapaxes(b, -1, -2)).astype(dtype))

    def time_ldl_factor_batch64(self, lib, dtype):
        self.L.ns.linalg.ldl_factor(self.ab)
