"""CP (CANDECOMP/PARAFAC) decomposition by alternating least squares (tensorly.decomposition.parafac).
Each mode's update solves G V = X_(n) conj(KR) with V the Hadamard product of the other factors'
Gram matrices and KR their Khatri-Rao product; the relative error comes from the same pieces
(||X||^2 + <G^H G, V> - 2 Re <X_(n) conj(KR), G>), one scalar read a sweep."""

from __future__ import annotations

from typing import Any

from ..creation import ones, ones_like
from ..dtypes import real_of
from ..errors import ShapeError
from ..ops import api as _api
from ._base import (
    CPTensor,
    cast_back,
    check_decomposable,
    conj_t,
    expand_ranks,
    khatri_rao_list,
    left_svd,
    random_matrix,
    unfold,
)

_OPS = _api.OPS


def _svd_init(tensor: Any, rank: int, seed: int | None) -> list[Any]:
    """The leading left singular vectors of each unfolding, the first scaled by the singular values
    (the tensor's scale); modes with fewer than ``rank`` of them are padded with random columns."""
    factors = []
    for n in range(tensor.ndim):
        u, s = left_svd(unfold(tensor, n))
        k = min(rank, u.shape[1])
        u = u[:, :k]
        if n == 0:
            u = u * _OPS["cast"](s[:k], u.dtype)
        if k < rank:
            u = _OPS["cat"]([u, random_matrix(u, u.shape[0], rank - k, seed, n)], 1)
        factors.append(u)
    return factors


def _normalize(factors: list[Any], weights: Any) -> tuple[Any, list[Any]]:
    """Unit-norm factor columns, their norms moved into the weights (a zero column keeps norm 1)."""
    out = []
    for f in factors:
        norms = _OPS["vector_norm"](f, dim=0)
        norms = _OPS["where"](norms == 0, ones_like(norms), norms)
        weights = weights * norms
        out.append(f / _OPS["cast"](norms, f.dtype))
    return weights, out


def parafac(tensor: Any, rank: int, n_iter_max: int = 100, tol: float = 1e-8, init: str = "svd",
            seed: int | None = None, normalize_factors: bool = False) -> CPTensor:
    """A rank-``rank`` CP decomposition (weights, factors) by ALS. With normalize_factors the
    factor columns have unit norm and the weights carry the scale; otherwise the weights are ones."""
    x = check_decomposable("parafac", tensor, 2)
    if isinstance(rank, (list, tuple)):
        raise ShapeError(f"parafac: rank must be a positive integer, got {rank!r}")
    (rank,) = expand_ranks("parafac", rank, 1, "the rank")
    if isinstance(n_iter_max, bool) or not isinstance(n_iter_max, int) or n_iter_max < 0:
        raise ValueError(f"parafac: n_iter_max must be a non-negative integer, got {n_iter_max!r}")
    if init == "svd":
        factors = _svd_init(x, rank, seed)
    elif init == "random":
        factors = [random_matrix(x, n, rank, seed, i) for i, n in enumerate(x.shape)]
    else:
        raise ValueError(f"parafac: init must be 'svd' or 'random', got {init!r}")
    real = real_of(x.dtype)
    weights = ones(rank, dtype=real, device=x.device)
    if normalize_factors:
        weights, factors = _normalize(factors, weights)
    norm2 = _OPS["vector_norm"](x) ** 2
    grams = [conj_t(f) @ f for f in factors]
    errors: list[float] = []
    for _ in range(n_iter_max):
        for n in range(x.ndim):
            v = ones(rank, rank, dtype=x.dtype, device=x.device)
            for i, gram in enumerate(grams):
                if i != n:
                    v = v * gram
            kr = khatri_rao_list(factors, skip=n)
            mttkrp = unfold(x, n) @ (_OPS["conj"](kr) if kr.dtype.kind == "c" else kr)
            # the normal equations g KR^T conj(KR) = mttkrp, and KR^T conj(KR) = conj(v)
            vt = _OPS["conj"](v) if v.dtype.kind == "c" else v
            g = _OPS["solve"](vt, mttkrp, left=False)  # g = factor n times diag(weights)
            if normalize_factors:
                weights, (f,) = _normalize([g], ones(rank, dtype=real, device=x.device))
            else:
                f = g
            factors[n], grams[n] = f, conj_t(f) @ f
        if tol:
            gg = conj_t(g) @ g
            err2 = norm2 + (gg * v).sum().real - 2 * (mttkrp * _OPS["conj"](g)).sum().real \
                if g.dtype.kind == "c" else norm2 + (gg * v).sum() - 2 * (mttkrp * g).sum()
            errors.append(float((err2.abs() / norm2).sqrt().item()))
            if len(errors) > 1 and abs(errors[-2] - errors[-1]) < tol:
                break
    if normalize_factors:
        weights, factors = _normalize(factors, weights)
    return CPTensor(cast_back(tensor.dtype, weights), cast_back(tensor.dtype, factors))
