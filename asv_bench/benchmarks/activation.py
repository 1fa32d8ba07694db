"""SwiGLU and softmax, forward and backward, 4096x4096 float32: numr's fused kernels
beside PyTorch CPU and the unfused NumPy expression.

- SwiGLU forward: ``nr.silu_mul(g, u)`` (one pass) vs ``torch.nn.functional.silu(g) * u``
  vs NumPy ``g / (1 + exp(-g)) * u``.
- SwiGLU backward: numr's autograd (``backward`` through ``var_swiglu``, which runs the fused
  ``silu_mul_bwd`` kernel) vs ``torch.autograd.grad`` of ``silu(g) * u`` vs NumPy's formula.
- softmax forward/backward: ``nr.softmax`` (row kernel) / autograd's ``softmax_bwd`` kernel
  vs ``torch.softmax`` / ``torch.autograd.grad`` vs NumPy's stable composite.

``python asv_bench/benchmarks/activation.py`` prints the same comparisons as time ratios
(median of interleaved runs) without asv.
"""

from __future__ import annotations

if __name__ == "__main__":  # a script: import the package asv uses, not this folder (copy.py would shadow copy)
    import os
    import sys
    _here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _here]
    sys.path.insert(0, os.path.dirname(_here))
    from benchmarks.common import LIBS, Lib
else:
    from .common import LIBS, Lib

import numpy as np  # noqa: E402

import numr as nr  # noqa: E402

SHAPE = (4096, 4096)


class _Base:
    params = [LIBS, [SHAPE], ["float32"]]
    param_names = ["lib", "shape", "dtype"]

    def setup(self, lib, shape, dtype):
        self.L = Lib(lib)
        self.g = self.L.randn(shape, dtype, seed=0)
        self.u = self.L.randn(shape, dtype, seed=1)
        self.dy = self.L.randn(shape, dtype, seed=2)


class SwiGLU(_Base):
    def setup(self, lib, shape, dtype):
        super().setup(lib, shape, dtype)
        ns = self.L.ns
        if ns is nr:
            from numr.autograd import Var, var_swiglu
            self.gv, self.uv = Var(self.g), Var(self.u)
            self.y = var_swiglu(self.gv, self.uv)
        elif ns is not np:
            import torch
            self.gt = self.g.clone().requires_grad_(True)
            self.ut = self.u.clone().requires_grad_(True)
            self.y = torch.nn.functional.silu(self.gt) * self.ut

    def time_forward(self, lib, shape, dtype):
        ns, g, u = self.L.ns, self.g, self.u
        if ns is nr:
            self.L.sync(nr.silu_mul(g, u))
        elif ns is np:
            g / (1.0 + np.exp(-g)) * u
        else:
            ns.nn.functional.silu(g) * u

    def time_backward(self, lib, shape, dtype):
        ns = self.L.ns
        if ns is nr:
            from numr.autograd import backward
            grads = backward(self.y, grad=self.dy)
            self.L.sync(grads[self.gv])
        elif ns is np:
            g, u, dy = self.g, self.u, self.dy
            s = 1.0 / (1.0 + np.exp(-g))
            dy * u * (s * (1.0 + g * (1.0 - s)))
            dy * (g * s)
        else:
            ns.autograd.grad(self.y, (self.gt, self.ut), self.dy, retain_graph=True)


class Softmax(_Base):
    def setup(self, lib, shape, dtype):
        super().setup(lib, shape, dtype)
        ns = self.L.ns
        if ns is nr:
            from numr.autograd import Var
            self.xv = Var(self.g)
            self.y = nr.softmax(self.xv, -1)
        elif ns is np:
            self.y = _np_softmax(self.g)
        else:
            self.xt = self.g.clone().requires_grad_(True)
            self.y = ns.softmax(self.xt, -1)

    def time_forward(self, lib, shape, dtype):
        ns = self.L.ns
        if ns is nr:
            self.L.sync(nr.softmax(self.g, -1))
        elif ns is np:
            _np_softmax(self.g)
        else:
            ns.softmax(self.g, -1)

    def time_backward(self, lib, shape, dtype):
        ns = self.L.ns
        if ns is nr:
            from numr.autograd import backward
            self.L.sync(backward(self.y, grad=self.dy)[self.xv])
        elif ns is np:
            y = self.y
            y * (self.dy - np.sum(self.dy * y, axis=-1, keepdims=True))
        else:
            ns.autograd.grad(self.y, (self.xt,), self.dy, retain_graph=True)


def _np_softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _report(repeats: int = 7) -> None:
    """Median (and best) times and numr/other ratios for every benchmark above (one process,
    interleaved runs, so a busy machine slows every library alike)."""
    import time
    libs = [lb for lb in ("numr", "numpy", "torch") if lb in LIBS]
    for cls in (SwiGLU, Softmax):
        for meth in ("time_forward", "time_backward"):
            objs = {}
            for lb in libs:
                o = cls()
                o.setup(lb, SHAPE, "float32")
                getattr(o, meth)(lb, SHAPE, "float32")  # warm up
                objs[lb] = o
            times: dict[str, list[float]] = {lb: [] for lb in libs}
            for _ in range(repeats):
                for lb in libs:
                    t0 = time.perf_counter()
                    getattr(objs[lb], meth)(lb, SHAPE, "float32")
                    times[lb].append(time.perf_counter() - t0)
            med = {lb: float(np.median(v)) * 1e3 for lb, v in times.items()}
            best = {lb: float(np.min(v)) * 1e3 for lb, v in times.items()}
            ratios = ", ".join(f"numr/{lb} {med['numr'] / med[lb]:.2f} (best {best['numr'] / best[lb]:.2f})"
                               for lb in libs if lb != "numr")
            shown = ", ".join(f"{lb} {med[lb]:.1f} ms" for lb in libs)
            print(f"{cls.__name__}.{meth}: {shown}  ({ratios})")


if __name__ == "__main__":
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--threads", type=int, default=0, help="limit numr and torch to this many threads")
    ap.add_argument("--repeats", type=int, default=7)
    opts = ap.parse_args()
    if opts.threads:
        from numr._cpu.kernels import info
        info.set_num_threads(opts.threads)
        if "torch" in LIBS:
            import torch
            torch.set_num_threads(opts.threads)
    _report(opts.repeats)
