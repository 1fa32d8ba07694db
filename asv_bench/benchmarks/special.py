"""Special functions on 1M elements, float32 and float64: erf, lgamma, digamma. numr (an
element-wise composite: every branch evaluated, several passes over memory) beside
scipy.special (the "numpy" row: one fused C loop per element) and torch (fused kernels)."""

import numpy as np
import scipy.special as sc

import numr as nr

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


class Special2:
    """gammainc (a in [0.5, 10], x in [0, 20]: 69 iterations of series and continued fraction),
    betainc (a, b in [0.5, 10], x in [0, 1]; torch has none),
    bessel_j0 (x in [-30, 30]), bessel_y1, modified_bessel_k0/k1 (x in [0, 20]) and ellipk (m in
    [-2, 1)) on 1M elements; torch has no ellipk (its row is skipped). On the CPU numr's Bessel
    and elliptic functions and gammainc/betainc are fused loops (numr/_cpu/ops/special.py)."""

    params = [LIBS, ["float32", "float64"]]
    param_names = ["lib", "dtype"]
    _SCIPY = {"gammainc": sc.gammainc, "bessel_j0": sc.j0, "bessel_y1": sc.y1, "modified_bessel_k0": sc.k0,
              "modified_bessel_k1": sc.k1, "ellipk": sc.ellipk}

    def setup(self, lib, dtype):
        self.L = L = Lib(lib)
        rng = np.random.default_rng(2)
        n = 1 << 20
        self.a = L.array(rng.uniform(0.5, 10.0, n).astype(dtype))
        self.x = L.array(rng.uniform(0.0, 20.0, n).astype(dtype))
        self.b = L.array(rng.uniform(0.5, 10.0, n).astype(dtype))
        self.u = L.array(rng.uniform(0.0, 1.0, n).astype(dtype))
        self.j = L.array(rng.uniform(-30.0, 30.0, n).astype(dtype))
        self.m = L.array(rng.uniform(-2.0, 1.0, n).astype(dtype))

    def _fn(self, name):
        L = self.L
        if L.ns is np:
            return self._SCIPY[name]
        if L.ns is nr:
            return getattr(nr, name)
        if name == "ellipk":
            raise NotImplementedError("torch has no ellipk")
        return getattr(L.ns.special, name)

    def time_gammainc(self, lib, dtype):
        self.L.sync(self._fn("gammainc")(self.a, self.x))

    def time_betainc(self, lib, dtype):
        L = self.L
        if L.ns is not np and L.ns is not nr:
            raise NotImplementedError("torch has no betainc")
        L.sync((sc.betainc if L.ns is np else nr.betainc)(self.a, self.b, self.u))

    def time_bessel_j0(self, lib, dtype):
        self.L.sync(self._fn("bessel_j0")(self.j))

    def time_bessel_y1(self, lib, dtype):
        self.L.sync(self._fn("bessel_y1")(self.x))

    def time_modified_bessel_k0(self, lib, dtype):
        self.L.sync(self._fn("modified_bessel_k0")(self.x))

    def time_modified_bessel_k1(self, lib, dtype):
        self.L.sync(self._fn("modified_bessel_k1")(self.x))

    def time_ellipk(self, lib, dtype):
        self.L.sync(self._fn("ellipk")(self.m))


class Special3:
    """gammaincinv (a in [0.5, 10], y in (0, 1): Newton steps on gammainc; on the CPU a fused loop),
    betaincinv (a in [0.5, 10], b in [0.5, 5], y in (0, 1)), hyp1f1 (a in [-2, 2],
    b in [0.5, 5], x in [-20, 20]: the series to 80 terms; fused on the CPU), airy (all four, x in [-10, 10]) and
    Hurwitz's zeta (x in [1.1, 20], q in [0.1, 10]) on 1M float64 elements (float32 beside). torch
    has no gammaincinv, hyp1f1 or the Bi pair: its airy row is airy_ai alone, the others are skipped."""

    params = [LIBS, ["float32", "float64"]]
    param_names = ["lib", "dtype"]
    timeout = 600  # gammaincinv's 7 Newton steps on gammainc: tens of seconds on a busy 2-core machine

    def setup(self, lib, dtype):
        self.L = L = Lib(lib)
        rng = np.random.default_rng(3)
        ranges = {"a": (0.5, 10.0), "y": (0.0, 1.0), "ha": (-2.0, 2.0), "hb": (0.5, 5.0), "x": (-20.0, 20.0),
                  "ax": (-10.0, 10.0), "zx": (1.1, 20.0), "zq": (0.1, 10.0)}
        for name, (lo, hi) in ranges.items():
            setattr(self, name, L.array(rng.uniform(lo, hi, 1 << 20).astype(dtype)))

    def _torch(self, name):
        if not hasattr(self.L.ns.special, name):
            raise NotImplementedError(f"torch has no {name}")
        return getattr(self.L.ns.special, name)

    def time_gammaincinv(self, lib, dtype):
        L = self.L
        f = sc.gammaincinv if L.ns is np else nr.gammaincinv if L.ns is nr else self._torch("gammaincinv")
        L.sync(f(self.a, self.y))

    def time_betaincinv(self, lib, dtype):
        L = self.L
        f = sc.betaincinv if L.ns is np else nr.betaincinv if L.ns is nr else self._torch("betaincinv")
        L.sync(f(self.a, self.hb, self.y))

    def time_hyp1f1(self, lib, dtype):
        L = self.L
        f = sc.hyp1f1 if L.ns is np else nr.hyp1f1 if L.ns is nr else self._torch("hyp1f1")
        L.sync(f(self.ha, self.hb, self.x))

    def time_airy(self, lib, dtype):
        L = self.L
        if L.ns is np:
            L.sync(sc.airy(self.ax)[0])
        else:
            L.sync((nr.airy(self.ax) if L.ns is nr else (self._torch("airy_ai")(self.ax),))[0])

    def time_zeta(self, lib, dtype):
        L = self.L
        f = sc.zeta if L.ns is np else nr.zeta if L.ns is nr else L.ns.special.zeta
        L.sync(f(self.zx, self.zq))
