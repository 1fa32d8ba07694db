"""Tucker decompositions: HOSVD (the leading left singular vectors of every unfolding) and HOOI
(alternating refinement of those factors, tensorly.decomposition.tucker). The Tucker rank of a
mode is clipped to that mode's size, as TensorLy's SVD clips it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import ShapeError
from ..ops import api as _api
from ._base import (
    TuckerTensor,
    cast_back,
    check_decomposable,
    expand_ranks,
    left_svd,
    multi_mode_dot,
    random_matrix,
    unfold,
)

_OPS = _api.OPS


def tucker_ranks(op: str, shape: tuple[int, ...], rank: int | Sequence[int] | None) -> list[int]:
    """One rank per mode (an int is used for every mode, None keeps the full shape), each at least
    1 and clipped to the size of its mode."""
    if rank is None:
        return list(shape)
    ranks = expand_ranks(op, rank, len(shape), "ranks")
    if len(ranks) != len(shape):
        raise ShapeError(f"{op}: {len(ranks)} ranks given for a tensor of shape {shape}")
    return [min(r, n) for r, n in zip(ranks, shape, strict=True)]


def leading_left_singular_vectors(m: Any, r: int) -> Any:
    """The r leading left singular vectors of m (r <= m.shape[0]), as columns."""
    full = r > min(m.shape)  # a tall matrix asked for more than its column count: the full U
    u = left_svd(m, full)[0]
    return u if u.shape[1] == r else u[:, :r]


def hosvd(tensor: Any, rank: int | Sequence[int] | None = None) -> TuckerTensor:
    """The truncated higher-order SVD: orthonormal factors from the SVD of each unfolding and the
    core tensor x_n U_n^H; exact when the tensor has that multilinear rank."""
    x = check_decomposable("hosvd", tensor)
    factors = _hosvd_factors(x, tucker_ranks("hosvd", tuple(x.shape), rank))
    return TuckerTensor(cast_back(tensor.dtype, multi_mode_dot(x, factors, transpose=True)),
                        cast_back(tensor.dtype, factors))


def _hosvd_factors(x: Any, ranks: list[int]) -> list[Any]:
    return [leading_left_singular_vectors(unfold(x, n), r) for n, r in enumerate(ranks)]


def tucker(tensor: Any, rank: int | Sequence[int] | None = None, n_iter_max: int = 100, tol: float = 1e-8,
           init: str = "svd", seed: int | None = None) -> TuckerTensor:
    """Tucker decomposition by higher-order orthogonal iteration (HOOI), started from the HOSVD
    (init="svd") or random factors; stops when the relative error changes by less than tol
    between sweeps (one scalar read a sweep)."""
    x = check_decomposable("tucker", tensor)
    ranks = tucker_ranks("tucker", tuple(x.shape), rank)
    if init == "svd":
        factors = _hosvd_factors(x, ranks)
    elif init == "random":
        factors = [random_matrix(x, x.shape[i], r, seed, i) for i, r in enumerate(ranks)]
    else:
        raise ValueError(f"tucker: init must be 'svd' or 'random', got {init!r}")
    if isinstance(n_iter_max, bool) or not isinstance(n_iter_max, int) or n_iter_max < 0:
        raise ValueError(f"tucker: n_iter_max must be a non-negative integer, got {n_iter_max!r}")
    norm2 = _OPS["vector_norm"](x) ** 2
    errors: list[float] = []
    for _ in range(n_iter_max):
        for n, r in enumerate(ranks):
            partial = multi_mode_dot(x, factors, skip=n, transpose=True)
            factors[n] = leading_left_singular_vectors(unfold(partial, n), r)
        if tol:  # ||X - G x U||^2 = ||X||^2 - ||G||^2 for orthonormal U and the projected core G
            core = multi_mode_dot(x, factors, transpose=True)
            err = ((norm2 - _OPS["vector_norm"](core) ** 2).abs() / norm2).sqrt()
            errors.append(float(err.item()))
            if len(errors) > 1 and abs(errors[-2] - errors[-1]) < tol:
                break
    if not (tol and n_iter_max):  # else the last sweep's core is current
        core = multi_mode_dot(x, factors, transpose=True)
    return TuckerTensor(cast_back(tensor.dtype, core), cast_back(tensor.dtype, factors))
