"""Linear operators and the shared preparation of the iterative solvers (numr.sparse.linalg).

A solver sees every operator through ``LinearOperator.matvec``: a dense 2-d numr Tensor, an
object with ``.matvec`` or ``@`` and ``.shape`` (numr's sparse matrices), a callable (for the
preconditioner M) or a LinearOperator. The solvers keep vectors and scalars on the device and
read one small vector of scalars to the host per iteration (``read``) for their tests.

Complex systems (complex64/complex128, cpu and cuda) follow scipy: inner products conjugate the
first argument (``vdot``), norms are real (``norm2``), and ``read`` returns complex numbers for
complex scalars. A real system takes exactly the real code path (one dtype test per product)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...dtypes import DType, real_of
from ...errors import DTypeError, ShapeError, UnsupportedDType
from ...tensor import Tensor


class LinearOperator:
    """A square or rectangular operator given by its action: ``matvec(x) -> A x`` (a numr Tensor
    of shape (shape[1],) to one of shape (shape[0],)) and optionally ``rmatvec(x) -> A^H x``
    (A^T x for a real operator)."""

    def __init__(self, shape: tuple[int, int], matvec: Callable[[Tensor], Tensor],
                 rmatvec: Callable[[Tensor], Tensor] | None = None, dtype: Any = None,
                 device: Any = None) -> None:
        import numr as nr
        shape = tuple(int(s) for s in shape)
        if len(shape) != 2 or min(shape) < 0:
            raise ShapeError(f"LinearOperator: shape must be two sizes >= 0, got {shape}")
        self.shape = shape
        self._matvec = matvec
        self._rmatvec = rmatvec
        self.dtype: DType | None = None if dtype is None else nr.dtype(dtype)
        self.device = device  # where eigsh makes its start vector when no v0 is given

    def matvec(self, x: Tensor) -> Tensor:
        """A x."""
        return self._matvec(x)

    def rmatvec(self, x: Tensor) -> Tensor:
        """A^H x (raises when the operator was made without rmatvec)."""
        if self._rmatvec is None:
            from ...errors import UnsupportedOperation
            raise UnsupportedOperation("LinearOperator", "rmatvec",
                                       reason=f"the operator of shape {self.shape} was made without rmatvec")
        return self._rmatvec(x)

    def __matmul__(self, x: Tensor) -> Tensor:
        return self.matvec(x)

    def __repr__(self) -> str:
        return f"<{self.shape[0]}x{self.shape[1]} LinearOperator of dtype {self.dtype}>"


def aslinearoperator(A: Any) -> LinearOperator:
    """A as a LinearOperator: a 2-d Tensor, an object with ``.matvec`` or ``@`` and ``.shape``."""
    import numr as nr
    if isinstance(A, LinearOperator):
        return A
    if isinstance(A, Tensor):
        if A.ndim != 2:
            raise ShapeError(f"aslinearoperator: a Tensor operator must be 2-d, got shape {A.shape}")
        rm = (lambda x, At=A.T: At @ x) if not A.dtype.is_complex else (lambda x, Ah=nr.conj(A.T): Ah @ x)
        return LinearOperator(A.shape, lambda x: A @ x, rm, A.dtype, A.device)
    shape = getattr(A, "shape", None)
    if shape is None or len(tuple(shape)) != 2:
        raise ShapeError(f"aslinearoperator: {type(A).__name__} has no 2-d shape")
    dtype, dev = _dtype_or_none(getattr(A, "dtype", None)), getattr(A, "device", None)
    rm = getattr(A, "rmatvec", None)
    if rm is None and hasattr(A, "T"):  # a sparse matrix: A^H x through its transpose
        rm = (lambda x: A.T @ x) if dtype is None or not dtype.is_complex else (lambda x: nr.conj(A.T @ nr.conj(x)))
        if dtype is not None and dtype.is_complex and hasattr(A, "H"):
            rm = (lambda x: A.H @ x)
    if hasattr(A, "matvec"):
        return LinearOperator(tuple(shape), A.matvec, rm, dtype, dev)
    if hasattr(A, "__matmul__"):
        return LinearOperator(tuple(shape), lambda x: A @ x, rm, dtype, dev)
    raise ShapeError(f"aslinearoperator: {type(A).__name__} has neither matvec nor @")


def _dtype_or_none(dtype: Any) -> DType | None:
    import numr as nr
    try:
        return None if dtype is None else nr.dtype(dtype)
    except Exception:  # a foreign dtype object (e.g. NumPy's on a scipy matrix) says nothing here
        return None


def jacobi(A: Any) -> LinearOperator:
    """The Jacobi (diagonal) preconditioner M = diag(A)^-1 of a dense Tensor or an operator with
    ``.diagonal()``; a zero diagonal entry is left out (treated as 1)."""
    import numr as nr
    if isinstance(A, Tensor):
        if A.ndim != 2 or A.shape[0] != A.shape[1]:
            raise ShapeError(f"jacobi: needs a square 2-d matrix, got shape {A.shape}")
        d = nr.diagonal(A, 0, 0, 1)
    elif hasattr(A, "diagonal"):
        d = A.diagonal()
    else:
        raise ShapeError(f"jacobi: {type(A).__name__} has no diagonal (give a Tensor or a sparse matrix)")
    inv = nr.where(d == 0, 1, 1 / nr.where(d == 0, 1, d))
    hinv = nr.conj(inv) if inv.dtype.is_complex else inv  # rmatvec is M^H x
    return LinearOperator((d.shape[0], d.shape[0]), lambda x: inv * x, lambda x: hinv * x, d.dtype, d.device)


class System:
    """A prepared solve: the operator, preconditioner, right-hand side, start and tolerance."""

    def __init__(self, name: str, A: Any, b: Tensor, x0: Any, M: Any, rtol: float, atol: float,
                 maxiter: int | None, default_iters: int) -> None:
        import numr as nr
        self.name = name
        if not isinstance(b, Tensor):
            raise DTypeError(f"{name}: b must be a numr Tensor, got {type(b).__name__}")
        self.A = aslinearoperator(A)
        n, m = self.A.shape
        if n != m:
            raise ShapeError(f"{name}: A must be square, got shape {self.A.shape}")
        if b.ndim == 2 and b.shape[1] == 1:
            b = b.reshape((b.shape[0],))
        if b.ndim != 1 or b.shape[0] != n:
            raise ShapeError(f"{name}: b of shape {b.shape} does not match A of shape {self.A.shape}")
        dt = b.dtype if self.A.dtype is None else nr.result_type(self.A.dtype, b.dtype)
        for what, d in (("A", self.A.dtype), ("b", b.dtype), ("solve", dt)):
            if d is not None and (d.kind not in "fc" or d.itemsize < 4):
                raise DTypeError(f"{name}: {what} has dtype {d}; the iterative solvers take float32, float64, "
                                 f"complex64 or complex128 (A {self.A.dtype}, b {b.dtype})")
        self.n, self.dtype, self.device = n, dt, b.device
        self.complex = dt.is_complex
        self.real_dtype = real_of(dt)  # the dtype of norms, and of MINRES's Lanczos scalars
        try:
            self.b = b.astype(dt) if b.dtype != dt else b
            self.x = nr.zeros((n,), dtype=dt, device=b.device) if x0 is None else None
        except UnsupportedDType as e:  # a complex solve on a backend without complex (wgpu)
            raise UnsupportedDType(e.backend, name, dt, reason=f"b of dtype {b.dtype} on {b.device}, A of dtype "
                                   f"{self.A.dtype}: {e}") from e
        if x0 is not None:
            if not isinstance(x0, Tensor):
                raise DTypeError(f"{name}: x0 must be a numr Tensor, got {type(x0).__name__}")
            if tuple(x0.shape) == (n, 1):
                x0 = x0.reshape((n,))
            if tuple(x0.shape) != (n,):
                raise ShapeError(f"{name}: x0 of shape {x0.shape} does not match A of shape {self.A.shape}")
            self.x = x0.astype(dt) + 0 if x0.dtype != dt else x0 + 0  # a fresh tensor to update
        self.M = None if M is None else (M if callable(M) and not hasattr(M, "shape") else _checked(name, M, n))
        self.bnorm = float(nr.vector_norm(self.b).item())
        self.tol = max(float(atol), float(rtol) * self.bnorm)
        if float(rtol) < 0 or float(atol) < 0:
            raise ValueError(f"{name}: rtol and atol must be >= 0, got {rtol} and {atol}")
        self.maxiter = default_iters * n if maxiter is None else int(maxiter)
        self.eps = float(nr.finfo(self.real_dtype).eps)
        self.tiny = float(nr.finfo(self.real_dtype).tiny)

    def _vector(self, y: Any, what: str) -> Tensor:
        """An operator's result, checked: an (n,) Tensor (an (n, 1) one is flattened)."""
        shape = tuple(getattr(y, "shape", ()))
        if shape == (self.n, 1):
            return y.reshape((self.n,))
        if not isinstance(y, Tensor) or shape != (self.n,):
            raise ShapeError(f"{self.name}: {what} returned {type(y).__name__} of shape {shape}, expected a "
                             f"Tensor of shape ({self.n},)")
        return y

    def matvec(self, x: Tensor) -> Tensor:
        return self._vector(self.A.matvec(x), "A's matvec")

    def psolve(self, x: Tensor) -> Tensor:
        """M x (the identity without a preconditioner)."""
        if self.M is None:
            return x
        y = self.M(x) if not isinstance(self.M, LinearOperator) else self.M.matvec(x)
        return self._vector(y, "the preconditioner M")

    def residual(self, x: Tensor) -> Tensor:
        return self.b - self.matvec(x)


def _checked(name: str, M: Any, n: int) -> LinearOperator:
    op = aslinearoperator(M)
    if op.shape != (n, n):
        raise ShapeError(f"{name}: preconditioner M of shape {op.shape} does not match A of shape ({n}, {n})")
    return op


def dot(a: Tensor, b: Tensor) -> Tensor:
    """a . b as a 0-d tensor on the device (no conjugation: real operands)."""
    return a @ b


def vdot(a: Tensor, b: Tensor) -> Tensor:
    """conj(a) . b as a 0-d tensor (a . b for real a: the same single product)."""
    import numr as nr
    return nr.conj(a) @ b if a.dtype.is_complex else a @ b


def rdot(a: Tensor, b: Tensor) -> Tensor:
    """Re(conj(a) . b) as a real 0-d tensor: for complex operands the dot of their (re, im)
    views (one pass, no conjugate made); a . b for real ones."""
    import numr as nr
    if a.dtype.is_complex:
        return nr.view_as_real(a).reshape((2 * a.shape[0],)) @ nr.view_as_real(b).reshape((2 * b.shape[0],))
    return a @ b


def norm2(r: Tensor) -> Tensor:
    """||r||^2 as a real 0-d tensor."""
    return rdot(r, r)


def safe_div(num: Tensor, den: Tensor) -> Tensor:
    """num / den, and 0 where den is 0 (a breakdown the caller reads and reports)."""
    import numr as nr
    zero = den == 0
    return nr.where(zero, 0, num / nr.where(zero, 1, den))


def read(*scalars: Tensor) -> list[Any]:
    """The 0-d tensors' values on the host in one transfer (the iteration's one read): a float
    for a real tensor, a complex for a complex one (mixed ones travel as complex)."""
    import numr as nr
    if len(scalars) == 1:
        v = scalars[0].item()
        return [complex(v) if scalars[0].dtype.is_complex else float(v)]
    cx = [t.dtype.is_complex for t in scalars]
    if not any(cx):
        return [float(v) for v in nr.stack(list(scalars)).tolist()]
    dt = nr.result_type(*[t.dtype for t in scalars])
    vals = nr.stack([t if t.dtype == dt else t.astype(dt) for t in scalars]).tolist()
    return [complex(v) if c else float(complex(v).real) for v, c in zip(vals, cx, strict=True)]


def call_back(callback: Callable[[Tensor], Any] | None, x: Tensor) -> None:
    if callback is not None:
        callback(x)
