"""CUDA fused optimizer steps (numr/ops/generic/optim.py's internal ops _adam_step and _sgd_step):
one grid-stride pass of kernels/optim.cu over contiguous param, grad and state of one dtype
(float64/float32/float16/bfloat16), written in place; other cases take the composite."""

from __future__ import annotations

from ... import dtypes as dt
from ...ops.generic import optim as generic
from ...tensor import Tensor
from ..launch import BLOCK, f64, i64, ptr
from ._base import grid

_DTYPES = (dt.float64, dt.float32, dt.float16, dt.bfloat16)


class OptimCuda:
    """Mixin of CudaClient: the fused _adam_step and _sgd_step."""

    def _adam_step(self, param: Tensor, grad: Tensor, exp_avg: Tensor, exp_avg_sq: Tensor,
                   max_exp_avg_sq: Tensor | None, lr: float, beta1: float, beta2: float, eps: float,
                   weight_decay: float, decoupled: bool, maximize: bool, step: int) -> None:
        if not generic.fusable(self, _DTYPES, param, grad, exp_avg, exp_avg_sq, max_exp_avg_sq):
            return generic._adam_step(self, param, grad, exp_avg, exp_avg_sq, max_exp_avg_sq, lr, beta1, beta2,
                                      eps, weight_decay, decoupled, maximize, step)
        s = generic.adam_scalars(lr, beta1, beta2, eps, weight_decay, decoupled, maximize, step)
        n, d = param.size, param.dtype
        if n:
            self._st.run("optim", d.code, f"adam_step_{d.name}", grid(self, n), BLOCK,
                         [ptr(param), ptr(grad), ptr(exp_avg), ptr(exp_avg_sq), ptr(max_exp_avg_sq), i64(n),
                          f64(1 - beta1), f64(1 - beta2), f64(beta2), f64(s.sign), f64(s.wd_l2), f64(s.p_scale),
                          f64(s.eps_c), f64(s.step_size)])
        return None

    def _sgd_step(self, param: Tensor, grad: Tensor, momentum_buffer: Tensor | None, lr: float, momentum: float,
                  dampening: float, weight_decay: float, nesterov: bool, maximize: bool, first: bool) -> None:
        if not generic.fusable(self, _DTYPES, param, grad, momentum_buffer):
            return generic._sgd_step(self, param, grad, momentum_buffer, lr, momentum, dampening, weight_decay,
                                     nesterov, maximize, first)
        n, d = param.size, param.dtype
        if n:
            self._st.run("optim", d.code, f"sgd_step_{d.name}", grid(self, n), BLOCK,
                         [ptr(param), ptr(grad), ptr(momentum_buffer), i64(n), f64(lr), f64(momentum),
                          f64(1 - dampening), f64(-1.0 if maximize else 1.0), f64(weight_decay), i64(int(first)),
                          i64(int(nesterov))])
        return None
