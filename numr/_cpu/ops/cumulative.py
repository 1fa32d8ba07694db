"""CPU implementation of the cumulative op family (see numr/ops/traits/cumulative.py)."""

from __future__ import annotations

from typing import Any

from ...errors import UnsupportedDType
from ...layout import coalesce
from ...ops import dtype_rules, prepare
from ...tensor import Tensor
from .. import storage
from . import lazy_kernels

_k = lazy_kernels("scan")


def _scan(client: Any, op: str, x: Any, dim: Any) -> Tensor:
    """Running sum/product along ``dim`` (None: over the flattened tensor, C order)."""
    x = prepare.as_tensor(op, client, x)
    shape, xs = x.shape, x.strides
    if dim is None:
        y = storage.empty(client.device, (x.size,), dtype_rules.sum_dtype(x.dtype))
        kshape, kxs, kys = (), (), ()
        sshape, (sxs,) = coalesce(shape, xs)
        ys, vertical = 1, False
    else:
        d = prepare.single_dim(op, x, dim)
        # in x's memory order when x is a permuted dense layout (a transposed x scans its
        # columns in place, as cumsum(dim=0) of a C-contiguous x does)
        y = storage.empty_for(client.device, shape, dtype_rules.sum_dtype(x.dtype), [xs])
        if x.ndim == 0:
            return _scan(client, op, x, None).reshape(())
        keep = sorted((i for i in range(x.ndim) if i != d and shape[i] != 1), key=lambda i: -abs(xs[i]))
        kshape, (kxs, kys) = coalesce([shape[i] for i in keep], [xs[i] for i in keep],
                                      [y.strides[i] for i in keep])
        sshape, sxs, ys = (shape[d],), (xs[d],), y.strides[d]
        vertical = len(kshape) > 0 and kshape[-1] >= 4 and abs(kxs[-1]) < abs(xs[d])
    if not sshape:
        sshape, sxs = (1,), (0,)
    if y.size:
        ok = _k().scan(0 if op == "cumsum" else 1, x.dtype.code, x._storage, x._layout.offset,
                       y._storage, y._layout.offset, kshape, kxs, kys, sshape, sxs, ys, vertical)
        if not ok:
            raise UnsupportedDType("cpu", op, x.dtype)
    return y


class CumulativeCpu:
    """Mixin of CpuClient: the cumulative ops."""

    def cumsum(self, x: Tensor, dim: int | None = None) -> Tensor:
        return _scan(self, "cumsum", x, dim)

    def cumprod(self, x: Tensor, dim: int | None = None) -> Tensor:
        return _scan(self, "cumprod", x, dim)
