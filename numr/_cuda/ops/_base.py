"""Launch helpers shared by the CUDA op families (one place for argument packing)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...dtypes import DType
from ...tensor import Tensor
from ..launch import BLOCK, elementwise_layout, grid_for, i64, ptr


def grid(client: Any, n: int) -> int:
    """Blocks for a grid-stride loop: enough to fill every SM, not more."""
    return grid_for(n, BLOCK, max(client._st.sm_count * 8, 1))


def ew(client: Any, family: str, dtype: DType, name: str, out: Tensor, ins: Sequence[Tensor],
       extra: Sequence[Any] = ()) -> Tensor:
    """Run the element-wise kernel ``<name>_<dtype>`` of ``family``.cu:
    (out, out strides, in0, in0 strides, ..., shape, n, *extra); operands share out's shape."""
    n = out.size
    if n == 0:
        return out
    sh, st = elementwise_layout(out.shape, out, *ins)
    args: list[Any] = [ptr(out), st[0]]
    for t, s in zip(ins, st[1:], strict=False):
        args += [ptr(t), s]
    args += [sh, i64(n), *extra]
    client._st.run(family, dtype.code, f"{name}_{dtype.name}", grid(client, n), BLOCK, args)
    return out
