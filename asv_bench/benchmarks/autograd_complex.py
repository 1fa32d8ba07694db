"""Complex autograd of the Hermitian decompositions: one jvp (numr.autograd.jvp beside
torch.func.jvp) and one gradient (numr.autograd.grad beside torch.func.grad, numr's
unconjugated convention vs torch's conjugate: the same work) of cholesky, eigh and slogdet on a
complex128 Hermitian positive definite matrix. NumPy has no autograd: its rows are skipped.

    python tools/bench_ratios.py -b autograd_complex
"""

from __future__ import annotations

import numpy as np

import numr as nr

from .common import LIBS, Lib

OPS = ["cholesky", "eigh", "slogdet"]


def _first(out):
    return out[0] if isinstance(out, tuple) else out


class ComplexDecomp:
    params = [LIBS, OPS, ["jvp", "grad"], [64]]
    param_names = ["lib", "op", "mode", "n"]

    def setup(self, lib, op, mode, n):
        self.L = Lib(lib)
        if self.L.ns is np:
            raise NotImplementedError("NumPy has no autograd")
        rng = np.random.default_rng(0)
        x = rng.standard_normal((n, n)) + 1j * rng.standard_normal((n, n))
        d = rng.standard_normal((n, n)) + 1j * rng.standard_normal((n, n))
        self.a = self.L.array(x @ x.conj().T + n * np.eye(n))
        self.d = self.L.array(d + d.conj().T)
        ns = self.L.ns
        f = getattr(ns.linalg if ns is not nr else nr, op)
        if ns is nr:
            from numr import autograd as fx
        else:
            import torch.func as fx
        if mode == "jvp":
            self.fn = lambda: fx.jvp(f, (self.a,), (self.d,))[1]
        else:
            loss = (lambda a: ns.sum(ns.abs(_first(f(a))) ** 2)) if op != "slogdet" else \
                (lambda a: ns.sum(f(a)[1]))
            g = fx.grad(loss)
            self.fn = lambda: g(self.a)
        self.fn()  # warm

    def time_autograd(self, lib, op, mode, n):
        self.L.sync(_first(self.fn()))
