"""Dense decompositions: numr's own CPU kernels (numr/_cpu/kernels/linalg*.h: blocked LU and
Cholesky with GEMM updates, Householder QR, tridiagonal QL eigh, Golub-Reinsch SVD,
Hessenberg + Francis double-shift QR eig) beside
numpy.linalg and torch.linalg (LAPACK). Targets: <= 3x at 512, parity on 1000 x 8x8 batches."""

import numpy as np

from .common import LIBS, Lib

#: the CPU-sized classes compare numr's CPU kernels only (a GPU row at n = 1024 would run for minutes)
CPU_LIBS = [x for x in LIBS if not x.startswith("numr-")]


def _la(L: Lib):
    return L.ns if L.ns.__name__ == "numr" else L.ns.linalg


def _scipy_la(L: Lib, what: str):
    """scipy.linalg for the "numpy" row, numr.linalg for numr; torch lacks ``what``: skipped."""
    if L.ns.__name__ == "torch":
        raise NotImplementedError(f"torch has no {what}")
    if L.ns is np:
        import scipy.linalg
        return scipy.linalg
    return L.ns.linalg


def _spd(n: int, batch: tuple = (), seed: int = 1) -> np.ndarray:
    a = np.random.default_rng(seed).standard_normal(batch + (n, n))
    return a @ np.swapaxes(a, -1, -2) / n + np.eye(n)


class Decomp:
    params = [CPU_LIBS, ["float64"]]
    param_names = ["lib", "dtype"]

    def setup(self, lib, dtype):
        self.L = Lib(lib)
        self.la = _la(self.L)
        self.a512 = self.L.array(_spd(512).astype(dtype))
        self.b512 = self.L.randn((512, 16), dtype, seed=2)
        self.a1024 = self.L.array(_spd(1024).astype(dtype))
        self.a256 = self.L.array(_spd(256).astype(dtype))
        self.g256 = self.L.randn((256, 256), dtype, seed=3)

    def time_solve_512(self, lib, dtype):
        self.la.solve(self.a512, self.b512)

    def time_inv_512(self, lib, dtype):
        self.la.inv(self.a512)

    def time_cholesky_1024(self, lib, dtype):
        self.la.cholesky(self.a1024)

    def time_qr_512(self, lib, dtype):
        self.la.qr(self.a512)

    def time_eigh_256(self, lib, dtype):
        self.la.eigh(self.a256)

    def time_svd_256(self, lib, dtype):
        self.la.svd(self.g256)

    def time_eig_256(self, lib, dtype):
        self.la.eig(self.g256)

    def time_eigvals_256(self, lib, dtype):
        self.la.eigvals(self.g256)


class DecompBatchedSmall:
    """1000 independent 8x8 systems: split between threads, one call."""

    params = [CPU_LIBS, ["float64"]]
    param_names = ["lib", "dtype"]

    def setup(self, lib, dtype):
        self.L = Lib(lib)
        self.la = _la(self.L)
        self.a = self.L.array(_spd(8, (1000,)).astype(dtype))
        self.b = self.L.randn((1000, 8, 1), dtype, seed=2)

    def time_solve(self, lib, dtype):
        self.la.solve(self.a, self.b)

    def time_inv(self, lib, dtype):
        self.la.inv(self.a)

    def time_det(self, lib, dtype):
        self.la.det(self.a)


class DecompDevice:
    """Sizes a GPU backend runs in seconds (NUMR_BENCH_DEVICES=cpu,wgpu adds its rows): there the
    composites of numr/ops/generic/decomp_blocked.py / decomp_jacobi.py, launch-bound at these n."""

    params = [LIBS, ["float32"], [64, 128]]
    param_names = ["lib", "dtype", "n"]
    timeout = 600

    def setup(self, lib, dtype, n):
        self.L = Lib(lib)
        self.la = _la(self.L)
        self.a = self.L.array(_spd(n).astype(dtype))
        self.b = self.L.randn((n, 16), dtype, seed=2)

    def time_solve(self, lib, dtype, n):
        self.L.sync(self.la.solve(self.a, self.b))

    def time_cholesky(self, lib, dtype, n):
        self.L.sync(self.la.cholesky(self.a))

    def time_eigh(self, lib, dtype, n):
        self.L.sync(self.la.eigh(self.a)[0])


class DecompDeviceComplex:
    """Complex solve and eigvals at n = 64. numr-cuda: the composites (numr/ops/generic/
    decomp_blocked.py's complex LU; decomp_eig_gpu.py's Hessenberg + batched shifted complex QR,
    one host read a step); wgpu has no complex dtype (its rows are skipped); numr on the CPU: the
    kernels."""

    params = [LIBS, [64]]
    param_names = ["lib", "n"]
    timeout = 600

    def setup(self, lib, n):
        if lib == "numr-wgpu":
            raise NotImplementedError("wgpu has no complex dtype: no complex solve, no eigvals")
        self.L = Lib(lib)
        self.la = _la(self.L)
        rng = np.random.default_rng(5)
        a = rng.standard_normal((n, n)) + 1j * rng.standard_normal((n, n)) + n ** 0.5 * np.eye(n)
        self.a = self.L.array(a.astype(np.complex64))
        self.b = self.L.array((rng.standard_normal((n, 16)) + 1j * rng.standard_normal((n, 16))).astype(np.complex64))
        self.g = self.L.array(rng.standard_normal((n, n)).astype(np.float32))

    def time_solve_complex64(self, lib, n):
        self.L.sync(self.la.solve(self.a, self.b))

    def time_eigvals_float32(self, lib, n):
        self.L.sync(self.la.eigvals(self.g))


class LinalgExtra:
    """matrix_exp (numr: Pade-13 scaling and squaring of public ops; the NumPy row is scipy.linalg.expm)
    and a 4-matrix multi_dot chain (optimal order by dynamic programming)."""

    params = [CPU_LIBS, ["float64"]]
    param_names = ["lib", "dtype"]

    def setup(self, lib, dtype):
        self.L = Lib(lib)
        self.la = _la(self.L)
        if self.L.ns is np:
            import scipy.linalg
            self.expm = scipy.linalg.expm
        else:
            self.expm = self.la.matrix_exp
        self.a256 = self.L.array(np.random.default_rng(4).standard_normal((256, 256)).astype(dtype) / 4)
        self.chain = [self.L.randn(s, dtype, seed=i) for i, s in enumerate([(10, 400), (400, 50), (50, 400), (400, 8)])]

    def time_matrix_exp_256(self, lib, dtype):
        self.expm(self.a256)

    def time_multi_dot_4(self, lib, dtype):
        self.la.multi_dot(self.chain)


class MatrixFunctions:
    """scipy.linalg's matrix functions (the "numpy" row is scipy.linalg; torch has none): numr's
    sqrtm is the determinant-scaled Denman-Beavers iteration, logm inverse scaling and squaring over
    it, polar one SVD (numr/ops/generic/matfunc.py); scipy uses the Schur form. solve_banded:
    numr's native banded LU on the CPU (numr/_cpu/kernels/linalg_banded.h) beside LAPACK's gbsv."""

    params = [CPU_LIBS, ["float64"], [64, 256]]
    param_names = ["lib", "dtype", "n"]
    timeout = 300

    def setup(self, lib, dtype, n):
        self.L = Lib(lib)
        self.la = _scipy_la(self.L, "sqrtm/logm/polar/solve_banded")
        a = np.random.default_rng(5).standard_normal((n, n)) / np.sqrt(n) * 0.5 + 1.5 * np.eye(n)
        self.a = self.L.array(a.astype(dtype))
        ab = np.random.default_rng(6).standard_normal((4, 4 * n))
        ab[1] += 4
        self.ab = self.L.array(ab.astype(dtype))
        self.b = self.L.randn((4 * n,), dtype, seed=7)

    def time_sqrtm(self, lib, dtype, n):
        self.la.sqrtm(self.a)

    def time_logm(self, lib, dtype, n):
        self.la.logm(self.a)

    def time_polar(self, lib, dtype, n):
        self.la.polar(self.a)

    def time_solve_banded_4n(self, lib, dtype, n):
        self.la.solve_banded((2, 1), self.ab, self.b)


class SchurForms:
    """The Schur family (the "numpy" row is scipy.linalg; torch has none): numr's schur reuses eig's
    Hessenberg reduction and Francis QR with the Schur vectors kept (numr/_cpu/kernels/
    linalg_schur.h), qz an unblocked Givens Hessenberg-triangular reduction + double-shift real or
    single-shift complex QZ (linalg_qz.h); LAPACK's gees/gges are blocked."""

    params = [CPU_LIBS, ["float64"]]
    param_names = ["lib", "dtype"]
    timeout = 300

    def setup(self, lib, dtype):
        self.L = Lib(lib)
        self.la = _scipy_la(self.L, "schur/qz")
        rng = np.random.default_rng(8)
        self.a128, self.a256, self.b128 = (self.L.array(rng.standard_normal(s).astype(dtype))
                                           for s in ((128, 128), (256, 256), (128, 128)))

    def time_schur_128(self, lib, dtype):
        self.la.schur(self.a128)

    def time_schur_256(self, lib, dtype):
        self.la.schur(self.a256)

    def time_schur_complex_128(self, lib, dtype):
        self.la.schur(self.a128, output="complex")

    def time_qz_128(self, lib, dtype):
        self.la.qz(self.a128, self.b128)

    def time_qz_complex_128(self, lib, dtype):
        self.la.qz(self.a128, self.b128, output="complex")
