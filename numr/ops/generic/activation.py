"""Activation composites written once against the op protocols.

softmax/log_softmax/dropout/softmax_bwd are the defaults of every backend;
the element-wise activations here are the fallback for a backend without
fused kernels (the CPU has them in numr/_cpu/ops/activation.py).
"""

from __future__ import annotations

from typing import Any

from ... import dtypes as dt
from ...errors import DTypeError, ShapeError, UnsupportedOperation
from ..prepare import as_tensor, single_dim


def act_dtypes(op: str, d: dt.DType) -> tuple[dt.DType, dt.DType]:
    """(dtype the result is computed in, result dtype) of an activation.
    float16/bfloat16/float8 compute in float32; bool/int in the default float."""
    if d.is_complex:
        raise DTypeError(f"{op}: dtype {d} is not supported: activations are defined for real numbers")
    if d.kind in "biu":
        return dt.default_float, dt.default_float
    if d in (dt.float32, dt.float64):
        return d, d
    return dt.float32, d


def _float_input(self: Any, op: str, x: Any) -> Any:
    x = as_tensor(op, self, x)
    _, out = act_dtypes(op, x.dtype)
    return x if x.dtype is out else self.cast(x, out)


def check_approximate(op: str, approximate: str) -> bool:
    """True for the tanh form; ValueError naming the op for anything but "none"/"tanh"."""
    if approximate not in ("none", "tanh"):
        raise ValueError(f"{op}: approximate must be 'none' or 'tanh', got {approximate!r}")
    return approximate == "tanh"


def softmax(self: Any, x: Any, dim: int = -1) -> Any:
    """Stable softmax; an all -inf row gives zeros instead of 0/0."""
    x = _float_input(self, "softmax", x)
    d = single_dim("softmax", x, dim)
    if x.size == 0:
        return self.mul(x, 1)
    if x.ndim == 0:
        return self.div(self.exp(self.sub(x, x)), 1)
    m = self.amax(x, d, keepdim=True)
    m = self.where(self.isinf(m), 0, m)  # an all -inf (or +inf) row: shift by 0, not inf
    e = self.exp(self.sub(x, m))
    s = self.sum(e, d, keepdim=True)
    return self.div(e, self.where(self.eq(s, 0), 1, s))


def log_softmax(self: Any, x: Any, dim: int = -1) -> Any:
    """Stable log_softmax; an all -inf row gives -inf instead of NaN."""
    x = _float_input(self, "log_softmax", x)
    d = single_dim("log_softmax", x, dim)
    if x.size == 0:
        return self.mul(x, 1)
    if x.ndim == 0:
        return self.sub(x, x)
    m = self.amax(x, d, keepdim=True)
    m = self.where(self.isinf(m), 0, m)  # an all -inf (or +inf) row: shift by 0, not inf
    shifted = self.sub(x, m)
    s = self.sum(self.exp(shifted), d, keepdim=True)
    return self.sub(shifted, self.log(self.where(self.eq(s, 0), 1, s)))


def softmax_bwd(self: Any, grad: Any, out: Any, dim: int = -1) -> Any:
    d = single_dim("softmax_bwd", out, dim)
    if grad.shape != out.shape:
        raise ShapeError(f"softmax_bwd: grad shape {grad.shape} != output shape {out.shape}")
    if out.ndim == 0:
        return self.mul(grad, 0)
    dot = self.sum(self.mul(grad, out), d, keepdim=True)
    return self.mul(out, self.sub(grad, dot))


def dropout_mask(self: Any, shape: tuple[int, ...], p: float, seed: int | None) -> Any:
    """The bool keep-mask of dropout: Philox uniform u >= p (float32 uniforms)."""
    from ...random import next_stream
    s, stream = next_stream(seed)
    return self.ge(self.rand(tuple(shape), dt.float32, s, stream), p)


def dropout(self: Any, x: Any, p: float = 0.5, training: bool = True, seed: int | None = None) -> Any:
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"dropout: p must be in [0, 1], got {p}")
    x = _float_input(self, "dropout", x)
    if not training or p == 0.0:
        return x
    if p == 1.0:
        return self.mul(x, 0)
    keep = dropout_mask(self, x.shape, p, seed)
    return self.where(keep, self.mul(x, 1.0 / (1.0 - p)), 0)


# ---- element-wise fallbacks for backends without fused kernels --------------

def relu(self: Any, x: Any) -> Any:
    x = _float_input(self, "relu", x)
    return self.where(self.lt(x, 0), 0, x)


def leaky_relu(self: Any, x: Any, negative_slope: float = 0.01) -> Any:
    x = _float_input(self, "leaky_relu", x)
    return self.where(self.gt(x, 0), x, self.mul(x, negative_slope))


def elu(self: Any, x: Any, alpha: float = 1.0) -> Any:
    x = _float_input(self, "elu", x)
    return self.where(self.gt(x, 0), x, self.mul(self.expm1(x), alpha))


def sigmoid(self: Any, x: Any) -> Any:
    x = _float_input(self, "sigmoid", x)
    return self.reciprocal(self.add(self.exp(self.neg(x)), 1))


def silu(self: Any, x: Any) -> Any:
    x = _float_input(self, "silu", x)
    return self.where(self.isinf(x), self.relu(x), self.mul(x, self.sigmoid(x)))


def gelu(self: Any, x: Any, approximate: str = "none") -> Any:
    if not check_approximate("gelu", approximate):
        raise UnsupportedOperation(self.device.runtime_name, "gelu", reason="the exact form needs a native erf")
    x = _float_input(self, "gelu", x)
    u = self.mul(self.add(x, self.mul(self.mul(self.mul(x, x), x), 0.044715)), 2 * 0.7978845608028654)
    return self.where(self.isinf(x), self.relu(x), self.mul(x, self.sigmoid(u)))


def softplus(self: Any, x: Any) -> Any:
    x = _float_input(self, "softplus", x)
    return self.add(self.relu(x), self.log1p(self.exp(self.neg(self.abs(x)))))


def silu_mul(self: Any, gate: Any, up: Any) -> Any:
    return self.mul(self.silu(gate), up)


def gelu_mul(self: Any, gate: Any, up: Any, approximate: str = "none") -> Any:
    return self.mul(self.gelu(gate, approximate), up)


def relu_mul(self: Any, gate: Any, up: Any) -> Any:
    return self.mul(self.relu(gate), up)


def sigmoid_mul(self: Any, gate: Any, up: Any) -> Any:
    return self.mul(self.sigmoid(gate), up)


def sigmoid_mul_bwd(self: Any, grad: Any, gate: Any, up: Any) -> tuple[Any, Any]:
    s = self.sigmoid(gate)
    return self.mul(self.mul(grad, up), self.mul(s, self.sub(1, s))), self.mul(grad, s)


def silu_mul_bwd(self: Any, grad: Any, gate: Any, up: Any) -> tuple[Any, Any]:
    s = self.sigmoid(gate)
    deriv = self.mul(s, self.add(self.mul(gate, self.sub(1, s)), 1))
    return self.mul(self.mul(grad, up), deriv), self.mul(grad, self.silu(gate))


def gelu_mul_bwd(self: Any, grad: Any, gate: Any, up: Any, approximate: str = "none") -> tuple[Any, Any]:
    """The tanh form from primitives; the exact form needs a native erf."""
    if not check_approximate("gelu_mul_bwd", approximate):
        raise UnsupportedOperation(self.device.runtime_name, "gelu_mul_bwd", reason="the exact form needs a native erf")
    k = 0.7978845608028654
    u2 = self.mul(self.add(gate, self.mul(self.mul(self.mul(gate, gate), gate), 0.044715)), 2 * k)
    s = self.sigmoid(u2)
    du2 = self.mul(self.add(self.mul(self.mul(gate, gate), 3 * 0.044715), 1), 2 * k)
    deriv = self.add(s, self.mul(self.mul(self.mul(gate, s), self.sub(1, s)), du2))
    deriv = self.where(self.gt(self.abs(gate), 60), self.where(self.gt(gate, 0), 1, 0), deriv)
    return self.mul(self.mul(grad, up), deriv), self.mul(grad, self.gelu(gate, "tanh"))


def relu_mul_bwd(self: Any, grad: Any, gate: Any, up: Any) -> tuple[Any, Any]:
    g = self.mul(grad, up)
    return self.where(self.gt(gate, 0), g, self.mul(g, 0)), self.mul(grad, self.relu(gate))


#: the composites GenericOps exposes as client methods
GENERIC = (
    "softmax", "log_softmax", "softmax_bwd", "dropout",
    "relu", "leaky_relu", "elu", "sigmoid", "silu", "gelu", "softplus", "silu_mul", "gelu_mul", "relu_mul",
    "sigmoid_mul", "silu_mul_bwd", "sigmoid_mul_bwd", "relu_mul_bwd", "gelu_mul_bwd",
)
