"""CUDA reductions (kernels/reduce.cu): sum prod max min argmax argmin any all over any dims.

mean/var/std/amax/amin are the generic composites (numr/ops/generic/reduce.py).
"""

from __future__ import annotations

from typing import Any

from ... import dtypes as dt
from ...layout import coalesce
from ...ops import dtype_rules, prepare
from ...tensor import Tensor
from ..launch import BLOCK, i64, shp, strs, u64
from ..storage import allocate

_ORDER_FREE = frozenset("sum prod max min any all".split())
PART_BYTES = 16  # largest accumulator: (double, int64) or complex128


def plan_launch(op: str, x: Tensor, dims: tuple[int, ...], kept: tuple[int, ...]):
    """(base element offset, kept shape/strides, reduced shape/strides, nred) with the kept dims in
    output order and, for order-free ops, the reduced dims forward with the smallest stride innermost."""
    shape, xs, off = x.shape, x.strides, x._layout.offset
    red = [d for d in dims if shape[d] != 1]
    rstr = {d: xs[d] for d in red}
    if op in _ORDER_FREE:
        for d in red:
            if rstr[d] < 0 and shape[d] > 0:
                off += (shape[d] - 1) * rstr[d]
                rstr[d] = -rstr[d]
        red.sort(key=lambda d: -abs(rstr[d]))
    keep = [d for d in kept if shape[d] != 1]
    kshape, (kxs,) = coalesce([shape[d] for d in keep], [xs[d] for d in keep])
    rshape, (rxs,) = coalesce([shape[d] for d in red], [rstr[d] for d in red])
    nred = 1
    for s in rshape:
        nred *= s
    if any(shape[d] == 0 for d in dims):
        nred = 0
    return off, (kshape or (1,), kxs or (0,)), (rshape or (1,), rxs or (0,)), nred


def launch(client: Any, op: str, x: Tensor, out: Tensor, dims: tuple[int, ...], kept: tuple[int, ...]) -> None:
    st = client._st
    nout = out.size
    off, (kshape, kxs), (rshape, rxs), nred = plan_launch(op, x, dims, kept)
    target = max(st.sm_count * 4, 1)
    cols = nred > 0 and abs(kxs[-1]) < abs(rxs[-1]) and nout >= 32
    if cols:
        bx = min((nout + BLOCK - 1) // BLOCK, 65535)
        G = max(1, min((target + bx - 1) // bx, (nred + 63) // 64))
    else:
        G = max(1, min((target + nout - 1) // nout, (nred + BLOCK * 4 - 1) // (BLOCK * 4)))
    chunk = (nred + G - 1) // G if nred else 0
    G = (nred + chunk - 1) // chunk if chunk else 1
    part = allocate(st, nout * G * PART_BYTES, dt.uint8) if G > 1 else None
    name = x.dtype.name
    xptr = x._storage.ptr + off * x.dtype.itemsize
    args = [u64(out._storage.ptr), u64(part.ptr if part else 0), u64(xptr), shp(kshape), strs(kxs), shp(rshape),
            strs(rxs), i64(nout), i64(nred), i64(chunk), i64(G)]
    if cols:
        st.run("reduce", x.dtype.code, f"{op}_cols_{name}", (bx, G, 1), BLOCK, args)
    else:
        st.run("reduce", x.dtype.code, f"{op}_rows_{name}", (G, min(nout, 65535), 1), BLOCK, args)
    if G > 1:
        st.run("reduce", x.dtype.code, f"{op}_comb_{name}", min(nout, 65535), BLOCK,
               [u64(out._storage.ptr), u64(part.ptr), i64(nout), i64(G)])


def _reduce(client: Any, op: str, x: Any, dim: Any, keepdim: bool) -> Tensor:
    x, dim = prepare.reduce_input(op, client, x, dim)
    plan = prepare.reduce_plan(op, x, dim)
    out = client.empty(plan.out_shape, dtype_rules.REDUCE_DTYPE[op](x.dtype))
    if out.size:
        launch(client, op, x, out, plan.dims, plan.kept_dims)
    return out.reshape(plan.keep_shape) if keepdim else out


class ReduceCuda(prepare.reduce_mixin(_reduce)):
    """Mixin of CudaClient: the reduce ops (the methods come from prepare.reduce_mixin)."""
