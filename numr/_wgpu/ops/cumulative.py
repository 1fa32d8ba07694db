"""wgpu cumsum/cumprod: a thread per short row, a workgroup scan per long row."""

from __future__ import annotations

import operator
from typing import Any

from ...errors import UnsupportedOperation
from ...layout import coalesce, numel
from ...ops import dtype_rules, prepare
from ...tensor import Tensor
from .. import launch
from .. import template as tpl
from ..device import MAXD, WG, ParamSpec, dispatch_shape, window

FILE = "scan.wgsl"
FIELDS = [("nrows", "i32"), ("len", "i32"), ("kdim", "i32"), ("sdim", "i32"), ("xoff", "i32"), ("yoff", "i32"),
          ("ys", "i32"), ("kshape", "ivec"), ("kxs", "ivec"), ("kys", "ivec"), ("sshape", "ivec"), ("sxs", "ivec")]
ACC_KIND = {"f32": "float32", "f64": "float64", "i64": "int64", "u64": "uint64", "i32": "int32", "u32": "uint32"}
TILED_MIN = 64  # rows at least this long get a workgroup each


def _scan(client: Any, op: str, x: Any, dim: Any, out_dtype: Any = None) -> Tensor:
    x = prepare.to_operand(op, client, x)
    if not isinstance(x, Tensor):
        from ...creation import tensor as make_tensor
        x = make_tensor(x, device=client.device)
    prepare.check_device(op, client, x)
    out_dtype = out_dtype or dtype_rules.sum_dtype(x.dtype)
    shape, xs = x.shape, x.strides
    if dim is None:
        y = client.empty((x.size,), out_dtype)
        kshape, kxs, kys = (), (), ()
        sshape, (sxs,) = coalesce(shape, xs)
        ys = 1
    else:
        if not isinstance(dim, int) and hasattr(dim, "__index__"):
            dim = operator.index(dim)  # NumPy integers
        d = prepare.single_dim(op, x, dim)
        if x.ndim == 0:
            return _scan(client, op, x, None, out_dtype).reshape(())
        y = client.empty(shape, out_dtype)
        keep = [i for i in range(x.ndim) if i != d and shape[i] != 1]
        kshape, (kxs, kys) = coalesce([shape[i] for i in keep], [xs[i] for i in keep], [y.strides[i] for i in keep])
        sshape, sxs, ys = (shape[d],), (xs[d],), y.strides[d]
    if not sshape:
        sshape, sxs = (1,), (0,)
    if y.size == 0:
        return y
    if len(kshape) > MAXD or len(sshape) > MAXD:
        raise UnsupportedOperation("wgpu", op, reason=f"more than {MAXD} non-mergeable dims in {shape}")
    gpu = client.gpu
    xk = launch.kind(client, x.dtype, op)
    yk = launch.kind(client, out_dtype, op)
    acc = tpl.KINDS[ACC_KIND[yk.ct]]
    n = numel(sshape)
    rows = y.size // n
    variant = "tiled" if n >= TILED_MIN else "rows"

    def build():
        spec = ParamSpec(FIELDS)
        parts = [tpl.sections(FILE)["common"], tpl.sections(FILE)[op]]
        src = tpl.build((FILE, variant), parts, [("o", yk, True), ("a", xk, False)],
                        {"ACC": acc.ct, "TO": yk.ct}, spec.wgsl)
        return src.replace("IDENT", "ACC(0)" if op == "cumsum" else "ACC(1)"), spec

    pipe, spec = gpu.pipeline(("scan", op, variant, xk.name, yk.name), build)
    lo, hi = x._layout.extent()
    xb, xbase = window(x._storage, lo, hi, x.dtype.itemsize, gpu.offset_align)
    yb, ybase = window(y._storage, 0, y.size, y.dtype.itemsize, gpu.offset_align)
    p = {"nrows": rows, "len": n, "kdim": len(kshape), "sdim": len(sshape), "xoff": x._layout.offset - xbase,
         "yoff": y._layout.offset - ybase, "ys": ys, "kshape": list(kshape), "kxs": list(kxs), "kys": list(kys),
         "sshape": list(sshape), "sxs": list(sxs)}
    groups = rows if variant == "tiled" else -(-rows // WG)
    gpu.run([(pipe, spec, p, [yb, xb], dispatch_shape(groups))])
    return y


class CumulativeWgpu:
    """Mixin of WgpuClient: the cumulative ops."""

    def cumsum(self, x: Tensor, dim: int | None = None) -> Tensor:
        return _scan(self, "cumsum", x, dim)

    def cumprod(self, x: Tensor, dim: int | None = None) -> Tensor:
        return _scan(self, "cumprod", x, dim)
