"""Einstein summation (np.einsum / torch.einsum)."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from ...tensor import Tensor


@runtime_checkable
class EinsumOps(Protocol):
    def einsum(self, subscripts: str, *operands: Tensor) -> Tensor:
        """Sum of products over the indices of ``subscripts`` ("bij,bjk->bik"), NumPy/torch
        semantics: implicit output (indices seen once, in ASCII order) or explicit after "->";
        "..." for broadcast dims (size-1 dims broadcast; summed when an explicit output lacks
        "...", as torch); a repeated index in one
        operand takes its diagonal; indices absent from the output are summed. Operands may
        come as a list; dtypes promote. Contracted pairwise in a greedy order, each pair one
        batched matmul."""
