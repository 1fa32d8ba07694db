"""COOMatrix: coordinate format, (row, col, value) triples in any order, duplicates allowed
until ``coalesce()`` sums them and sorts the entries row-major."""

from __future__ import annotations

from typing import Any

from ..errors import ShapeError
from . import _structure as st
from ._base import SparseMatrix


class COOMatrix(SparseMatrix):
    """``COOMatrix(indices, values, shape)`` with ``indices`` a (2, nnz) integer tensor or a
    ``(row, col)`` pair (torch.sparse_coo_tensor's and scipy's forms); ``check`` validates
    the index ranges (one scalar read)."""

    format = "coo"

    def __init__(self, indices: Any, values: Any, shape: Any, *, check: bool = True,
                 coalesced: bool = False, device: Any = None, dtype: Any = None):
        op = "COOMatrix"
        self.shape = st.as_shape(op, shape)
        self.values = st.as_values(op, values, device, dtype)
        dev = self.device
        if isinstance(indices, (tuple, list)) and len(indices) == 2:
            row, col = indices
        else:
            idx = indices if hasattr(indices, "ndim") else st.nr_mod().tensor(indices, device=dev)
            if idx.ndim != 2 or idx.shape[0] != 2:
                raise ShapeError(f"{op}: indices must be (2, nnz) or a (row, col) pair, got shape {tuple(idx.shape)}")
            row, col = idx[0], idx[1]
        self.row = st.as_index(op, "row", row, dev)
        self.col = st.as_index(op, "col", col, dev)
        n = self.values.shape[0]
        if self.row.shape[0] != n or self.col.shape[0] != n:
            raise ShapeError(f"{op}: row {self.row.shape}, col {self.col.shape} and values {tuple(self.values.shape)} "
                             "must have the same length")
        self._coalesced = bool(coalesced) or n == 0
        if check and n:
            bad = st.check_bounds(op, "row", self.row, self.shape[0])
            bad = bad | st.check_bounds(op, "col", self.col, self.shape[1])
            st.raise_if(op, bad, f"an index is out of range for shape {self.shape}")

    @property
    def indices(self) -> Any:
        """(2, nnz) int64 coordinates (torch's ``indices()``)."""
        return st.nr_mod().stack([self.row, self.col])

    def coo_parts(self) -> tuple[Any, Any, Any]:
        return self.row, self.col, self.values

    def with_values(self, values: Any) -> COOMatrix:
        return self._share(COOMatrix((self.row, self.col), values, self.shape, check=False,
                                     coalesced=self._coalesced))

    def _map(self, fn: Any) -> COOMatrix:
        return COOMatrix((fn(self.row), fn(self.col)), fn(self.values), self.shape, check=False,
                         coalesced=self._coalesced)

    def is_coalesced(self) -> bool:
        """Known to be sorted row-major without duplicates (torch's is_coalesced)."""
        return self._coalesced

    @property
    def has_canonical_format(self) -> bool:
        if not self._coalesced:
            keys = st.linear_keys("coo", self.row, self.col, self.shape[1], self.shape[0])
            self._coalesced = st.is_strictly_sorted(keys)
        return self._coalesced

    def coalesce(self) -> COOMatrix:
        """Duplicates summed, entries sorted row-major (torch's coalesce, scipy's sum_duplicates)."""
        if self._coalesced:
            return self
        r, c, v = st.coalesce("coalesce", self.row, self.col, self.values, self.shape[0], self.shape[1])
        return COOMatrix((r, c), v, self.shape, check=False, coalesced=True)

    sum_duplicates = coalesce

    def transpose(self) -> COOMatrix:
        return self._share(COOMatrix((self.col, self.row), self.values, self.shape[::-1], check=False), True)

    def tocoo(self) -> COOMatrix:
        return self

    def tocsr(self) -> Any:
        from .compressed import CSRMatrix
        r, c, v = self.coalesce().coo_parts()
        return CSRMatrix(st.compress(r, self.shape[0]), c, v, self.shape, check=False, canonical=True)

    def tocsc(self) -> Any:
        from .compressed import CSCMatrix
        c, r, v = st.coalesce("tocsc", self.col, self.row, self.values, self.shape[1], self.shape[0])
        return CSCMatrix(st.compress(c, self.shape[1]), r, v, self.shape, check=False, canonical=True)
