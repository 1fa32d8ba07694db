"""CPU implementation of the reduce op family (see numr/ops/traits/reduce.py).

mean/var/std/amax/amin are the generic composites (numr/ops/generic/reduce.py).
"""

from __future__ import annotations

from typing import Any

from ...errors import UnsupportedDType
from ...layout import Layout, coalesce
from ...ops import dtype_rules, prepare
from ...tensor import Tensor
from .. import storage
from . import lazy_kernels

_k = lazy_kernels("reduce")


# ops whose result does not depend on the order the reduced elements are visited in
_ORDER_FREE = frozenset("sum prod max min any all".split())
_OPS = {"sum": 0, "prod": 1, "max": 2, "min": 3, "argmax": 4, "argmin": 5, "any": 6, "all": 7}


def _launch(op: str, x: Tensor, y: Any, y_strides: tuple[int, ...], dims: tuple[int, ...],
            kept: tuple[int, ...]) -> None:
    """Permute/coalesce x into (kept, reduced) index spaces and run the kernel into the storage
    ``y`` (row-major over the kept dims, with strides ``y_strides``), no copy."""
    if not kept and x._layout.is_contiguous():  # the common case: everything, dense
        geom: tuple = (0, (), (), (), (x.size,), (1,), False)
    else:
        key = (op in _ORDER_FREE, x.shape, x.strides, y_strides, dims, kept)
        geom = _GEOMETRY.get(key)
        if geom is None:
            if len(_GEOMETRY) > 2048:
                _GEOMETRY.clear()
            geom = _GEOMETRY[key] = _geometry(*key)
    doff, kshape, kxs, kys, rshape, rxs, vertical = geom
    ok = _k().reduce(_OPS[op], x.dtype.code, x._storage, x._layout.offset + doff, y, 0,
                     kshape, kxs, kys, rshape, rxs, vertical)
    if not ok:
        raise UnsupportedDType("cpu", op, x.dtype)


# (order_free, shape, x strides, y strides, dims, kept) -> the kernel's geometry: reductions
# run per step in training loops on the same shapes
_GEOMETRY: dict[tuple, tuple] = {}


def _geometry(order_free: bool, shape: tuple[int, ...], xs: tuple[int, ...], yst: tuple[int, ...],
              dims: tuple[int, ...], kept: tuple[int, ...]) -> tuple:
    """(x offset shift, kept shape, its x and y strides, reduced shape, its x strides, vertical)."""
    ys = dict(zip(kept, yst, strict=True))
    red = [d for d in dims if shape[d] != 1]
    rstr = {d: xs[d] for d in red}
    doff = 0
    if order_free:
        # visit memory forwards and with the smallest stride innermost
        for d in red:
            if rstr[d] < 0 and shape[d] > 0:
                doff += (shape[d] - 1) * rstr[d]
                rstr[d] = -rstr[d]
        red.sort(key=lambda d: -abs(rstr[d]))
    keep = sorted((d for d in kept if shape[d] != 1), key=lambda d: -abs(xs[d]))
    kshape, (kxs, kys) = coalesce([shape[d] for d in keep], [xs[d] for d in keep], [ys[d] for d in keep])
    rshape, (rxs,) = coalesce([shape[d] for d in red], [rstr[d] for d in red])
    if not rshape:
        rshape, rxs = (1,), (0,)
    vertical = order_free and len(kshape) > 0 and kshape[-1] >= 4 and abs(kxs[-1]) < abs(rxs[-1])
    return doff, tuple(kshape), tuple(kxs), tuple(kys), tuple(rshape), tuple(rxs), vertical


def _reduce(client: Any, op: str, x: Any, dim: Any, keepdim: bool, rule: Any = None) -> Tensor:
    """Validate, allocate the result (dtype ``rule(x.dtype)``, default the op's rule) and launch."""
    x, dim = prepare.reduce_input(op, client, x, dim)
    out_dtype = (rule or dtype_rules.REDUCE_DTYPE[op])(x.dtype)
    if dim is None and not keepdim and x.size and x._layout.is_contiguous():
        # per-call fast path: every dim of a dense non-empty tensor (what prepare would plan)
        y = storage.allocate(1, out_dtype)
        _launch(op, x, y, (), (), ())
        return Tensor(y, Layout(()), out_dtype, client.device)
    plan = prepare.reduce_plan(op, x, dim)
    y = storage.allocate(plan.out_numel, out_dtype)
    if plan.out_numel:
        _launch(op, x, y, plan.out_strides, plan.dims, plan.kept_dims)
    return Tensor(y, Layout(plan.keep_shape if keepdim else plan.out_shape), out_dtype, client.device)


class ReduceCpu(prepare.reduce_mixin(_reduce)):
    """Mixin of CpuClient: the reduce ops (the methods come from prepare.reduce_mixin)."""
