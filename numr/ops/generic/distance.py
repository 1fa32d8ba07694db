"""Distances written once with numr's public functions, so that every backend runs them and autograd
(reverse and forward) differentiates them through their parts: cdist (p=2 by the matmul expansion
|a|^2 + |b|^2 - 2 a.b clamped at 0, as torch's use_mm_for_euclid_dist_if_necessary; other p by
broadcasting the differences in row chunks into vector_norm), pdist (the condensed upper triangle
in scipy's order), cosine_similarity and pairwise_distance. Norms are zero-safe: a zero distance
has a zero gradient, as torch. Integer inputs compute in the default float; half and float8 in
float32, returning their own dtype."""

from __future__ import annotations

import math
from typing import Any

from ...errors import DomainError, ShapeError
from .statistics import _zero_safe, cast_to, float_input, vector_norm_any

#: elements of the broadcast difference tensor computed at once (bounds cdist/pdist's memory)
CHUNK = 1 << 22
MM_MODES = ("use_mm_for_euclid_dist_if_necessary", "use_mm_for_euclid_dist", "donot_use_mm_for_euclid_dist")


def _p(op: str, p: Any) -> float:
    if isinstance(p, bool) or not isinstance(p, (int, float)) or math.isnan(p) or p < 0:
        raise DomainError(f"{op}: p must be a non-negative number (inf allowed), got {p!r}")
    return float(p)


def _euclid_mm(a: Any, b: Any) -> Any:
    """sqrt(max(|a_i|^2 + |b_j|^2 - 2 a_i.b_j, 0)) by one batched matmul."""
    import numr as nr
    aa = nr.sum(a * a, -1, keepdim=True)
    bb = nr.sum(b * b, -1, keepdim=True).mT
    d2 = nr.maximum(aa + bb - 2.0 * nr.matmul(a, b.mT), 0.0)
    return _zero_safe(d2, nr.sqrt)


def _direct(a: Any, b: Any, p: float) -> Any:
    """||a_i - b_j||_p over the broadcast (..., P, R, M) differences, in chunks of a's rows."""
    import numr as nr
    P, R, M = a.shape[-2], b.shape[-2], a.shape[-1]
    batch = math.prod(nr.broadcast_shapes(tuple(a.shape[:-2]), tuple(b.shape[:-2])))
    rows = max(1, CHUNK // max(1, batch * R * M))
    parts = [vector_norm_any(nr.unsqueeze(a[..., i:i + rows, :], -2) - nr.unsqueeze(b, -3), p, -1)
             for i in range(0, P, rows)]
    return parts[0] if len(parts) == 1 else nr.cat(parts, -2)


def cdist_any(x1: Any, x2: Any, p: float = 2.0, compute_mode: str = "use_mm_for_euclid_dist_if_necessary") -> Any:
    """(..., P, R): the p-norm distances between the rows of x1 (..., P, M) and x2 (..., R, M),
    batch dims broadcast (torch.cdist; p=0 counts differing coordinates, p=inf the largest)."""
    import numr as nr
    p = _p("cdist", p)
    if compute_mode not in MM_MODES:
        raise DomainError(f"cdist: compute_mode must be one of {MM_MODES}, got {compute_mode!r}")
    if x1.ndim < 2 or x2.ndim < 2 or x1.shape[-1] != x2.shape[-1]:
        raise ShapeError(f"cdist: x1 and x2 must be (..., P, M) and (..., R, M) with the same M, got shapes "
                         f"{tuple(x1.shape)} and {tuple(x2.shape)}")
    try:
        batch = nr.broadcast_shapes(tuple(x1.shape[:-2]), tuple(x2.shape[:-2]))
    except (ShapeError, ValueError):
        raise ShapeError(f"cdist: batch dims of {tuple(x1.shape)} and {tuple(x2.shape)} do not broadcast") from None
    a, out = float_input("cdist", x1)
    b, out2 = float_input("cdist", x2)
    if a.dtype is not b.dtype:
        ct = nr.promote_types(a.dtype, b.dtype)
        a, b, out = cast_to(a, ct), cast_to(b, ct), nr.promote_types(out, out2)
    P, R, M = a.shape[-2], b.shape[-2], a.shape[-1]
    shape = tuple(batch) + (P, R)
    if P == 0 or R == 0 or M == 0 or math.prod(batch) == 0:
        return nr.zeros(shape, dtype=out, device=a.device)
    mm = compute_mode == MM_MODES[1] or (compute_mode == MM_MODES[0] and (P > 25 or R > 25))
    r = _euclid_mm(a, b) if p == 2.0 and mm else _direct(a, b, p)
    return cast_to(nr.broadcast_to(r, shape) if tuple(r.shape) != shape else r, out)


def _pairs(n: int, device: Any) -> tuple[Any, Any]:
    """int64 (i, j) of the pairs i < j in row-major order of the upper triangle."""
    import numr as nr
    rows = nr.arange(n, dtype=nr.int64, device=device)
    i = nr.repeat_interleave(rows, n - 1 - rows)
    start = i * (2 * n - i - 1) // 2  # the condensed index of the pair (i, i + 1)
    return i, nr.arange(i.shape[0], dtype=nr.int64, device=device) - start + i + 1


def pdist_any(x: Any, p: float = 2.0) -> Any:
    """(N(N-1)/2,): the p-norm distances between the rows of x (N, M), pairs i < j in row-major
    order (torch.pdist, scipy.spatial.distance.pdist's condensed form)."""
    import numr as nr
    p = _p("pdist", p)
    if x.ndim != 2:
        raise ShapeError(f"pdist: x must be 2-d (N, M), got shape {tuple(x.shape)}")
    a, out = float_input("pdist", x)
    n, m = a.shape
    k = n * (n - 1) // 2
    if k == 0 or m == 0:
        return nr.zeros((k,), dtype=out, device=a.device)
    i, j = _pairs(n, a.device)
    step = max(1, CHUNK // m)
    parts = [vector_norm_any(nr.index_select(a, 0, i[s:s + step]) - nr.index_select(a, 0, j[s:s + step]), p, -1)
             for s in range(0, k, step)]
    return cast_to(parts[0] if len(parts) == 1 else nr.cat(parts), out)


def cosine_similarity_any(x1: Any, x2: Any, dim: int = 1, eps: float = 1e-8) -> Any:
    """sum(x1 * x2) / (max(|x1|, eps) * max(|x2|, eps)) along dim, x1 and x2 broadcast
    (torch.nn.functional.cosine_similarity: each is divided by its own clamped norm)."""
    import numr as nr
    a, out = float_input("cosine_similarity", x1)
    b, out2 = float_input("cosine_similarity", x2)
    if a.dtype is not b.dtype:
        ct = nr.promote_types(a.dtype, b.dtype)
        a, b, out = cast_to(a, ct), cast_to(b, ct), nr.promote_types(out, out2)
    try:
        shape = nr.broadcast_shapes(tuple(a.shape), tuple(b.shape))
    except (ShapeError, ValueError):
        raise ShapeError(f"cosine_similarity: shapes {tuple(x1.shape)} and {tuple(x2.shape)} "
                         "do not broadcast") from None
    a, b = nr.broadcast_to(a, shape), nr.broadcast_to(b, shape)
    na = nr.maximum(vector_norm_any(a, 2, dim, keepdim=True), eps)
    nb = nr.maximum(vector_norm_any(b, 2, dim, keepdim=True), eps)
    return cast_to(nr.sum((a / na) * (b / nb), dim), out)


def pairwise_distance_any(x1: Any, x2: Any, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False) -> Any:
    """||x1 - x2 + eps||_p over the last dim, x1 and x2 broadcast (torch.pairwise_distance)."""
    import numr as nr
    p = _p("pairwise_distance", p)
    a, out = float_input("pairwise_distance", x1)
    b, out2 = float_input("pairwise_distance", x2)
    if a.dtype is not b.dtype:
        ct = nr.promote_types(a.dtype, b.dtype)
        a, b, out = cast_to(a, ct), cast_to(b, ct), nr.promote_types(out, out2)
    d = a - b + eps
    if d.ndim == 0:
        d = d.reshape(1)
    return cast_to(vector_norm_any(d, p, -1, keepdim), out)


def _upper_positions(n: int, device: Any) -> Any:
    """int64 row-major positions in an (n, n) matrix of its strict upper triangle (pdist's order)."""
    import numr as nr
    ar = nr.arange(n, dtype=nr.int64, device=device)
    upper = ar.reshape(1, n) > ar.reshape(n, 1)
    return nr.masked_select(nr.arange(n * n, dtype=nr.int64, device=device).reshape(n, n), upper)


def squareform_any(X: Any, force: str = "no", checks: bool = True) -> Any:
    """scipy.spatial.distance.squareform: a condensed (m,) distance vector to the symmetric
    (n, n) matrix with a zero diagonal, m = n(n-1)/2, or such a matrix back to its condensed
    upper triangle; checks=True requires the matrix be exactly symmetric with a zero diagonal."""
    import numr as nr
    if force not in ("no", "tomatrix", "tovector"):
        raise DomainError(f"squareform: force must be 'no', 'tomatrix' or 'tovector', got {force!r}")
    shape = tuple(X.shape)
    if force == "tomatrix" and len(shape) != 1 or force == "tovector" and len(shape) != 2:
        raise ShapeError(f"squareform: force={force!r} needs a {1 if force == 'tomatrix' else 2}-d input, got "
                         f"shape {shape}")
    if len(shape) == 1:
        m = shape[0]
        n = math.ceil(math.sqrt(2 * m))
        if n * (n - 1) != 2 * m:
            raise ShapeError(f"squareform: a condensed vector needs n(n-1)/2 elements, got {m}")
        n = max(n, 1)
        half = nr.put(nr.zeros((n * n,), dtype=X.dtype, device=X.device), _upper_positions(n, X.device), X)
        half = half.reshape(n, n)
        return half + half.mT
    if len(shape) != 2 or shape[0] != shape[1]:
        raise ShapeError(f"squareform: needs a 1-d condensed vector or a square matrix, got shape {shape}")
    n = shape[0]
    if checks and n:
        if not bool(nr.all(X == X.mT).item()):
            raise DomainError("squareform: the distance matrix must be symmetric (checks=True)")
        if bool(nr.any(nr.diagonal(X) != 0).item()):
            raise DomainError("squareform: the distance matrix must have a zero diagonal (checks=True)")
    return nr.take(X.reshape(-1), _upper_positions(n, X.device))


COMPOSITES = {"cdist": cdist_any, "pdist": pdist_any, "cosine_similarity": cosine_similarity_any,
              "pairwise_distance": pairwise_distance_any, "squareform": squareform_any}
