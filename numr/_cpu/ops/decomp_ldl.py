"""CPU ldl_factor/ldl_factor_ex/ldl_solve: LAPACK's sytf2/hetf2 (lower, Bunch-Kaufman) and sytrs in the native kernel
(numr/_cpu/kernels/linalg_ldl.h), batched over contiguous copies, step for step the decisions of the
composite (numr/ops/generic/decomp_ldl.py, which the GPU clients and autograd keep);
float16/bfloat16 compute in float32, other dtypes take the composite."""

from __future__ import annotations

from ... import dtypes as dt
from ...ops.generic.decomp import _square
from ...ops.generic.decomp_ex import _raise_info
from ...ops.generic.decomp_ldl import ldl_factor_ex_any, ldl_solve_any, solve_args
from ...tensor import Tensor
from .. import storage
from . import lazy_kernels
from .matfunc_banded import fresh

_k = lazy_kernels("linalg")


class LdlCpu:
    """Mixin of CpuClient: ldl_factor's native kernel."""

    def ldl_factor_ex(self, A: Tensor, hermitian: bool = False,
                      check_errors: bool = False) -> tuple[Tensor, Tensor, Tensor]:
        """(LD, pivots, info) of torch.linalg.ldl_factor_ex (info i > 0: D[i-1, i-1] is exactly zero)."""
        n = _square("ldl_factor", A)
        if A.dtype.kind not in "fc":
            return ldl_factor_ex_any(A, hermitian, check_errors)
        d = _work(A.dtype)
        batch = tuple(A.shape[:-2])
        LD = fresh(self, A, d)
        piv = storage.empty(self.device, batch + (n,), dt.int32)
        info = self.full(batch, 0, dt.int32)
        count = LD.size // max(n * n, 1)
        if count:
            _k().sytf2(d.code, count, n, int(bool(hermitian) and d.kind == "c"), LD._storage, piv._storage,
                       info._storage)
        if check_errors:
            _raise_info("ldl_factor", info, "D is singular")
        return (LD if d is A.dtype else self.cast(LD, A.dtype)), piv, info

    def ldl_factor(self, A: Tensor, hermitian: bool = False) -> tuple[Tensor, Tensor]:
        """(LD, pivots) of torch.linalg.ldl_factor (Bunch-Kaufman, LAPACK's format)."""
        LD, piv, _ = self.ldl_factor_ex(A, hermitian)
        return LD, piv

    def ldl_solve(self, LD: Tensor, pivots: Tensor, B: Tensor, hermitian: bool = False) -> Tensor:
        """X with A X = B from ldl_factor's (LD, pivots) (torch.linalg.ldl_solve, LAPACK's sytrs)."""
        LD, p, B, batch, n = solve_args(LD, pivots, B)
        ct = B.dtype
        if ct.kind not in "fc":
            return ldl_solve_any(LD, pivots, B, hermitian)
        d = _work(ct)
        X = fresh(self, B, d)
        count = X.size // max(n * B.shape[-1], 1)
        if count and n:
            _k().sytrs(d.code, count, n, B.shape[-1], int(bool(hermitian) and d.kind == "c"),
                       fresh(self, LD.expand(batch + (n, n)), d)._storage, fresh(self, p, dt.int64)._storage,
                       X._storage)
        return X if d is ct else self.cast(X, ct)


def _work(d: dt.DType) -> dt.DType:
    """float32/float64/complex as they are, narrower floats in float32."""
    return d if d.kind == "c" or d in (dt.float32, dt.float64) else dt.float32
