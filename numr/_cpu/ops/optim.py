"""CPU fused optimizer steps (numr/ops/generic/optim.py's internal ops _adam_step and _sgd_step):
one pass of C (kernels/optim_ops.h, OpenMP above 64K elements) over parameter, gradient and state
that writes them in place, for contiguous float64/float32 and float16/bfloat16 (float32 math) of
one dtype. Adam on 1M float32 parameters, one thread: 4.5 ms composite (12 passes, as many
temporaries) -> see asv_bench/benchmarks/loss.py. Other dtypes and layouts take the composite."""

from __future__ import annotations

from typing import Any

from ... import dtypes as dt
from ...ops.generic import optim as generic
from ...tensor import Tensor
from . import lazy_kernels

_k = lazy_kernels("optim")
_KIND = {dt.float64: 0, dt.float32: 1, dt.float16: 2, dt.bfloat16: 3}


def _buf(t: Any) -> tuple[Any, int]:
    return (None, 0) if t is None else (t._storage, t._layout.offset)


class OptimCpu:
    """Mixin of CpuClient: the fused _adam_step and _sgd_step."""

    def _adam_step(self, param: Tensor, grad: Tensor, exp_avg: Tensor, exp_avg_sq: Tensor,
                   max_exp_avg_sq: Tensor | None, lr: float, beta1: float, beta2: float, eps: float,
                   weight_decay: float, decoupled: bool, maximize: bool, step: int) -> None:
        if not generic.fusable(self, _KIND, param, grad, exp_avg, exp_avg_sq, max_exp_avg_sq):
            return generic._adam_step(self, param, grad, exp_avg, exp_avg_sq, max_exp_avg_sq, lr, beta1, beta2,
                                      eps, weight_decay, decoupled, maximize, step)
        s = generic.adam_scalars(lr, beta1, beta2, eps, weight_decay, decoupled, maximize, step)
        if param.size:
            _k().adam(_KIND[param.dtype], *_buf(param), *_buf(grad), *_buf(exp_avg), *_buf(exp_avg_sq),
                      *_buf(max_exp_avg_sq), param.size, lr, beta1, beta2, s.eps_c, s.step_size, s.sign,
                      s.wd_l2, s.p_scale)
        return None

    def _sgd_step(self, param: Tensor, grad: Tensor, momentum_buffer: Tensor | None, lr: float, momentum: float,
                  dampening: float, weight_decay: float, nesterov: bool, maximize: bool, first: bool) -> None:
        if not generic.fusable(self, _KIND, param, grad, momentum_buffer):
            return generic._sgd_step(self, param, grad, momentum_buffer, lr, momentum, dampening, weight_decay,
                                     nesterov, maximize, first)
        if param.size:
            _k().sgd(_KIND[param.dtype], *_buf(param), *_buf(grad), *_buf(momentum_buffer), param.size, lr,
                     momentum, dampening, -1.0 if maximize else 1.0, weight_decay, first, nesterov)
        return None
