"""Sorting along a dim, and what is built on it: argsort, top-k, binary search and unique.

One total order everywhere: numbers in ascending order, -0.0 equal to 0.0, and NaN greater
than every number (last ascending, first descending, as torch.sort and np.sort). Every
backend's sort is stable (equal keys keep their order), so indices are the same on every
backend. bool, integer and real float dtypes; complex raises UnsupportedDType."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from ...tensor import Tensor


@runtime_checkable
class SortingOps(Protocol):
    def sort(self, x: Tensor, dim: int = -1, descending: bool = False,
             stable: bool = False) -> tuple[Tensor, Tensor]:
        """(values, int64 indices) of x sorted along dim (torch.sort); always stable, ``stable``
        is accepted for torch compatibility. A 0-d tensor sorts to itself with index 0."""
    def argsort(self, x: Tensor, dim: int = -1, descending: bool = False, stable: bool = False) -> Tensor:
        """The int64 indices that sort x along dim (sort's second result)."""
    def topk(self, x: Tensor, k: int, dim: int = -1, largest: bool = True,
             sorted: bool = True) -> tuple[Tensor, Tensor]:
        """(values, int64 indices) of the k largest (or smallest) elements along dim, in sort
        order (torch.topk); ties go to the lower index. 0 <= k <= size of dim."""
    def searchsorted(self, sorted_sequence: Tensor, values: Any, right: bool = False) -> Tensor:
        """int64 insertion points of values into sorted_sequence's last dim that keep it sorted
        (torch.searchsorted; np.searchsorted with side="right" when right). sorted_sequence is
        1-d, or N-d with leading dims equal to values'; NaN is the largest key."""
    def unique(self, x: Tensor, return_inverse: bool = False, return_counts: bool = False,
               dim: int | None = None) -> Any:
        """The sorted distinct values of x (flattened when dim is None; distinct slices along
        dim otherwise), with the int64 inverse (x's shape, or the size of dim) and counts when
        asked, as a tuple (np.unique / torch.unique). NaNs collapse into one, as in NumPy."""
    # runs of equal neighbours (numr/ops/generic/sorting_consecutive.py)
    def unique_consecutive(self, x: Tensor, return_inverse: bool = False, return_counts: bool = False,
                           dim: int | None = None) -> Any:
        """x with each run of equal consecutive elements (slices along dim when given; x flattened
        otherwise) kept once, with the int64 inverse and run lengths when asked, as a tuple
        (torch.unique_consecutive). NaN differs from NaN, as in torch."""
