"""Reverse mode for the decompositions: solve, solve_triangular, cholesky, qr, eigh, svd, det and
slogdet have formula rules written with public ops (so they differentiate again); inv, lstsq,
pinv, eigvalsh, svdvals, logdet, the norms and cond are composites whose gradients come from
those rules. Complex in numr's unconjugated convention (dL/dx - i dL/dy): solve,
solve_triangular and det are holomorphic (the real rules as they are), cholesky, eigh and
slogdet take conjugates; qr and svd are real only. Ops with several outputs record one packed output (the flattened
outputs side by side, in their common dtype) and hand out views of it (cast back), so one node
serves them all. eigh and
cholesky read one triangle of A, so their gradients live on that triangle (the derivative
of the function as computed, which central differences check). Forward mode: decomp_forward.py."""

from __future__ import annotations

from typing import Any

import numr as nr

from ...errors import UnsupportedOperation
from ...ops.generic.decomp import COMPOSITES, _mH
from ..var import Var
from ._common import record, register, tensor_call, unwrap, wants_grad

for _name, _fn in COMPOSITES.items():
    if _name not in ("det", "slogdet"):
        register(_name)(_fn)


def _real_only(op: str, args: tuple) -> None:
    for a in args:
        if isinstance(a, Var) and a.requires_grad and a.tensor.dtype.kind == "c":
            raise UnsupportedOperation("autograd", op, a.tensor.dtype, "complex gradients are not implemented")


def _record_many(name: str, args: tuple, outs: tuple, vjp: Any, extra: Any = None) -> tuple:
    """Record ``outs`` (one batch shape ``bs``) as one packed output; return views of it."""
    if not wants_grad(args):
        return tuple(Var.constant(o) for o in outs)
    bs = tuple(outs[0].shape[:len(unwrap(args[0]).shape) - 2])
    tails = [tuple(o.shape[len(bs):]) for o in outs]
    sizes = [_numel(t) for t in tails]
    dts = [o.dtype for o in outs]
    wide = next((d for d in dts if d.kind == "c"), dts[0])  # eigh's real w packs with complex V
    packed = nr.cat([nr.cast(o, wide).reshape(bs + (s,)) for o, s in zip(outs, sizes, strict=True)], -1)

    def split(p: Any) -> list:
        parts, off = [], 0
        for t, s, d in zip(tails, sizes, dts, strict=True):
            part = p.narrow(-1, off, s).reshape(bs + t)
            parts.append(part if d is wide else nr.cast(part, d))
            off += s
        return parts

    def vjp_packed(g, a, out, need, ex):
        return vjp(split(g), a, split(out), need, ex)
    v = record(name, args, packed, vjp_packed, save_out=True, extra=extra)
    return tuple(split(v))


def _numel(shape: tuple) -> int:
    n = 1
    for s in shape:
        n *= s
    return n


def _sym_tri(G: Any, upper: bool) -> Any:
    """The gradient on the triangle read of a matrix used as Hermitian (its imaginary diagonal
    ignored): G + conj(G)^T off it, re(diag(G)) on it."""
    S = G + _mH(G)
    off = nr.triu(S, 1) if upper else nr.tril(S, -1)
    d = nr.tril(nr.triu(G))
    return off + (nr.cast(nr.real(d), G.dtype) if G.dtype.kind == "c" else d)


def _diag_mask(n: int, like: Any) -> Any:
    return nr.eye(n, dtype=nr.bool, device=unwrap(like).device)


# ---- solve, solve_triangular

def _solve_vjp(g, args, out, need, extra):
    A, vec = args[0], extra
    gB = nr.solve(A.mT, g)
    gA = None
    if need[0]:
        gA = -(gB.unsqueeze(-1) @ out.unsqueeze(-2)) if vec else -(gB @ out.mT)
    return [gA, gB if need[1] else None]


@register("solve")
def var_solve(A: Any, B: Any, left: bool = True) -> Any:
    """X = A^-1 B: gB = A^-T gX, gA = -gB X^T."""
    if not left:
        return var_solve(A.mT, B.mT).mT
    out = tensor_call("solve", (A, B))
    vec = out.ndim == unwrap(B).ndim and unwrap(B).ndim == unwrap(A).ndim - 1 or unwrap(B).ndim == 1
    return record("solve", (A, B), out, _solve_vjp, save_out=True, extra=vec)


def _trs_vjp(g, args, out, need, extra):
    A = args[0]
    upper, unit = extra
    gB = nr.solve_triangular(A.mT, g, upper=not upper, unitriangular=unit)
    gA = None
    if need[0]:
        full = -(gB @ out.mT)
        k = (1 if upper else -1) if unit else 0
        gA = nr.triu(full, k) if upper else nr.tril(full, k)
    return [gA, gB if need[1] else None]


@register("solve_triangular")
def var_solve_triangular(A: Any, B: Any, upper: bool, left: bool = True, unitriangular: bool = False) -> Any:
    if not left:
        return var_solve_triangular(A.mT, B.mT, upper=not upper, unitriangular=unitriangular).mT
    out = tensor_call("solve_triangular", (A, B), {"upper": upper, "unitriangular": unitriangular})
    return record("solve_triangular", (A, B), out, _trs_vjp, save_out=True, extra=(bool(upper), bool(unitriangular)))


# ---- det, slogdet

def _det_vjp(g, args, out, need, extra):
    A = args[0]
    return [(g * out).unsqueeze(-1).unsqueeze(-1) * nr.inv(A).mT]


@register("det")
def var_det(A: Any) -> Any:
    """g det(A) A^-T (a non-singular A)."""
    return record("det", (A,), tensor_call("det", (A,)), _det_vjp, save_out=True)


def _slogdet_vjp(gs, args, outs, need, extra):
    g = gs[1]
    if outs[0].dtype.kind == "c":  # d sign = i im(tr(A^-1 dA)) sign pulls back i im(g_sign sign)
        g = nr.real(g) + 1j * nr.imag(gs[0] * outs[0])
    return [g.unsqueeze(-1).unsqueeze(-1) * nr.inv(args[0]).mT]


@register("slogdet")
def var_slogdet(A: Any) -> tuple:
    """(g_logabs + i im(g_sign sign)) A^-T; a real sign has no gradient."""
    return _record_many("slogdet", (A,), tensor_call("slogdet", (A,)), _slogdet_vjp)


# ---- cholesky

def _chol_vjp(g, args, out, need, extra):
    L = out
    P = nr.tril(L.mT @ g)
    P = P - 0.5 * nr.tril(nr.triu(P))
    Y = nr.solve_triangular(L.mT, P, upper=True)
    S = nr.solve_triangular(nr.conj(L), Y, upper=False, left=False)
    return [_sym_tri(S, False)]


@register("cholesky")
def var_cholesky(A: Any, upper: bool = False) -> Any:
    """Murray's rule: L^-T Phi(L^T gL) conj(L)^-1 on the lower triangle read (Hermitian)."""
    L = record("cholesky", (A,), tensor_call("cholesky", (A,)), _chol_vjp, save_args=False, save_out=True)
    return _mH(L) if upper else L


# ---- qr

def _qr_square_grad(Q: Any, R: Any, gQ: Any, gR: Any) -> Any:
    """gA for A = Q R with R square: (gQ + Q copyltu(R gR^T - gQ^T Q)) R^-T."""
    M = R @ gR.mT - gQ.mT @ Q
    b = gQ + Q @ (nr.tril(M) + nr.tril(M, -1).mT)
    return nr.solve_triangular(R.mT, b, upper=False, left=False)


def _qr_vjp(gs, args, outs, need, extra):
    (gQ, gR), (Q, R) = gs, outs
    m, n = extra
    if m >= n:
        return [_qr_square_grad(Q, R, gQ, gR)]
    A = args[0]
    Y = A.narrow(-1, m, n - m)
    U, gU, gV = R.narrow(-1, 0, m), gR.narrow(-1, 0, m), gR.narrow(-1, m, n - m)
    gX = _qr_square_grad(Q, U, gQ + Y @ gV.mT, gU)
    return [nr.cat([gX, Q @ gV], -1)]


@register("qr")
def var_qr(A: Any, mode: str = "reduced") -> tuple:
    _real_only("qr", (A,))
    Q, R = tensor_call("qr", (A,), {"mode": mode})
    m, n = unwrap(A).shape[-2:]
    if wants_grad((A,)) and (mode == "r" or (mode == "complete" and m > n)):
        raise UnsupportedOperation("autograd", "qr", unwrap(A).dtype,
                                   f"mode={mode!r} is not differentiable for a {m} x {n} matrix")
    return _record_many("qr", (A,), (Q, R), _qr_vjp, extra=(m, n))


# ---- eigh

def _eigh_vjp(gs, args, outs, need, extra):
    (gw, gV), (w, V) = gs, outs
    n = w.shape[-1]
    eye = _diag_mask(n, w)
    E = w.unsqueeze(-2) - w.unsqueeze(-1)
    F = nr.where(eye, 0.0, 1 / nr.where(eye, 1.0, E))
    if V.dtype.kind == "c":
        gw = nr.real(gw)
    inner = F * (V.mT @ gV) + nr.diag_embed(gw)
    return [_sym_tri(nr.conj(V) @ inner @ V.mT, extra)]


@register("eigh")
def var_eigh(A: Any, UPLO: str = "L") -> tuple:
    """conj(V) (diag(re gw) + F o (V^T gV)) V^T, F_ij = 1 / (w_j - w_i) (distinct eigenvalues; a
    complex loss must not depend on the columns' free phases)."""
    w, V = tensor_call("eigh", (A,), {"UPLO": UPLO})
    return _record_many("eigh", (A,), (w, V), _eigh_vjp, extra=UPLO == "U")


# ---- svd

def _svd_vjp(gs, args, outs, need, extra):
    (gU, gS, gVh), (U, S, Vh) = gs, outs
    m, n = extra
    k = S.shape[-1]
    V, gV = Vh.mT, gVh.mT
    eye = _diag_mask(k, S)
    s2 = S * S
    D = s2.unsqueeze(-2) - s2.unsqueeze(-1)
    F = nr.where(eye, 0.0, 1 / nr.where(eye, 1.0, D))
    J = F * (U.mT @ gU)
    K = F * (V.mT @ gV)
    Sm = S.unsqueeze(-2)  # scales columns
    core = (J + J.mT) * Sm + nr.diag_embed(gS) + (K + K.mT) * S.unsqueeze(-1)
    gA = U @ core @ Vh
    sinv = 1 / S
    if m > k:
        gA = gA + (gU - U @ (U.mT @ gU)) * sinv.unsqueeze(-2) @ Vh
    if n > k:
        gA = gA + (U * sinv.unsqueeze(-2)) @ (gV.mT - (gV.mT @ V) @ Vh)
    return [gA]


@register("svd")
def var_svd(A: Any, full_matrices: bool = True) -> tuple:
    """Townsend's rule (distinct, non-zero singular values)."""
    _real_only("svd", (A,))
    m, n = unwrap(A).shape[-2:]
    if wants_grad((A,)) and full_matrices and m != n:
        raise UnsupportedOperation("autograd", "svd", unwrap(A).dtype,
                                   "full_matrices=True of a non-square matrix (use full_matrices=False)")
    outs = tensor_call("svd", (A,), {"full_matrices": full_matrices})
    return _record_many("svd", (A,), outs, _svd_vjp, extra=(m, n))


__all__ = ["var_solve", "var_solve_triangular", "var_det", "var_slogdet", "var_cholesky", "var_qr", "var_eigh",
           "var_svd"]
