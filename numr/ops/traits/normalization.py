"""Normalization layers as torch.nn.functional defines them: layer_norm, rms_norm, group_norm,
batch_norm, and the pre-norm residual forms fused_add_rms_norm/fused_add_layer_norm that return
(norm(x + residual), x + residual). Float dtypes only (float16/bfloat16/float8 compute in float32
and return the input dtype); weight and bias have exactly the normalized (or channel) shape."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from ...tensor import Tensor


@runtime_checkable
class NormalizationOps(Protocol):
    def layer_norm(self, x: Tensor, normalized_shape: "int | Sequence[int]", weight: "Tensor | None" = None,
                   bias: "Tensor | None" = None, eps: float = 1e-5) -> Tensor:
        """(x - mean) / sqrt(var + eps) * weight + bias over the trailing ``normalized_shape`` dims
        (biased variance)."""
    def rms_norm(self, x: Tensor, normalized_shape: "int | Sequence[int]", weight: "Tensor | None" = None,
                 eps: "float | None" = None) -> Tensor:
        """x / sqrt(mean(x^2) + eps) * weight over the trailing dims; eps None is the machine
        epsilon of the dtype computed in (float32 for half types), as torch."""
    def group_norm(self, x: Tensor, num_groups: int, weight: "Tensor | None" = None,
                   bias: "Tensor | None" = None, eps: float = 1e-5) -> Tensor:
        """x of shape (N, C, *) normalized over each group of C / num_groups channels (and *);
        weight and bias (C,) are per channel."""
    def batch_norm(self, x: Tensor, running_mean: "Tensor | None", running_var: "Tensor | None",
                   weight: "Tensor | None" = None, bias: "Tensor | None" = None, training: bool = False,
                   momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
        """x of shape (N, C, *) normalized per channel: with batch statistics when training (the
        running stats, if given, are updated in place with the unbiased variance), else with the
        running stats."""
    def fused_add_rms_norm(self, x: Tensor, residual: Tensor, weight: "Tensor | None" = None,
                           eps: "float | None" = None) -> tuple[Tensor, Tensor]:
        """(rms_norm(x + residual, weight), x + residual) over the last dim."""
    def fused_add_layer_norm(self, x: Tensor, residual: Tensor, weight: "Tensor | None" = None,
                             bias: "Tensor | None" = None, eps: float = 1e-5) -> tuple[Tensor, Tensor]:
        """(layer_norm(x + residual, weight, bias), x + residual) over the last dim."""
    def layer_norm_bwd(self, grad: Tensor, x: Tensor, normalized_shape: "int | Sequence[int]",
                       weight: "Tensor | None" = None, eps: float = 1e-5) -> tuple[Tensor, Tensor, Tensor]:
        """Gradients of layer_norm from its input: (dx, sum over the leading dims of grad * xhat,
        sum of grad), xhat the normalized x (mean and rstd recomputed, not saved); x's dtype."""
    def rms_norm_bwd(self, grad: Tensor, x: Tensor, normalized_shape: "int | Sequence[int]",
                     weight: "Tensor | None" = None, eps: "float | None" = None) -> tuple[Tensor, Tensor]:
        """Gradients of rms_norm from its input: (dx, sum over the leading dims of grad * xhat)."""
    # torch.nn.functional's other normalizations (numr/ops/generic/normalization_instance.py)
    def instance_norm(self, x: Tensor, running_mean: "Tensor | None" = None, running_var: "Tensor | None" = None,
                      weight: "Tensor | None" = None, bias: "Tensor | None" = None, use_input_stats: bool = True,
                      momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
        """Each (n, c) instance of x (N, C, *) normalized over its spatial dims; running stats, when
        given, are updated in place (the mean over N of the instance stats), or used instead of the
        input's when not use_input_stats (torch.nn.functional.instance_norm)."""
    def local_response_norm(self, x: Tensor, size: int, alpha: float = 1e-4, beta: float = 0.75,
                            k: float = 1.0) -> Tensor:
        """x / (k + alpha * mean of x^2 over ``size`` neighbouring channels) ** beta, x (N, C, *)
        with at least 3 dims (torch.nn.functional.local_response_norm)."""
    def normalize(self, x: Tensor, p: float = 2.0, dim: int = 1, eps: float = 1e-12) -> Tensor:
        """x / max(||x||_p along dim, eps) (torch.nn.functional.normalize)."""
