"""2:4 structured sparse @ dense (nr.sparse_24_matmul on the compressed form: half the
multiply-adds) beside the dense product of the same pruned matrix in NumPy and torch
(time_matmul), and numr's own dense matmul of it (time_dense_matmul) for the in-library ratio.
time_prune: nr.prune_to_24 (a composite of public ops) beside a NumPy/torch top-2 mask."""

import numpy as np

from .common import LIBS, Lib


class Sparse24Matmul:
    params = [LIBS, [512, 2048], ["float32"]]
    param_names = ["lib", "n", "dtype"]
    timeout = 300

    def setup(self, lib, n, dtype):
        self.L = Lib(lib)
        w = np.random.default_rng(0).standard_normal((n, n)).astype(dtype)
        g = np.abs(w).reshape(n, n // 4, 4)
        order = np.argsort(-g, axis=-1, kind="stable")[..., :2]
        mask = np.zeros(g.shape, bool)
        np.put_along_axis(mask, order, True, axis=-1)
        self.pruned = np.where(mask.reshape(n, n), w, 0).astype(dtype)
        self.w = self.L.array(w)
        self.a = self.L.array(self.pruned)
        self.b = self.L.randn((n, 256), dtype, seed=1)
        if self.L.ns.__name__ == "numr":
            self.a24 = self.L.ns.prune_to_24(self.w)

    def time_matmul(self, lib, n, dtype):
        if self.L.ns.__name__ == "numr":
            self.L.sync(self.L.ns.sparse_24_matmul(self.a24, self.b))
        else:
            self.L.sync(self.a @ self.b)

    def time_dense_matmul(self, lib, n, dtype):
        self.L.sync(self.a @ self.b)

    def time_prune(self, lib, n, dtype):
        if self.L.ns.__name__ == "numr":
            self.L.sync(self.L.ns.prune_to_24(self.w).values)
        elif lib == "numpy":
            g = np.abs(self.w).reshape(n, n // 4, 4)
            np.argsort(-g, axis=-1, kind="stable")[..., :2]
        else:
            g = self.L.ns.abs(self.w).reshape(n, n // 4, 4)
            self.L.sync(self.L.ns.topk(g, 2, dim=-1).indices)
