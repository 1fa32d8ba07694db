"""Krylov solvers (numr.sparse.linalg) on the 2-D Poisson matrix (5-point stencil, k x k grid,
n = k^2) beside scipy.sparse.linalg (the "numpy" row). The same work in every library: a fixed
number of iterations (rtol far below reach), CG 200 iterations, GMRES(20) 5 cycles = 100 inner.
op "stencil": a LinearOperator whose matvec is the stencil in the library's own array ops
(numr ops / NumPy slices); op "csr": scipy's csr_matrix and numr.sparse's CSR matrix of the same
values. torch has no Krylov solvers: no torch row."""

import numpy as np

from .common import LIBS, Lib

LIBS_HERE = [lib for lib in LIBS if lib != "torch"]


def _stencil(ns, k):
    """y = 4 u - (the four neighbours), zero outside the grid, in the library's ops."""
    def matvec(x):
        u = x.reshape((k, k))
        if ns.__name__ == "numr":
            p = ns.pad(u, (1, 1, 1, 1))
        else:
            p = ns.pad(u, 1)
        y = 4 * u - p[:-2, 1:-1] - p[2:, 1:-1] - p[1:-1, :-2] - p[1:-1, 2:]
        return y.reshape((k * k,))
    return matvec


def _poisson_csr(k):
    import scipy.sparse as sp
    t = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(k, k))
    return (sp.kron(sp.identity(k), t) + sp.kron(t, sp.identity(k))).tocsr()


class Krylov:
    params = [LIBS_HERE, [100, 300], ["stencil", "csr"]]
    param_names = ["lib", "k", "op"]
    timeout = 300

    def setup(self, lib, k, op):
        self.L = Lib(lib)
        n = k * k
        b = np.random.default_rng(1).standard_normal(n)
        if lib == "numpy":
            import scipy.sparse.linalg as ssl
            self.sl = ssl
            self.A = _poisson_csr(k) if op == "csr" else ssl.LinearOperator((n, n), _stencil(np, k), dtype=np.float64)
            self.b = b
        else:
            import numr as nr
            from numr.sparse import linalg as sl
            self.sl = sl
            if op == "csr":
                if not hasattr(nr.sparse, "from_scipy"):
                    raise NotImplementedError("numr.sparse has no sparse matrices in this tree")
                self.A = nr.sparse.from_scipy(_poisson_csr(k), device=self.L.device)
            else:
                self.A = sl.LinearOperator((n, n), _stencil(nr, k), dtype=nr.float64, device=self.L.device)
            self.b = self.L.array(b)

    def time_cg_200(self, lib, k, op):
        self.sl.cg(self.A, self.b, rtol=1e-30, maxiter=200)

    def time_gmres_20x5(self, lib, k, op):
        self.sl.gmres(self.A, self.b, rtol=1e-30, restart=20, maxiter=5)


class SparseDirect:
    """The direct side on the 2-D Poisson matrix of a 100 x 100 grid (n = 10^4, 5 nnz a row)
    beside scipy.sparse.linalg: spsolve_triangular of tril(A) (both sequential CSR sweeps),
    spsolve (numr: Gilbert-Peierls LU, minimum degree order of A + A^T; scipy: SuperLU with
    COLAMD), splu factor + one solve, spilu (both ILUT with scipy's defaults drop_tol 1e-4,
    fill_factor 10: numr Saad's row-wise ILUT, scipy SuperLU's) and GMRES(20) x 5 cycles
    preconditioned by it, and eigsh's shift-invert mode (6 eigenpairs nearest sigma = 0.5).
    numr runs these on the CPU only (the GPUs raise UnsupportedOperation)."""

    params = [LIBS_HERE, [100]]
    param_names = ["lib", "k"]
    timeout = 300

    def setup(self, lib, k):
        import scipy.sparse as sp
        self.L = Lib(lib)
        n = k * k
        A = _poisson_csr(k)
        T = sp.tril(A, format="csr")
        b = np.random.default_rng(1).standard_normal(n)
        if lib == "numpy":
            import scipy.sparse.linalg as ssl
            self.sl, self.A, self.T, self.b = ssl, A.tocsc(), T, b
            ilu = ssl.spilu(self.A)
            self.M = ssl.LinearOperator((n, n), ilu.solve)
        else:
            import numr as nr
            from numr.sparse import linalg as sl
            if self.L.device != "cpu":
                raise NotImplementedError("numr's direct sparse kernels are CPU-only")
            self.sl = sl
            self.A, self.T = nr.sparse.from_scipy(A), nr.sparse.from_scipy(T)
            self.b = self.L.array(b)
            self.M = sl.spilu(self.A)

    def time_spsolve_triangular(self, lib, k):
        self.sl.spsolve_triangular(self.T, self.b)

    def time_spsolve(self, lib, k):
        self.sl.spsolve(self.A, self.b)

    def time_spilu(self, lib, k):
        self.sl.spilu(self.A)

    def time_splu_solve(self, lib, k):
        self.sl.splu(self.A).solve(self.b)

    def time_eigsh_sigma(self, lib, k):
        self.sl.eigsh(self.A, k=6, sigma=0.5)

    def time_gmres_ilu_20x5(self, lib, k):
        self.sl.gmres(self.A, self.b, rtol=1e-30, restart=20, maxiter=5, M=self.M)
