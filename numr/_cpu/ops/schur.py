"""CPU implementation of the Schur family (numr/ops/traits/schur.py): schur runs the native kernel
of numr/_cpu/kernels/linalg_schur.h (eig's Hessenberg reduction and QR iterations with the Schur
vectors kept); funm and the CPU's sqrtm are Schur methods on the complex Schur form with native
triangular recurrences (Parlett; Higham's square root), whose residual on a nearly defective matrix
is scipy's (the GPUs keep the Denman-Beavers sqrtm of numr/ops/generic/matfunc.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ... import dtypes as dt
from ...errors import DTypeError, ShapeError
from ...ops.generic.decomp import _mH
from ...ops.prepare_decomp import square
from ...shapes import broadcast_shapes
from ...tensor import Tensor
from .. import storage
from .decomp import _copy, _info, _info_buf, _numel, _out, _run

SCHUR, SQRT_TRI, PARLETT, QZ, QZ_VEC, RSF2CSF = 11, 12, 13, 14, 15, 16


def _complex(d: dt.DType) -> dt.DType:
    return d if d.kind == "c" else dt.complex128 if d is dt.float64 else dt.complex64


class SchurCpu:
    """Mixin of CpuClient: schur, funm and the Schur sqrtm (rsf2csf: GenericOps' composite)."""

    def schur(self, a: Tensor, output: str = "real") -> tuple[Tensor, Tensor]:
        if output not in ("real", "complex", "r", "c"):
            raise ValueError(f"schur: output must be 'real' or 'complex', got {output!r}")
        A, d, n = square("schur", self, a)
        d = _complex(d) if output[0] == "c" else d
        T = _copy(self, A, A.shape, d)
        Z = storage.empty(self.device, A.shape, d)
        info = _info_buf(A.shape[:-2])
        if T.size:
            _run("schur", SCHUR, d, _numel(A.shape[:-2]), n, n, 0, 0, 0, T, Z, info=info)
        _info("schur", A.shape[:-2], info, "the QR iteration did not converge")
        rd = A.dtype if A.dtype.kind == "c" or output[0] == "r" else None
        return (_out(T, rd), _out(Z, rd)) if rd is not None else (T, Z)

    def rsf2csf(self, T: Tensor, Z: Tensor) -> tuple[Tensor, Tensor]:
        """The native rotations on complex copies (the GPUs run numr/ops/generic/schur.py's)."""
        T, Z, _ = self._pencil("rsf2csf", T, Z, same_shape=True)
        if T.size:
            _run("rsf2csf", RSF2CSF, T.dtype, _numel(T.shape[:-2]), T.shape[-1], T.shape[-1], 0, 0, 0, T, Z)
        return T, Z

    def _complex_schur(self, A: Tensor, d: dt.DType) -> tuple[Tensor, Tensor]:
        """The complex Schur form of A in (the complex type of) d: a real A through its real form
        and rsf2csf (half the work of complex QR)."""
        A = A if A.dtype is d else self.cast(A, d)
        return self.rsf2csf(*self.schur(A, "real")) if d.kind != "c" else self.schur(A, "complex")

    def _triangular(self, k: int, op: str, T: Tensor, F: Tensor | None = None) -> Tensor:
        """Kernel ``k`` (the triangular square root, or Parlett into F) on contiguous copies."""
        n = T.shape[-1]
        a = _copy(self, T, T.shape, T.dtype)
        f = None if F is None else _copy(self, F, F.shape, F.dtype)
        if a.size:
            _run(op, k, T.dtype, _numel(T.shape[:-2]), n, n, 0, 0, 0, a, f)
        return a if f is None else f

    def funm(self, a: Tensor, func: Callable[[Tensor], Tensor]) -> Tensor:
        import numr as nr
        A, d, _ = square("funm", self, a)
        if not callable(func):
            raise DTypeError(f"funm: func must be an element-wise callable, got {type(func).__name__}")
        if A.size == 0:
            return A * 1
        T, Z = self._complex_schur(A, d)
        fd = func(nr.diagonal(T, 0, -2, -1))
        if not isinstance(fd, Tensor) or tuple(fd.shape) != tuple(T.shape[:-1]):
            raise DTypeError(f"funm: func must map the (..., n) eigenvalues element-wise, got "
                             f"{getattr(fd, 'shape', type(fd).__name__)}")
        F = self._triangular(PARLETT, "funm", T, nr.diag_embed(self.cast(fd, T.dtype)))
        X = Z @ F @ _mH(Z)
        return _out(X if A.dtype.kind == "c" else self.real(X), A.dtype)

    def sqrtm(self, A: Tensor) -> Tensor:
        """The Schur method (Higham): complex Schur form, its upper-triangular root, Z R Z^H; a real
        matrix gives its real principal root (NaN without one: a negative real eigenvalue)."""
        import numr as nr
        A, d, _ = square("sqrtm", self, A)
        if A.size == 0:
            return A * 1
        T, Z = self._complex_schur(A, d)
        X = Z @ self._triangular(SQRT_TRI, "sqrtm", T) @ _mH(Z)
        if A.dtype.kind == "c":
            return X
        w = nr.diagonal(T, 0, -2, -1)  # no real principal root: a negative real eigenvalue
        tol = 64 * float(dt.finfo(d).eps) * nr.amax(nr.abs(w), dim=-1, keepdim=True)
        neg = nr.any((self.real(w) < 0) & (nr.abs(self.imag(w)) <= tol), dim=-1)
        return _out(nr.where(neg.reshape(tuple(A.shape[:-2]) + (1, 1)), float("nan"), self.real(X)), A.dtype)

    def _pencil(self, op: str, A: Tensor, B: Tensor, same_shape: bool = False,
                real: bool = False) -> tuple[Tensor, Tensor, dt.DType]:
        """Contiguous copies of the pair (A, B) over their broadcast batch (one shape with
        ``same_shape``) in the complex type both compute in (their real type with ``real`` when
        neither is complex), and that dtype."""
        A, da, n = square(op, self, A)
        B, db, m = square(op, self, B)
        if m != n or (same_shape and tuple(A.shape) != tuple(B.shape)):
            raise ShapeError(f"{op}: {tuple(A.shape)} and {tuple(B.shape)} must be n x n alike")
        cd = dt.promote_types(da, db)
        cd = cd if real and cd.kind != "c" else _complex(cd)
        shape = broadcast_shapes(tuple(A.shape[:-2]), tuple(B.shape[:-2]), op=op) + (n, n)
        return _copy(self, A, shape, cd), _copy(self, B, shape, cd), cd

    def qz(self, A: Tensor, B: Tensor, output: str = "real") -> tuple[Tensor, Tensor, Tensor, Tensor]:
        if output not in ("real", "complex", "r", "c"):
            raise ValueError(f"qz: output must be 'real' or 'complex', got {output!r}")
        a, b, cd = self._pencil("qz", A, B, real=output[0] == "r")
        Q = storage.empty(self.device, a.shape, cd)
        Z = storage.empty(self.device, a.shape, cd)
        info = _info_buf(a.shape[:-2])
        if a.size:
            _run("qz", QZ, cd, _numel(a.shape[:-2]), a.shape[-1], a.shape[-1], 0, 0, 0, a, b, Q, Z, info=info)
        _info("qz", a.shape[:-2], info, "the QZ iteration did not converge")
        return a, b, Q, Z

    def _geneig(self, A: Tensor, B: Tensor, vectors: bool, homogeneous: bool) -> Any:
        """scipy.linalg.eig(a, b): w = alpha / beta off the complex QZ form (inf where beta = 0,
        NaN for 0/0) or the (alpha, beta) rows, V = Z X (X: the triangular pencil's vectors) with
        unit columns."""
        import numr as nr
        op = "eig" if vectors else "eigvals"
        AA, BB, _, Z = self.qz(A, B, "complex")
        al, be = nr.diagonal(AA, 0, -2, -1), nr.diagonal(BB, 0, -2, -1)
        if homogeneous:
            w = nr.stack([al, be], -2)
        else:
            w = nr.where(be == 0, nr.where(al == 0, complex(float("nan"), float("nan")), float("inf")),
                         al / nr.where(be == 0, 1.0, be))
        if not vectors:
            return w
        X = storage.empty(self.device, AA.shape, AA.dtype)
        if X.size:
            _run(op, QZ_VEC, AA.dtype, _numel(AA.shape[:-2]), AA.shape[-1], AA.shape[-1], 0, 0, 0, AA, BB, X)
        V = Z @ X
        return w, V / nr.cast(nr.sqrt(nr.sum(nr.abs(V) ** 2, dim=-2, keepdim=True)), V.dtype)
