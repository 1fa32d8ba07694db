"""Argument checks shared by the decomposition family (numr/ops/traits/decomp.py): operands as
tensors, matrix and square shapes, the work dtype, solve's and solve_triangular's shapes, batch
element indices."""

from __future__ import annotations

from typing import Any

from .. import dtypes as dt
from ..errors import DTypeError, ShapeError
from ..shapes import broadcast_shapes
from . import prepare


def operand(op: str, client: Any, x: Any, matrix: bool = False) -> Any:
    """x as a tensor on the client's device; with ``matrix``, at least 2-d."""
    x = prepare.as_tensor(op, client, x)
    if matrix and x.ndim < 2:
        raise ShapeError(f"{op}: needs a matrix or a batch of matrices (>= 2 dims), got shape {tuple(x.shape)}")
    return x


def work_dtype(op: str, x: Any) -> dt.DType:
    """The dtype the kernels compute in: float32/float64/complex as is, narrower floats in float32."""
    d = x.dtype
    if d.kind == "c" or d in (dt.float32, dt.float64):
        return d
    if d.kind == "f":
        return dt.float32
    raise DTypeError(f"{op}: needs a floating-point or complex tensor, got {d}")


def square(op: str, client: Any, A: Any) -> tuple[Any, dt.DType, int]:
    """(A as a tensor, its work dtype, n) for a batch of square matrices."""
    A = operand(op, client, A, matrix=True)
    if A.shape[-1] != A.shape[-2]:
        raise ShapeError(f"{op}: needs square matrices, got shape {tuple(A.shape)}")
    return A, work_dtype(op, A), A.shape[-1]


def solve_shapes(op: str, a: tuple[int, ...], b: tuple[int, ...]) -> tuple[tuple[int, ...], int, bool]:
    """(batch shape, right-hand sides, B is a vector) for A X = B; torch's rule: B is a vector
    when it is 1-d or has one dim fewer than A with A's batch and n."""
    n = a[-1]
    vec = len(b) == 1 or (len(b) == len(a) - 1 and tuple(b) == tuple(a[:-1]))
    if vec:
        if b[-1] != n:
            raise ShapeError(f"{op}: A {tuple(a)} and the vector B {tuple(b)} differ in n")
        return broadcast_shapes(a[:-2], b[:-1], op=op), 1, True
    if len(b) < 2 or b[-2] != n:
        raise ShapeError(f"{op}: A {tuple(a)} and B {tuple(b)}: B needs {n} rows")
    return broadcast_shapes(a[:-2], b[:-2], op=op), b[-1], False


def triangular_rhs(op: str, client: Any, A: Any, B: Any) -> Any:
    """solve_triangular's B as a tensor of A's dtype with at least 2 dims."""
    B = operand(op, client, B)
    if B.dtype is not A.dtype:
        raise DTypeError(f"{op}: A ({A.dtype}) and B ({B.dtype}) must have one dtype")
    if B.ndim < 2:
        raise ShapeError(f"{op}: B must have at least 2 dims, got shape {B.shape}")
    return B


def triangular_batch(op: str, A: Any, B: Any, n: int) -> tuple[int, ...]:
    """The broadcast batch shape of A X = B (left side), B having n rows."""
    if B.shape[-2] != n:
        raise ShapeError(f"{op}: A {A.shape} and B {B.shape}: B needs {n} rows")
    return broadcast_shapes(A.shape[:-2], B.shape[:-2], op=op)


def batch_index(shape: tuple[int, ...], i: int) -> tuple[int, ...]:
    """The multi-index of flat batch element i (an error message names it)."""
    out = []
    for s in reversed(shape):
        out.append(i % s)
        i //= s
    return tuple(reversed(out))
