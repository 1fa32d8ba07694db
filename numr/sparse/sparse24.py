"""2:4 structured sparsity (torch's to_sparse_semi_structured, NVIDIA's sparse tensor cores):
of every 4 consecutive elements along a dim at most 2 are non-zero, stored as half the values
plus 4 bits of positions per group.

    w24 = nr.prune_to_24(w)            # keep the 2 largest |w| of every 4 along the last dim
    y = nr.sparse_24_matmul(w24, x)    # == w24.to_dense() @ x, from the compressed form

prune_to_24 keeps the two largest magnitudes of each group; ties go to the lower index and
NaN counts as the largest (numr/ops/generic/sparse24.py). The product runs the backend's
``sparse24_matmul`` kernel (CPU, CUDA, WebGPU) for plain tensors and the decompress-then-matmul
composite for autograd Vars, so gradients reach the kept values and the dense operand."""

from __future__ import annotations

from typing import Any

from ..errors import DTypeError, ShapeError, UnsupportedOperation
from ..ops.generic import sparse24 as g
from ..ops.prepare import plain
from ..tensor import Tensor


class Sparse24Tensor:
    """A tensor pruned to 2:4 along ``dim``: ``values`` (..., k/2) and uint8 ``meta`` (..., k/4)
    hold it with that dim moved last; ``shape`` is the dense shape."""

    def __init__(self, values: Any, meta: Any, shape: tuple[int, ...], dim: int = -1) -> None:
        self.values, self.meta = values, meta
        self.shape = tuple(shape)
        self.dim = dim % len(self.shape)

    @property
    def dtype(self) -> Any:
        return self.values.dtype

    @property
    def device(self) -> Any:
        return plain(self.values).device

    @property
    def ndim(self) -> int:
        return len(self.shape)

    def __repr__(self) -> str:
        return f"<Sparse24Tensor shape={self.shape} dim={self.dim} dtype={self.dtype} device={self.device}>"

    def to_dense(self) -> Any:
        """The dense tensor (zeros at the pruned positions)."""
        out = g.decompress(self.values, self.meta)
        return out if self.dim == self.ndim - 1 else out.movedim(-1, self.dim)

    def __matmul__(self, other: Any) -> Any:
        return sparse_24_matmul(self, other)


def prune_to_24(x: Any, dim: int = -1) -> Sparse24Tensor:
    """x pruned to 2:4 along ``dim`` (its size a multiple of 4): the 2 largest-magnitude
    elements of every 4 consecutive ones kept (ties: the lower index; NaN counts as largest)."""
    t = plain(x)
    if not isinstance(t, Tensor):
        raise DTypeError(f"prune_to_24: needs a numr tensor, got {type(x).__name__}")
    if t.ndim == 0 or not -t.ndim <= dim < t.ndim:
        raise ShapeError(f"prune_to_24: dim {dim} is out of range for shape {tuple(t.shape)}")
    if t.dtype.is_complex or t.dtype.name == "bool":
        raise DTypeError(f"prune_to_24: needs a real numeric tensor, got {t.dtype}")
    d = dim % t.ndim
    if t.shape[d] % 4:
        raise ShapeError(f"prune_to_24: dim {dim} of shape {tuple(t.shape)} has size {t.shape[d]}, "
                         "not a multiple of 4")
    moved = x if d == t.ndim - 1 else x.movedim(d, -1)
    values, meta = t.client.sparse24_prune(moved) if type(moved) is Tensor else g.prune(moved)
    return Sparse24Tensor(values, meta, tuple(t.shape), d)


def sparse_24_to_dense(a: Sparse24Tensor) -> Any:
    """The dense tensor of a Sparse24Tensor (the Rust crate's name)."""
    return a.to_dense()


def sparse_24_matmul(a: Sparse24Tensor, b: Any) -> Any:
    """dense(a) @ b for a 2-d a (m, k) pruned along its last dim and b (k, n) or (k,),
    computed from the compressed form."""
    if not isinstance(a, Sparse24Tensor):
        raise DTypeError(f"sparse_24_matmul: a must be a Sparse24Tensor (nr.prune_to_24), got {type(a).__name__}")
    if a.ndim != 2 or a.dim != 1:
        raise UnsupportedOperation("sparse_24", "sparse_24_matmul", a.dtype,
                                   reason=f"a must be 2-d and pruned along its last dim, got shape {a.shape}, "
                                          f"dim {a.dim}")
    bt = plain(b)
    if not isinstance(bt, Tensor) or bt.ndim not in (1, 2):
        raise ShapeError(f"sparse_24_matmul: b must be a 1-d or 2-d tensor, got {getattr(bt, 'shape', type(b))}")
    if bt.shape[0] != a.shape[1]:
        raise ShapeError(f"sparse_24_matmul: shapes {a.shape} and {tuple(bt.shape)} do not align")
    b2 = b.reshape(-1, 1) if bt.ndim == 1 else b
    if type(a.values) is Tensor and type(b2) is Tensor:
        out = a.device.client.sparse24_matmul(a.values, a.meta, b2)
    else:  # autograd Vars / DualTensors: the composite, so gradients flow
        out = g.sparse24_matmul(a.device.client, a.values, a.meta, b2)
    return out.reshape(-1) if bt.ndim == 1 else out


__all__ = ["Sparse24Tensor", "prune_to_24", "sparse_24_matmul", "sparse_24_to_dense"]
