"""eigsh: a few eigenpairs of a symmetric operator by thick-restart Lanczos (Wu and Simon) with
full reorthogonalisation, written once with public numr ops. The basis V (rows) and the
projected matrix H = V^T A V live on the device; each Lanczos step reads one pair of scalars
(the new beta and ||h||, to detect an invariant subspace) and each restart one scalar (the worst
relative Ritz residual). The small symmetric eigenproblem of H runs nr.eigh where the backend has
it and otherwise a device-side cyclic Jacobi method with the parallel (round-robin) ordering:
each round rotates m/2 disjoint pairs at once as two m x m products."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ...errors import LinAlgError, ShapeError, UnsupportedOperation
from ...tensor import Tensor
from .iterative_operator import LinearOperator, aslinearoperator, read, safe_div


@lru_cache(maxsize=32)
def _rounds(mp: int) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """For each round of the round-robin ordering of mp (even) indices: the flat positions of
    (a_pp, a_qq, a_pq) to gather and of (J_pp, J_qq, J_pq, J_qp) to set."""
    players = list(range(mp))
    out = []
    for _ in range(mp - 1):
        pairs = [tuple(sorted((players[i], players[mp - 1 - i]))) for i in range(mp // 2)]
        ps, qs = [p for p, _ in pairs], [q for _, q in pairs]
        g = [p * mp + p for p in ps] + [q * mp + q for q in qs] + [p * mp + q for p, q in zip(ps, qs, strict=True)]
        put = g + [q * mp + p for p, q in zip(ps, qs, strict=True)]
        out.append((tuple(g), tuple(put)))
        players = [players[0], players[-1]] + players[1:-1]
    return tuple(out)


def jacobi_eigh(H: Tensor, max_sweeps: int = 30) -> tuple[Tensor, Tensor]:
    """(w ascending, V) of the symmetric matrix H by parallel cyclic Jacobi on H's device; one
    scalar pair read per sweep: stop when the off-diagonal mass is below (m eps)^2 ||H||_F^2 (the
    floor the rounding of the rotation products leaves) or a sweep no longer reduces it."""
    import numr as nr
    m = H.shape[0]
    dt, dev = H.dtype, H.device
    A = (H + H.T) * 0.5
    if m == 1:
        return A.reshape((1,)), nr.ones((1, 1), dtype=dt, device=dev)
    mp = m + (m & 1)
    if mp != m:  # a decoupled zero row and column: every rotation with it is the identity
        A = nr.pad(A, (0, 1, 0, 1))
    V = nr.eye(mp, dtype=dt, device=dev)
    rounds = [(nr.tensor(list(g), dtype=nr.int64, device=dev), nr.tensor(list(p), dtype=nr.int64, device=dev))
              for g, p in _rounds(mp)]
    h = mp // 2
    floor = (mp * float(nr.finfo(dt).eps)) ** 2  # each product rounds every entry by ~eps |A|
    offdiag = nr.eye(mp, dtype=dt, device=dev) == 0
    prev = float("inf")
    for _ in range(max_sweeps):
        sq = A * A
        fro, off = read(nr.sum(sq), nr.sum(nr.where(offdiag, sq, 0)))
        if not (off > floor * fro and off < prev):  # converged, at the rounding floor, or NaN
            break
        prev = off
        for gidx, pidx in rounds:
            g = nr.index_select(A.reshape((mp * mp,)), 0, gidx)
            app, aqq, apq = g[:h], g[h:2 * h], g[2 * h:]
            zero = apq == 0
            theta = (aqq - app) / nr.where(zero, 1, apq * 2)
            t = nr.where(theta >= 0, 1, -1) / (nr.abs(theta) + nr.sqrt(theta * theta + 1))
            t = nr.where(zero, 0, t)
            c = nr.rsqrt(t * t + 1)
            s = t * c
            J = nr.zeros((mp * mp,), dtype=dt, device=dev)
            nr.index_put_(J, 0, pidx, nr.cat([c, c, s, -s]))
            J = J.reshape((mp, mp))
            A = J.T @ (A @ J)
            V = V @ J
    w = nr.diagonal(A, 0, 0, 1)
    if mp != m:
        w, V = w[:m], V[:m, :m]
    order = nr.argsort(w, stable=True)
    return nr.index_select(w, 0, order), nr.index_select(V, 1, order)


def sym_eig(H: Tensor) -> tuple[Tensor, Tensor]:
    """nr.eigh where the backend has it, else jacobi_eigh (both ascending)."""
    import numr as nr
    try:
        return nr.eigh(H)
    except UnsupportedOperation:
        return jacobi_eigh(H)


_WHICH = ("LA", "SA", "LM", "SM")


def _orthonormal(V: Tensor, w: Tensor) -> Tensor:
    """w orthogonalised twice against V's rows (classical Gram-Schmidt, twice is enough)."""
    for _ in range(2):
        w = w - V.T @ (V @ w)
    return w


def eigsh(A: Any, k: int = 6, M: Any = None, sigma: float | None = None, which: str = "LM",
          v0: Tensor | None = None, ncv: int | None = None, maxiter: int | None = None,
          tol: float = 0, return_eigenvectors: bool = True, Minv: Any = None, OPinv: Any = None,
          mode: str = "normal") -> Any:
    """k eigenvalues (ascending) and eigenvectors (n, k) of the symmetric operator A: "LA" the
    largest, "SA" the smallest, "LM"/"SM" the largest/smallest in magnitude. ncv basis vectors
    (default min(n, max(2k + 1, 20))), maxiter restarts (default 10 n), converged when every
    wanted Ritz residual is <= tol * max|theta| (tol 0: machine eps). Raises LinAlgError when
    maxiter restarts do not converge. sigma (real): shift-invert mode "normal" as scipy's,
    Lanczos on OPinv = (A - sigma I)^-1 (by default from splu of a sparse or dense A, CPU
    only; GPUs raise UnsupportedOperation), ``which`` then refers to nu = 1/(lambda - sigma)
    ("LM": the eigenvalues nearest sigma), and lambda = sigma + 1/nu is returned, ascending.
    The generalised problem (M, Minv) and the buckling and cayley modes are not supported."""
    import numr as nr
    if M is not None or Minv is not None or mode != "normal":
        raise UnsupportedOperation("numr.sparse.linalg", "eigsh", reason="the generalised (M, Minv) problem "
                                   f"and mode {mode!r} are not implemented (mode 'normal' is)")
    if sigma is not None:
        return _eigsh_sigma(A, int(k), float(sigma), which, v0, ncv, maxiter, tol, return_eigenvectors, OPinv)
    op = aslinearoperator(A)
    n = op.shape[0]
    if op.shape[0] != op.shape[1]:
        raise ShapeError(f"eigsh: A must be square, got shape {op.shape}")
    k = int(k)
    if not 0 < k < n:
        raise ShapeError(f"eigsh: k={k} must satisfy 0 < k < n for A of shape {op.shape}")
    if which not in _WHICH:
        raise ValueError(f"eigsh: which must be one of {_WHICH}, got {which!r}")
    m = min(n, max(2 * k + 1, 20)) if ncv is None else int(ncv)
    if not k < m <= n:
        raise ShapeError(f"eigsh: ncv={m} must satisfy k < ncv <= n (k={k}, A of shape {op.shape})")
    if v0 is not None:
        if tuple(v0.shape) != (n,):
            raise ShapeError(f"eigsh: v0 of shape {v0.shape} does not match A of shape {op.shape}")
        dev = v0.device
    else:
        dev = op.device if op.device is not None else "cpu"
    dt = op.dtype or (v0.dtype if v0 is not None else nr.float64)
    if dt.kind != "f" or dt.itemsize < 4:
        raise nr.DTypeError(f"eigsh: A has dtype {dt}; eigsh takes real symmetric float32 or float64 "
                            f"operators (complex Hermitian ones are not supported)")
    eps = float(nr.finfo(dt).eps)
    tol = max(float(tol), eps)
    maxiter = 10 * n if maxiter is None else int(maxiter)

    V = nr.zeros((m + 1, n), dtype=dt, device=dev)
    H = nr.zeros((m, m), dtype=dt, device=dev)
    v = nr.randn((n,), dtype=dt, device=dev, seed=0) if v0 is None else v0.astype(dt)
    (vn,) = read(nr.sqrt(v @ v))
    if vn == 0:
        raise ShapeError("eigsh: v0 is the zero vector")
    V[0] = v / vn
    keep, anorm, seed = 0, 0.0, 1
    for _ in range(max(maxiter, 1)):
        beta = None
        for j in range(keep, m):
            w = op.matvec(V[j])
            if not isinstance(w, Tensor) or tuple(w.shape) != (n,):
                raise ShapeError(f"eigsh: A's matvec returned {type(w).__name__} of shape "
                                 f"{tuple(getattr(w, 'shape', ()))}, expected a Tensor of shape ({n},)")
            Vj = V[:j + 1]
            h = Vj @ w
            w = w - Vj.T @ h
            h2 = Vj @ w
            w = w - Vj.T @ h2
            h = h + h2
            H[:j + 1, j] = h
            beta = nr.sqrt(w @ w)
            bv, hn = read(beta, nr.sqrt(h @ h))
            anorm = max(anorm, hn, bv)
            if bv <= n * eps * anorm:  # an invariant subspace: go on with a fresh direction
                beta = beta * 0
                w = _orthonormal(Vj, nr.randn((n,), dtype=dt, device=dev, seed=seed))
                seed += 1
                w = _orthonormal(Vj, w)
                V[j + 1] = w * safe_div(beta + 1, nr.sqrt(w @ w))
            else:
                V[j + 1] = w / beta
        theta, Y = sym_eig(nr.triu(H) + nr.triu(H, 1).T)
        key = {"LA": theta, "SA": -theta, "LM": nr.abs(theta), "SM": -nr.abs(theta)}[which]
        order = nr.argsort(key, descending=True, stable=True)
        want = order[:k]
        res = nr.abs(beta * nr.index_select(Y[m - 1], 0, want))
        scale = nr.maximum(nr.amax(nr.abs(theta)), float(nr.finfo(dt).tiny))
        (worst,) = read(nr.amax(res) / scale)
        if worst <= tol:
            break
        keep = min(m - 1, k + (m - k) // 2)
        kept = order[:keep]
        V[:keep] = nr.index_select(Y, 1, kept).T @ V[:m]
        V[keep] = V[m]
        H = nr.diag_embed(nr.index_select(theta, 0, kept))
        H = nr.pad(H, (0, m - keep, 0, m - keep))
    else:
        raise LinAlgError(f"eigsh: {k} eigenpairs ({which}) of the operator of shape {op.shape} did not "
                          f"converge in {maxiter} restarts (worst relative residual {worst:.3g}, tol {tol:.3g})")
    sub = nr.argsort(nr.index_select(theta, 0, want), stable=True)
    want = nr.index_select(want, 0, sub)
    w = nr.index_select(theta, 0, want)
    if not return_eigenvectors:
        return w
    X = (nr.index_select(Y, 1, want).T @ V[:m]).T.contiguous()
    return w, X


def _eigsh_sigma(A: Any, k: int, sigma: float, which: str, v0: Any, ncv: Any, maxiter: Any, tol: float,
                 vectors: bool, OPinv: Any) -> Any:
    """eigsh in shift-invert mode: the eigenpairs of OPinv mapped back, ascending in lambda."""
    import numr as nr

    from ...sparse.shift_invert import shift_invert
    out = eigsh(shift_invert("eigsh", A, sigma, OPinv), k, None, None, which, v0, ncv, maxiter, tol, vectors)
    w = sigma + 1 / (out[0] if vectors else out)
    order = nr.argsort(w, stable=True)
    w = nr.index_select(w, 0, order)
    return (w, nr.index_select(out[1], 1, order)) if vectors else w


def svds(A: Any, k: int = 6, ncv: int | None = None, tol: float = 0, which: str = "LM",
         v0: Tensor | None = None, maxiter: int | None = None,
         return_singular_vectors: bool = True) -> Any:
    """k singular triplets (u (m, k), s ascending, vh (k, n)) of A by eigsh of the normal operator
    A^T A (or A A^T when m < n), as scipy's svds with its ARPACK solver: "LM" the largest, "SM"
    the smallest singular values (relative accuracy ~ eps ||A||^2 / s^2 for small ones). Needs
    A^T x: a Tensor, an operator with rmatvec, or a matrix with .T."""
    import numr as nr
    op = aslinearoperator(A)
    m, n = op.shape
    if not 0 < int(k) < min(m, n):
        raise ShapeError(f"svds: k={k} must satisfy 0 < k < min(m, n) for A of shape {op.shape}")
    if which not in ("LM", "SM"):
        raise ValueError(f"svds: which must be 'LM' or 'SM', got {which!r}")
    tall = n <= m
    fwd, bwd = (op.matvec, op.rmatvec) if tall else (op.rmatvec, op.matvec)
    normal = LinearOperator((min(m, n),) * 2, lambda x: bwd(fwd(x)), dtype=op.dtype, device=op.device)
    w, V = eigsh(normal, k=int(k), which="LA" if which == "LM" else "SA", v0=v0, ncv=ncv, maxiter=maxiter,
                 tol=tol)
    s = nr.sqrt(nr.maximum(w, 0))
    if not return_singular_vectors:
        return s
    W = nr.stack([fwd(V[:, i]) for i in range(int(k))], 1) * safe_div(nr.ones_like(s), s)
    u, vh = (W, V.T.contiguous()) if tall else (V, W.T.contiguous())
    return u, s, vh
