"""torch.linalg's error-reporting and factor-form extras of the decomposition family, written
once with numr's public functions (so they run where the decompositions run and autograd
differentiates them through their parts). ldl_factor/ldl_solve are in decomp_ldl.py.

- cholesky_ex / inv_ex / solve_ex / lu_factor_ex return an int32 ``info`` per batch element
  instead of raising (check_errors=True raises LinAlgError as the plain op). The fast path is the
  plain op; only when it fails are the failing elements found (LU's first exact zero pivot, or
  the first non-positive pivot of an unpivoted LDL^T for Cholesky) and replaced by the identity,
  their results set to NaN (torch leaves them unspecified).
- householder_product: Q = H_1 ... H_k from LAPACK's (geqrf) reflectors (torch's orgqr)."""

from __future__ import annotations

from typing import Any

from ...errors import LinAlgError, ShapeError, UnsupportedOperation
from ..prepare import plain
from .decomp import _back, _low, _mH, _square


def _info_from_lu(LU: Any) -> Any:
    """int32 (...,): 1 + the index of U's first exactly-zero diagonal element, 0 where none."""
    import numr as nr
    z = nr.diagonal(LU, 0, -2, -1) == 0
    first = nr.cast(nr.argmax(nr.cast(z, nr.int8), -1), nr.int32) + 1
    return nr.where(nr.any(z, -1), first, nr.zeros((), dtype=nr.int32, device=LU.device))


def _raise_info(op: str, info: Any, what: str) -> None:
    import numr as nr
    if info.size and bool(nr.any(info > 0).item()):
        flat = info.reshape(-1)
        b = int(nr.argmax(nr.cast(flat > 0, nr.int8)).item())
        raise LinAlgError(f"{op}: {what} (info {int(flat[b].item())} at batch element {b}; check_errors=True)")


def lu_factor_ex_any(A: Any, pivot: bool = True, check_errors: bool = False) -> tuple[Any, Any, Any]:
    """(LU, pivots, info) of torch.linalg.lu_factor_ex: info[b] = i > 0 when U[i-1, i-1] is
    exactly zero (the factorization completes; solving with it would divide by zero)."""
    import numr as nr
    if not pivot:
        raise UnsupportedOperation(A.device.runtime_name, "lu_factor_ex", A.dtype, reason="pivot=False")
    LU, piv = nr.lu_factor(A)
    info = _info_from_lu(plain(LU))
    if check_errors:
        _raise_info("lu_factor_ex", info, "U has an exact zero on its diagonal")
    return LU, piv, info


def _masked(op: str, A: Any, info: Any, run: Any) -> Any:
    """run(A') with A' = A where info == 0 and the identity elsewhere, NaN in the failed elements."""
    import numr as nr
    n = A.shape[-1]
    bad = (info > 0).reshape(tuple(info.shape) + (1, 1))
    eye = nr.eye(n, dtype=A.dtype, device=A.device)
    X = run(nr.where(bad, eye, A))
    return nr.where(bad.reshape(tuple(info.shape) + (1,) * (X.ndim - info.ndim)), float("nan"), X)


def _ex(op: str, A: Any, run: Any, info_of: Any, what: str, check_errors: bool) -> tuple[Any, Any]:
    import numr as nr
    _square(op, A)
    try:
        return run(A), nr.zeros(tuple(A.shape[:-2]), dtype=nr.int32, device=A.device)
    except LinAlgError:
        if check_errors:
            raise
    info = info_of(plain(A))
    return _masked(op, A, info, run), info


def inv_ex_any(A: Any, check_errors: bool = False) -> tuple[Any, Any]:
    """(inverse, info) of torch.linalg.inv_ex: info as lu_factor_ex's; failed elements NaN."""
    import numr as nr
    return _ex("inv_ex", A, nr.inv, lambda a: _info_from_lu(nr.lu_factor(a)[0]), "singular", check_errors)


def solve_ex_any(A: Any, B: Any, left: bool = True, check_errors: bool = False) -> tuple[Any, Any]:
    """(X, info) of torch.linalg.solve_ex: info as lu_factor_ex's; failed elements NaN."""
    import numr as nr
    return _ex("solve_ex", A, lambda a: nr.solve(a, B, left), lambda a: _info_from_lu(nr.lu_factor(a)[0]),
               "singular", check_errors)


def cholesky_ex_any(A: Any, upper: bool = False, check_errors: bool = False) -> tuple[Any, Any]:
    """(L, info) of torch.linalg.cholesky_ex: info[b] = i > 0 when the leading minor of order i is
    not positive-definite; failed elements NaN."""
    import numr as nr

    def info_of(a: Any) -> Any:
        d = _ldl_columns(a, a.dtype.is_complex)[1]
        bad = nr.logical_not(nr.real(d) > 0) if d.dtype.is_complex else nr.logical_not(d > 0)  # NaN too
        first = nr.cast(nr.argmax(nr.cast(bad, nr.int8), -1), nr.int32) + 1
        return nr.where(nr.any(bad, -1), first, nr.zeros((), dtype=nr.int32, device=a.device))
    return _ex("cholesky_ex", A, lambda a: nr.cholesky(a, upper), info_of, "not positive-definite", check_errors)


def _ldl_columns(A: Any, hermitian: bool) -> tuple[Any, Any]:
    """(unit lower L, D as (..., n)) of A = L D L^T (L^H when hermitian) from A's lower triangle,
    without pivoting (cholesky_ex's info: the first non-positive pivot is the first leading
    minor that is not positive-definite): column j is A[:, j] - L[:, :j] diag(d) L[j, :j]^T,
    scaled by its pivot."""
    import numr as nr
    n = A.shape[-1]
    rows = nr.arange(n, dtype=nr.int64, device=A.device)
    cols: list[Any] = []
    ds: list[Any] = []
    for j in range(n):
        v = A[..., :, j]
        if j:
            L = nr.stack(cols, -1)  # (..., n, j)
            lj = L[..., j, :]
            lj = nr.conj(lj) if hermitian and lj.dtype.is_complex else lj
            v = v - (L @ (nr.stack(ds, -1) * lj).reshape(tuple(lj.shape) + (1,))).reshape(tuple(v.shape))
        dj = v[..., j]
        col = nr.where(rows > j, v / dj.reshape(tuple(dj.shape) + (1,)), nr.where(rows == j, 1.0, 0.0))
        cols.append(nr.cast(col, A.dtype) if col.dtype is not A.dtype else col)
        ds.append(dj)
    if not n:
        return nr.zeros(tuple(A.shape), dtype=A.dtype, device=A.device), nr.zeros(tuple(A.shape[:-1]), dtype=A.dtype,
                                                                                  device=A.device)
    return nr.stack(cols, -1), nr.stack(ds, -1)


def householder_product_any(A: Any, tau: Any) -> Any:
    """The first n columns of H_1 ... H_k, H_i = I - tau_i v_i v_i^H, v_i = A[:, i] below the
    diagonal with a 1 on it (torch.linalg.householder_product, LAPACK's orgqr); A (..., m, n)
    with m >= n >= k = tau.shape[-1]."""
    import numr as nr
    if A.ndim < 2 or tau.ndim < 1 or not A.shape[-2] >= A.shape[-1] >= tau.shape[-1]:
        raise ShapeError(f"householder_product: needs A (..., m, n) and tau (..., k) with m >= n >= k, got "
                         f"{tuple(A.shape)} and {tuple(tau.shape)}")
    if tuple(tau.shape[:-1]) != tuple(A.shape[:-2]):
        raise ShapeError(f"householder_product: tau's batch dims {tuple(tau.shape[:-1])} differ from A's "
                         f"{tuple(A.shape[:-2])}")
    A2, back = _low(A)
    tau = nr.cast(tau, A2.dtype) if tau.dtype is not A2.dtype else tau
    m, n = A.shape[-2], A.shape[-1]
    rows = nr.arange(m, dtype=nr.int64, device=A.device).reshape(m, 1)
    Q = nr.eye(m, n, dtype=A2.dtype, device=A.device).expand(tuple(A.shape))
    for i in range(tau.shape[-1] - 1, -1, -1):
        v = nr.where(rows > i, A2[..., :, i:i + 1], nr.where(rows == i, 1.0, 0.0))
        v = nr.cast(v, A2.dtype) if v.dtype is not A2.dtype else v
        Q = Q - (tau[..., i:i + 1].reshape(tuple(tau.shape[:-1]) + (1, 1)) * v) @ (_mH(v) @ Q)
    return _back(Q, back)


#: op name -> composite (client methods through client_methods; autograd registers the same)
COMPOSITES = {"cholesky_ex": cholesky_ex_any, "inv_ex": inv_ex_any, "solve_ex": solve_ex_any,
              "lu_factor_ex": lu_factor_ex_any, "householder_product": householder_product_any}
