"""CPU implementation of the decomposition family's kernels (see numr/ops/traits/decomp.py):
solve, solve_triangular, lu_factor, cholesky, qr, eigh, eig/eigvals and svd run the native kernels of
numr/_cpu/kernels/linalg.pyx on contiguous copies; the rest are the composites of
numr/ops/generic/decomp.py (the GPU clients get composites: numr/ops/generic/decomp_blocked.py)."""

from __future__ import annotations

from typing import Any

from ... import dtypes as dt
from ...errors import DTypeError, LinAlgError, UnsupportedDType, UnsupportedOperation
from ...ops.generic import decomp as generic_decomp
from ...ops.prepare_decomp import (
    batch_index,
    operand,
    solve_shapes,
    square,
    triangular_batch,
    triangular_rhs,
    work_dtype,
)
from ...tensor import Tensor
from .. import storage
from . import lazy_kernels

_k = lazy_kernels("linalg")
LU, TRSM, CHOL, QR, EIGH, SVD, GESV, ROWSWAP, EIG = 0, 2, 3, 4, 5, 6, 8, 9, 10


def _copy(client: Any, x: Tensor, shape: tuple[int, ...], d: dt.DType) -> Tensor:
    """A fresh contiguous tensor of ``shape`` holding x (broadcast, cast): the kernels write in place."""
    out = storage.empty(client.device, shape, d)
    if out.size:
        client.copy_(out, x)
    return out


def _run(op: str, k: int, d: dt.DType, batch: int, m: int, n: int, kk: int, f1: int, f2: int, a: Tensor,
         b: Tensor | None = None, c: Tensor | None = None, e: Tensor | None = None, piv: Any = None,
         info: Any = None) -> None:
    """Run kernel op ``k`` over ``batch`` contiguous matrices (strides: each operand's size / batch)."""
    def arr(t: Tensor | None) -> Any:
        return None if t is None else t._storage

    def stride(t: Tensor | None) -> int:
        return 0 if t is None or batch == 0 else t.size // batch
    ok = _k().run(k, d.code, batch, m, n, kk, f1, f2, arr(a), stride(a), arr(b), stride(b), arr(c), stride(c),
                  arr(e), stride(e), piv, info)
    if not ok:
        raise UnsupportedDType("cpu", op, d, "no linalg kernel for this dtype")


def _info(op: str, batch_shape: tuple[int, ...], info: Any, what: str) -> None:
    """Raise LinAlgError for the first batch element whose kernel reported a failure."""
    bad = info.nonzero()[0]
    if len(bad):
        i = int(bad[0])
        where = f" (batch element {batch_index(batch_shape, i)})" if batch_shape else ""
        raise LinAlgError(f"{op}: {what.format(i=int(info[i]) - 1, k=int(info[i]))}{where}")


def _out(t: Tensor, d: dt.DType) -> Tensor:
    """The float32 result of a low-precision input, back in its dtype."""
    return t if t.dtype is d else t.client.cast(t, d)


class DecompCpu:
    """Mixin of CpuClient: the decomposition kernels and the family's composites."""

    locals().update(generic_decomp.GENERIC)  # inv, det, slogdet, eigvalsh, svdvals, lstsq, pinv, norms

    def lu_factor(self, A: Tensor) -> tuple[Tensor, Tensor]:
        """A singular matrix factors too (a zero on U's diagonal), as torch's lu_factor_ex."""
        A, d, n = square("lu_factor", self, A)
        lu = _copy(self, A, A.shape, d)
        piv = storage.empty(self.device, A.shape[:-1], dt.int64)
        if lu.size:
            _run("lu_factor", LU, d, _numel(A.shape[:-2]), n, n, 0, 0, 0, lu, piv=piv._storage,
                 info=_info_buf(A.shape[:-2]))
        return _out(lu, A.dtype), self.cast(piv, dt.int32) + 1

    def lu(self, A: Tensor, pivot: bool = True) -> tuple[Tensor, Tensor, Tensor]:
        """P from the identity's rows swapped as the factorisation swapped A's (P^T A = L U)."""
        A, d, n = square("lu", self, A)
        if not pivot:
            raise UnsupportedOperation("cpu", "lu", A.dtype, "pivot=False (as torch on the CPU)")
        lu = _copy(self, A, A.shape, d)
        piv = storage.empty(self.device, A.shape[:-1], dt.int64)
        Pt = _copy(self, self.eye(n, n, 0, d), A.shape, d)
        if lu.size:
            batch = _numel(A.shape[:-2])
            _run("lu", LU, d, batch, n, n, 0, 0, 0, lu, piv=piv._storage, info=_info_buf(A.shape[:-2]))
            _run("lu", ROWSWAP, d, batch, n, n, n, 0, 0, lu, Pt, piv=piv._storage)
        L = self.tril(lu, -1) + self.eye(n, n, 0, d)
        return _out(Pt.mT, A.dtype), _out(L, A.dtype), _out(self.triu(lu), A.dtype)

    def solve(self, A: Tensor, B: Tensor, left: bool = True) -> Tensor:
        A, d, n = square("solve", self, A)
        B = operand("solve", self, B)
        if B.dtype is not A.dtype:
            raise DTypeError(f"solve: A ({A.dtype}) and B ({B.dtype}) must have one dtype")
        if not left:  # X A = B  <=>  A^T X^T = B^T
            return self.solve(A.mT, B.mT).mT
        bshape, k, vec = solve_shapes("solve", A.shape, B.shape)
        lu = _copy(self, A, bshape + (n, n), d)
        x = _copy(self, B.unsqueeze(-1) if vec else B, bshape + (n, k), d)
        batch = _numel(bshape)
        piv = storage.empty(self.device, bshape + (n,), dt.int64)
        info = _info_buf(bshape)
        if lu.size:  # LU and the solve in one pass over each matrix
            _run("solve", GESV, d, batch, n, n, k, 0, 0, lu, x, piv=piv._storage, info=info)
        _info("solve", bshape, info, "the matrix is singular (U[{i}, {i}] is zero)")
        return _out(x.squeeze(-1) if vec else x, A.dtype)

    def solve_triangular(self, A: Tensor, B: Tensor, upper: bool, left: bool = True,
                         unitriangular: bool = False) -> Tensor:
        A, d, n = square("solve_triangular", self, A)
        B = triangular_rhs("solve_triangular", self, A, B)
        if not left:
            return self.solve_triangular(A.mT, B.mT, upper=not upper, unitriangular=unitriangular).mT
        bshape = triangular_batch("solve_triangular", A, B, n)
        k = B.shape[-1]
        a = _copy(self, A, bshape + (n, n), d)
        x = _copy(self, B, bshape + (n, k), d)
        if x.size:
            _run("solve_triangular", TRSM, d, _numel(bshape), n, n, k, int(bool(upper)), int(bool(unitriangular)),
                 a, x)
        return _out(x, A.dtype)

    def cholesky(self, A: Tensor, upper: bool = False) -> Tensor:
        A, d, n = square("cholesky", self, A)
        L = _copy(self, A, A.shape, d)
        info = _info_buf(A.shape[:-2])
        if L.size:
            _run("cholesky", CHOL, d, _numel(A.shape[:-2]), n, n, 0, 0, 0, L, info=info)
        _info("cholesky", A.shape[:-2], info,
              "the input is not positive-definite (the leading minor of order {k} is not positive)")
        L = _out(L, A.dtype)
        return self.conj(L.mT).contiguous() if upper else L

    def qr(self, A: Tensor, mode: str = "reduced") -> tuple[Tensor, Tensor]:
        A = operand("qr", self, A, matrix=True)
        d = work_dtype("qr", A)
        if mode not in ("reduced", "complete", "r"):
            raise ValueError(f"qr: mode must be 'reduced', 'complete' or 'r', got {mode!r}")
        m, n = A.shape[-2:]
        k = min(m, n)
        kq = m if mode == "complete" else k
        R = _copy(self, A, A.shape, d)
        Q = storage.empty(self.device, A.shape[:-2] + ((m, kq) if mode != "r" else (0,)), d)
        if R.size or Q.size:
            _run("qr", QR, d, _numel(A.shape[:-2]), m, n, kq, 0, 0, R, Q if mode != "r" else None)
        if mode != "complete" and k < m:
            R = R[..., :k, :].contiguous()
        return _out(Q, A.dtype), _out(R, A.dtype)

    def eigh(self, A: Tensor, UPLO: str = "L", _vectors: bool = True) -> Any:
        op = "eigh" if _vectors else "eigvalsh"
        A, d, n = square(op, self, A)
        if UPLO not in ("L", "U"):
            raise ValueError(f"{op}: UPLO must be 'L' or 'U', got {UPLO!r}")
        a = _copy(self, A, A.shape, d)
        w = storage.empty(self.device, A.shape[:-1], _real(d))
        V = storage.empty(self.device, A.shape, d) if _vectors else None
        info = _info_buf(A.shape[:-2])
        if a.size:
            _run(op, EIGH, d, _numel(A.shape[:-2]), n, n, 0, int(UPLO == "U"), int(not _vectors), a, w, V, info=info)
        _info(op, A.shape[:-2], info, "the QL iteration did not converge")
        w = _out(w, _real(A.dtype))
        return (w, _out(V, A.dtype)) if _vectors else w

    def eigvalsh(self, A: Tensor, UPLO: str = "L") -> Tensor:
        """The kernel without the vectors (autograd goes through eigh)."""
        return self.eigh(A, UPLO, _vectors=False)

    def eig(self, A: Tensor, B: Tensor | None = None, homogeneous_eigvals: bool = False) -> tuple[Tensor, Tensor]:
        if B is not None:  # the generalized problem: numr/_cpu/ops/schur.py
            return self._geneig(A, B, True, homogeneous_eigvals)
        w, V = _eig(self, A, True)
        return (_homogeneous(self, w), V) if homogeneous_eigvals else (w, V)

    def eigvals(self, A: Tensor, B: Tensor | None = None, homogeneous_eigvals: bool = False) -> Tensor:
        if B is not None:
            return self._geneig(A, B, False, homogeneous_eigvals)
        w = _eig(self, A, False)
        return _homogeneous(self, w) if homogeneous_eigvals else w

    def svdvals(self, A: Tensor) -> Tensor:
        """The kernel without the vectors (autograd goes through svd)."""
        A = operand("svdvals", self, A, matrix=True)
        d = work_dtype("svdvals", A)
        m, n = A.shape[-2:]
        a = _copy(self, A, A.shape, d)
        S = storage.empty(self.device, A.shape[:-2] + (min(m, n),), _real(d))
        info = _info_buf(A.shape[:-2])
        if a.size:
            _run("svdvals", SVD, d, _numel(A.shape[:-2]), m, n, 0, 0, 1, a, S, info=info)
        _info("svdvals", A.shape[:-2], info, "the bidiagonal QR iteration did not converge")
        return _out(S, _real(A.dtype))

    def svd(self, A: Tensor, full_matrices: bool = True) -> tuple[Tensor, Tensor, Tensor]:
        A = operand("svd", self, A, matrix=True)
        d = work_dtype("svd", A)
        m, n = A.shape[-2:]
        k = min(m, n)
        ku, kv = (m, n) if full_matrices else (k, k)
        a = _copy(self, A, A.shape, d)
        bs = A.shape[:-2]
        S = storage.empty(self.device, bs + (k,), _real(d))
        U = storage.empty(self.device, bs + (m, ku), d)
        Vh = storage.empty(self.device, bs + (kv, n), d)
        info = _info_buf(bs)
        if a.size:
            _run("svd", SVD, d, _numel(bs), m, n, 0, int(bool(full_matrices)), 0, a, S, U, Vh, info=info)
        elif U.size or Vh.size:  # an empty matrix: identity vectors (what torch returns)
            U.copy_(self.eye(m, ku, 0, d)) if U.size else None
            Vh.copy_(self.eye(kv, n, 0, d)) if Vh.size else None
        _info("svd", bs, info, "the bidiagonal QR iteration did not converge")
        return _out(U, A.dtype), _out(S, _real(A.dtype)), _out(Vh, A.dtype)


def _eig(client: Any, A: Tensor, vectors: bool) -> Any:
    """eig/eigvals: the kernels (linalg_eig*.h real, linalg_ceig.h complex) write complex w (and V)."""
    op = "eig" if vectors else "eigvals"
    A, d, n = square(op, client, A)
    cd = d if d.kind == "c" else dt.complex128 if d is dt.float64 else dt.complex64
    a = _copy(client, A, A.shape, d)
    w = storage.empty(client.device, A.shape[:-1], cd)
    V = storage.empty(client.device, A.shape, cd) if vectors else None
    info = _info_buf(A.shape[:-2])
    if a.size:
        _run(op, EIG, d, _numel(A.shape[:-2]), n, n, 0, 0, 0, a, w, V, info=info)
    _info(op, A.shape[:-2], info, "the QR iteration did not converge")
    return (w, V) if vectors else w


def _homogeneous(client: Any, w: Tensor) -> Tensor:
    """scipy's homogeneous_eigvals without B: the (..., 2, n) rows (w, 1)."""
    return client.stack([w, client.full(tuple(w.shape), 1, w.dtype)], -2)


def _real(d: dt.DType) -> dt.DType:
    return {"complex64": dt.float32, "complex128": dt.float64}.get(d.name, d)


def _numel(shape: tuple[int, ...]) -> int:
    n = 1
    for s in shape:
        n *= s
    return n


def _info_buf(bshape: tuple[int, ...]) -> Any:
    import numpy as np
    return np.zeros(max(_numel(bshape), 1), np.int32)
