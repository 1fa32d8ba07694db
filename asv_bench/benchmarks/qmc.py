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


class _ScipyOnly(_Base):
    """Engines torch lacks: numr beside scipy.stats.qmc only."""

    def setup(self, lib):
        super().setup(lib)
        if self.L.name == "torch":
            raise NotImplementedError("torch has no such QMC engine")


class QMCOptimize(_ScipyOnly):
    """optimization='random-cd' on a 128 x 4 Latin hypercube (scipy's budget: up to 10_000 swaps)."""

    def time_lhs_random_cd_128x4(self, lib):
        L = self.L
        if L.ns is np:
            return self.sq.LatinHypercube(4, rng=0, optimization="random-cd").random(128)
        L.sync(L.ns.qmc.LatinHypercube(4, seed=0, optimization="random-cd", device=L.device).random(128))


class QMCPoissonDisk(_ScipyOnly):
    """PoissonDisk(2, radius=0.05).fill_space() (Bridson, about 280 points)."""

    def time_poisson_fill_2d(self, lib):
        L = self.L
        if L.ns is np:
            return self.sq.PoissonDisk(2, radius=0.05, rng=0).fill_space()
        L.sync(L.ns.qmc.PoissonDisk(2, radius=0.05, seed=0, device=L.device).fill_space())


class QMCNormal(_ScipyOnly):
    """MultivariateNormalQMC: 2**14 scrambled Sobol' points x 8 through ndtri and the Cholesky root."""

    def setup(self, lib):
        super().setup(lib)
        a = np.random.default_rng(0).standard_normal((8, 8))
        self.cov = a @ a.T + 8 * np.eye(8)

    def time_mvn_qmc_16384x8(self, lib):
        L = self.L
        if L.ns is np:
            return self.sq.MultivariateNormalQMC(np.zeros(8), self.cov, rng=0).random(1 << 14)
        L.sync(L.ns.qmc.MultivariateNormalQMC(np.zeros(8).tolist(), self.cov.tolist(), seed=0,
                                              device=L.device).random(1 << 14))
