"""The parity composites beside NumPy and PyTorch: gather_nd (NumPy fancy indexing, torch's
x[idx[:, 0], idx[:, 1]]), instance_norm (torch.nn.functional.instance_norm, a NumPy composite)
and stft (torch.stft, a NumPy framing + rfft; float64 for numr and NumPy, torch in float64 too).
"""

from __future__ import annotations

import numpy as np

import numr as nr

from .common import LIBS, Lib


class GatherNd:
    params = [LIBS, [(256, 256, 64)], [100_000]]
    param_names = ["lib", "shape", "k"]

    def setup(self, lib, shape, k):
        self.L = Lib(lib)
        self.x = self.L.randn(shape, "float32")
        idx = np.random.default_rng(1).integers(0, shape[0], (k, 2))
        if self.L.ns is np:
            self.idx = (idx[:, 0], idx[:, 1])
        elif self.L.ns is nr:
            self.idx = self.L.array(idx)
        else:
            t = self.L.array(idx)
            self.idx = (t[:, 0], t[:, 1])

    def time_gather_nd(self, lib, shape, k):
        if self.L.ns is nr:
            self.L.sync(nr.gather_nd(self.x, self.idx))
        else:
            self.x[self.idx]


def _np_instance_norm(x, eps=1e-5):
    m = x.mean((2, 3), keepdims=True)
    c = x - m
    return c / np.sqrt((c * c).mean((2, 3), keepdims=True) + eps)


class InstanceNorm:
    params = [LIBS, [(8, 64, 64, 64), (2, 8, 16, 16)]]
    param_names = ["lib", "shape"]

    def setup(self, lib, shape):
        self.L = Lib(lib)
        self.x = self.L.randn(shape, "float32")

    def time_instance_norm(self, lib, shape):
        ns = self.L.ns
        if ns is nr:
            self.L.sync(nr.instance_norm(self.x))
        elif ns is np:
            _np_instance_norm(self.x)
        else:
            ns.nn.functional.instance_norm(self.x)


def _np_stft(x, n_fft, hop, w):
    xp = np.pad(x, [(0, 0), (n_fft // 2, n_fft // 2)], mode="reflect")
    n = 1 + (xp.shape[-1] - n_fft) // hop
    idx = np.arange(n_fft)[None, :] + hop * np.arange(n)[:, None]
    return np.swapaxes(np.fft.rfft(xp[:, idx] * w, axis=-1), 1, 2)


class Stft:
    params = [LIBS, [(4, 16_000), (1, 1024)], [512]]
    param_names = ["lib", "shape", "n_fft"]

    def setup(self, lib, shape, n_fft):
        self.L = Lib(lib)
        self.x = self.L.randn(shape, "float64")
        self.w = self.L.array(np.hanning(n_fft))
        self.hop = n_fft // 4

    def time_stft(self, lib, shape, n_fft):
        ns = self.L.ns
        if ns is nr:
            self.L.sync(nr.stft(self.x, n_fft, self.hop, window=self.w))
        elif ns is np:
            _np_stft(self.x, n_fft, self.hop, self.w)
        else:
            ns.stft(self.x, n_fft, self.hop, window=self.w, return_complex=True)
