"""SparseMatrix: what COO, CSR and CSC share (properties, conversions, operators).

A format keeps int64 index tensors and a 1-d values tensor (a Tensor, or an autograd Var
or DualTensor: every value computation goes through public numr ops, so gradients and
tangents flow). Index tensors are never written in place, so results may share them.
"""

from __future__ import annotations

from typing import Any

from .. import dtypes as dt
from ..errors import UnsupportedOperation
from ..tensor import Tensor
from . import _structure as st


class SparseMatrix:
    """Base of COOMatrix, CSRMatrix and CSCMatrix (2-d, int64 indices, one device)."""

    format = "?"
    ndim = 2
    __array_priority__ = 3000  # NumPy defers to our reflected operators
    __array_ufunc__ = None

    values: Any
    shape: tuple[int, int]
    _plans: dict | None = None  # cached product plans, shared with transposes and with_values copies
    _flip = False  # transposed relative to the matrix that owns _plans

    # ---- properties ----------------------------------------------------------------
    @property
    def dtype(self) -> dt.DType:
        return self.values.dtype

    @property
    def device(self) -> Any:
        return st.plain(self.values).device

    @property
    def nnz(self) -> int:
        """Stored entries, duplicates and explicit zeros included (scipy's nnz)."""
        return int(self.values.shape[0])

    @property
    def layout(self) -> str:
        return {"coo": "sparse_coo", "csr": "sparse_csr", "csc": "sparse_csc"}[self.format]

    def __repr__(self) -> str:
        return (f"<{type(self).__name__} shape={self.shape} nnz={self.nnz} dtype={self.dtype} "
                f"device={self.device}>")

    def __len__(self) -> int:
        return self.shape[0]

    def __bool__(self) -> bool:
        raise ValueError("the truth value of a sparse matrix is ambiguous; use .nnz or .to_dense()")

    # ---- format interface (implemented by each format) --------------------------------
    def coo_parts(self) -> tuple[Any, Any, Any]:
        """(row, col, values) of the stored entries, in storage order."""
        raise NotImplementedError

    def with_values(self, values: Any) -> SparseMatrix:
        """The same structure with other values (same length)."""
        raise NotImplementedError

    def tocoo(self) -> Any:
        raise NotImplementedError

    def tocsr(self) -> Any:
        raise NotImplementedError

    def tocsc(self) -> Any:
        raise NotImplementedError

    def coalesce(self) -> SparseMatrix:
        raise NotImplementedError

    def transpose(self) -> SparseMatrix:
        raise NotImplementedError

    def _share(self, other: SparseMatrix, flip: bool = False) -> SparseMatrix:
        """``other`` has this structure (transposed when ``flip``): share the cached plans."""
        if self._plans is None:
            self._plans = {}
        other._plans, other._flip = self._plans, self._flip ^ flip
        return other

    def csr_plan(self) -> tuple[Any, Any, Any]:
        """(indptr, indices, perm): the stored entries in row order, duplicates kept (perm None
        when the storage order already is). Built once (one stable sort) and shared with
        transposes and with_values copies, so repeated products (iterative solvers, A.T @ x)
        run the CSR kernel."""
        if self.format == "csr":
            return self.indptr, self.indices, None
        if self._plans is None:
            self._plans = {}
        key = ("csr", self._flip)
        plan = self._plans.get(key)
        if plan is None:
            row, col, _ = self.coo_parts()
            plan = self._plans[key] = st.row_plan(row, col, self.shape)
        return plan

    # ---- conversions ------------------------------------------------------------------
    def asformat(self, format: str | None) -> SparseMatrix:
        """This matrix in ``format`` ('coo', 'csr', 'csc'; None keeps it)."""
        if format is None or format == self.format:
            return self
        conv = {"coo": self.tocoo, "csr": self.tocsr, "csc": self.tocsc}.get(format)
        if conv is None:
            raise ValueError(f"sparse: unknown format {format!r}; expected 'coo', 'csr' or 'csc'")
        return conv()

    def to_dense(self) -> Any:
        """The dense (rows, cols) tensor; duplicates add up."""
        nr = st.nr_mod()
        row, col, values = self.coo_parts()
        n, m = self.shape
        if not self.nnz:
            return nr.zeros(self.shape, dtype=self.dtype, device=self.device)
        return st.add_at(n * m, st.linear_keys("to_dense", row, col, m, n), values).reshape(self.shape)

    todense = to_dense

    def toarray(self) -> Any:
        """A NumPy array (scipy's name; host copy)."""
        return st.plain(self.to_dense()).numpy()

    def to_scipy(self) -> Any:
        """The scipy.sparse array of this format (host copies of the index and value arrays)."""
        import scipy.sparse as sp
        if self.format == "coo":
            row, col, values = self.coo_parts()
            return sp.coo_array((_host(values), (_host(row), _host(col))), shape=self.shape)
        cls = sp.csr_array if self.format == "csr" else sp.csc_array
        return cls((_host(self.values), _host(self.indices), _host(self.indptr)), shape=self.shape)

    def to(self, device: Any = None, dtype: Any = None) -> SparseMatrix:
        """A copy on ``device`` and/or with values of ``dtype``."""
        out = self if dtype is None else self.astype(dtype)
        if device is None or st.nr_mod().device(device) == self.device:
            return out
        if not isinstance(self.values, Tensor):
            raise UnsupportedOperation("sparse", "to", self.dtype, reason="move the values tensor before wrapping "
                                       "it in a Var or DualTensor")
        return out._map(lambda t: t.to(device))

    def cpu(self) -> SparseMatrix:
        return self.to("cpu")

    def astype(self, dtype: Any) -> SparseMatrix:
        nr = st.nr_mod()
        d = nr.dtype(dtype)
        return self if d == self.dtype else self.with_values(nr.cast(self.values, d))

    def copy(self) -> SparseMatrix:
        return self._map(lambda t: t.clone())

    def _map(self, fn: Any) -> SparseMatrix:
        raise NotImplementedError

    @property
    def T(self) -> SparseMatrix:
        return self.transpose()

    t = property(lambda self: self.transpose)  # torch's A.t()

    @property
    def H(self) -> SparseMatrix:
        return self.conj().transpose()

    # ---- element-wise maps that keep zeros zero ---------------------------------------
    def abs(self) -> SparseMatrix:
        return self.with_values(st.nr_mod().abs(self.values))

    def conj(self) -> SparseMatrix:
        return self.with_values(st.nr_mod().conj(self.values)) if self.dtype.kind == "c" else self

    def sqrt(self) -> SparseMatrix:
        return self.with_values(st.nr_mod().sqrt(self.values))

    def power(self, p: Any) -> SparseMatrix:
        """Element-wise values ** p (scipy's power; p == 0 would fill the zeros, so it raises)."""
        if isinstance(p, (int, float)) and p == 0:
            raise UnsupportedOperation("sparse", "power", self.dtype, reason="zero power would densify the matrix")
        return self.with_values(st.nr_mod().pow(self.values, p))

    def __neg__(self) -> SparseMatrix:
        return self.with_values(-self.values)

    def __pos__(self) -> SparseMatrix:
        return self

    __abs__ = abs

    def __getitem__(self, key: Any) -> Any:
        """a[i, j] -> 0-d tensor, a[i] / a[:, j] -> dense 1-d, slices (any step) -> sparse."""
        from .combine import getitem
        return getitem(self, key)

    # ---- operators (numr/sparse/_ops.py) ----------------------------------------------
    def __matmul__(self, other: Any) -> Any:
        from ._ops import matmul
        return matmul(self, other)

    def __rmatmul__(self, other: Any) -> Any:
        from ._ops import rmatmul
        return rmatmul(other, self)

    def dot(self, other: Any) -> Any:
        return self @ other

    def matmul(self, other: Any) -> Any:
        return self @ other

    def __add__(self, other: Any) -> Any:
        from ._ops import add
        return add(self, other)

    def __radd__(self, other: Any) -> Any:
        from ._ops import add
        return add(self, other)

    def __sub__(self, other: Any) -> Any:
        from ._ops import add
        return add(self, other, alpha=-1)

    def __rsub__(self, other: Any) -> Any:
        from ._ops import add
        return add(-self, other)

    def multiply(self, other: Any) -> Any:
        """Element-wise product (scipy's multiply): sparse with a sparse, dense or scalar operand."""
        from ._ops import multiply
        return multiply(self, other)

    mul = multiply
    __mul__ = multiply
    __rmul__ = multiply

    def __truediv__(self, other: Any) -> Any:
        from ._ops import divide
        return divide(self, other)

    div = __truediv__

    def sum(self, dim: int | None = None, axis: int | None = None) -> Any:
        """Sum of all entries (0-d) or along dim 0 / 1 (1-d dense); ints sum to int64."""
        from ._ops import sparse_sum
        return sparse_sum(self, axis if dim is None else dim)

    def mean(self, dim: int | None = None, axis: int | None = None) -> Any:
        """Mean over all m * n entries (zeros count) or along a dim."""
        d = axis if dim is None else dim
        s = self.sum(d)
        n = self.shape[0] * self.shape[1] if d is None else self.shape[d if d >= 0 else d + 2]
        nr = st.nr_mod()
        s = nr.cast(s, nr.float64) if not s.dtype.is_floating_point and s.dtype.kind != "c" else s
        return s / n if n else s * float("nan")

    def diagonal(self, k: int = 0) -> Any:
        """The k-th diagonal as a 1-d dense tensor (duplicates add up)."""
        from ._ops import diagonal
        return diagonal(self, k)

    def getnnz(self, axis: int | None = None) -> Any:
        """Stored entries in total (int) or per row (axis=1) / column (axis=0), int64 tensor."""
        from ._ops import getnnz
        return getnnz(self, axis)

    def nnz_per_row(self) -> Any:
        return self.getnnz(1)

    def nnz_per_col(self) -> Any:
        return self.getnnz(0)

    def count_nonzero(self) -> int:
        """Entries whose (summed) value is not zero."""
        nr = st.nr_mod()
        c = self.coalesce()
        return int(nr.count_nonzero(st.plain(c.values)).item()) if c.nnz else 0

    def eliminate_zeros(self) -> SparseMatrix:
        """The same matrix without stored zeros (a new matrix; scipy's works in place)."""
        from ._ops import eliminate_zeros
        return eliminate_zeros(self)


def _host(t: Any) -> Any:
    return st.plain(t).numpy()


def is_sparse(x: Any) -> bool:
    """x is a numr sparse matrix (COO, CSR or CSC)."""
    return isinstance(x, SparseMatrix)
