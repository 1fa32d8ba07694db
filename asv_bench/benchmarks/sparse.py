"""Sparse matrix products: CSR @ vector and CSR @ dense (64 columns) for a 100k x 100k matrix
with ~1M non-zeros (scipy.sparse.random, seed 0), numr beside scipy.sparse (the "numpy" row)
and torch.sparse (torch.sparse_csr_tensor) on the same arrays. numr runs its CSR kernel
(numr/_cpu/kernels/sparse_ops.h) on the CPU and the gather/index_add composite elsewhere."""

import warnings

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
            with warnings.catch_warnings():  # torch's "beta" and "invariant checks" notices
                warnings.simplefilter("ignore")
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


class SparseSparse:
    """A + B, A .* B and A @ B (SpGEMM) for 20k x 20k matrices with 100k non-zeros each:
    numr's CPU kernels (numr/_cpu/kernels/sparse_spgemm.h: row merges, Gustavson with sorted
    output rows) and the composites elsewhere (stable sort of linear keys, runs summed;
    expand-sort-compress) beside scipy.sparse and torch.sparse."""

    params = [LIBS]
    param_names = ["lib"]

    def setup(self, lib):
        import scipy.sparse as sp
        self.L = Lib(lib)
        s, t = (sp.random(20_000, 20_000, density=2.5e-4, format="csr", rng=np.random.default_rng(k)) for k in (0, 1))
        if lib == "numpy":
            self.a, self.b = s, t
        elif lib == "torch":
            import torch

            def csr(m):
                return torch.sparse_csr_tensor(torch.from_numpy(m.indptr.astype(np.int64)),
                                               torch.from_numpy(m.indices.astype(np.int64)),
                                               torch.from_numpy(m.data), size=m.shape)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                self.a, self.b = csr(s), csr(t)
        else:
            import numr as nr
            self.a, self.b = (nr.sparse.from_scipy(m, device=self.L.device) for m in (s, t))

    def time_add(self, lib):
        out = self.a + self.b
        self.L.sync(out.values if lib.startswith("numr") else out)

    def time_multiply(self, lib):
        out = self.a * self.b if lib == "torch" else self.a.multiply(self.b)
        self.L.sync(out.values if lib.startswith("numr") else out)

    def time_spgemm(self, lib):
        out = self.a @ self.b
        self.L.sync(out.values if lib.startswith("numr") else out)
