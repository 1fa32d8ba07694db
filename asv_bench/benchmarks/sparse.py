"""Sparse matrix products: CSR @ vector and CSR @ dense (64 columns) for a 100k x 100k matrix
with ~1M non-zeros (scipy.sparse.random, seed 0), numr beside scipy.sparse (the "numpy" row)
and torch.sparse (torch.sparse_csr_tensor) on the same arrays. numr runs its CSR kernel
(numr/_cpu/kernels/sparse_ops.h) on the CPU and the gather/index_add composite elsewhere."""

import numpy as np

from .common import LIBS, Lib

N, DENSITY = 100_000, 1e-4


def _scipy_matrix(dtype: str):
    import scipy.sparse as sp
    m = sp.random(N, N, density=DENSITY, format="csr", rng=np.random.default_rng(0), dtype=np.float64)
    m.data = m.data.astype(dtype)
    return m


class CsrMatmul:
    params = [LIBS, ["float32", "float64"]]
    param_names = ["lib", "dtype"]

    def setup(self, lib, dtype):
        self.L = Lib(lib)
        s = _scipy_matrix(dtype)
        rng = np.random.default_rng(1)
        v, d = rng.random(N).astype(dtype), rng.random((N, 64)).astype(dtype)
        if lib == "numpy":
            self.a, self.v, self.d = s, v, d
        elif lib == "torch":
            import torch
            self.a = torch.sparse_csr_tensor(torch.from_numpy(s.indptr.astype(np.int64)),
                                             torch.from_numpy(s.indices.astype(np.int64)),
                                             torch.from_numpy(s.data), size=s.shape)
            self.v, self.d = torch.from_numpy(v), torch.from_numpy(d)
        else:
            import numr as nr
            self.a = nr.sparse.from_scipy(s, device=self.L.device)
            self.v, self.d = self.L.array(v), self.L.array(d)

    def time_csr_matvec(self, lib, dtype):
        self.L.sync(self.a @ self.v)

    def time_csr_matmul_64(self, lib, dtype):
        self.L.sync(self.a @ self.d)
