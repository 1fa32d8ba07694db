"""Joining, splitting, repeating, padding and rearranging tensors."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from ...tensor import Tensor


@runtime_checkable
class ShapeOps(Protocol):
    def cat(self, tensors: Sequence[Tensor], dim: int = 0) -> Tensor:
        """Concatenate along an existing dim (dtypes promote)."""
    def stack(self, tensors: Sequence[Tensor], dim: int = 0) -> Tensor:
        """Join equal-shaped tensors along a new dim."""
    def split(self, x: Tensor, split_size_or_sections: int | Sequence[int], dim: int = 0) -> tuple[Tensor, ...]:
        """Views of pieces along dim: an int size (the last piece smaller) or a list of sizes (torch.split)."""
    def chunk(self, x: Tensor, chunks: int, dim: int = 0) -> tuple[Tensor, ...]:
        """At most ``chunks`` views of size ceil(n / chunks) along dim (torch.chunk)."""
    def unbind(self, x: Tensor, dim: int = 0) -> tuple[Tensor, ...]:
        """Views of every slice along dim, dim removed (torch.unbind)."""
    def repeat(self, x: Tensor, *sizes: Any) -> Tensor:
        """A copy tiled ``sizes[i]`` times along dim i; extra sizes add leading dims (torch.Tensor.repeat)."""
    def tile(self, x: Tensor, reps: Any) -> Tensor:
        """np.tile / torch.tile: like repeat, short ``reps`` are padded with leading ones."""
    def repeat_interleave(self, x: Tensor, repeats: Any, dim: int | None = None) -> Tensor:
        """Each element (slice along dim) repeated ``repeats`` times, an int or a 1-d integer tensor
        of per-element counts; dim None flattens first (torch.repeat_interleave, np.repeat)."""
    def pad(self, x: Tensor, pad: Sequence[int], mode: str = "constant", value: Any = 0) -> Tensor:
        """torch.nn.functional.pad: ``pad`` is (left, right) pairs from the last dim backwards;
        modes constant, reflect, replicate and circular; negative pads crop."""
    def roll(self, x: Tensor, shifts: Any, dims: Any = None) -> Tensor:
        """Elements shifted cyclically along dims; dims None rolls the flattened tensor (torch.roll)."""
    def meshgrid(self, *tensors: Any, indexing: str = "ij") -> tuple[Tensor, ...]:
        """Broadcast views of 1-d tensors over their joint grid; indexing "ij" or "xy" (torch.meshgrid)."""
    def one_hot(self, index: Tensor, num_classes: int = -1) -> Tensor:
        """int64 one-hot encoding of integer class indices; -1 takes max(index) + 1 classes."""
    def movedim(self, x: Tensor, source: Any, destination: Any) -> Tensor:
        """A view with the dims ``source`` moved to positions ``destination``, the rest in order."""
    def moveaxis(self, x: Tensor, source: Any, destination: Any) -> Tensor:
        """NumPy's name for movedim."""
    def swapaxes(self, x: Tensor, axis0: int, axis1: int) -> Tensor:
        """A view with two dims exchanged (NumPy's name for transpose)."""
    def swapdims(self, x: Tensor, dim0: int, dim1: int) -> Tensor:
        """A view with two dims exchanged (PyTorch's name for transpose)."""
