"""Activation functions, the fused gated forms ``act(gate) * up`` and their
backward kernels. Float dtypes (float16/bfloat16/float8 compute in float32);
bool and integer inputs compute in the default float. Large inputs never
overflow (sigmoid, softplus and GELU's tanh form are written stably)."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from ...tensor import Tensor


@runtime_checkable
class ActivationOps(Protocol):
    def relu(self, x: Tensor) -> Tensor: """max(x, 0) (NaN stays NaN)."""
    def leaky_relu(self, x: Tensor, negative_slope: float = 0.01) -> Tensor:
        """x if x > 0 else negative_slope * x."""
    def elu(self, x: Tensor, alpha: float = 1.0) -> Tensor: """x if x > 0 else alpha * (exp(x) - 1)."""
    def sigmoid(self, x: Tensor) -> Tensor: """1 / (1 + exp(-x))."""
    def silu(self, x: Tensor) -> Tensor: """x * sigmoid(x) (swish); silu(-inf) = 0."""
    def gelu(self, x: Tensor, approximate: str = "none") -> Tensor:
        """x * Phi(x) ("none": exact erf form) or its tanh approximation ("tanh")."""
    def softplus(self, x: Tensor) -> Tensor: """log(1 + exp(x)), computed as max(x, 0) + log1p(exp(-|x|))."""
    def softmax(self, x: Tensor, dim: int = -1) -> Tensor:
        """exp(x - max) / sum(exp(x - max)) along dim; a row of all -inf gives zeros (no NaN)."""
    def log_softmax(self, x: Tensor, dim: int = -1) -> Tensor:
        """x - max - log(sum(exp(x - max))) along dim; a row of all -inf gives -inf (no NaN)."""
    def dropout(self, x: Tensor, p: float = 0.5, training: bool = True, seed: "int | None" = None) -> Tensor:
        """Zero each element with probability p (Philox uniform u < p), scale the rest by 1/(1-p);
        identity when not training. ``seed=None`` takes the next stream of the global generator."""
    def silu_mul(self, gate: Tensor, up: Tensor) -> Tensor: """silu(gate) * up in one pass (SwiGLU)."""
    def gelu_mul(self, gate: Tensor, up: Tensor, approximate: str = "none") -> Tensor:
        """gelu(gate) * up in one pass (GeGLU)."""
    def relu_mul(self, gate: Tensor, up: Tensor) -> Tensor: """relu(gate) * up in one pass (ReGLU)."""
    def sigmoid_mul(self, gate: Tensor, up: Tensor) -> Tensor: """sigmoid(gate) * up in one pass (GLU)."""
    def silu_mul_bwd(self, grad: Tensor, gate: Tensor, up: Tensor) -> tuple[Tensor, Tensor]:
        """(grad * up * silu'(gate), grad * silu(gate)) in one pass; both of the broadcast shape."""
    def gelu_mul_bwd(self, grad: Tensor, gate: Tensor, up: Tensor,
                     approximate: str = "none") -> tuple[Tensor, Tensor]:
        """(grad * up * gelu'(gate), grad * gelu(gate)) in one pass."""
    def relu_mul_bwd(self, grad: Tensor, gate: Tensor, up: Tensor) -> tuple[Tensor, Tensor]:
        """(grad * up * (gate > 0), grad * relu(gate)) in one pass."""
    def sigmoid_mul_bwd(self, grad: Tensor, gate: Tensor, up: Tensor) -> tuple[Tensor, Tensor]:
        """(grad * up * s * (1 - s), grad * s) with s = sigmoid(gate), in one pass."""
    def softmax_bwd(self, grad: Tensor, out: Tensor, dim: int = -1) -> Tensor:
        """Gradient of softmax from its output: out * (grad - sum(grad * out, dim))."""
