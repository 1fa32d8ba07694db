"""eig and eigvals for backends without linalg kernels, written once with numr's public ops on the
device, in complex arithmetic (so only where the backend holds complex: cuda; wgpu raises
UnsupportedDType). Householder reduction to Hessenberg form (zlarfg reflectors), then the shifted QR
iteration batched over the matrices: per step one Wilkinson shift a matrix (from the trailing 2x2 of
its lowest unreduced block; an exceptional shift every 10th step), n - 1 Givens rotations from the
left and their conjugates from the right. A negligible subdiagonal entry is set to exactly 0, and
rotations keep exact zeros, so converged blocks stay decoupled. One scalar a step is read back (how
many subdiagonal entries are left). Eigenvectors: back-substitution on the triangular Schur form
(columns rescaled each row, so repeated eigenvalues cannot overflow), times the Schur vectors,
unit columns with the largest component real (the CPU kernel's convention). A non-finite matrix
gets NaN outputs; no convergence in 30 n steps raises LinAlgError. A real matrix's eigenvalues with
a rounding-level imaginary part (8 n eps |T|) are made real, with real vectors. Unlike the CPU
kernel there is no balancing, and a real matrix's conjugate pairs are conjugate only to rounding."""

from __future__ import annotations

from typing import Any

from ... import dtypes as dt
from ...errors import LinAlgError, UnsupportedDType
from ..prepare_decomp import square
from .decomp_blocked import mH, raise_first, work
from .decomp_jacobi import _reflect_, pow2_scale, reflector

EXCEPTIONAL = 10  # every this many steps without a deflation, an exceptional shift
MAX_STEPS = 30  # per row


def hessenberg_(H: Any, Z: Any) -> None:
    """H <- P^H H P (upper Hessenberg), Z <- Z P, in place, P a product of n - 2 reflectors."""
    import numr as nr
    n = H.shape[-1]
    for j in range(n - 2):
        v, tau, _ = reflector(H[..., j + 1:, j:j + 1])
        _reflect_(H[..., j + 1:, j:], v, nr.conj(tau))  # P^H from the left
        for X in (H[..., :, j + 1:], Z[..., :, j + 1:]):  # P from the right: X - (X v) tau v^H
            X.copy_(X - (X @ v) * tau @ mH(v))


def _givens(a: Any, b: Any) -> Any:
    """G (..., 2, 2) unitary with G [a, b]^T = [r, 0]^T; the identity where b == 0 (keeps zeros)."""
    import numr as nr
    zero = b == 0
    r = nr.sqrt(nr.abs(a) ** 2 + nr.abs(b) ** 2)
    r = nr.where(zero, 1, r)
    g00 = nr.where(zero, 1, nr.conj(a) / r)
    g01 = nr.where(zero, 0, nr.conj(b) / r)
    g10 = nr.where(zero, 0, -b / r)
    g11 = nr.where(zero, 1, a / r)
    return nr.stack([nr.stack([g00, g01], -1), nr.stack([g10, g11], -1)], -2)


def _shift(H: Any, sub: Any, live: Any, exceptional: bool) -> Any:
    """Per matrix (..., 1, 1): the eigenvalue of the trailing 2x2 of the lowest unreduced block
    nearer its last diagonal entry (Wilkinson), or zlahqr's exceptional shift."""
    import numr as nr
    n = H.shape[-1]
    pos = nr.arange(n - 1, dtype=dt.int64, device=H.device)
    e = nr.amax(nr.where(live, pos, 0), dim=-1, keepdim=True)  # the block ends at row e + 1
    dg = nr.diagonal(H, 0, -2, -1)
    a, d = nr.gather(dg, -1, e), nr.gather(dg, -1, e + 1)
    c, b = nr.gather(sub, -1, e), nr.gather(nr.diagonal(H, 1, -2, -1), -1, e)
    if exceptional:
        mu = d + 0.75 * nr.abs(nr.real(c)) + 0.5j * nr.abs(c)
    else:
        p = (a - d) / 2
        bc = b * c
        disc = nr.sqrt(p * p + bc)
        den = nr.where(nr.abs(p + disc) >= nr.abs(p - disc), p + disc, p - disc)
        mu = d - nr.where(den == 0, 0, bc / nr.where(den == 0, 1, den))
    return mu.unsqueeze(-1)


def _deflate(H: Any, eps: float, small: float) -> tuple[Any, Any, Any]:
    """(H with negligible subdiagonal entries set to 0, the subdiagonal, which entries are live)."""
    import numr as nr
    dg = nr.abs(nr.diagonal(H, 0, -2, -1))
    sub = nr.diagonal(H, -1, -2, -1)
    neg = nr.abs(sub) <= nr.maximum(eps * (dg[..., :-1] + dg[..., 1:]), small)
    H = H * (1 - nr.diag_embed(nr.cast(neg, dt.real_of(H.dtype)), -1))
    sub = nr.where(neg, 0, sub)
    return H, sub, nr.logical_not(neg)


def schur_(op: str, H: Any, Z: Any) -> Any:
    """Hessenberg H (..., n, n) complex -> triangular T = Z'^H H Z' by the shifted QR iteration; Z <- Z Z'."""
    import numr as nr
    n, bs = H.shape[-1], tuple(H.shape[:-2])
    if n < 2:
        return H
    eps = float(dt.finfo(dt.real_of(H.dtype)).eps)
    small = float(dt.finfo(dt.real_of(H.dtype)).tiny) * n / eps
    eye = nr.eye(n, dtype=H.dtype, device=H.device)
    pos = nr.arange(n - 1, dtype=dt.int64, device=H.device)
    prev, quiet = None, 0
    for _ in range(MAX_STEPS * n):
        H, sub, live = _deflate(H, eps, small)
        last = nr.amax(nr.where(live, pos, -1))  # the lowest live entry over the batch
        left, last = (int(v) for v in nr.stack([nr.sum(nr.cast(live, dt.int64)), last]).tolist())  # one read
        if left == 0:
            return H
        quiet = quiet + 1 if left == prev else 0
        prev = left
        m = last + 2  # rows >= m have converged in every matrix: the step works on the leading m x m
        mu = _shift(H, sub, live, quiet > 0 and quiet % EXCEPTIONAL == 0)
        im = eye if m == n else eye * nr.cast(nr.arange(n, device=H.device) < m, dt.real_of(H.dtype))
        R = (H - mu * im).contiguous()
        gs = []
        for j in range(m - 1):
            G = _givens(R[..., j, j], R[..., j + 1, j])
            rows = R[..., j:j + 2, j:]
            rows.copy_(G @ rows)
            gs.append(mH(G))
        for j, Gh in enumerate(gs):
            for X in (R[..., :j + 2, j:j + 2], Z[..., :, j:j + 2]):
                X.copy_(X @ Gh)
        H = R + mu * im
    live = _deflate(H, eps, small)[2]
    raise_first(op, live, bs, f"the QR iteration did not converge in {MAX_STEPS * n} steps (subdiagonal {{i}})")
    raise LinAlgError(f"{op}: the QR iteration did not converge")  # unreachable: a live entry is left


def eigvectors(T: Any, Z: Any) -> Any:
    """Unit eigenvectors Z X of T = Z^H A Z, X upper triangular from (T - t_jj I) x_j = 0, x_jj = 1;
    a zero denominator (a repeated eigenvalue) is replaced by eps |T| (as LAPACK's ztrevc)."""
    import numr as nr
    n, bs = T.shape[-1], tuple(T.shape[:-2])
    rd = dt.real_of(T.dtype)
    eps = float(dt.finfo(rd).eps)
    dg = nr.diagonal(T, 0, -2, -1)
    smin = nr.maximum(eps * nr.amax(nr.abs(T), dim=(-2, -1)), float(dt.finfo(rd).tiny)).unsqueeze(-1)
    X = work(T.client, nr.eye(n, dtype=T.dtype, device=T.device), bs + (n, n), T.dtype)
    for i in range(n - 2, -1, -1):
        den = T[..., i, i:i + 1] - dg[..., i + 1:]
        den = nr.where(nr.abs(den) < smin, smin, den)
        X[..., i:i + 1, i + 1:].copy_(-(T[..., i:i + 1, i + 1:] @ X[..., i + 1:, i + 1:]) / den.unsqueeze(-2))
        big = nr.amax(nr.abs(X), dim=-2, keepdim=True)
        X.copy_(X / big)
    V = Z @ X
    big = nr.amax(nr.abs(V), dim=-2, keepdim=True)
    V = V / big  # the 2-norm of the rescaled columns cannot overflow
    V = V / nr.sqrt(nr.sum(nr.abs(V) ** 2, dim=-2, keepdim=True))
    k = nr.argmax(nr.abs(V), dim=-2, keepdim=True)
    top = nr.gather(V, -2, k)
    return V * (nr.conj(top) / nr.abs(top))  # the largest component real and positive


def _eig(client: Any, A: Any, vectors: bool) -> Any:
    import numr as nr
    op = "eig" if vectors else "eigvals"
    A, d, n = square(op, client, A)
    cd = dt.complex_of(d)
    try:
        client.empty((0,), cd)
    except UnsupportedDType:
        raise UnsupportedDType(client.device.runtime_name, op, A.dtype,
                               f"its results are complex and the backend has no {cd}") from None
    bs = tuple(A.shape[:-2])
    H = work(client, A, A.shape, cd)
    if n == 0:
        w = nr.zeros(bs + (0,), dtype=cd, device=A.device)
        return (w, H) if vectors else w
    finite = nr.all(nr.isfinite(H), dim=(-2, -1), keepdim=True)
    H, s = pow2_scale(nr.where(finite, H, 0), poison=False)
    H = H.contiguous()
    Z = work(client, nr.eye(n, dtype=cd, device=A.device), A.shape, cd)
    hessenberg_(H, Z)
    T = schur_(op, nr.triu(H, -1), Z)
    nan = float("nan")
    w = nr.diagonal(T, 0, -2, -1)
    real = None
    if d.kind == "f":  # a real matrix: rounding-level imaginary parts are 0 (real eigenvalues, real vectors)
        tol = 8 * n * float(dt.finfo(d).eps) * nr.amax(nr.abs(T), dim=(-2, -1), keepdim=True).squeeze(-1)
        real = nr.abs(nr.imag(w)) <= tol
        w = nr.where(real, nr.real(w), w)
    w = nr.where(finite.squeeze(-1), w * s.squeeze(-1), nan)
    if not vectors:
        return w
    V = eigvectors(T, Z)
    if real is not None:
        Vr = nr.real(V)  # its largest component is real and positive: the norm stays away from 0
        V = nr.where(real.unsqueeze(-2), Vr / nr.sqrt(nr.sum(Vr * Vr, dim=-2, keepdim=True)), V)
    return w, nr.where(finite, V, nan)


def _standard(self: Any, op: str, A: Any, B: Any, homogeneous: bool) -> None:
    """The GPUs solve the standard problem only (the QZ pencil is a CPU kernel)."""
    if B is not None or homogeneous:
        from ...errors import UnsupportedOperation
        raise UnsupportedOperation(self.device.runtime_name, op, getattr(A, "dtype", None),
                                   "the generalized problem (B, homogeneous_eigvals) runs on the CPU")


def eig(self: Any, A: Any, B: Any = None, homogeneous_eigvals: bool = False) -> tuple[Any, Any]:
    _standard(self, "eig", A, B, homogeneous_eigvals)
    return _eig(self, A, True)


def eigvals(self: Any, A: Any, B: Any = None, homogeneous_eigvals: bool = False) -> Any:
    _standard(self, "eigvals", A, B, homogeneous_eigvals)
    return _eig(self, A, False)


METHODS = {"eig": eig, "eigvals": eigvals}
