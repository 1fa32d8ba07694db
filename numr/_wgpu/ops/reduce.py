"""wgpu reductions: workgroup tree reductions, multi-pass over large reduced ranges.

mean/var/std/amax/amin are the generic composites (numr/ops/generic/reduce.py).
"""

from __future__ import annotations

import math
from typing import Any

from ... import dtypes as dt
from ...errors import UnsupportedOperation
from ...layout import coalesce
from ...ops import dtype_rules, prepare
from ...shapes import numel
from ...tensor import Tensor
from .. import launch
from .. import template as tpl
from ..device import MAXD, ParamSpec, dispatch_shape, window

FILE = "reduce.wgsl"
PER_THREAD = 16  # elements one thread folds before the tree (bounds float32 rounding error)
# Loop budget (device.loop_budget): a thread folds <= PER_THREAD elements (more parts, not
# longer loops, for longer ranges), each through a walk of <= 8 dims, plus its kept-dims walk
# and the 8-step tree: <= 16 * 9 + 16 iterations whatever the size, so no split is needed.
FIELDS = [("nout", "i32"), ("nin", "i32"), ("parts", "i32"), ("kdim", "i32"), ("rdim", "i32"), ("off", "i32"),
          ("ooff", "i32"), ("kshape", "ivec"), ("kst", "ivec"), ("rshape", "ivec"), ("rst", "ivec")]
IDENT = {"sum": "ACC(0)", "prod": "ACC(1)", "max": "lowest()", "min": "highest()", "argmax": "lowest()",
         "argmin": "highest()", "any": "0u", "all": "1u"}
ARG = ("argmax", "argmin")
#: the result of reducing nothing (max/min/argmax/argmin of an empty range raise in prepare)
EMPTY_RESULT = {"sum": 0, "prod": 1, "any": False, "all": True}
ACC_KIND = {"f32": "float32", "f64": "float64", "i32": "int32", "u32": "uint32", "i64": "int64", "u64": "uint64"}


def _kernel(client: Any, op: str, xk: tpl.Kind, ok: tpl.Kind, acc: tpl.Kind, first: bool, final: bool, d: Any):
    arg = op in ARG
    i32 = tpl.KINDS["int32"]
    outs = [("o", ok if final else acc, True)] + ([] if final or not arg else [("i", i32, True)])
    ins = [("a", xk if first else acc, False)] + ([] if first or not arg else [("b", i32, False)])

    def build():
        spec = ParamSpec(FIELDS)
        parts = [tpl.find("common.wgsl", "consts", acc.cls) or "",
                 launch.section(client, FILE, op, acc, op, d)]
        if op in ("max", "min") or arg:
            parts.append(tpl.find(FILE, "lowest", acc.cls) or "")
        if first:
            pre = {"sum": "ACC(x)", "prod": "ACC(x)", "any": "select(0u, 1u, !(x == TA(0)))",
                   "all": "select(0u, 1u, !(x == TA(0)))"}.get(op, "x")
            load = f"let x = ld_a(base + walk(j, P.rdim, P.rshape, P.rst)); let v = {pre}; let ix = j;"
        else:
            load = "let v = ld_a(o * P.nin + j); " + ("let ix = ld_b(o * P.nin + j);" if arg else "let ix = j;")
        if arg:
            fold = "if (better(acc, idx, v, ix)) { acc = v; idx = ix; }"
            tree = "if (better(va, ia, vb, ib)) { sv[lid] = vb; si[lid] = ib; }"
            store = "st_o(P.ooff + o, TO(ri));" if final else "st_o(wid, r); st_i(wid, ri);"
        else:
            fold = "acc = comb(acc, v);"
            tree = "sv[lid] = comb(va, vb);"
            store = "st_o(P.ooff + o, TO(r));" if final else "st_o(wid, r);"
        aliases = {"ACC": acc.ct, "TA": (xk if first else acc).ct, "TO": (ok if final else acc).ct}
        src = tpl.build((FILE, "main"), parts, outs + ins, aliases, spec.wgsl,
                        {"LOAD": load, "FOLD": fold, "TREE": tree, "STORE": store})
        src = src.replace("IDENT", IDENT[op])
        return src, spec

    key = ("reduce", op, xk.name, ok.name, acc.name, first, final)
    return client.gpu.pipeline(key, build)


def _reduce(client: Any, op: str, x: Any, dim: Any, keepdim: bool, out_dtype_rule: Any = None) -> Tensor:
    x, dim = prepare.reduce_input(op, client, x, dim)
    plan = prepare.reduce_plan(op, x, dim)
    out_dtype_rule = out_dtype_rule or dtype_rules.REDUCE_DTYPE[op]
    out_dtype = out_dtype_rule(x.dtype)
    xk = launch.kind(client, x.dtype, op)
    ok = launch.kind(client, out_dtype, op)
    if op in ("sum", "prod"):
        acc = launch.kind(client, dt.dtype(ACC_KIND[ok.ct]), op)
    elif op in ("any", "all"):
        acc = tpl.KINDS["uint32"]
    else:
        acc = tpl.KINDS[ACC_KIND[xk.ct]]
    if x.size and _too_big(client, x):
        r = _split(client, op, x, plan.dims, out_dtype_rule)
        r = r[1] if op in ARG else r
        return r.reshape(plan.keep_shape) if keepdim else r
    y = client.empty(plan.out_shape, out_dtype)
    if y.size and not x.size:  # an empty reduced range: the identity (no binding of x's storage)
        client.fill_(y, EMPTY_RESULT[op])
    elif y.size:
        _launch(client, op, x, y, plan, xk, ok, acc)
    return y.reshape(plan.keep_shape) if keepdim else y


def _too_big(client: Any, x: Tensor) -> bool:
    lo, hi = x._layout.extent()
    return (hi - lo) * x.dtype.itemsize > client.gpu.max_binding - client.gpu.offset_align


COMBINE = {"sum": "add", "prod": "mul", "max": "maximum", "min": "minimum", "any": "logical_or",
           "all": "logical_and"}


def _split(client: Any, op: str, x: Tensor, dims: tuple[int, ...], rule: Any) -> Any:
    """Reduce a tensor larger than one storage binding: halve it along its first non-trivial
    dim until the pieces fit, reduce the pieces, then join (kept dim) or combine (reduced
    dim) the partial results. argmax/argmin carry (values, indices)."""
    arg = op in ARG
    if not _too_big(client, x):
        dim = None if len(dims) == x.ndim else dims[0] if arg else dims
        r = _reduce(client, op, x, dim, False, rule)
        if arg:
            return _reduce(client, "max" if op == "argmax" else "min", x, dim, False), r
        return r
    d = next(i for i, s in enumerate(x.shape) if s > 1)
    n = x.shape[d]
    h = n // 2
    ra = _split(client, op, x.narrow(d, 0, h), dims, rule)
    rb = _split(client, op, x.narrow(d, h, n - h), dims, rule)
    if d not in dims:
        pos = sum(1 for i in range(d) if i not in dims)
        if arg:
            return client.cat([ra[0], rb[0]], pos), client.cat([ra[1], rb[1]], pos)
        return client.cat([ra, rb], pos)
    if not arg:
        return getattr(client, COMBINE[op])(ra, rb)
    (va, ia), (vb, ib) = ra, rb
    factor = 1
    for i in dims:
        if i > d:
            factor *= x.shape[i]
    ib = client.add(ib, h * factor)
    beats = client.gt(vb, va) if op == "argmax" else client.lt(vb, va)
    if x.dtype.kind == "f":
        beats = client.logical_or(beats, client.logical_and(client.isnan(vb), client.logical_not(client.isnan(va))))
    return client.where(beats, vb, va), client.where(beats, ib, ia)


def _launch(client: Any, op: str, x: Tensor, y: Tensor, plan: Any, xk, ok, acc) -> None:
    gpu = client.gpu
    shape, xs = x.shape, x.strides
    red = [d for d in plan.dims if shape[d] != 1]
    keep = [d for d in plan.kept_dims]
    kshape, (kst,) = coalesce([shape[d] for d in keep], [xs[d] for d in keep])
    rshape, (rst,) = coalesce([shape[d] for d in red], [xs[d] for d in red])
    if len(kshape) > MAXD or len(rshape) > MAXD:
        raise UnsupportedOperation("wgpu", op, reason=f"more than {MAXD} non-mergeable dims in {shape}")
    nout, nin = y.size, numel(rshape)
    lo, hi = x._layout.extent()
    xb, xbase = window(x._storage, lo, hi, x.dtype.itemsize, gpu.offset_align)
    arg = op in ARG
    parts = 1 if nin <= 256 * PER_THREAD else math.ceil(nin / (256 * PER_THREAD))
    passes = []
    keep_alive = []
    src_binds = [xb]
    p = {"nout": nout, "nin": nin, "kdim": len(kshape), "rdim": len(rshape), "off": x._layout.offset - xbase,
         "kshape": list(kshape), "kst": list(kst), "rshape": list(rshape), "rst": list(rst)}
    first = True
    while True:
        final = parts == 1
        pipe, spec = _kernel(client, op, xk, ok, acc, first, final, x.dtype)
        if final:
            out_binds = [window(y._storage, 0, y.size, y.dtype.itemsize, gpu.offset_align)[0]]
        else:
            pv = gpu.alloc(nout * parts * 8)
            out_binds = [launch.whole(pv)]
            keep_alive.append(pv)
            if arg:
                pi = gpu.alloc(nout * parts * 4)
                out_binds.append(launch.whole(pi))
                keep_alive.append(pi)
        q = dict(p, parts=parts, ooff=y._layout.offset)
        passes.append((pipe, spec, q, out_binds + src_binds, dispatch_shape(nout * parts)))
        if final:
            break
        src_binds = out_binds
        first = False
        nin = parts
        parts = 1 if nin <= 256 * PER_THREAD else math.ceil(nin / (256 * PER_THREAD))
        p = {"nout": nout, "nin": nin, "kdim": 0, "rdim": 0, "off": 0}
    gpu.run(passes)


class ReduceWgpu(prepare.reduce_mixin(_reduce)):
    """Mixin of WgpuClient: the reduce ops (the methods come from prepare.reduce_mixin)."""
