"""Convolution and pooling with torch.nn.functional semantics: im2col (unfold) and its
adjoint (fold), conv1d/2d, conv_transpose1d/2d, max/avg pooling, adaptive average pooling.
Floating dtypes (float16/bfloat16 accumulate in float32 through matmul and sum); unfold, fold
and max pooling also take integers. Inputs may be unbatched (no N dim), as torch."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from ...tensor import Tensor

IntPair = "int | tuple[int, int]"


@runtime_checkable
class ConvOps(Protocol):
    def unfold(self, x: Tensor, kernel_size: IntPair, dilation: IntPair = 1, padding: IntPair = 0,
               stride: IntPair = 1) -> Tensor:
        """im2col: (N, C, H, W) -> (N, C*kh*kw, L), the sliding windows as columns, zero padding
        (torch.nn.functional.unfold). Built on a strided view of the padded input."""
    def fold(self, x: Tensor, output_size: IntPair, kernel_size: IntPair, dilation: IntPair = 1,
             padding: IntPair = 0, stride: IntPair = 1) -> Tensor:
        """col2im, the adjoint of unfold: (N, C*kh*kw, L) -> (N, C, H, W), overlapping window
        entries added up (torch.nn.functional.fold)."""
    def conv1d(self, x: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1,
               padding: Any = 0, dilation: Any = 1, groups: int = 1) -> Tensor:
        """(N, C, L) * (O, C/groups, k) -> (N, O, L'); padding an int, "valid" or "same"."""
    def conv2d(self, x: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1,
               padding: Any = 0, dilation: Any = 1, groups: int = 1) -> Tensor:
        """Cross-correlation (N, C, H, W) * (O, C/groups, kh, kw) -> (N, O, H', W') as one batched
        matmul of the weight with unfold's columns (groups a batch dim); padding int, pair,
        "valid" or "same" (stride 1; the odd pixel padded on the right, as torch)."""
    def conv2d_weight_grad(self, x: Tensor, weight_shape: Any, grad_output: Tensor, stride: Any = 1,
                           padding: Any = 0, dilation: Any = 1, groups: int = 1) -> Tensor:
        """conv2d's gradient in its weight, of shape weight_shape (torch.nn.grad.conv2d_weight),
        from the input and the gradient of the output; conv_transpose2d is the one in the input."""
    def conv_transpose1d(self, x: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1,
                         padding: Any = 0, output_padding: Any = 0, groups: int = 1,
                         dilation: Any = 1) -> Tensor:
        """The adjoint of conv1d in x: (N, C, L) * (C, O/groups, k) -> (N, O, L')."""
    def conv_transpose2d(self, x: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1,
                         padding: Any = 0, output_padding: Any = 0, groups: int = 1,
                         dilation: Any = 1) -> Tensor:
        """The adjoint of conv2d in x (torch's argument order): weight (C, O/groups, kh, kw);
        a batched matmul then fold; H' = (H-1)*stride - 2*padding + dilation*(kh-1) + output_padding + 1."""
    def max_pool1d(self, x: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0, dilation: Any = 1,
                   ceil_mode: bool = False, return_indices: bool = False) -> Any:
        """Window maximum over the last dim (see max_pool2d)."""
    def max_pool2d(self, x: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0, dilation: Any = 1,
                   ceil_mode: bool = False, return_indices: bool = False) -> Any:
        """Window maximum (padding with -inf, NaN propagates); with return_indices also the int64
        flat index in H*W of each maximum (the first on ties, the last NaN, as torch), where the
        gradient goes; -1 for a window wholly in the padding (possible with dilation)."""
    def avg_pool1d(self, x: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,
                   ceil_mode: bool = False, count_include_pad: bool = True) -> Tensor:
        """Window mean over the last dim (see avg_pool2d)."""
    def avg_pool2d(self, x: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,
                   ceil_mode: bool = False, count_include_pad: bool = True,
                   divisor_override: int | None = None) -> Tensor:
        """Window mean with zero padding; the divisor counts padding when count_include_pad, and
        never the part of a ceil_mode window past the padded input (as torch)."""
    def adaptive_avg_pool2d(self, x: Tensor, output_size: Any) -> Tensor:
        """Mean over windows [floor(i*H/oh), ceil((i+1)*H/oh)) per output cell, as two small
        averaging matmuls (one per spatial dim); None in output_size keeps that dim."""
    def adaptive_max_pool2d(self, x: Tensor, output_size: Any, return_indices: bool = False) -> Any:
        """Maximum over the windows of adaptive_avg_pool2d (NaN propagates; with return_indices
        the int64 flat index in H*W of each cell's first maximum, where the gradient goes)."""
