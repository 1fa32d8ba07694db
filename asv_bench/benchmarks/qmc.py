"""Quasi-Monte Carlo points and multivariate samplers: scrambled Sobol' 2**16 points x 32 dims,
scrambled Halton 10**5 x 8 (both float64, engine construction included: the scramble is part of
the job) and multivariate_normal 10**5 x 16 (float64, Cholesky). numr beside scipy.stats.qmc
(the "numpy" row; NumPy's Generator.multivariate_normal for the normal) and torch
(torch.quasirandom.SobolEngine, torch.distributions.MultivariateNormal; no Halton in torch)."""

import numpy as np

from .common import LIBS, Lib


class _Base:
    params = [LIBS]
    param_names = ["lib"]

    def setup(self, lib):
        self.L = Lib(lib)
        if self.L.name == "torch":
            import torch
            self.torch = torch
        if self.L.ns is np:
            from scipy.stats import qmc
            self.sq = qmc


class Sobol(_Base):

    def time_sobol_65536x32(self, lib):
        L = self.L
        if L.ns is np:
            return self.sq.Sobol(32, seed=0).random_base2(16)
        if L.name == "torch":
            return self.torch.quasirandom.SobolEngine(32, scramble=True, seed=0).draw(1 << 16, dtype=self.torch.float64)
        L.sync(L.ns.qmc.Sobol(32, seed=0, device=L.device).random_base2(16))


class Halton(_Base):
    def setup(self, lib):
        super().setup(lib)
        if self.L.name == "torch":
            raise NotImplementedError("torch has no Halton sequence")

    def time_halton_100000x8(self, lib):
        L = self.L
        if L.ns is np:
            return self.sq.Halton(8, seed=0).random(100_000)
        L.sync(L.ns.qmc.Halton(8, seed=0, device=L.device).random(100_000))


class MultivariateNormal(_Base):
    def setup(self, lib):
        super().setup(lib)
        rng = np.random.default_rng(0)
        a = rng.standard_normal((16, 16))
        self.cov_np, self.mean_np = a @ a.T + 16 * np.eye(16), rng.standard_normal(16)
        self.g = np.random.default_rng(1)
        if self.L.name == "torch":
            t = self.torch
            self.dist = t.distributions.MultivariateNormal(t.tensor(self.mean_np), t.tensor(self.cov_np))
        elif self.L.ns is not np:
            self.mean, self.cov = self.L.array(self.mean_np), self.L.array(self.cov_np)

    def time_mvn_100000x16(self, lib):
        L = self.L
        if L.ns is np:
            return self.g.multivariate_normal(self.mean_np, self.cov_np, 100_000, method="cholesky")
        if L.name == "torch":
            return self.dist.sample((100_000,))
        L.sync(L.ns.multivariate_normal(self.mean, self.cov, 100_000, seed=0))
