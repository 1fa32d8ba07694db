"""layer_norm and rms_norm over the last dim (with weight; layer_norm with bias), forward and
forward+backward, on 4096x1024 and 64x128 float32: numr beside PyTorch CPU and a NumPy composite.

- forward: ``nr.layer_norm`` / ``nr.rms_norm`` vs ``torch.nn.functional.layer_norm`` /
  ``rms_norm`` vs NumPy's ``(x - mean) / sqrt(var + eps) * w + b``.
- forward+backward: numr's autograd (``backward`` of the output with a given gradient, w.r.t. x,
  weight and bias) vs ``torch.autograd.grad`` vs NumPy's forward plus the analytic backward.

``python asv_bench/benchmarks/normalization.py`` prints the same comparisons as time ratios
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

SHAPES = [(4096, 1024), (64, 128)]
EPS = 1e-5


class _Norm:
    params = [LIBS, SHAPES, ["float32"]]
    param_names = ["lib", "shape", "dtype"]
    rms = False

    def setup(self, lib, shape, dtype):
        self.L = Lib(lib)
        self.x = self.L.randn(shape, dtype, seed=0)
        self.dy = self.L.randn(shape, dtype, seed=1)
        self.w = self.L.rand((shape[-1],), dtype, seed=2)
        self.b = self.L.randn((shape[-1],), dtype, seed=3)

    def _numr(self, x, w, b):
        n = x.shape[-1]
        return nr.rms_norm(x, n, w, EPS) if self.rms else nr.layer_norm(x, n, w, b, EPS)

    def _torch(self, x, w, b):
        import torch
        f = torch.nn.functional
        n = (x.shape[-1],)
        return f.rms_norm(x, n, w, EPS) if self.rms else f.layer_norm(x, n, w, b, EPS)

    def time_forward(self, lib, shape, dtype):
        ns = self.L.ns
        if ns is nr:
            self.L.sync(self._numr(self.x, self.w, self.b))
        elif ns is np:
            _np_forward(self.x, self.w, self.b, self.rms)
        else:
            self._torch(self.x, self.w, self.b)

    def time_forward_backward(self, lib, shape, dtype):
        ns = self.L.ns
        if ns is nr:
            from numr.autograd import Var, backward
            xv, wv, bv = Var(self.x), Var(self.w), Var(self.b)
            g = backward(self._numr(xv, wv, bv), grad=self.dy)
            self.L.sync(g[xv])
        elif ns is np:
            _np_forward_backward(self.x, self.w, self.b, self.dy, self.rms)
        else:
            xt, wt, bt = (t.clone().requires_grad_(True) for t in (self.x, self.w, self.b))
            y = self._torch(xt, wt, bt)
            ns.autograd.grad(y, (xt, wt) if self.rms else (xt, wt, bt), self.dy)


class LayerNorm(_Norm):
    rms = False


class RMSNorm(_Norm):
    rms = True


def _np_forward(x, w, b, rms):
    if rms:
        return x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + EPS) * w
    c = x - x.mean(axis=-1, keepdims=True)
    return c / np.sqrt(np.mean(c * c, axis=-1, keepdims=True) + EPS) * w + b


def _np_forward_backward(x, w, b, dy, rms):
    """The forward, then dx, dw (and db) by the analytic formulas."""
    c = x if rms else x - x.mean(axis=-1, keepdims=True)
    r = 1.0 / np.sqrt(np.mean(c * c, axis=-1, keepdims=True) + EPS)
    xhat = c * r
    _ = xhat * w + (0 if rms else b)
    g = dy * w
    dw = (dy * xhat).sum(0)
    proj = np.mean(g * xhat, axis=-1, keepdims=True)
    dx = r * (g - xhat * proj) if rms else r * (g - g.mean(axis=-1, keepdims=True) - xhat * proj)
    return dx, dw, (None if rms else dy.sum(0))


def _report(repeats: int = 7) -> None:
    """Median times and numr/other ratios for every benchmark above (interleaved runs)."""
    import time
    libs = [lb for lb in ("numr", "numpy", "torch") if lb in LIBS]
    for cls in (LayerNorm, RMSNorm):
        for shape in SHAPES:
            for meth in ("time_forward", "time_forward_backward"):
                objs = {}
                for lb in libs:
                    o = cls()
                    o.setup(lb, shape, "float32")
                    getattr(o, meth)(lb, shape, "float32")  # warm up
                    objs[lb] = o
                times: dict[str, list[float]] = {lb: [] for lb in libs}
                for _ in range(repeats):
                    for lb in libs:
                        t0 = time.perf_counter()
                        getattr(objs[lb], meth)(lb, shape, "float32")
                        times[lb].append(time.perf_counter() - t0)
                med = {lb: float(np.median(v)) * 1e3 for lb, v in times.items()}
                ratios = ", ".join(f"numr/{lb} {med['numr'] / med[lb]:.2f}" for lb in libs if lb != "numr")
                shown = ", ".join(f"{lb} {med[lb]:.3f} ms" for lb in libs)
                print(f"{cls.__name__}.{meth} {shape}: {shown}  ({ratios})")


if __name__ == "__main__":
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--threads", type=int, default=0, help="limit numr and torch to this many threads")
    ap.add_argument("--repeats", type=int, default=7)
    opts = ap.parse_args()
    if opts.threads:
        nr.set_num_threads(opts.threads)
        if "torch" in LIBS:
            import torch
            torch.set_num_threads(opts.threads)
    _report(opts.repeats)
