"""Tensor algebra in TensorLy's conventions (tensorly.base / tensorly.tenalg): the mode-n unfolding
in C order (the mode first, the other modes in order, the last varying fastest), its inverse fold,
the n-mode product and the reconstructions of Tucker, CP and tensor-train decompositions.
Composites of public numr ops, so they run on every backend and autograd flows through them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from ..creation import rand
from ..dtypes import float32, real_of
from ..errors import DTypeError, ShapeError
from ..ops import api as _api
from ..shapes import normalize_dim, normalize_shape, numel
from ..tensor import Tensor

_OPS = _api.OPS


class TuckerTensor(NamedTuple):
    """A Tucker decomposition: tensor = core x_0 factors[0] x_1 factors[1] ..."""
    core: Any
    factors: list


class CPTensor(NamedTuple):
    """A CP decomposition: tensor = sum_r weights[r] factors[0][:, r] o factors[1][:, r] o ..."""
    weights: Any
    factors: list


def check_tensor(op: str, t: Any, min_ndim: int = 0) -> Any:
    """t itself when it is a numr tensor (or an autograd tracer of one) of at least min_ndim dims."""
    if not isinstance(t, Tensor) and type(t) not in _api._tracers:
        raise DTypeError(f"{op}: expected a numr.Tensor, got {type(t).__name__}")
    if t.ndim < min_ndim:
        raise ShapeError(f"{op}: needs a tensor of at least {min_ndim} dims, got shape {tuple(t.shape)}")
    return t


def check_decomposable(op: str, t: Any, min_ndim: int = 1) -> Any:
    """A non-empty floating-point or complex tensor (the SVDs and solves need one), as the tensor to
    work on: float16, bfloat16 and float8 are computed in float32 (cast_back returns them)."""
    check_tensor(op, t, min_ndim)
    if t.dtype.kind not in "fc":
        raise DTypeError(f"{op}: needs a floating-point or complex tensor, got {t.dtype.name}")
    if numel(tuple(t.shape)) == 0:
        raise ShapeError(f"{op}: cannot decompose an empty tensor of shape {tuple(t.shape)}")
    return _OPS["cast"](t, float32) if t.dtype.kind == "f" and t.dtype.itemsize < 4 else t


def cast_back(dtype: Any, x: Any) -> Any:
    """x (a tensor, or a list of them) in ``dtype`` (the real counterpart for real outputs)."""
    if isinstance(x, list):
        return [cast_back(dtype, y) for y in x]
    want = dtype if x.dtype.kind == "c" or dtype.kind != "c" else real_of(dtype)
    return x if x.dtype == want else _OPS["cast"](x, want)


def expand_ranks(op: str, rank: Any, fill: int, what: str) -> list[Any]:
    """rank as a list (a scalar repeated ``fill`` times), every entry a positive int."""
    ranks = list(rank) if isinstance(rank, (list, tuple)) else [rank] * fill
    for r in ranks:
        if isinstance(r, bool) or not isinstance(r, int) or r < 1:
            raise ShapeError(f"{op}: {what} must be positive integers, got {rank!r}")
    return ranks


def random_matrix(like: Any, rows: int, cols: int, seed: int | None, k: int) -> Any:
    """A (rows, cols) uniform [0, 1) matrix of like's dtype and device, seeded by seed + k."""
    m = rand(rows, cols, dtype=real_of(like.dtype), device=like.device, seed=None if seed is None else seed + k)
    return m if m.dtype == like.dtype else _OPS["cast"](m, like.dtype)


def unfold(tensor: Any, mode: int) -> Any:
    """The mode-``mode`` unfolding: a (shape[mode], prod(other dims)) matrix, TensorLy's C order."""
    check_tensor("unfold", tensor, 1)
    mode = normalize_dim(mode, tensor.ndim, "unfold")
    shape = tuple(tensor.shape)
    rest = numel(shape[:mode] + shape[mode + 1:])
    return _OPS["moveaxis"](tensor, mode, 0).reshape((shape[mode], rest))


def fold(unfolded: Any, mode: int, shape: Sequence[int]) -> Any:
    """The tensor of ``shape`` whose mode-``mode`` unfolding is ``unfolded`` (inverse of unfold)."""
    check_tensor("fold", unfolded)
    shape = normalize_shape(shape, "fold")
    if not shape:
        raise ShapeError("fold: the target shape needs at least one dim")
    mode = normalize_dim(mode, len(shape), "fold")
    rest = shape[:mode] + shape[mode + 1:]
    want = (shape[mode], numel(rest))
    if tuple(unfolded.shape) != want:
        raise ShapeError(f"fold: a mode-{mode} unfolding of shape {shape} is {want}, got {tuple(unfolded.shape)}")
    return _OPS["moveaxis"](unfolded.reshape((shape[mode],) + rest), 0, mode)


def _mT(m: Any) -> Any:
    return m.transpose(0, 1)


def conj_t(m: Any) -> Any:
    """The conjugate transpose of a matrix (its transpose for real dtypes)."""
    return _mT(_OPS["conj"](m)) if m.dtype.kind == "c" else _mT(m)


def left_svd(m: Any, full_matrices: bool = False) -> tuple[Any, Any]:
    """(U, S) of the SVD of a matrix; a wide one (the usual unfolding) goes through the QR of its
    conjugate transpose, m = R^H Q^H, and the SVD of the small R^H: about half the work."""
    if not full_matrices and m.shape[1] >= 2 * m.shape[0] > 0:
        m = conj_t(_OPS["qr"](conj_t(m))[1])
    u, s, _ = _OPS["svd"](m, full_matrices=full_matrices)
    return u, s


def mode_dot(tensor: Any, matrix_or_vector: Any, mode: int, transpose: bool = False) -> Any:
    """The n-mode product: a matrix M (J, shape[mode]) replaces dim ``mode`` by J; a vector
    contracts dim ``mode`` away. transpose=True uses the conjugate transpose of M."""
    check_tensor("mode_dot", tensor, 1)
    m = check_tensor("mode_dot", matrix_or_vector)
    mode = normalize_dim(mode, tensor.ndim, "mode_dot")
    shape = list(tensor.shape)
    if m.ndim == 2:
        dim = m.shape[0] if transpose else m.shape[1]
        if dim != shape[mode]:
            raise ShapeError(f"mode_dot: shapes {tuple(shape)} and {tuple(m.shape)} not aligned in mode-{mode} "
                             f"multiplication: {shape[mode]} (mode {mode}) != {dim} (dim "
                             f"{0 if transpose else 1} of the matrix{', transposed' if transpose else ''})")
        if transpose:
            m = conj_t(m)
        shape[mode] = m.shape[0]
        return fold(m @ unfold(tensor, mode), mode, shape)
    if m.ndim == 1:
        if m.shape[0] != shape[mode]:
            raise ShapeError(f"mode_dot: shapes {tuple(shape)} and {tuple(m.shape)} not aligned for mode-{mode} "
                             f"multiplication: {shape[mode]} (mode {mode}) != {m.shape[0]} (vector size)")
        del shape[mode]
        return (m @ unfold(tensor, mode)).reshape(tuple(shape))
    raise ShapeError(f"mode_dot: can only multiply by a vector or a matrix, got shape {tuple(m.shape)}")


def multi_mode_dot(tensor: Any, matrix_or_vec_list: Sequence[Any], modes: Sequence[int] | None = None,
                   skip: int | None = None, transpose: bool = False) -> Any:
    """tensor x_{modes[0]} M_0 x_{modes[1]} M_1 ..., skipping the ``skip``-th product (in mode
    order); vectors contract their mode away, the later modes shift down (tensorly.tenalg)."""
    check_tensor("multi_mode_dot", tensor, 1)
    mats = list(matrix_or_vec_list)
    modes = list(range(len(mats))) if modes is None else list(modes)
    if len(modes) != len(mats):
        raise ShapeError(f"multi_mode_dot: {len(mats)} matrices or vectors for {len(modes)} modes")
    modes = [normalize_dim(m, tensor.ndim, "multi_mode_dot") for m in modes]
    res, decrement = tensor, 0
    for i, (m, mode) in enumerate(sorted(zip(mats, modes, strict=True), key=lambda p: p[1])):
        check_tensor("multi_mode_dot", m)
        if skip is not None and i == skip:
            continue
        res = mode_dot(res, m, mode - decrement, transpose=transpose and m.ndim == 2)
        if m.ndim == 1:
            decrement += 1
    return res


def tucker_to_tensor(tucker_tensor: Sequence[Any], skip_factor: int | None = None,
                     transpose_factors: bool = False) -> Any:
    """The full tensor of a Tucker decomposition (core, factors)."""
    core, factors = tucker_tensor
    check_tensor("tucker_to_tensor", core, 1)
    if len(factors) != core.ndim:
        raise ShapeError(f"tucker_to_tensor: a core of shape {tuple(core.shape)} needs {core.ndim} factors, "
                         f"got {len(factors)}")
    return multi_mode_dot(core, factors, skip=skip_factor, transpose=transpose_factors)


def khatri_rao_list(matrices: Sequence[Any], skip: int | None = None) -> Any:
    """The column-wise Kronecker product of the matrices (but the ``skip``-th), the first one
    varying slowest: the row order of TensorLy's khatri_rao, matching unfold's columns."""
    mats = [m for i, m in enumerate(matrices) if i != skip]
    out = mats[0]
    for m in mats[1:]:
        out = _OPS["khatri_rao"](out, m)
    return out


def _check_factors(op: str, factors: Sequence[Any]) -> int:
    """The common column count of a non-empty list of matrices."""
    if len(factors) == 0:
        raise ShapeError(f"{op}: needs at least one factor matrix")
    for f in factors:
        check_tensor(op, f)
        if f.ndim != 2 or f.shape[1] != factors[0].shape[1]:
            raise ShapeError(f"{op}: the factors must be matrices with the same number of columns, got shapes "
                             f"{[tuple(g.shape) for g in factors]}")
    return factors[0].shape[1]


def cp_to_tensor(cp_tensor: Sequence[Any]) -> Any:
    """The full tensor of a CP decomposition (weights, factors); weights None means all ones."""
    weights, factors = cp_tensor
    rank = _check_factors("cp_to_tensor", factors)
    first = factors[0]
    if weights is not None:
        check_tensor("cp_to_tensor", weights)
        if tuple(weights.shape) != (rank,):
            raise ShapeError(f"cp_to_tensor: weights of shape {tuple(weights.shape)} for rank {rank}")
        first = first * weights
    if len(factors) == 1:
        return first.sum(1)
    shape = tuple(f.shape[0] for f in factors)
    return fold(first @ _mT(khatri_rao_list(factors[1:])), 0, shape)


def tt_to_tensor(factors: Sequence[Any]) -> Any:
    """The full tensor of a tensor train: cores of shapes (r_k, n_k, r_{k+1}), r_0 = r_d = 1."""
    if len(factors) == 0:
        raise ShapeError("tt_to_tensor: needs at least one core")
    prev = 1
    for k, f in enumerate(factors):
        check_tensor("tt_to_tensor", f)
        if f.ndim != 3 or f.shape[0] != prev:
            raise ShapeError(f"tt_to_tensor: core {k} must be 3-d with {prev} rows (the previous rank), got "
                             f"shapes {[tuple(g.shape) for g in factors]}")
        prev = f.shape[2]
    if prev != 1:
        raise ShapeError(f"tt_to_tensor: the last core must end with rank 1, got shapes "
                         f"{[tuple(g.shape) for g in factors]}")
    shape = tuple(f.shape[1] for f in factors)
    full = factors[0].reshape((shape[0], factors[0].shape[2]))
    for f in factors[1:]:
        r0, n, r1 = f.shape
        full = (full @ f.reshape((r0, n * r1))).reshape((numel(full.shape) * n // r0, r1))
    return full.reshape(shape)
