"""qr, eigh and svd for backends without linalg kernels (wgpu, cuda), written once with numr's
public ops on the device. qr: Householder reflections (per column a norm, one reflector applied
by two matrix products), Q accumulated backwards. eigh: cyclic Jacobi with the parallel
round-robin ordering: the n/2 disjoint rotations of a step and the move to the next pairing are
one orthogonal matrix M (two nonzeros a row), applied as M A M^T by matmul. svd: one-sided
(Hestenes) Jacobi with the same ordering on the columns, U completed by a QR where needed.
Every input is first scaled by a power of two (squares neither overflow nor underflow); a sweep
reads one scalar (the largest relative off-diagonal mass) to decide convergence (4 sqrt(n) eps, or
stagnation near it). Complex (cuda): Householder with LAPACK's zlarfg reflectors (real R diagonal),
and each Jacobi rotation preceded by the phase making its pivot real (Hermitian eigh, complex svd)."""

from __future__ import annotations

from typing import Any

from ... import dtypes as dt
from ...errors import LinAlgError
from ..prepare_decomp import operand, square
from .decomp_blocked import back, check_dtype, mH, work

MAX_SWEEPS = 40
SPARSE_FROM = 96  # from this N, rotations by row gathers (O(n^2) a step) instead of a matmul


def pow2_scale(A: Any, poison: bool = True) -> tuple[Any, Any]:
    """(A / s, s) with s a power of two near max |A| per matrix (1 for a zero matrix, NaN for a
    non-finite one with ``poison``), shaped (..., 1, 1)."""
    import numr as nr
    if A.shape[-1] == 0 or A.shape[-2] == 0:
        return A, nr.ones(tuple(A.shape[:-2]) + (1, 1), dtype=A.dtype, device=A.device)
    big = nr.amax(nr.abs(A), dim=(-2, -1), keepdim=True)
    ok = nr.logical_and(big > 0, nr.isfinite(big))
    s = nr.exp2(nr.floor(nr.log2(nr.where(ok, big, 1))))
    if poison:  # eigh/svd of NaN/inf input: every output NaN (as the CPU for NaN)
        s = nr.where(nr.isfinite(big), s, float("nan"))
    return A / s, s


def _reflect_(X: Any, v: Any, beta: Any) -> None:
    """X <- (I - beta v v^H) X in place."""
    X.copy_(X - v @ ((mH(v) @ X) * beta))


def sq(x: Any) -> Any:
    """|x|^2 elementwise, real."""
    import numr as nr
    return nr.real(x * nr.conj(x)) if x.dtype.kind == "c" else x * x


def reflector(x: Any) -> tuple[Any, Any, Any]:
    """LAPACK's [dz]larfg for columns x (..., m, 1): (v with v[0] = 1, tau, alpha real) with
    (I - tau v v^H)^H x = alpha e1; alpha = -sign(Re x0) |x|, so x0 - alpha has no cancellation."""
    import numr as nr
    big = nr.amax(nr.abs(x), dim=-2, keepdim=True)  # squares of tiny columns would underflow
    nrm = nr.sqrt(nr.sum(sq(x / nr.where(big == 0, 1, big)), dim=-2, keepdim=True)) * big
    x0 = x[..., :1, :]
    alpha = nr.where((nr.real(x0) if x.dtype.kind == "c" else x0) >= 0, -nrm, nrm)
    zero = nrm == 0
    v = nr.cat([nr.ones_like(x0), x[..., 1:, :] / nr.where(zero, 1, x0 - alpha)], -2)
    tau = nr.where(zero, 0, (alpha - x0) / nr.where(zero, 1, alpha))
    return v, tau, alpha


def qr_core(A: Any, mode: str) -> tuple[Any, Any]:
    """Householder QR of a contiguous float A (..., m, n); Q (..., m, m or k) unless mode 'r'."""
    import numr as nr
    m, n = A.shape[-2:]
    k = min(m, n)
    cx = A.dtype.kind == "c"
    R, s = pow2_scale(A, poison=False)
    R = R.contiguous()
    refl = []
    for j in range(k if cx else min(k, m - 1)):  # complex: the last reflector makes R[k-1, k-1] real
        v, tau, _ = reflector(R[..., j:, j:j + 1])
        _reflect_(R[..., j:, j:], v, nr.conj(tau) if cx else tau)  # H^H R
        refl.append((j, v, tau))
    R = nr.triu(R) * s
    if mode == "r":
        return nr.zeros(tuple(A.shape[:-2]) + (0,), dtype=A.dtype, device=A.device), R[..., :k, :]
    kq = m if mode == "complete" else k
    Q = work(A.client, nr.eye(m, kq, dtype=A.dtype, device=A.device), tuple(A.shape[:-2]) + (m, kq), A.dtype)
    for j, v, beta in reversed(refl):
        _reflect_(Q[..., j:, j:], v, beta)
    return Q, (R if mode == "complete" else R[..., :k, :])


def qr(self: Any, A: Any, mode: str = "reduced") -> tuple[Any, Any]:
    A = operand("qr", self, A, matrix=True)
    d = check_dtype("qr", self, A)
    if mode not in ("reduced", "complete", "r"):
        raise ValueError(f"qr: mode must be 'reduced', 'complete' or 'r', got {mode!r}")
    Q, R = qr_core(work(self, A, A.shape, d), mode)
    return back(Q, A.dtype), back(R.contiguous(), A.dtype)


class _RoundRobin:
    """The parallel ordering on N (even) slots: pairs (2i, 2i+1); after a step, slot r takes the
    content of slot sigma[r] (slot 0 fixed, the others rotate), so N - 1 steps pair every two once."""

    def __init__(self, N: int, device: Any, d: dt.DType):
        import numr as nr
        h = N // 2
        sig = [0] * N
        for i in range(h):
            sig[2 * i] = 0 if i == 0 else (1 if i == 1 else 2 * (i - 1))
            sig[2 * i + 1] = 2 * (i + 1) + 1 if i < h - 1 else 2 * (h - 1)
        if N == 2:
            sig = [0, 1]
        self.N, self.sig = N, sig
        self.dense = N < SPARSE_FROM
        if self.dense:  # M[r, c] = (Pσ J^T)[r, c]: row σ[r] of J^T, J = blockdiag([[c_i, s_i], [-s_i, c_i]])
            kc = [[1.0 if c // 2 == sig[r] // 2 and c % 2 == sig[r] % 2 else 0.0 for c in range(N)] for r in range(N)]
            ks = [[(-1.0 if sig[r] % 2 == 0 else 1.0) if c // 2 == sig[r] // 2 and c % 2 != sig[r] % 2 else 0.0
                   for c in range(N)] for r in range(N)]
            self.kc = nr.tensor(kc, dtype=dt.real_of(d), device=device)
            self.ks = nr.tensor(ks, dtype=dt.real_of(d), device=device)
        else:  # row r of M X = M[r, 2i] X[2i] + M[r, 2i+1] X[2i+1], i = σ[r] // 2
            self.pair = nr.tensor([v // 2 for v in sig], dtype=dt.int64, device=device)
            self.first = nr.tensor([v // 2 * 2 for v in sig], dtype=dt.int64, device=device)
            self.second = nr.tensor([v // 2 * 2 + 1 for v in sig], dtype=dt.int64, device=device)
            self.even = nr.tensor([v % 2 == 0 for v in sig], dtype=dt.bool_, device=device)

    def rotation(self, app: Any, aqq: Any, apq: Any) -> Any:
        """X -> M X for the rotations annihilating the pairs' apq (sym.schur2 of Golub and Van Loan)
        followed by the move to the next pairing: one matmul (small N) or two row gathers. A complex
        apq = |apq| e first gets the phase (slot q's column times e) that makes it real."""
        import numr as nr
        ph = None
        if apq.dtype.kind == "c":
            r0 = nr.abs(apq)
            ph = nr.where(r0 == 0, 1, apq / nr.where(r0 == 0, 1, r0))
            apq = r0
        zero = apq == 0
        tau = (aqq - app) / (2 * nr.where(zero, 1, apq))
        r = nr.sqrt(1 + tau * tau)
        t = nr.where(zero, 0, 1 / nr.where(tau >= 0, tau + r, tau - r))
        c = nr.rsqrt(1 + t * t)
        s = t * c
        if self.dense:
            cf = nr.stack([c, c], -1).flatten(-2).unsqueeze(-2)
            sf = nr.stack([s, s], -1).flatten(-2).unsqueeze(-2)
            M = self.kc * cf + self.ks * sf
            if ph is not None:
                M = M * nr.stack([nr.ones_like(ph), ph], -1).flatten(-2).unsqueeze(-2)
            return lambda X: M @ X
        cr, sr = nr.index_select(c, -1, self.pair), nr.index_select(s, -1, self.pair)
        k1 = nr.where(self.even, cr, sr).unsqueeze(-1)
        k2 = nr.where(self.even, -sr, cr).unsqueeze(-1)
        if ph is not None:
            k2 = k2 * nr.index_select(ph, -1, self.pair).unsqueeze(-1)
        return lambda X: nr.index_select(X, -2, self.first) * k1 + nr.index_select(X, -2, self.second) * k2

    def slot_after(self, slot: int, steps: int) -> int:
        """Where the content of ``slot`` sits after ``steps`` steps."""
        inv = {src: dst for dst, src in enumerate(self.sig)}
        for _ in range(steps):
            slot = inv[slot]
        return slot


def _sweeps(op: str, rr: _RoundRobin, state: Any, step: Any, offness: Any, eps: float) -> int:
    """Sweeps of N - 1 steps until offness (one scalar read) is below tolerance or stagnates."""
    tol, prev = 4 * rr.N ** 0.5 * eps, float("inf")
    for sweep in range(MAX_SWEEPS):
        for _ in range(rr.N - 1):
            step()
        off = float(offness().item())
        if off <= tol or (off <= 1e3 * tol and off >= 0.5 * prev):
            return (sweep + 1) * (rr.N - 1)
        prev = off
    if off > eps ** 0.5:
        raise LinAlgError(f"{op}: the Jacobi iteration did not converge in {MAX_SWEEPS} sweeps")
    return MAX_SWEEPS * (rr.N - 1)


def _pad(X: Any, rows: int, cols: int) -> Any:
    import numr as nr
    if X.shape[-2] == rows and X.shape[-1] == cols:
        return X.contiguous()
    return nr.pad(X, (0, cols - X.shape[-1], 0, rows - X.shape[-2]))


def eigh(self: Any, A: Any, UPLO: str = "L") -> tuple[Any, Any]:
    import numr as nr
    A, _, n = square("eigh", self, A)
    d = check_dtype("eigh", self, A)
    if UPLO not in ("L", "U"):
        raise ValueError(f"eigh: UPLO must be 'L' or 'U', got {UPLO!r}")
    bs, rd = tuple(A.shape[:-2]), dt.real_of(d)
    X = work(self, A, A.shape, d)
    if X.size == 0:
        return back(nr.zeros(bs + (n,), dtype=rd, device=A.device), dt.real_of(A.dtype)), back(X, A.dtype)
    T = nr.tril(X) if UPLO == "L" else nr.triu(X)
    if d.kind == "c":  # the diagonal of a Hermitian matrix is real: its imaginary part is ignored
        T = T - 1j * nr.diag_embed(nr.imag(nr.diagonal(T, 0, -2, -1)))
    S, scale = pow2_scale(T + mH(nr.tril(X, -1) if UPLO == "L" else nr.triu(X, 1)))
    N = n + n % 2
    rr = _RoundRobin(N, A.device, d)
    st = {"A": _pad(S, N, N), "V": work(self, nr.eye(N, dtype=d, device=A.device), bs + (N, N), d)}  # V^T
    norm = nr.sqrt(nr.sum(sq(st["A"]), dim=(-2, -1)))
    offmask = 1 - nr.eye(N, dtype=rd, device=A.device)

    def step() -> None:
        Am = st["A"]
        dg = nr.real(nr.diagonal(Am, 0, -2, -1))
        apq = Am.flatten(-2)[..., 1::2 * (N + 1)]
        rot = rr.rotation(dg[..., 0::2], dg[..., 1::2], apq)
        st["A"] = rot(mH(rot(Am))).contiguous()  # M (M A)^H = M A M^H for Hermitian A
        st["V"] = rot(st["V"])  # V^H <- M V^H

    def offness() -> Any:
        off = st["A"] * offmask
        rel = nr.sqrt(nr.sum(sq(off), dim=(-2, -1))) / nr.where(norm == 0, 1, norm)
        return nr.amax(nr.where(nr.isnan(rel), 0, rel))

    steps = _sweeps("eigh", rr, st, step, offness, float(dt.finfo(rd).eps))
    w, V = nr.real(nr.diagonal(st["A"], 0, -2, -1)), mH(st["V"])
    if N != n:  # drop the padding slot (decoupled: it never rotates)
        keep = [i for i in range(N) if i != rr.slot_after(n, steps)]
        idx = nr.tensor(keep, dtype=dt.int64, device=A.device)
        w, V = nr.index_select(w, -1, idx), nr.index_select(V[..., :n, :], -1, idx)
    order = nr.argsort(w, dim=-1)
    w = nr.gather(w, -1, order) * scale.squeeze(-1)
    V = nr.gather(V, -1, order.unsqueeze(-2).expand(bs + (n, n)))
    return back(w, dt.real_of(A.dtype)), back(V.contiguous(), A.dtype)


def _jacobi_columns(G: Any) -> tuple[Any, Any, Any]:
    """One-sided Jacobi on G (..., m, n), m >= n: (S descending, U (..., m, n) normalised columns,
    V (..., n, n)) with G = U diag(S) V^H; zero columns of U where S is 0. Rows of G^H rotate."""
    import numr as nr
    bs, (m, n) = tuple(G.shape[:-2]), G.shape[-2:]
    d, rd = G.dtype, dt.real_of(G.dtype)
    N = n + n % 2
    rr = _RoundRobin(N, G.device, d)
    st = {"G": mH(_pad(G, m, N)).contiguous(), "V": work(G.client, nr.eye(N, dtype=d, device=G.device), bs + (N, N), d)}
    offmask = 1 - nr.eye(N, dtype=rd, device=G.device)
    small = 4 * N * float(dt.finfo(rd).eps)

    def step() -> None:
        Gt = st["G"]  # G^H: G M^H = (M G^H)^H
        ge, go = Gt[..., 0::2, :], Gt[..., 1::2, :]
        rot = rr.rotation(nr.sum(sq(ge), dim=-1), nr.sum(sq(go), dim=-1),
                          nr.sum(ge * (nr.conj(go) if d.kind == "c" else go), dim=-1))
        st["G"] = rot(Gt)
        st["V"] = rot(st["V"])

    def offness() -> Any:
        Gr = st["G"] @ mH(st["G"])
        dg = nr.sqrt(nr.real(nr.diagonal(Gr, 0, -2, -1)))
        live = nr.cast(dg > nr.amax(dg, dim=-1, keepdim=True) * small, rd)  # rounding-level columns become 0
        den = dg.unsqueeze(-1) * dg.unsqueeze(-2)
        rel = nr.abs(Gr * offmask) * (live.unsqueeze(-1) * live.unsqueeze(-2)) / nr.where(den == 0, 1, den)
        return nr.amax(nr.where(nr.isnan(rel), 0, rel))

    steps = _sweeps("svd", rr, st, step, offness, float(dt.finfo(rd).eps))
    Gm, V = mH(st["G"]), mH(st["V"])
    if N != n:
        keep = [i for i in range(N) if i != rr.slot_after(n, steps)]
        idx = nr.tensor(keep, dtype=dt.int64, device=G.device)
        Gm, V = nr.index_select(Gm, -1, idx), nr.index_select(V[..., :n, :], -1, idx)
    S = nr.sqrt(nr.sum(sq(Gm), dim=-2))
    S = nr.where(S <= nr.amax(S, dim=-1, keepdim=True) * small, 0, S)  # noise: U is completed there
    order = nr.argsort(S, dim=-1, descending=True)
    S = nr.gather(S, -1, order)
    Gm = nr.gather(Gm, -1, order.unsqueeze(-2).expand(bs + (m, n)))
    V = nr.gather(V, -1, order.unsqueeze(-2).expand(bs + (n, n)))
    Sb = S.unsqueeze(-2)
    return S, nr.where(Sb == 0, 0, Gm / nr.where(Sb == 0, 1, Sb)), V


def _complete(U: Any, S: Any, cols: int) -> Any:
    """U (..., m, k) with orthonormal columns where S > 0 and zeros elsewhere -> ``cols`` orthonormal
    columns by a Householder QR (Q's columns signed as U's), when needed."""
    import numr as nr
    m, k = U.shape[-2:]
    if cols == k and not bool(nr.any(S == 0).item()):
        return U
    Q, R = qr_core(U.contiguous(), "complete" if cols > k else "reduced")
    rd = nr.real(nr.diagonal(R, 0, -2, -1))  # real for complex too (zlarfg)
    sign = nr.where(rd < 0, -1, 1)
    if cols > k:
        sign = nr.cat([sign, nr.ones(tuple(sign.shape[:-1]) + (cols - k,), dtype=sign.dtype, device=U.device)], -1)
    return Q[..., :cols] * nr.cast(sign, U.dtype).unsqueeze(-2)


def svd(self: Any, A: Any, full_matrices: bool = True) -> tuple[Any, Any, Any]:
    """A^H for wide A (A = V' S U'^H); one-sided Jacobi on the tall one."""
    import numr as nr
    A = operand("svd", self, A, matrix=True)
    d = check_dtype("svd", self, A)
    bs, (m, n) = tuple(A.shape[:-2]), A.shape[-2:]
    k = min(m, n)
    ku, kv = (m, n) if full_matrices else (k, k)
    if A.size == 0:
        U = work(self, nr.eye(m, ku, dtype=d, device=A.device), bs + (m, ku), d)
        Vh = work(self, nr.eye(kv, n, dtype=d, device=A.device), bs + (kv, n), d)
        S = nr.zeros(bs + (k,), dtype=dt.real_of(d), device=A.device)
        return back(U, A.dtype), back(S, dt.real_of(A.dtype)), back(Vh, A.dtype)
    G, scale = pow2_scale(work(self, A, A.shape, d))
    tall = m >= n
    S, Uc, V = _jacobi_columns(G if tall else mH(G).contiguous())
    Uc = _complete(Uc, S, Uc.shape[-2] if full_matrices else k)
    S = S * scale.squeeze(-1)
    U, Vh = (Uc, mH(V)) if tall else (V, mH(Uc))
    return back(U.contiguous(), A.dtype), back(S, dt.real_of(A.dtype)), back(Vh.contiguous(), A.dtype)


METHODS = {"qr": qr, "eigh": eigh, "svd": svd}
