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


class IndexAdd:
    """Scatter-add of 2048 rows of 64 into a 10000x64 table with repeated indices (an embedding
    gradient): numr's index_add_ vs torch's index_add_ vs NumPy's np.add.at; and the whole
    embedding backward through each library's autograd (numr: index_select's gradient)."""

    params = [LIBS]
    param_names = ["lib"]

    def setup(self, lib):
        self.L = L = Lib(lib)
        rng = np.random.default_rng(4)
        self.table = L.randn((10000, 64), "float32", seed=5)
        self.src = L.randn((2048, 64), "float32", seed=6)
        self.idx_np = rng.integers(0, 10000, 2048)
        self.idx = L.array(self.idx_np)
        if L.ns is not np:
            if L.name.startswith("numr"):
                from numr.autograd import Var
                self.w = Var(self.table)
            else:
                self.w = self.table.clone().requires_grad_(True)

    def time_index_add(self, lib):
        if self.L.ns is np:
            np.add.at(self.table, self.idx_np, self.src)
        else:
            self.table.index_add_(0, self.idx, self.src)
        self.L.sync(self.table)

    def time_embedding_backward(self, lib):
        L = self.L
        if L.ns is np:
            g = np.zeros_like(self.table)
            np.add.at(g, self.idx_np, 2 * self.table[self.idx_np])
        elif L.name.startswith("numr"):
            from numr.autograd import backward
            out = L.ns.index_select(self.w, 0, self.idx)
            L.sync(backward((out * out).sum())[self.w])
        else:
            out = self.w.index_select(0, self.idx)
            (out * out).sum().backward()
            self.w.grad = None
