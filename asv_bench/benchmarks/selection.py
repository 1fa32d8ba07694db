"""Selection ops on a 512x1024 float32 matrix with data-dependent choices (random masks,
values straddling bounds): where, clamp, boolean-mask and row-index reads, argmax along
rows. numr beside NumPy and PyTorch (when installed) in one class."""

import numpy as np

from .common import LIBS, Lib

SHAPE = (512, 1024)


class Selection:
    params = [LIBS]
    param_names = ["lib"]

    def setup(self, lib):
        self.L = L = Lib(lib)
        self.x = L.randn(SHAPE, "float32", seed=1)
        self.y = L.randn(SHAPE, "float32", seed=2)
        self.mask = self.x > 0
        self.rows = L.array(np.random.default_rng(3).integers(0, SHAPE[0], 256))

    def time_where(self, lib):
        self.L.sync(self.L.where(self.mask, self.x, self.y))

    def time_clamp(self, lib):
        self.L.sync(self.L.clamp(self.x, -1.0, 1.0))

    def time_mask_read(self, lib):
        self.L.sync(self.x[self.mask])

    def time_mask_write_scalar(self, lib):
        """x[mask] = 0 (in place; the same positions each call)."""
        self.x[self.mask] = 0.0
        self.L.sync(self.x)

    def time_index_rows(self, lib):
        self.L.sync(self.x[self.rows])

    def time_argmax_rows(self, lib):
        self.L.sync(self.L.argmax(self.x, 1))
