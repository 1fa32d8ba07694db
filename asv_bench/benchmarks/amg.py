"""Algebraic multigrid (numr.sparse.amg) on the 2-D Poisson matrix of a 256 x 256 grid
(n = 65536, 5-point stencil) beside scipy.sparse.linalg.cg without a preconditioner (the
"numpy" row; pyamg is not installed here). Both solve to rtol 1e-8 from x0 = 0: numr's row is
the smoothed aggregation setup plus AMG-preconditioned cg (about 10 iterations), scipy's plain
cg (about 800). AmgSetup times numr's setups alone (smoothed aggregation, Ruge-Stuben; numr
only). torch has no sparse solvers."""

import numpy as np

from .common import LIBS, Lib

LIBS_HERE = [lib for lib in LIBS if lib != "torch"]


def _poisson(k):
    import scipy.sparse as sp
    t = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(k, k))
    return (sp.kron(sp.identity(k), t) + sp.kron(t, sp.identity(k))).tocsr()


class AmgPcg:
    params = [LIBS_HERE, [256]]
    param_names = ["lib", "k"]
    timeout = 600

    def setup(self, lib, k):
        self.L = Lib(lib)
        self.S = _poisson(k)
        b = np.random.default_rng(1).standard_normal(k * k)
        if lib == "numpy":
            self.b = b
        else:
            import numr as nr
            if self.L.device != "cpu":
                raise NotImplementedError("the AMG setup runs on the CPU")
            self.A = nr.sparse.from_scipy(self.S)
            self.b = self.L.array(b)

    def time_solve_rtol_1e8(self, lib, k):
        if self.L.name == "numpy":
            import scipy.sparse.linalg as ssl
            ssl.cg(self.S, self.b, rtol=1e-8, maxiter=5000)
        else:
            from numr.sparse import amg
            ml = amg.smoothed_aggregation_solver(self.A)
            ml.solve(self.b, tol=1e-8, accel="cg")


class AmgSetup:
    params = [["numr"], [256]]
    param_names = ["lib", "k"]
    timeout = 600

    def setup(self, lib, k):
        import numr as nr
        self.A = nr.sparse.from_scipy(_poisson(k))

    def time_setup(self, lib, k):
        from numr.sparse import amg
        amg.smoothed_aggregation_solver(self.A)

    def time_setup_ruge_stuben(self, lib, k):
        from numr.sparse import amg
        amg.ruge_stuben_solver(self.A)
