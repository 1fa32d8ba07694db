"""wgpu matmul and fused matmul_bias: tiled through workgroup memory, batched with
broadcast batch dims, strided (transposed) operands read in place."""

from __future__ import annotations

from typing import Any

from ...errors import DTypeError, ShapeError, UnsupportedOperation
from ...layout import coalesce
from ...ops import prepare
from ...ops.generic import matmul as generic_matmul
from ...tensor import Tensor
from .. import launch
from .. import template as tpl
from ..device import MAXD, ParamSpec, window

FILE = "matmul.wgsl"
FIELDS = [("m", "i32"), ("n", "i32"), ("k", "i32"), ("bdim", "i32"), ("aoff", "i32"), ("boff", "i32"),
          ("coff", "i32"), ("qoff", "i32"), ("rsa", "i32"), ("csa", "i32"), ("rsb", "i32"), ("csb", "i32"),
          ("rsc", "i32"), ("csc", "i32"), ("rsq", "i32"), ("csq", "i32"), ("bshape", "ivec"), ("abs", "ivec"),
          ("bbs", "ivec"), ("cbs", "ivec"), ("qbs", "ivec")]


def _operands(client: Any, op: str, a: Any, b: Any):
    a = prepare.to_operand(op, client, a)
    b = prepare.to_operand(op, client, b)
    if not isinstance(a, Tensor) or not isinstance(b, Tensor):
        raise DTypeError(f"{op}: both operands must be tensors, not Python scalars")
    batch, m, k, n, out_shape = prepare.matmul_shapes(op, a.shape, b.shape)
    d = prepare.promoted(op, [a, b])
    if d.is_complex:
        raise DTypeError(f"{op}: dtype {d} is not supported on wgpu")
    a = a if a.dtype is d else client.cast(a, d)
    b = b if b.dtype is d else client.cast(b, d)
    return a, b, batch, m, k, n, out_shape, d


def _run(client: Any, a: Tensor, b: Tensor, bias: Tensor | None, batch, m, k, n, d) -> Tensor:
    gpu = client.gpu
    a2 = a.unsqueeze(0) if a.ndim == 1 else a
    b2 = b.unsqueeze(-1) if b.ndim == 1 else b
    out = client.empty(batch + (m, n), d)
    if out.size == 0:
        return out
    if k == 0:
        return client.fill_(out, 0) if bias is None else client.copy_(out, bias)
    nb = len(batch)
    a_bs = a2.broadcast_to(batch + (m, k)).strides[:nb]
    b_bs = b2.broadcast_to(batch + (k, n)).strides[:nb]
    ops = [a_bs, b_bs, out.strides[:nb]]
    q = bias.broadcast_to(batch + (m, n)) if bias is not None else None
    if q is not None:
        ops.append(q.strides[:nb])
    bshape, bst = coalesce(batch, *ops)
    nbatch = 1
    for s in bshape:
        nbatch *= s
    if len(bshape) > MAXD or nbatch > 65535:
        raise UnsupportedOperation("wgpu", "matmul", reason=f"batch shape {batch} too large")
    kind = launch.kind(client, d, "matmul")
    acc = tpl.KINDS[{"f32": "float32", "f64": "float64", "i32": "int32", "u32": "uint32", "i64": "int64",
                     "u64": "uint64"}[kind.ct]]
    fused = q is not None

    def build():
        spec = ParamSpec(FIELDS)
        operands = [("o", kind, True), ("a", kind, False), ("b", kind, False)] + ([("c", kind, False)] if fused else [])
        parts = [tpl.find(FILE, "mac", kind.cls)]
        epi = tpl.find(FILE, "bias", kind.cls) if fused else ""
        if kind.cls == "b":
            epi += "v = select(0u, 1u, v != 0u);"
        src = tpl.build((FILE, "main"), parts, operands, {"ACC": acc.ct, "TO": kind.ct}, spec.wgsl,
                        {"EPILOGUE": epi})
        return src, spec

    pipe, spec = gpu.pipeline(("matmul", kind.name, fused), build)
    binds, offs = [], []
    for t in [out, a2, b2] + ([q] if fused else []):
        lo, hi = t._layout.extent()
        if (hi - lo) * t.dtype.itemsize > gpu.max_binding - gpu.offset_align:
            raise UnsupportedOperation("wgpu", "matmul", d, "an operand exceeds the binding limit")
        bnd, base = window(t._storage, lo, hi, t.dtype.itemsize, gpu.offset_align)
        binds.append(bnd)
        offs.append(t._layout.offset - base)
    p = {"m": m, "n": n, "k": k, "bdim": len(bshape), "coff": offs[0], "aoff": offs[1], "boff": offs[2],
         "rsa": a2.strides[-2], "csa": a2.strides[-1], "rsb": b2.strides[-2], "csb": b2.strides[-1],
         "rsc": out.strides[-2], "csc": out.strides[-1], "bshape": list(bshape), "abs": list(bst[0]),
         "bbs": list(bst[1]), "cbs": list(bst[2])}
    if fused:
        p.update(qoff=offs[3], rsq=q.strides[-2], csq=q.strides[-1], qbs=list(bst[3]))
    gpu.run([(pipe, spec, p, binds, (-(-n // 64), -(-m // 64), nbatch))])
    return out


class MatmulWgpu:
    """Mixin of WgpuClient: matmul and matmul_bias."""

    def matmul(self, a: Tensor, b: Tensor) -> Tensor:
        """NumPy's matmul: 1-d operands gain a dim that is dropped again; batch dims broadcast."""
        a, b, batch, m, k, n, out_shape, d = _operands(self, "matmul", a, b)
        return _run(self, a, b, None, batch, m, k, n, d).reshape(out_shape)

    def matmul_bias(self, a: Tensor, b: Tensor, bias: Tensor) -> Tensor:
        """a @ b + bias with the bias added in the kernel's epilogue (same dtype, 2-d+ results)."""
        a2, b2, batch, m, k, n, out_shape, d = _operands(self, "matmul_bias", a, b)
        bias = prepare.to_operand("matmul_bias", self, bias)
        if (not isinstance(bias, Tensor) or bias.dtype is not d or a2.ndim < 2 or b2.ndim < 2):
            return generic_matmul.matmul_bias(self, a, b, bias)
        try:
            bias.broadcast_to(batch + (m, n))
        except ShapeError:
            return generic_matmul.matmul_bias(self, a, b, bias)
        return _run(self, a2, b2, bias, batch, m, k, n, d).reshape(out_shape)
