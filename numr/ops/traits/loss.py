"""Loss functions with torch.nn.functional's names, arguments and reductions ('mean' | 'sum' |
'none'), plus scipy.special's element-wise rel_entr. Integer inputs compute in the default float;
half and float8 in float32, returning their own dtype; complex raises DTypeError. Class-index
targets are integer tensors (an index outside [0, C) raises IndexOutOfRange); an empty 'mean' is NaN."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from ...tensor import Tensor


@runtime_checkable
class LossOps(Protocol):
    def cross_entropy(self, input: Tensor, target: Tensor, weight: "Tensor | None" = None,  # noqa: A002
                      ignore_index: int = -100, reduction: str = "mean", label_smoothing: float = 0.0) -> Tensor:
        """Cross entropy of logits input (N, C, d1, ...) or (C,) against class indices (N, d1, ...)
        (weighted mean over kept entries) or class probabilities of input's shape."""
    def nll_loss(self, input: Tensor, target: Tensor, weight: "Tensor | None" = None,  # noqa: A002
                 ignore_index: int = -100, reduction: str = "mean") -> Tensor:
        """-weight[t] * input[n, t] for log-probabilities input (N, C, d1, ...) and class indices t."""
    def binary_cross_entropy(self, input: Tensor, target: Tensor, weight: "Tensor | None" = None,  # noqa: A002
                             reduction: str = "mean") -> Tensor:
        """-w (t log x + (1 - t) log(1 - x)) for probabilities x in [0, 1], logs clamped at -100."""
    def binary_cross_entropy_with_logits(self, input: Tensor, target: Tensor,  # noqa: A002
                                         weight: "Tensor | None" = None, reduction: str = "mean",
                                         pos_weight: "Tensor | None" = None) -> Tensor:
        """binary_cross_entropy(sigmoid(x), t) computed stably from logits; pos_weight weighs positives."""
    def multilabel_soft_margin_loss(self, input: Tensor, target: Tensor,  # noqa: A002
                                    weight: "Tensor | None" = None, reduction: str = "mean") -> Tensor:
        """The class mean (last dim) of the logistic loss per label, one loss per sample."""
    def kl_div(self, input: Tensor, target: Tensor, reduction: str = "mean",  # noqa: A002
               log_target: bool = False) -> Tensor:
        """target (log target - input) for log-probabilities input; 'batchmean' divides by the batch size."""
    def rel_entr(self, x: Tensor, y: Tensor) -> Tensor:
        """x log(x / y) for x, y > 0; 0 for x = 0, y >= 0; inf otherwise (scipy.special.rel_entr)."""
    def mse_loss(self, input: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:  # noqa: A002
        """(input - target)^2, broadcast."""
    def l1_loss(self, input: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:  # noqa: A002
        """|input - target|, broadcast."""
    def smooth_l1_loss(self, input: Tensor, target: Tensor, reduction: str = "mean",  # noqa: A002
                       beta: float = 1.0) -> Tensor:
        """0.5 d^2 / beta where |d| < beta, else |d| - beta / 2."""
    def huber_loss(self, input: Tensor, target: Tensor, reduction: str = "mean",  # noqa: A002
                   delta: float = 1.0) -> Tensor:
        """0.5 d^2 where |d| <= delta, else delta (|d| - delta / 2)."""
    def poisson_nll_loss(self, input: Tensor, target: Tensor, log_input: bool = True,  # noqa: A002
                         full: bool = False, eps: float = 1e-8, reduction: str = "mean") -> Tensor:
        """exp(input) - target input (log_input) or input - target log(input + eps); full adds Stirling's term."""
    def gaussian_nll_loss(self, input: Tensor, target: Tensor, var: Tensor, full: bool = False,  # noqa: A002
                          eps: float = 1e-6, reduction: str = "mean") -> Tensor:
        """(log(max(var, eps)) + (input - target)^2 / max(var, eps)) / 2."""
    def margin_ranking_loss(self, input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0.0,
                            reduction: str = "mean") -> Tensor:
        """max(0, -target (input1 - input2) + margin)."""
    def hinge_embedding_loss(self, input: Tensor, target: Tensor, margin: float = 1.0,  # noqa: A002
                             reduction: str = "mean") -> Tensor:
        """input where target is 1, max(0, margin - input) where target is -1."""
    def soft_margin_loss(self, input: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:  # noqa: A002
        """log(1 + exp(-target input)), stable."""
    def ctc_loss(self, log_probs: Tensor, targets: Tensor, input_lengths: "Tensor | list[int]",
                 target_lengths: "Tensor | list[int]", blank: int = 0, reduction: str = "mean",
                 zero_infinity: bool = False) -> Tensor:
        """Connectionist temporal classification: -log of the summed probability of every alignment
        of targets ((N, S) padded or concatenated 1-d) to log_probs (T, N, C); 'mean' divides each
        loss by its target length; impossible alignments give inf (0 with zero_infinity)."""
    def cosine_embedding_loss(self, input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0.0,
                              reduction: str = "mean") -> Tensor:
        """1 - cos(x1, x2) where target is 1, max(0, cos - margin) where it is -1 (last dim)."""
    def triplet_margin_loss(self, anchor: Tensor, positive: Tensor, negative: Tensor, margin: float = 1.0,
                            p: float = 2.0, eps: float = 1e-6, swap: bool = False,
                            reduction: str = "mean") -> Tensor:
        """max(0, margin + d(anchor, positive) - d(anchor, negative)), d the pairwise p-norm distance."""
