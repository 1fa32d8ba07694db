"""index_add: the out-of-place form of index_add_ (a copy of x, then the in-place kernel)."""

from __future__ import annotations

from typing import Any


def index_add(self: Any, x: Any, dim: int, index: Any, source: Any, alpha: Any = 1) -> Any:
    out = self.empty(x.shape, x.dtype)
    self.copy_(out, x)
    return self.index_add_(out, dim, index, source, alpha)
