"""Special functions on 1M elements, float32 and float64: erf, lgamma, digamma. numr (an
element-wise composite: every branch evaluated, several passes over memory) beside
scipy.special (the "numpy" row: one fused C loop per element) and torch (fused kernels)."""

import numpy as np
import scipy.special as sc

from .common import LIBS, Lib

_SCIPY = {"erf": sc.erf, "lgamma": sc.gammaln, "digamma": sc.psi}


class Special:
    params = [LIBS, ["float32", "float64"]]
    param_names = ["lib", "dtype"]

    def setup(self, lib, dtype):
        self.L = L = Lib(lib)
        rng = np.random.default_rng(1)
        self.x = L.array((rng.standard_normal(1 << 20) * 3.0).astype(dtype))  # both signs: reflection too

    def _run(self, name):
        L = self.L
        L.sync(_SCIPY[name](self.x) if L.ns is np else getattr(L.ns, name)(self.x))

    def time_erf(self, lib, dtype):
        self._run("erf")

    def time_lgamma(self, lib, dtype):
        self._run("lgamma")

    def time_digamma(self, lib, dtype):
        self._run("digamma")
