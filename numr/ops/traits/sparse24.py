"""The 2:4 structured sparse kernels a backend may implement: compressed @ dense, and pruning.

Not in FAMILIES on purpose (as SparseOps): the public API is ``nr.prune_to_24``,
``nr.sparse_24_matmul`` and the ``Sparse24Tensor`` class (numr/sparse/sparse24.py), whose
operand is not a Tensor. Every client inherits the composite of GenericOps
(numr/ops/generic/sparse24.py: decompress, then matmul; pruning by ranks of public ops); the
CPU (Cython), CUDA and WebGPU backends replace the product with kernels that read the compressed
form, the CPU the pruning too.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from ...tensor import Tensor


@runtime_checkable
class Sparse24Ops(Protocol):
    def sparse24_matmul(self, values: Tensor, meta: Tensor, dense: Tensor) -> Tensor:
        """(m, n) = A @ dense for the 2:4 sparse A (m, k) given by ``values`` (m, k/2: the two
        kept entries of each group of 4 columns, in column order) and uint8 ``meta`` (m, k/4:
        bits 0-1 the first kept column within the group, bits 2-3 the second), and a 2-d
        ``dense`` (k, n) of any layout. Floating dtypes; values' and dense's promote."""

    def sparse24_prune(self, x: Tensor) -> tuple[Tensor, Tensor]:
        """(values (..., k/2), uint8 meta (..., k/4)) of x (..., k), k a multiple of 4: the 2
        largest magnitudes of every 4 consecutive elements of the last dim, in column order
        (ties to the lower index, NaN as the largest)."""
