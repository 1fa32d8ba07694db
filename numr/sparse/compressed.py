"""CSRMatrix and CSCMatrix: compressed rows / columns. ``indptr[i]:indptr[i+1]`` are the
entries of major line i (a row of CSR, a column of CSC), ``indices`` their minor index.
Within a line the indices may be unsorted or repeat (as in scipy) until ``coalesce()``."""

from __future__ import annotations

from typing import Any

from ..errors import ShapeError
from . import _structure as st
from ._base import SparseMatrix


class _Compressed(SparseMatrix):
    _by_row = True

    def __init__(self, indptr: Any, indices: Any, values: Any, shape: Any, *, check: bool = True,
                 canonical: bool = False, device: Any = None, dtype: Any = None):
        op = type(self).__name__
        self.shape = st.as_shape(op, shape)
        self.values = st.as_values(op, values, device, dtype)
        dev = self.device
        self.indptr = st.as_index(op, "indptr", indptr, dev)
        self.indices = st.as_index(op, "indices", indices, dev)
        n_major, n_minor = self._dims()
        nnz = self.values.shape[0]
        if self.indices.shape[0] != nnz:
            raise ShapeError(f"{op}: indices {self.indices.shape} and values {tuple(self.values.shape)} "
                             "must have the same length")
        if self.indptr.shape[0] != n_major + 1:
            raise ShapeError(f"{op}: indptr has {self.indptr.shape[0]} entries; shape {self.shape} needs "
                             f"{n_major + 1}")
        self._canonical = bool(canonical) or nnz == 0
        self._major = None  # the expanded major index, computed once
        if check:
            bad = st.indptr_bad(self.indptr, nnz)
            if nnz:
                bad = bad | st.check_bounds(op, "indices", self.indices, n_minor)
            st.raise_if(op, bad, f"indptr must start at 0, never decrease and end at nnz = {nnz}, and "
                                 f"indices lie in [0, {n_minor}) for shape {self.shape}")

    def _dims(self) -> tuple[int, int]:
        return self.shape if self._by_row else self.shape[::-1]

    def _new(self, indptr: Any, indices: Any, values: Any, canonical: bool) -> Any:
        return type(self)(indptr, indices, values, self.shape, check=False, canonical=canonical)

    def major(self) -> Any:
        """The major index of each entry (row ids of CSR, column ids of CSC)."""
        if self._major is None:
            self._major = st.expand(self.indptr, self.nnz)
        return self._major

    def coo_parts(self) -> tuple[Any, Any, Any]:
        m = self.major()
        return (m, self.indices, self.values) if self._by_row else (self.indices, m, self.values)

    def with_values(self, values: Any) -> Any:
        out = self._new(self.indptr, self.indices, values, self._canonical)
        out._major = self._major
        return self._share(out)

    def _map(self, fn: Any) -> Any:
        return self._new(fn(self.indptr), fn(self.indices), fn(self.values), self._canonical)

    @property
    def has_canonical_format(self) -> bool:
        """Indices sorted within each line and no duplicates."""
        if not self._canonical:
            n_major, n_minor = self._dims()
            keys = st.linear_keys(self.format, self.major(), self.indices, n_minor, n_major)
            self._canonical = st.is_strictly_sorted(keys)
        return self._canonical

    has_sorted_indices = has_canonical_format

    def is_coalesced(self) -> bool:
        return self.has_canonical_format

    def coalesce(self) -> Any:
        """Indices sorted within each line, duplicates summed (scipy's sum_duplicates)."""
        if self.has_canonical_format:
            return self
        n_major, n_minor = self._dims()
        ma, mi, v = st.coalesce("coalesce", self.major(), self.indices, self.values, n_major, n_minor, known=False)
        return self._new(st.compress(ma, n_major), mi, v, True)

    sum_duplicates = sort_indices = coalesce

    def check_format(self, full_check: bool = True) -> None:
        """Raise IndexOutOfRange when the structure is malformed; with full_check also when
        indices are unsorted within a line or repeat (torch's invariants)."""
        type(self)(self.indptr, self.indices, self.values, self.shape, check=True)
        if full_check and not self.has_canonical_format:
            st.raise_if(self.format, st.nr_mod().tensor(True), "indices are unsorted or repeat within a line")

    def tocoo(self) -> Any:
        from .coo import COOMatrix
        r, c, v = self.coo_parts()
        return COOMatrix((r, c), v, self.shape, check=False, coalesced=self._by_row and self._canonical)


class CSRMatrix(_Compressed):
    """``CSRMatrix(indptr, indices, values, shape)``: compressed sparse rows (scipy's
    csr_array, torch.sparse_csr_tensor: crow_indices = indptr, col_indices = indices)."""

    format = "csr"
    _by_row = True

    crow_indices = property(lambda self: self.indptr)
    col_indices = property(lambda self: self.indices)

    def transpose(self) -> Any:
        out = CSCMatrix(self.indptr, self.indices, self.values, self.shape[::-1], check=False,
                        canonical=self._canonical)
        out._major = self._major
        return self._share(out, True)

    def tocsr(self) -> CSRMatrix:
        return self

    def tocsc(self) -> Any:
        return self.tocoo().tocsc()


class CSCMatrix(_Compressed):
    """``CSCMatrix(indptr, indices, values, shape)``: compressed sparse columns (scipy's
    csc_array, torch.sparse_csc_tensor: ccol_indices = indptr, row_indices = indices)."""

    format = "csc"
    _by_row = False

    ccol_indices = property(lambda self: self.indptr)
    row_indices = property(lambda self: self.indices)

    def transpose(self) -> CSRMatrix:
        out = CSRMatrix(self.indptr, self.indices, self.values, self.shape[::-1], check=False,
                        canonical=self._canonical)
        out._major = self._major
        return self._share(out, True)

    def tocsc(self) -> CSCMatrix:
        return self

    def tocsr(self) -> CSRMatrix:
        return self.tocoo().tocsr()
