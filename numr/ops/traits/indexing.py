"""Gathers and scatters along a dim, and the positions of true elements.
Index tensors are integers; negative indices count from the end."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from ...tensor import Tensor


@runtime_checkable
class IndexingOps(Protocol):
    def index_select(self, x: Tensor, dim: int, index: Tensor) -> Tensor:
        """x's slices at ``index`` (1-d) along dim; out of range raises IndexOutOfRange."""
    def index_put_(self, x: Tensor, dim: int, index: Tensor, values: Tensor) -> Tensor:
        """x[..., index[i], ...] = values[..., i, ...] along dim, in place; returns x."""
    def index_add_(self, x: Tensor, dim: int, index: Tensor, source: Tensor, alpha: float = 1) -> Tensor:
        """x[..., index[i], ...] += alpha * source[..., i, ...] along dim, in place; repeated indices
        accumulate (index_select's adjoint). source broadcasts to the indexed shape and is cast to
        x's dtype; returns x."""
    def index_add(self, x: Tensor, dim: int, index: Tensor, source: Tensor, alpha: float = 1) -> Tensor:
        """index_add_ on a copy of x (the functional form; differentiable in x and source)."""
    def gather(self, x: Tensor, dim: int, index: Tensor) -> Tensor:
        """out[..., j, ...] = x[..., index[..., j, ...], ...] along dim (torch.gather,
        np.take_along_axis): index has x's rank, its sizes at most x's outside dim."""
    def scatter_add(self, x: Tensor, dim: int, index: Tensor, source: Tensor) -> Tensor:
        """A copy of x with out[..., index[..., j, ...], ...] += source[..., j, ...] along dim;
        repeated positions accumulate (torch.scatter_add)."""
    def nonzero(self, x: Tensor) -> Tensor:
        """int64 (count, ndim) coordinates of the non-zero elements, in row-major order."""
