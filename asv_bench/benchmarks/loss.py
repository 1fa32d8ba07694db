"""Losses and optimizers: cross_entropy of (4096, 1000) float32 logits against class indices,
forward alone and forward + backward to the logits (numr's autograd beside torch.autograd; NumPy
runs the same math by hand: log-softmax and pick, then softmax - onehot), one Adam step on
1M float32 parameters (numr.optim.Adam, torch.optim.Adam, Adam written in NumPy), and ctc_loss of
(T=50, N=16, C=20) float32 log-probabilities against targets of 10 labels (NumPy has none).

    python tools/bench_ratios.py -b loss
"""

from __future__ import annotations

import numpy as np

import numr as nr

from .common import LIBS, Lib

N, C = 4096, 1000


class CrossEntropy:
    params = [LIBS, ["forward", "forward_backward"]]
    param_names = ["lib", "mode"]

    def setup(self, lib, mode):
        self.L = Lib(lib)
        rng = np.random.default_rng(0)
        self.x = self.L.array(rng.standard_normal((N, C)).astype(np.float32))
        self.t = self.L.array(rng.integers(0, C, N))
        if self.L.ns is nr:
            from numr.autograd import Var, backward
            self.Var, self.backward = Var, backward
        self.run(mode)  # warm

    def _numpy(self, backward):
        x, t = self.x, self.t
        z = x - x.max(1, keepdims=True)
        lse = np.log(np.exp(z).sum(1, keepdims=True))
        loss = -(np.take_along_axis(z - lse, t[:, None], 1)).mean()
        if not backward:
            return loss
        g = np.exp(z - lse)
        g[np.arange(N), t] -= 1
        return g / N

    def run(self, mode):
        ns, bwd = self.L.ns, mode == "forward_backward"
        if ns is np:
            return self._numpy(bwd)
        if ns is nr:
            x = self.Var(self.x) if bwd else self.x
            loss = nr.cross_entropy(x, self.t)
            return self.backward(loss)[x] if bwd else loss
        x = self.x.detach().requires_grad_(bwd)
        loss = ns.nn.functional.cross_entropy(x, self.t)
        return ns.autograd.grad(loss, [x])[0] if bwd else loss

    def time_cross_entropy(self, lib, mode):
        self.L.sync(self.run(mode))


class AdamStep:
    params = [LIBS, [1_000_000]]
    param_names = ["lib", "n"]

    def setup(self, lib, n):
        self.L = Lib(lib)
        rng = np.random.default_rng(0)
        p, self.g = (self.L.array(rng.standard_normal(n).astype(np.float32)) for _ in range(2))
        ns = self.L.ns
        if ns is nr:
            from numr.autograd import Var
            self.p = Var(p)
            self.opt = nr.optim.Adam([self.p], lr=1e-3)
            self.grads = {self.p: self.g}
        elif ns is np:
            self.p, self.m, self.v, self.t = p, np.zeros_like(p), np.zeros_like(p), 0
        else:
            self.p = p.requires_grad_(True)
            self.p.grad = self.g
            self.opt = ns.optim.Adam([self.p], lr=1e-3)
        self.step()  # warm: the moment buffers exist

    def _numpy_step(self, lr=1e-3, b1=0.9, b2=0.999, eps=1e-8):
        self.t += 1
        g = self.g
        self.m += (1 - b1) * (g - self.m)
        self.v *= b2
        self.v += (1 - b2) * g * g
        denom = np.sqrt(self.v) / np.float32(np.sqrt(1 - b2 ** self.t)) + np.float32(eps)
        self.p -= np.float32(lr / (1 - b1 ** self.t)) * self.m / denom
        return self.p

    def step(self):
        ns = self.L.ns
        if ns is np:
            return self._numpy_step()
        if ns is nr:
            self.opt.step(grads=self.grads)
            return self.p.tensor
        self.opt.step()
        return self.p

    def time_adam_step(self, lib, n):
        self.L.sync(self.step())


class CtcLoss:
    params = [LIBS, ["forward", "forward_backward"]]
    param_names = ["lib", "mode"]

    def setup(self, lib, mode):
        self.L = Lib(lib)
        if self.L.ns is np:
            raise NotImplementedError("NumPy has no ctc_loss")
        rng = np.random.default_rng(0)
        x = rng.standard_normal((50, 16, 20)).astype(np.float32)
        self.x = self.L.array(x - np.log(np.exp(x).sum(-1, keepdims=True)))
        self.t = self.L.array(rng.integers(1, 20, (16, 10)))
        self.il, self.tl = [50] * 16, [10] * 16
        if self.L.ns is nr:
            from numr.autograd import Var, backward
            self.Var, self.backward = Var, backward
        else:
            self.il, self.tl = self.L.ns.tensor(self.il), self.L.ns.tensor(self.tl)
        self.run(mode)  # warm

    def run(self, mode):
        ns, bwd = self.L.ns, mode == "forward_backward"
        if ns is nr:
            x = self.Var(self.x) if bwd else self.x
            loss = nr.ctc_loss(x, self.t, self.il, self.tl)
            return self.backward(loss)[x] if bwd else loss
        x = self.x.detach().requires_grad_(bwd)
        loss = ns.nn.functional.ctc_loss(x, self.t, self.il, self.tl)
        return ns.autograd.grad(loss, [x])[0] if bwd else loss

    def time_ctc_loss(self, lib, mode):
        self.L.sync(self.run(mode))
