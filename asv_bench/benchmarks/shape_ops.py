"""The copying shape ops on ~1M float32 (1x1024x1024): pad in each mode, repeat_interleave
(an int and per-row counts), roll (one dim and flattened) and repeat, numr beside NumPy
(np.pad, np.repeat, np.roll, np.tile) and PyTorch (F.pad, repeat_interleave, roll, repeat)."""

import numpy as np

from .common import LIBS, Lib

SHAPE = (1, 1024, 1024)
NP_MODE = {"constant": "constant", "reflect": "reflect", "replicate": "edge", "circular": "wrap"}


class ShapeOps:
    params = [LIBS]
    param_names = ["lib"]

    def setup(self, lib):
        self.L = L = Lib(lib)
        self.x = L.randn(SHAPE, "float32", seed=1)
        self.counts_np = np.random.default_rng(2).integers(0, 4, SHAPE[1])
        self.counts = L.array(self.counts_np)
        if lib == "torch":
            import torch.nn.functional as F
            self.F = F

    def _pad(self, mode):
        L, x = self.L, self.x
        if L.name == "numpy":
            return np.pad(x, ((0, 0), (3, 3), (3, 3)), NP_MODE[mode])
        if L.name == "torch":
            return self.F.pad(x, (3, 3, 3, 3), mode)
        return L.ns.pad(x, (3, 3, 3, 3), mode)

    def time_pad_constant(self, lib):
        self.L.sync(self._pad("constant"))

    def time_pad_reflect(self, lib):
        self.L.sync(self._pad("reflect"))

    def time_pad_replicate(self, lib):
        self.L.sync(self._pad("replicate"))

    def time_pad_circular(self, lib):
        self.L.sync(self._pad("circular"))

    def time_repeat_interleave_int(self, lib):
        L = self.L
        self.L.sync(np.repeat(self.x, 2, 1) if L.name == "numpy" else L.ns.repeat_interleave(self.x, 2, 1))

    def time_repeat_interleave_counts(self, lib):
        L = self.L
        if L.name == "numpy":
            self.L.sync(np.repeat(self.x, self.counts_np, 1))
        else:
            self.L.sync(L.ns.repeat_interleave(self.x, self.counts, 1))

    def time_roll_dim(self, lib):
        L = self.L
        self.L.sync(np.roll(self.x, 100, 2) if L.name == "numpy" else L.ns.roll(self.x, 100, 2))

    def time_roll_flat(self, lib):
        L = self.L
        self.L.sync(np.roll(self.x, 12345) if L.name == "numpy" else L.ns.roll(self.x, 12345))

    def time_repeat(self, lib):
        L = self.L
        self.L.sync(np.tile(self.x, (1, 2, 2)) if L.name == "numpy" else self.x.repeat(1, 2, 2))
