"""Random distributions: bernoulli (float32 probabilities), normal and exponential (float32),
poisson (rate 4, float64 math), gamma (shape 2.5, float32) of 1M; randperm of 1M; multinomial
of 10k samples from 1000 categories (with and without replacement). numr beside NumPy's
Generator (default_rng, PCG64) and torch (its default CPU generator)."""

import numpy as np

from .common import LIBS, Lib

N = 1 << 20


class Distributions:
    params = [LIBS]
    param_names = ["lib"]

    def setup(self, lib):
        self.L = L = Lib(lib)
        rng = np.random.default_rng(1)
        self.p = L.array(rng.random(N).astype(np.float32))
        self.w = L.array(rng.random(1000).astype(np.float32))
        self.w_np = rng.random(1000)
        self.w_np /= self.w_np.sum()
        if L.ns is np:
            self.g = np.random.default_rng(3)
        elif L.name == "torch":
            import torch
            self.torch = torch
            torch.manual_seed(3)

    def time_bernoulli_1m(self, lib):
        L = self.L
        if L.ns is np:
            return self.g.random(N, dtype=np.float32) < self.p
        L.sync(L.ns.bernoulli(self.p))

    def time_normal_1m(self, lib):
        L = self.L
        if L.ns is np:
            return self.g.normal(1.0, 2.0, N).astype(np.float32)  # float32 standard_normal has no loc/scale
        if L.name == "torch":
            return self.torch.empty(N).normal_(1.0, 2.0)
        L.sync(L.ns.normal(1.0, 2.0, (N,), dtype="float32", device=L.device))

    def time_exponential_1m(self, lib):
        L = self.L
        if L.ns is np:
            return self.g.standard_exponential(N, dtype=np.float32) / 2.0
        if L.name == "torch":
            return self.torch.empty(N).exponential_(2.0)
        L.sync(L.ns.exponential(2.0, (N,), dtype="float32", device=L.device))

    def time_poisson_1m(self, lib):
        L = self.L
        if L.ns is np:
            return self.g.poisson(4.0, N)
        if L.name == "torch":
            return self.torch.poisson(self.torch.full((N,), 4.0, dtype=self.torch.float64))
        L.sync(L.ns.poisson(4.0, (N,), device=L.device))

    def time_gamma_1m(self, lib):
        L = self.L
        if L.ns is np:
            return self.g.standard_gamma(2.5, N, dtype=np.float32)
        if L.name == "torch":
            return self.torch._standard_gamma(self.torch.full((N,), 2.5))
        L.sync(L.ns.gamma(2.5, 1.0, (N,), dtype="float32", device=L.device))

    def time_randperm_1m(self, lib):
        L = self.L
        if L.ns is np:
            return self.g.permutation(N)
        if L.name == "torch":
            return self.torch.randperm(N)
        L.sync(L.ns.randperm(N, device=L.device))

    def time_multinomial_1000x10k(self, lib):
        L = self.L
        if L.ns is np:
            return self.g.choice(1000, 10_000, p=self.w_np)
        L.sync(L.ns.multinomial(self.w, 10_000, True))

    def time_multinomial_no_replacement_1000(self, lib):
        L = self.L
        if L.ns is np:
            return self.g.choice(1000, 500, replace=False, p=self.w_np)
        L.sync(L.ns.multinomial(self.w, 500, False))
