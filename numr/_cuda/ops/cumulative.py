"""CUDA cumsum/cumprod (kernels/cumulative.cu): a block per line, warp-shuffle scans with a carry."""

from __future__ import annotations

from typing import Any

from ...layout import coalesce
from ...ops import dtype_rules, prepare
from ...ops.prepare import as_tensor
from ...tensor import Tensor
from ..launch import BLOCK, i64, ptr, shp, strs


def _scan(client: Any, op: str, x: Any, dim: Any) -> Tensor:
    """Running sum/product along ``dim`` (None: over the flattened tensor, C order)."""
    x = as_tensor(op, client, x)
    d_out = dtype_rules.sum_dtype(x.dtype)
    if dim is None:
        x = x.reshape(-1)
        d = 0
    else:
        d = prepare.single_dim(op, x, dim)
        if x.ndim == 0:
            return _scan(client, op, x, None).reshape(())
    if x.dtype is not d_out:
        x = client.cast(x, d_out)
    y = client.empty(x.shape, d_out)
    if y.size == 0:
        return y
    others = [i for i in range(x.ndim) if i != d and x.shape[i] != 1]
    lshape, (lso, lsx) = coalesce([x.shape[i] for i in others], [y.strides[i] for i in others],
                                  [x.strides[i] for i in others])
    nlines = 1
    for s in lshape:
        nlines *= s
    if not lshape:
        lshape, lso, lsx = (1,), (0,), (0,)
    client._st.run("cumulative", d_out.code, f"{op}_{d_out.name}", min(nlines, 65535 * 4), BLOCK,
                   [ptr(y), ptr(x), shp(lshape), strs(lso), strs(lsx), i64(nlines), i64(x.shape[d]),
                    i64(y.strides[d]), i64(x.strides[d])])
    return y


class CumulativeCuda:
    """Mixin of CudaClient: the cumulative ops."""

    def cumsum(self, x: Tensor, dim: int | None = None) -> Tensor:
        return _scan(self, "cumsum", x, dim)

    def cumprod(self, x: Tensor, dim: int | None = None) -> Tensor:
        return _scan(self, "cumprod", x, dim)
