"""The shift-invert operator of eigs and eigsh (ARPACK's mode 3 with M = I): OPinv =
(A - sigma I)^-1 from one sparse LU of A - sigma I (splu with threshold pivoting at 0.1,
UMFPACK's default: A - sigma I is indefinite, and partial pivoting would triple the fill; CPU
only), so that the eigenvalues nu of OPinv nearest infinity give the eigenvalues
lambda = sigma + 1/nu of A nearest sigma. On a GPU it raises UnsupportedOperation naming the
eigensolver (there is no GPU sparse LU); a caller's own OPinv (any operator with matvec) is
used as given, on any device."""

from __future__ import annotations

from typing import Any

from ..errors import DTypeError, UnsupportedOperation
from ..ops.generic.iterative_operator import LinearOperator, aslinearoperator
from ..tensor import Tensor
from . import _structure as st
from ._base import is_sparse


def shift_invert(op: str, A: Any, sigma: Any, OPinv: Any = None) -> LinearOperator:
    """(A - sigma I)^-1 as a LinearOperator (OPinv when given). A: a numr sparse matrix or a
    dense 2-d Tensor (converted to CSR); a LinearOperator A needs OPinv."""
    from .construct import eye, from_dense
    from .splu import SuperLU
    if OPinv is not None:
        return aslinearoperator(OPinv)
    if isinstance(A, Tensor) and A.ndim == 2:
        A = from_dense(A, "csr")
    if not is_sparse(A):
        raise DTypeError(f"{op}: shift-invert mode (sigma={sigma!r}) needs A as a sparse matrix or a dense 2-d "
                         f"Tensor to factor A - sigma I, or OPinv; got {type(A).__name__}")
    dev = st.nr_mod().device(A.device)
    if dev.type != "cpu":
        raise UnsupportedOperation(dev.type, op, A.dtype, reason=f"shift-invert mode (sigma={sigma!r}) factors "
                                   "A - sigma I by a sparse LU, which runs on the CPU only; move A there with "
                                   ".to('cpu') or pass OPinv")
    d = A.dtype
    if isinstance(sigma, complex) and sigma.imag != 0 and not d.is_complex:
        d = st.nr_mod().complex128 if d.itemsize >= 8 else st.nr_mod().complex64
    sig = complex(sigma) if isinstance(sigma, complex) else float(sigma)
    n = A.shape[0]
    S = A.astype(d) if d != A.dtype else A
    lu = SuperLU(S - eye(n, dtype=d, device=A.device) * sig, op=op, diag_pivot_thresh=0.1)
    return LinearOperator((n, n), lu.solve, lambda x: lu.solve(x, "H"), dtype=lu.dtype, device=A.device)


__all__ = ["shift_invert"]
