"""wgpu fused optimizer steps (numr/ops/generic/optim.py's internal ops _adam_step and _sgd_step):
one dispatch of shaders/optim.wgsl over contiguous float32 param, grad and state, written in place;
other dtypes and layouts take the composite."""

from __future__ import annotations

from typing import Any

from ... import dtypes as dt
from ...ops.generic.optim import AdamScalars, FusedSteps
from ...tensor import Tensor
from .. import template as tpl
from ..device import ParamSpec, dispatch_shape, window

FILE = "optim.wgsl"
_ADAM = [("n", "i32"), ("l2", "i32"), ("sign", "f32"), ("wd", "f32"), ("ps", "f32"), ("omb1", "f32"),
         ("omb2", "f32"), ("b2", "f32"), ("epsc", "f32"), ("ss", "f32")]
_SGD = [("n", "i32"), ("l2", "i32"), ("first", "i32"), ("nest", "i32"), ("sign", "f32"), ("wd", "f32"),
        ("lr", "f32"), ("mu", "f32"), ("omd", "f32")]
_AMS = "let x = ld_xx(P.xxoff + i);\n  if (x != x || x > vi) { vi = x; }\n  st_xx(P.xxoff + i, vi);"
_MOM = ("var b = gi;\n  if (P.first == 0) { b = ld_bb(P.bboff + i) * P.mu + gi * P.omd; }\n"
        "  st_bb(P.bboff + i, b);\n  if (P.nest != 0) { gi = gi + b * P.mu; } else { gi = b; }")


def _run(client: Any, section: str, fields: list, tensors: dict[str, Any], values: dict[str, Any],
         subs: dict[str, str]) -> None:
    """One dispatch of ``section`` over the named tensors (None: operand absent) with values."""
    gpu, k = client.gpu, tpl.KINDS["float32"]
    names = [nm for nm, t in tensors.items() if t is not None]
    spec_fields = fields + [(f"{nm}off", "i32") for nm in names]

    def build():
        spec = ParamSpec(spec_fields)
        operands = [(nm, k, nm != "gg") for nm in names]
        update = tpl.fill(tpl.sections(FILE)[section], subs)
        return tpl.build((FILE, "main"), [], operands, {}, spec.wgsl, {"UPDATE": update}), spec

    pipe, spec = gpu.pipeline(("optim", section, tuple(names)), build)
    binds = []
    for nm in names:
        t = tensors[nm]
        lo, hi = t._layout.extent()
        bnd, base = window(t._storage, lo, hi, 4, gpu.offset_align)
        binds.append(bnd)
        values[f"{nm}off"] = t._layout.offset - base
    gpu.run([(pipe, spec, values, binds, dispatch_shape(-(-values["n"] // 64)))])


class OptimWgpu(FusedSteps):
    """Mixin of WgpuClient: the fused float32 _adam_step and _sgd_step."""

    _fused_dtypes = (dt.float32,)

    def _adam_kernel(self, param: Tensor, grad: Tensor, exp_avg: Tensor, exp_avg_sq: Tensor,
                     max_exp_avg_sq: Tensor | None, beta1: float, beta2: float, s: AdamScalars) -> None:
        _run(self, "adam", _ADAM, {"pp": param, "gg": grad, "mm": exp_avg, "vv": exp_avg_sq, "xx": max_exp_avg_sq},
             {"n": param.size, "l2": int(s.wd_l2 != 0), "sign": s.sign, "wd": s.wd_l2, "ps": s.p_scale,
              "omb1": 1 - beta1, "omb2": 1 - beta2, "b2": beta2, "epsc": s.eps_c, "ss": s.step_size},
             {"AMS": _AMS if max_exp_avg_sq is not None else ""})

    def _sgd_kernel(self, param: Tensor, grad: Tensor, momentum_buffer: Tensor | None, lr: float, momentum: float,
                    dampening: float, weight_decay: float, nesterov: bool, maximize: bool, first: bool) -> None:
        _run(self, "sgd", _SGD, {"pp": param, "gg": grad, "bb": momentum_buffer},
             {"n": param.size, "l2": int(weight_decay != 0), "first": int(first), "nest": int(nesterov),
              "sign": -1.0 if maximize else 1.0, "wd": weight_decay, "lr": lr, "mu": momentum, "omd": 1 - dampening},
             {"MOM": _MOM if momentum_buffer is not None else ""})
