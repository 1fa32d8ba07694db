"""Tensor-train decomposition by TT-SVD (tensorly.decomposition.tensor_train): sweep the modes,
reshape the remainder to (r_k n_k, rest), keep the leading singular triplets (each rank clipped
to the matrix's smaller side) and carry S V^H on."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import ShapeError
from ..ops import api as _api
from ._base import cast_back, check_decomposable, expand_ranks

_OPS = _api.OPS


def tt_ranks(op: str, shape: tuple[int, ...], rank: int | Sequence[int]) -> list[int]:
    """[1, r, ..., r, 1] from an int; a sequence must have ndim + 1 positive entries with 1 at both ends."""
    d = len(shape)
    ranks = expand_ranks(op, rank, d + 1, "TT ranks")
    if not isinstance(rank, (list, tuple)):
        ranks[0] = ranks[-1] = 1
    if len(ranks) != d + 1:
        raise ShapeError(f"{op}: a tensor of shape {shape} needs {d + 1} TT ranks, got {rank}")
    if ranks[0] != 1 or ranks[-1] != 1:
        raise ShapeError(f"{op}: the boundary TT ranks must be 1, got {rank}")
    return ranks


def tensor_train(tensor: Any, rank: int | Sequence[int]) -> list[Any]:
    """The TT cores (r_k, n_k, r_{k+1}) of ``tensor`` by TT-SVD; ranks are clipped to what the
    unfoldings allow, so the result is exact when the tensor has those TT ranks."""
    x = check_decomposable("tensor_train", tensor)
    shape = tuple(x.shape)
    ranks = tt_ranks("tensor_train", shape, rank)
    cores = []
    rest = x
    for k in range(len(shape) - 1):
        rows = ranks[k] * shape[k]
        m = rest.reshape((rows, -1))
        r = min(rows, m.shape[1], ranks[k + 1])
        u, s, vh = _OPS["svd"](m, full_matrices=False)
        ranks[k + 1] = r
        cores.append(u[:, :r].reshape((ranks[k], shape[k], r)))
        rest = _OPS["cast"](s[:r], vh.dtype).unsqueeze(1) * vh[:r]
    cores.append(rest.reshape((ranks[-2], shape[-1], 1)))
    return cast_back(tensor.dtype, cores)
