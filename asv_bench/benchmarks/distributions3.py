"""Generator-API samplers of 1M: weibull (a = 1.5, float32), vonmises (kappa = 2, float64),
negative_binomial (n = 3.5, p = 0.4) and hypergeometric (30 good, 50 bad, 20 drawn); numr (a
Generator) beside NumPy's Generator (default_rng, PCG64) and torch.distributions where it has the
distribution (Weibull, VonMises, NegativeBinomial: torch counts successes with probs = 1 - p)."""

import numpy as np

from .common import LIBS, Lib

N = 1 << 20


class Distributions3:
    params = [LIBS]
    param_names = ["lib"]

    def setup(self, lib):
        self.L = L = Lib(lib)
        if L.ns is np:
            self.g = np.random.default_rng(3)
        elif L.name == "torch":
            import torch
            torch.manual_seed(3)
            self.D = torch.distributions
        else:
            self.g = L.ns.random.default_rng(3, device=L.device)

    def time_weibull_1m(self, lib):
        L = self.L
        if L.name == "torch":
            return self.D.Weibull(1.0, 1.5).sample((N,))
        if L.ns is np:
            return self.g.weibull(1.5, N).astype(np.float32)  # NumPy's weibull is float64 only
        L.sync(self.g.weibull(1.5, N, dtype="float32"))

    def time_vonmises_1m(self, lib):
        L = self.L
        if L.name == "torch":
            import torch
            return self.D.VonMises(torch.tensor(0.5, dtype=torch.float64),
                                   torch.tensor(2.0, dtype=torch.float64)).sample((N,))
        r = self.g.vonmises(0.5, 2.0, N)
        return r if L.ns is np else L.sync(r)

    def time_negative_binomial_1m(self, lib):
        L = self.L
        if L.name == "torch":
            return self.D.NegativeBinomial(3.5, probs=0.6).sample((N,))
        r = self.g.negative_binomial(3.5, 0.4, N)
        return r if L.ns is np else L.sync(r)


class Hypergeometric:
    """torch has no hypergeometric sampler."""

    params = [[lib for lib in LIBS if lib != "torch"]]
    param_names = ["lib"]

    def setup(self, lib):
        self.L = L = Lib(lib)
        self.g = np.random.default_rng(3) if L.ns is np else L.ns.random.default_rng(3, device=L.device)

    def time_hypergeometric_1m(self, lib):
        r = self.g.hypergeometric(30, 50, 20, N)
        return r if self.L.ns is np else self.L.sync(r)
