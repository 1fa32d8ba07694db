"""One training step of a multi-layer perceptron (forward, cross-entropy loss, backward to every
weight): numr's autograd beside torch.autograd. "tiny" (batch 8, 32-64-64-10) measures the
per-op overhead of recording and replaying the graph, "mnist" (batch 128, 784-256-256-10) the
kernels. NumPy has no autograd: its rows are skipped.

    python tools/bench_ratios.py -b autograd
"""

from __future__ import annotations

import numpy as np

import numr as nr

from .common import LIBS, Lib

#: name -> (batch, layer widths)
SIZES = {"tiny": (8, (32, 64, 64, 10)), "mnist": (128, (784, 256, 256, 10))}


class MlpStep:
    params = [LIBS, list(SIZES)]
    param_names = ["lib", "size"]

    def setup(self, lib, size):
        self.L = Lib(lib)
        if self.L.ns is np:
            raise NotImplementedError("NumPy has no autograd")
        batch, widths = SIZES[size]
        rng = np.random.default_rng(0)
        self.x = self.L.array(rng.standard_normal((batch, widths[0])).astype(np.float32))
        self.y = self.L.array(np.eye(widths[-1], dtype=np.float32)[rng.integers(0, widths[-1], batch)])
        self.params = []
        for a, b in zip(widths[:-1], widths[1:], strict=True):
            w = (rng.standard_normal((a, b)) / np.sqrt(a)).astype(np.float32)
            self.params += [self.L.array(w), self.L.array(np.zeros(b, np.float32))]
        if self.L.ns is nr:
            from numr.autograd import Var, backward
            self.Var, self.backward = Var, backward
        self.step()  # warm

    def step(self):
        ns = self.L.ns
        if ns is nr:
            ps = [self.Var(p, requires_grad=True) for p in self.params]
        else:
            ps = [p.detach().requires_grad_(True) for p in self.params]
        h = self.x
        for i in range(0, len(ps), 2):
            h = h @ ps[i] + ps[i + 1]
            if i + 2 < len(ps):
                h = ns.relu(h) if ns is nr else ns.nn.functional.relu(h)
        logp = ns.log_softmax(h, -1) if ns is nr else ns.nn.functional.log_softmax(h, -1)
        loss = -(logp * self.y).sum() / self.y.shape[0]
        if ns is nr:
            grads = self.backward(loss)
            return [grads[p] for p in ps]
        return ns.autograd.grad(loss, ps)

    def time_step(self, lib, size):
        self.L.sync(self.step()[0])


class MlpJacobian:
    """The (64, 64) Jacobian of a 64-64-64 tanh MLP at one input: numr.autograd.jacrev (one backward
    per output over one recorded graph) and jacfwd (one jvp per input) beside torch.func.jacrev /
    jacfwd (vmap-batched)."""

    params = [LIBS, ["jacrev", "jacfwd"]]
    param_names = ["lib", "strategy"]

    def setup(self, lib, strategy):
        self.L = Lib(lib)
        if self.L.ns is np:
            raise NotImplementedError("NumPy has no autograd")
        rng = np.random.default_rng(0)
        self.ws = [self.L.array((rng.standard_normal((64, 64)) / 8).astype(np.float32)) for _ in range(2)]
        self.x = self.L.array(rng.standard_normal(64).astype(np.float32))
        if self.L.ns is nr:
            from numr import autograd
            self.fn = getattr(autograd, strategy)(self.mlp)
        else:
            import torch.func
            self.fn = getattr(torch.func, strategy)(self.mlp)
        self.fn(self.x)  # warm

    def mlp(self, x):
        for w in self.ws:
            x = self.L.ns.tanh(w @ x)
        return x

    def time_jacobian(self, lib, strategy):
        self.L.sync(self.fn(self.x))
