"""eigs: k eigenpairs of a general square operator by the implicitly restarted Arnoldi method
(Sorensen's IRAM with exact shifts, as ARPACK's dnaupd/znaupd), written with public numr ops.
The basis and the (m+1, m) Hessenberg matrix are complex (a real operator is applied to the real
and imaginary parts separately), so complex Ritz values need no double-shift bookkeeping. The
small eigenproblem uses nr.linalg.eig, which is CPU-only: on the GPUs eigs raises
UnsupportedOperation. One small vector of scalars is read to the host per Arnoldi step."""

from __future__ import annotations

from typing import Any

from ...dtypes import real_of
from ...errors import DTypeError, LinAlgError, ShapeError, UnsupportedOperation
from ...tensor import Tensor
from .iterative_operator import aslinearoperator, norm2, read, safe_div

_WHICH = ("LM", "SM", "LR", "SR", "LI", "SI")


def _key(theta: Tensor, which: str, real_op: bool) -> Tensor:
    """A real key, largest first for the wanted Ritz values (LI/SI of a real operator by |imag|,
    as ARPACK's dneupd: conjugate pairs stay together)."""
    import numr as nr
    im = nr.abs(nr.imag(theta)) if real_op else nr.imag(theta)
    return {"LM": nr.abs(theta), "SM": -nr.abs(theta), "LR": nr.real(theta), "SR": -nr.real(theta),
            "LI": im, "SI": -im}[which]


def _setup(A: Any, k: int, which: str, v0: Any, ncv: Any) -> tuple[Any, int, int, Any, Any, Any]:
    import numr as nr
    op = aslinearoperator(A)
    n = op.shape[0]
    if op.shape[0] != op.shape[1]:
        raise ShapeError(f"eigs: A must be square, got shape {op.shape}")
    if not 0 < k < n - 1:
        raise ShapeError(f"eigs: k={k} must satisfy 0 < k < n - 1 for A of shape {op.shape}")
    if which not in _WHICH:
        raise ValueError(f"eigs: which must be one of {_WHICH}, got {which!r}")
    m = min(n, max(2 * k + 1, 20)) if ncv is None else int(ncv)
    if not k + 1 < m <= n:
        raise ShapeError(f"eigs: ncv={m} must satisfy k + 1 < ncv <= n (k={k}, A of shape {op.shape})")
    if v0 is not None and tuple(v0.shape) != (n,):
        raise ShapeError(f"eigs: v0 of shape {v0.shape} does not match A of shape {op.shape}")
    dev = v0.device if v0 is not None else (op.device if op.device is not None else "cpu")
    dt = op.dtype or (v0.dtype if v0 is not None else nr.float64)
    if dt.kind not in "fc" or dt.itemsize < 4:
        raise DTypeError(f"eigs: A has dtype {dt}; eigs takes float32, float64, complex64 or complex128")
    cdt = dt if dt.is_complex else (nr.complex64 if dt == nr.float32 else nr.complex128)
    if nr.device(dev).type != "cpu":
        raise UnsupportedOperation(nr.device(dev).type, "eigs", dt, reason="the small Hessenberg eigenproblem "
                                   "(nr.linalg.eig) runs on the CPU only")
    return op, n, m, dev, dt, cdt


def eigs(A: Any, k: int = 6, M: Any = None, sigma: Any = None, which: str = "LM", v0: Tensor | None = None,
         ncv: int | None = None, maxiter: int | None = None, tol: float = 0,
         return_eigenvectors: bool = True, Minv: Any = None, OPinv: Any = None, OPpart: Any = None) -> Any:
    """k eigenvalues (complex, (k,)) and eigenvectors ((n, k), unit 2-norm) of a square operator:
    which "LM"/"SM" largest/smallest magnitude, "LR"/"SR" real part, "LI"/"SI" imaginary part
    (its magnitude for a real operator, as scipy);
    ordered by that key, wanted first. ncv basis vectors (default min(n, max(2k + 1, 20))),
    maxiter restarts (default 10 n); converged when every wanted Ritz residual is <= tol *
    max|theta| (tol 0: machine eps). LinAlgError when it does not converge. sigma (real or
    complex): shift-invert mode as scipy's, Arnoldi on OPinv = (A - sigma I)^-1 (by default
    from splu of a sparse or dense A, CPU only), ``which`` then refers to nu = 1/(lambda -
    sigma) ("LM": the eigenvalues nearest sigma) and lambda = sigma + 1/nu is returned. The
    generalised problem (M, Minv) and OPpart are not supported."""
    import numr as nr
    if M is not None or Minv is not None or OPpart is not None:
        raise UnsupportedOperation("numr.sparse.linalg", "eigs", reason="the generalised (M, Minv) mode and "
                                   "OPpart are not implemented")
    if sigma is not None:
        from ...sparse.shift_invert import shift_invert
        out = eigs(shift_invert("eigs", A, sigma, OPinv), k, None, None, which, v0, ncv, maxiter, tol,
                   return_eigenvectors)
        w = sigma + 1 / (out[0] if return_eigenvectors else out)
        return (w, out[1]) if return_eigenvectors else w
    op, n, m, dev, dt, cdt = _setup(A, int(k), which, v0, ncv)
    real_op = not dt.is_complex

    def apply(x: Tensor) -> Tensor:
        if real_op:
            return nr.complex(op.matvec(nr.real(x).contiguous()), op.matvec(nr.imag(x).contiguous()))
        return op.matvec(x)

    eps = float(nr.finfo(real_of(dt)).eps)
    tol = max(float(tol), eps)
    maxiter = 10 * n if maxiter is None else int(maxiter)
    V = nr.zeros((m + 1, n), dtype=cdt, device=dev)
    H = nr.zeros((m + 1, m), dtype=cdt, device=dev)
    eye = nr.eye(m, dtype=cdt, device=dev)
    rdt = real_of(dt)
    v = nr.randn((n,), dtype=rdt, device=dev, seed=0) if v0 is None else v0
    v = nr.cast(v, cdt)
    (vn,) = read(nr.sqrt(norm2(v)))
    if vn == 0:
        raise ShapeError("eigs: v0 is the zero vector")
    V[0] = v / vn
    keep, anorm, seed, worst = 0, 0.0, 1, float("inf")
    for _ in range(max(maxiter, 1)):
        for j in range(keep, m):
            w = apply(V[j])
            Vj = V[:j + 1]
            h = nr.conj(Vj) @ w
            w = w - Vj.T @ h
            h2 = nr.conj(Vj) @ w
            w, h = w - Vj.T @ h2, h + h2
            beta = nr.sqrt(norm2(w))
            bv, hn = read(beta, nr.sqrt(norm2(h)))
            anorm = max(anorm, hn, bv)
            H[:j + 1, j] = h
            if bv <= n * eps * anorm:  # invariant subspace: go on with a fresh orthogonal direction
                w = nr.cast(nr.randn((n,), dtype=rdt, device=dev, seed=seed), cdt)
                seed += 1
                for _ in range(2):
                    w = w - Vj.T @ (nr.conj(Vj) @ w)
                V[j + 1] = w / nr.sqrt(norm2(w))
            else:
                H[j + 1, j] = beta
                V[j + 1] = w / beta
        Hm = H[:m]
        theta, Y = nr.linalg.eig(Hm)
        order = nr.argsort(_key(theta, which, real_op), descending=True, stable=True)
        want = order[:k]
        res = nr.abs(H[m, m - 1] * nr.index_select(Y[m - 1], 0, want))
        scale = nr.maximum(nr.amax(nr.abs(theta)), float(nr.finfo(real_of(dt)).tiny))
        (worst,) = read(nr.amax(res) / scale)
        if worst <= tol:
            break
        # implicit restart: the unwanted Ritz values as exact shifts, Hm <- Q^H Hm Q, V <- V Q
        keep = min(m - 2, k + (m - k) // 2)
        Q = eye
        for i in range(keep, m):
            mu = theta[order[i]]
            Qi, R = nr.linalg.qr(Hm - mu * eye)
            Hm = R @ Qi + mu * eye
            Q = Q @ Qi
        f = (Q[:, keep] @ V[:m]) * Hm[keep, keep - 1] + V[m] * (H[m, m - 1] * Q[m - 1, keep - 1])
        V[:keep] = Q[:, :keep].T @ V[:m]
        fn = nr.sqrt(norm2(f))
        V[keep] = safe_div(f, fn)
        H = nr.zeros((m + 1, m), dtype=cdt, device=dev)
        H[:keep, :keep] = nr.triu(Hm[:keep, :keep], -1)
        H[keep, keep - 1] = fn
    else:
        raise LinAlgError(f"eigs: {k} eigenpairs ({which}) of the operator of shape {op.shape} did not "
                          f"converge in {maxiter} restarts (worst relative residual {worst:.3g}, tol {tol:.3g})")
    w = nr.index_select(theta, 0, want)
    if not return_eigenvectors:
        return w
    X = (nr.index_select(Y, 1, want).T @ V[:m]).T.contiguous()
    return w, X


__all__ = ["eigs"]
