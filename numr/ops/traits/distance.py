"""Distances between rows and vectors (torch.cdist / pdist / cosine_similarity /
pairwise_distance). Integer inputs compute in the default float; half and float8 in float32,
returning their own dtype; p is a non-negative number, inf allowed."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from ...tensor import Tensor


@runtime_checkable
class DistanceOps(Protocol):
    def cdist(self, x1: Tensor, x2: Tensor, p: float = 2.0,
              compute_mode: str = "use_mm_for_euclid_dist_if_necessary") -> Tensor:
        """(..., P, R) p-norm distances between the rows of x1 (..., P, M) and x2 (..., R, M), batch
        dims broadcast; p=2 with more than 25 rows uses the matmul expansion clamped at 0 (torch.cdist)."""
    def pdist(self, x: Tensor, p: float = 2.0) -> Tensor:
        """(N(N-1)/2,) p-norm distances between the rows of x (N, M), pairs i < j in row-major order
        (torch.pdist, scipy's condensed form)."""
    def cosine_similarity(self, x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-8) -> Tensor:
        """sum(x1 * x2) / (max(|x1|, eps) * max(|x2|, eps)) along dim, x1 and x2 broadcast."""
    def pairwise_distance(self, x1: Tensor, x2: Tensor, p: float = 2.0, eps: float = 1e-6,
                          keepdim: bool = False) -> Tensor:
        """||x1 - x2 + eps||_p over the last dim, x1 and x2 broadcast (torch.pairwise_distance)."""
    def squareform(self, X: Tensor, force: str = "no", checks: bool = True) -> Tensor:
        """A condensed (n(n-1)/2,) distance vector to the symmetric (n, n) matrix with a zero diagonal,
        or such a matrix to its condensed upper triangle (scipy.spatial.distance.squareform; checks
        requires an exactly symmetric matrix with a zero diagonal)."""
