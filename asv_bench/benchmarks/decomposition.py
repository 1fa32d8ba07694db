"""numr.decomposition (numr/decomposition/: composites of numr's public ops) beside the same
algorithms written here in NumPy and in torch (and TensorLy when it is installed): Tucker by HOOI
from the HOSVD and CP by ALS from the SVD init, of a 64^3 tensor at rank 8, a fixed 10 sweeps
(tol=0) so every library does the same work. The tensor is rank-8 CP plus 1% noise."""

import importlib.util

import numpy as np

from .common import LIBS, Lib

N, RANK, SWEEPS = 64, 8, 10
TL = ["tensorly"] if importlib.util.find_spec("tensorly") else []


def _data(dtype):
    rng = np.random.default_rng(0)
    fs = [rng.standard_normal((N, RANK)) for _ in range(3)]
    x = np.einsum("ir,jr,kr->ijk", *fs)
    return (x + 0.01 * np.linalg.norm(x) / N ** 1.5 * rng.standard_normal(x.shape)).astype(dtype)


def _unfold(ns, x, mode):
    return ns.moveaxis(x, mode, 0).reshape(x.shape[mode], -1)


def _leading_u(ns, m, r):
    return ns.linalg.svd(m, full_matrices=False)[0][:, :r]


def _project(ns, x, factors, skip=None):
    """x x_n U_n^T for every n but skip (a mode_dot written with moveaxis, reshape and @)."""
    for n, u in enumerate(factors):
        if n != skip:
            shape = list(x.shape)
            shape[n] = u.shape[1]
            y = (u.T @ _unfold(ns, x, n)).reshape([shape[n]] + shape[:n] + shape[n + 1:])
            x = ns.moveaxis(y, 0, n)
    return x


def tucker_ref(ns, x, rank, sweeps):
    """HOSVD, then HOOI sweeps."""
    factors = [_leading_u(ns, _unfold(ns, x, n), rank) for n in range(x.ndim)]
    for _ in range(sweeps):
        for n in range(x.ndim):
            factors[n] = _leading_u(ns, _unfold(ns, _project(ns, x, factors, skip=n), n), rank)
    return _project(ns, x, factors), factors


def _khatri_rao(mats):
    out = mats[0]
    for m in mats[1:]:
        out = (out[:, None, :] * m[None, :, :]).reshape(-1, m.shape[1])
    return out


def parafac_ref(ns, x, rank, sweeps):
    """SVD init (the first factor scaled by the singular values), then ALS sweeps."""
    factors = []
    for n in range(x.ndim):
        u, s, _ = ns.linalg.svd(_unfold(ns, x, n), full_matrices=False)
        factors.append(u[:, :rank] * s[:rank] if n == 0 else u[:, :rank])
    for _ in range(sweeps):
        for n in range(x.ndim):
            v = None
            for i, f in enumerate(factors):
                if i != n:
                    v = f.T @ f if v is None else v * (f.T @ f)
            mttkrp = _unfold(ns, x, n) @ _khatri_rao([f for i, f in enumerate(factors) if i != n])
            factors[n] = ns.linalg.solve(v.T, mttkrp.T).T
    return factors


class Decomposition:
    params = [LIBS + TL, ["float64"]]
    param_names = ["lib", "dtype"]
    timeout = 300

    def setup(self, lib, dtype):
        data = _data(dtype)
        if lib == "tensorly":
            import tensorly.decomposition as tld
            self.tld, self.x = tld, data
            return
        self.L = Lib(lib)
        self.x = self.L.array(data)

    def time_tucker_64cube_rank8(self, lib, dtype):
        if lib == "tensorly":
            self.tld.tucker(self.x, [RANK] * 3, n_iter_max=SWEEPS, tol=0)
        elif lib.startswith("numr"):
            self.L.sync(self.L.ns.decomposition.tucker(self.x, RANK, n_iter_max=SWEEPS, tol=0).core)
        else:
            tucker_ref(self.L.ns, self.x, RANK, SWEEPS)

    def time_parafac_64cube_rank8(self, lib, dtype):
        if lib == "tensorly":
            self.tld.parafac(self.x, RANK, n_iter_max=SWEEPS, tol=0, init="svd")
        elif lib.startswith("numr"):
            self.L.sync(self.L.ns.decomposition.parafac(self.x, RANK, n_iter_max=SWEEPS, tol=0).factors[0])
        else:
            parafac_ref(self.L.ns, self.x, RANK, SWEEPS)
