"""Composites of the matmul family, written once with numr's public functions (so autograd Vars
and DualTensors flow through them): matmul_bias (matmul + add), matmul_bias_act (addmm + an
activation epilogue), scaled_mm (float8 operands cast to float32, matmul, scales) and
semiring_matmul (k-chunked broadcast + reduce; memory bounded by ``CHUNK_ELEMS``)."""

from __future__ import annotations

from typing import Any

from ... import dtypes as dt
from ...errors import DTypeError, ShapeError
from .. import prepare

#: (reduce, combine) of each semiring: C[i, j] = reduce_k combine(a[i, k], b[k, j])
SEMIRINGS = {"min_plus": ("min", "add"), "max_plus": ("max", "add"), "max_min": ("max", "min"),
             "min_max": ("min", "max"), "or_and": ("any", "and"), "plus_max": ("sum", "max")}
ACTIVATIONS = ("none", "relu", "gelu", "gelu_tanh", "silu", "sigmoid", "tanh")
#: the composite's temporary per k-chunk: batch * m * n * chunk elements at most (16 MiB of float32)
CHUNK_ELEMS = 1 << 22


def matmul_bias(self: Any, a: Any, b: Any, bias: Any) -> Any:
    return self.add(self.matmul(a, b), bias)


# ---- matmul_bias_act -------------------------------------------------------------------------


def apply_activation(op: str, y: Any, activation: str) -> Any:
    """The epilogue ``activation`` applied to y with the public functions."""
    import numr as nr
    if activation == "none":
        return y
    if activation == "gelu_tanh":
        return nr.gelu(y, approximate="tanh")
    if activation not in ACTIVATIONS:
        raise ValueError(f"{op}: unknown activation {activation!r}; expected one of {', '.join(ACTIVATIONS)}")
    return getattr(nr, activation)(y)


def matmul_bias_act_any(a: Any, b: Any, bias: Any, activation: str = "relu") -> Any:
    """activation(a @ b + bias) (addmm + epilogue): the fused matmul_bias, then the activation."""
    import numr as nr
    if activation not in ACTIVATIONS:
        raise ValueError(f"matmul_bias_act: unknown activation {activation!r}; expected one of "
                         f"{', '.join(ACTIVATIONS)}")
    y = nr.matmul(a, b) if bias is None else nr.matmul_bias(a, b, bias)
    if activation != "none" and not y.dtype.is_floating_point:
        raise DTypeError(f"matmul_bias_act: activation {activation!r} needs a floating dtype, got {y.dtype}")
    return apply_activation("matmul_bias_act", y, activation)


def matmul_bias_act(self: Any, a: Any, b: Any, bias: Any, activation: str = "relu") -> Any:
    return matmul_bias_act_any(a, b, bias, activation)


# ---- scaled_mm -------------------------------------------------------------------------------


def _check_scale(name: str, s: Any, want: tuple[int, int], a_shape: tuple, b_shape: tuple) -> None:
    if not hasattr(s, "dtype"):
        return  # a Python number: a per-tensor scale
    if s.dtype is not dt.float32:
        raise DTypeError(f"scaled_mm: {name} must be float32, got {s.dtype}")
    if s.size != 1 and tuple(s.shape) != want:
        raise ShapeError(f"scaled_mm: {name} must hold one element (per-tensor) or have shape {want} "
                         f"for a {a_shape} @ {b_shape} product, got shape {tuple(s.shape)}")


def scaled_mm_plan(a: Any, b: Any, scale_a: Any, scale_b: Any, bias: Any, out_dtype: Any) -> Any:
    """scaled_mm's checks of operands, scales and bias; returns out_dtype as a DType."""
    for name, x in (("a", a), ("b", b)):
        if getattr(x, "dtype", None) not in (dt.float8_e4m3fn, dt.float8_e5m2):
            raise DTypeError(f"scaled_mm: {name} must be float8_e4m3fn or float8_e5m2, got "
                             f"{getattr(x, 'dtype', type(x).__name__)}")
    if a.ndim != 2 or b.ndim != 2 or a.shape[1] != b.shape[0]:
        raise ShapeError(f"scaled_mm: needs matrices (m, k) @ (k, n), got shapes {a.shape} and {b.shape}")
    out_dtype = dt.dtype(out_dtype)
    if not out_dtype.is_floating_point or out_dtype.is_complex:
        raise DTypeError(f"scaled_mm: out_dtype must be a real floating dtype, got {out_dtype}")
    m, n = a.shape[0], b.shape[1]
    _check_scale("scale_a", scale_a, (m, 1), a.shape, b.shape)
    _check_scale("scale_b", scale_b, (1, n), a.shape, b.shape)
    if bias is not None and getattr(bias, "shape", None) not in ((n,), (1, n), (m, n)):
        raise ShapeError(f"scaled_mm: bias must have shape ({n},), (1, {n}) or ({m}, {n}), got "
                         f"{getattr(bias, 'shape', type(bias).__name__)}")
    return out_dtype


def scaled_mm_any(a: Any, b: Any, scale_a: Any, scale_b: Any, bias: Any = None,
                  out_dtype: Any = "float32") -> Any:
    """(a @ b) * scale_a * scale_b (+ bias) in out_dtype, a and b float8, accumulated in float32
    (torch._scaled_mm): the float8 -> float32 cast is exact, so this is the float32 matmul."""
    import numr as nr
    out_dtype = scaled_mm_plan(a, b, scale_a, scale_b, bias, out_dtype)
    y = nr.matmul(nr.cast(a, nr.float32), nr.cast(b, nr.float32))
    y = y * (scale_a.reshape(()) if getattr(scale_a, "size", 0) == 1 else scale_a)
    y = y * (scale_b.reshape(()) if getattr(scale_b, "size", 0) == 1 else scale_b)
    if bias is not None:
        y = y + nr.cast(bias, nr.float32)
    return y if out_dtype is dt.float32 else nr.cast(y, out_dtype)


def scaled_mm(self: Any, a: Any, b: Any, scale_a: Any, scale_b: Any, bias: Any = None,
              out_dtype: Any = "float32") -> Any:
    return scaled_mm_any(a, b, scale_a, scale_b, bias, out_dtype)


# ---- semiring_matmul -------------------------------------------------------------------------


def semiring_plan(a: Any, b: Any, semiring: str) -> tuple:
    """Checks of semiring_matmul's operands; returns (batch, m, k, n, out_shape, dtype, compute
    dtype): low-precision floats compute in float32 (min/max are exact, sums accumulate wider)."""
    if semiring not in SEMIRINGS:
        raise ValueError(f"semiring_matmul: unknown semiring {semiring!r}; expected one of {', '.join(SEMIRINGS)}")
    for name, x in (("a", a), ("b", b)):
        if not hasattr(x, "dtype"):
            raise DTypeError(f"semiring_matmul: {name} must be a tensor, got {type(x).__name__}")
    batch, m, k, n, out_shape = prepare.matmul_shapes("semiring_matmul", tuple(a.shape), tuple(b.shape))
    d = dt.promote_types(a.dtype, b.dtype)
    if d.is_complex:
        raise DTypeError(f"semiring_matmul: complex dtypes have no order, got {a.dtype} and {b.dtype}")
    if (d is dt.bool_) != (semiring == "or_and"):
        raise DTypeError(f"semiring_matmul: semiring {semiring!r} "
                         + ("takes bool operands" if semiring == "or_and" else "needs numeric operands")
                         + f", got {a.dtype} and {b.dtype}")
    cd = dt.float32 if d.is_low_precision else d
    return batch, m, k, n, out_shape, d, cd


def identity(semiring: str, d: Any) -> Any:
    """The reduction's identity in dtype d: the result where k == 0."""
    red = SEMIRINGS[semiring][0]
    if red in ("sum", "any"):
        return False if d is dt.bool_ else 0
    if d.is_floating_point:
        return float("inf") if red == "min" else float("-inf")
    info = dt.iinfo(d)
    return info.max if red == "min" else info.min


def semiring_matmul_any(a: Any, b: Any, semiring: str = "min_plus") -> Any:
    """C[..., i, j] = reduce_k combine(a[..., i, k], b[..., k, j]) over chunks of k: each chunk is a
    broadcast (m, n, chunk) combine reduced along its last dim, the chunks folded together."""
    import numr as nr
    batch, m, k, n, out_shape, d, cd = semiring_plan(a, b, semiring)
    red, comb = SEMIRINGS[semiring]
    a2 = a.unsqueeze(0) if a.ndim == 1 else a
    b2 = b.unsqueeze(-1) if b.ndim == 1 else b
    if a2.dtype is not cd:
        a2 = nr.cast(a2, cd)
    if b2.dtype is not cd:
        b2 = nr.cast(b2, cd)
    nb = 1
    for s in batch:
        nb *= s
    step = max(1, min(k, CHUNK_ELEMS // max(1, nb * m * n)))
    combine = {"add": nr.add, "min": nr.minimum, "max": nr.maximum, "and": nr.logical_and}[comb]
    reduce = {"min": nr.amin, "max": nr.amax, "sum": nr.sum, "any": nr.any}[red]
    fold = {"min": nr.minimum, "max": nr.maximum, "sum": nr.add, "any": nr.logical_or}[red]
    out = None
    for k0 in range(0, k, step):
        k1 = min(k, k0 + step)
        ac = a2[..., :, None, k0:k1]  # (..., m, 1, c)
        bc = b2[..., k0:k1, :].mT[..., None, :, :]  # (..., 1, n, c)
        part = reduce(combine(ac, bc), -1)
        out = part if out is None else fold(out, part)
    if out is None:  # k == 0: the reduction's identity
        out = nr.full(batch + (m, n), identity(semiring, cd), dtype=cd, device=a.device)
    elif tuple(out.shape) != batch + (m, n):
        out = out.broadcast_to(batch + (m, n))
    if out.dtype is not d:
        out = nr.cast(out, d)
    return out.reshape(out_shape) if tuple(out.shape) != out_shape else out


def semiring_matmul(self: Any, a: Any, b: Any, semiring: str = "min_plus") -> Any:
    return semiring_matmul_any(a, b, semiring)


#: differentiated through the public ops they are made of (reverse and forward mode)
COMPOSITES = {"semiring_matmul": semiring_matmul_any, "matmul_bias_act": matmul_bias_act_any}

__all__ = ["COMPOSITES", "matmul_bias", "matmul_bias_act", "scaled_mm", "semiring_matmul", "SEMIRINGS", "ACTIVATIONS"]
