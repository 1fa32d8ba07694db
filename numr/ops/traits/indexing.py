"""Gathers and scatters along a dim, and the positions of true elements.
Index tensors are integers; negative indices count from the end."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

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
    def masked_fill(self, x: Tensor, mask: Tensor, value: Any) -> Tensor:
        """x with ``value`` (scalar or 0-d tensor, cast to x's dtype) where the bool mask
        (broadcast to x) is true (torch.masked_fill)."""
    def masked_fill_(self, x: Tensor, mask: Tensor, value: Any) -> Tensor:
        """masked_fill written into x; returns x (not differentiable)."""
    def masked_select(self, x: Tensor, mask: Tensor) -> Tensor:
        """1-d: x's elements where the bool mask is true, row-major (x and mask broadcast)."""
    def masked_scatter(self, x: Tensor, mask: Tensor, source: Tensor) -> Tensor:
        """x with the masked positions (row-major) taking source's first elements in order."""
    def masked_scatter_(self, x: Tensor, mask: Tensor, source: Tensor) -> Tensor:
        """masked_scatter written into x; returns x (not differentiable)."""
    def scatter(self, x: Tensor, dim: int, index: Tensor, src: Any = None, value: Any = None,
                reduce: "str | None" = None) -> Tensor:
        """A copy of x with out[..., index[..., j, ...], ...] = src[..., j, ...] (or the scalar
        value) along dim (torch.scatter); repeated positions keep the LAST in the index's row-major
        order (deterministic); reduce 'add'/'multiply' accumulates instead."""
    def scatter_(self, x: Tensor, dim: int, index: Tensor, src: Any = None, value: Any = None,
                 reduce: "str | None" = None) -> Tensor:
        """scatter written into x; returns x (not differentiable)."""
    def scatter_reduce(self, x: Tensor, dim: int, index: Tensor, src: Tensor, reduce: str,
                       include_self: bool = True) -> Tensor:
        """A copy of x with each indexed position reduced with the src values scattered there:
        'sum', 'prod', 'mean' (integer mean rounds down), 'amax', 'amin' (gradient split evenly
        among ties); x's value joins unless include_self=False (torch.scatter_reduce)."""
    def take(self, x: Tensor, index: Tensor) -> Tensor:
        """x flattened at index (any shape, negative from the end); index's shape (torch.take)."""
    def take_along_dim(self, x: Tensor, indices: Tensor, dim: "int | None" = None) -> Tensor:
        """gather with x and indices broadcast outside dim; dim None: flattened (torch.take_along_dim)."""
    def put(self, x: Tensor, index: Tensor, source: Tensor, accumulate: bool = False) -> Tensor:
        """x (as flattened) with source's elements at index; a repeated index keeps the last, or
        accumulate adds them (torch.put)."""
    def put_(self, x: Tensor, index: Tensor, source: Tensor, accumulate: bool = False) -> Tensor:
        """put written into x; returns x (not differentiable)."""
    def index_fill(self, x: Tensor, dim: int, index: Tensor, value: Any) -> Tensor:
        """x with value (scalar or 0-d tensor) in the slices at the 1-d index along dim."""
    def index_fill_(self, x: Tensor, dim: int, index: Tensor, value: Any) -> Tensor:
        """index_fill written into x; returns x (not differentiable)."""
    def index_copy(self, x: Tensor, dim: int, index: Tensor, source: Tensor) -> Tensor:
        """x with out[..., index[i], ...] = source[..., i, ...] along dim; a repeated index keeps
        the last slice (deterministic)."""
    def index_copy_(self, x: Tensor, dim: int, index: Tensor, source: Tensor) -> Tensor:
        """index_copy written into x; returns x (not differentiable)."""
    def embedding(self, input: Tensor, weight: Tensor, padding_idx: "int | None" = None) -> Tensor:  # noqa: A002
        """weight's rows at the integer input: shape input.shape + (D,); the padding_idx row gets
        no gradient (torch.nn.functional.embedding)."""
    # N-d gathers and scatters (numr/ops/generic/indexing_nd.py)
    def gather_nd(self, x: Tensor, indices: Tensor) -> Tensor:
        """x at the (..., k) integer ``indices`` naming its first k dims: shape indices.shape[:-1] +
        x.shape[k:] (tf.gather_nd, the Rust crate's gather_nd)."""
    def scatter_nd(self, x: Tensor, indices: Tensor, updates: Tensor, accumulate: bool = False) -> Tensor:
        """A copy of x with updates written at gather_nd's positions; a repeated position keeps the
        last update in index order, or accumulate adds (tf.tensor_scatter_nd_update / _add)."""
    def index_put(self, x: Tensor, indices: Any, values: Any, accumulate: bool = False) -> Tensor:
        """A copy of x with x[indices] = values for a tuple of integer/bool index tensors (broadcast
        together) over x's leading dims; repeated positions keep the last, or accumulate adds
        (torch.index_put; numr's index_put_ is the dim-wise in-place primitive instead)."""
    def slice_scatter(self, x: Tensor, src: Tensor, dim: int = 0, start: "int | None" = None,
                      end: "int | None" = None, step: int = 1) -> Tensor:
        """A copy of x with the slice start:end:step along dim replaced by src (torch.slice_scatter)."""
    def select_scatter(self, x: Tensor, src: Tensor, dim: int, index: int) -> Tensor:
        """A copy of x with x.select(dim, index) replaced by src (torch.select_scatter)."""
    def diagonal_scatter(self, x: Tensor, src: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
        """A copy of x with its diagonal (as nr.diagonal(x, offset, dim1, dim2)) replaced by src
        (torch.diagonal_scatter)."""
