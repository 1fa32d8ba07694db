"""Matrix products with NumPy's matmul rules (1-d, 2-d, batched with broadcast batch dims), the
addmm + activation epilogue, float8 scaled products (torch._scaled_mm) and semiring products."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from ...tensor import Tensor


@runtime_checkable
class MatmulOps(Protocol):
    def matmul(self, a: Tensor, b: Tensor) -> Tensor: """a @ b."""
    def matmul_bias(self, a: Tensor, b: Tensor, bias: Tensor) -> Tensor:
        """a @ b + bias, bias broadcast over the result (one pass where fused)."""
    def matmul_bias_act(self, a: Tensor, b: Tensor, bias: "Tensor | None", activation: str = "relu") -> Tensor:
        """activation(a @ b + bias) (addmm + epilogue); activation in none, relu, gelu, gelu_tanh,
        silu, sigmoid, tanh; bias None adds nothing."""
    def scaled_mm(self, a: Tensor, b: Tensor, scale_a: Any, scale_b: Any, bias: "Tensor | None" = None,
                  out_dtype: Any = "float32") -> Tensor:
        """torch._scaled_mm: (a @ b) * scale_a * scale_b (+ bias) in out_dtype; a (m, k) and b (k, n)
        float8_e4m3fn/float8_e5m2, accumulated in float32; scales float32, per-tensor (one element)
        or per-row (m, 1) / per-column (1, n)."""
    def semiring_matmul(self, a: Tensor, b: Tensor, semiring: str = "min_plus") -> Tensor:
        """C[..., i, j] = reduce_k combine(a[..., i, k], b[..., k, j]) with matmul's shape rules;
        semiring in min_plus (tropical: shortest paths), max_plus, max_min, min_max, plus_max
        (numeric, low-precision floats computed in float32) and or_and (bool). min/max propagate
        NaN as nr.minimum/maximum; integer sums wrap; k == 0 gives the reduction's identity
        (+-inf or the integer extreme, 0, False)."""
