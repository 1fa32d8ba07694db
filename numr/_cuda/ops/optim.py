"""CUDA fused optimizer steps (numr/ops/generic/optim.py's internal ops _adam_step and _sgd_step):
one grid-stride pass of kernels/optim.cu over contiguous param, grad and state of one dtype
(float64/float32/float16/bfloat16), written in place; other cases take the composite."""

from __future__ import annotations

from ... import dtypes as dt
from ...ops.generic.optim import AdamScalars, FusedSteps
from ...tensor import Tensor
from ..launch import BLOCK, f64, i64, ptr
from ._base import grid


class OptimCuda(FusedSteps):
    """Mixin of CudaClient: the fused _adam_step and _sgd_step."""

    _fused_dtypes = (dt.float64, dt.float32, dt.float16, dt.bfloat16)

    def _adam_kernel(self, param: Tensor, grad: Tensor, exp_avg: Tensor, exp_avg_sq: Tensor,
                     max_exp_avg_sq: Tensor | None, beta1: float, beta2: float, s: AdamScalars) -> None:
        n, d = param.size, param.dtype
        self._st.run("optim", d.code, f"adam_step_{d.name}", grid(self, n), BLOCK,
                     [ptr(param), ptr(grad), ptr(exp_avg), ptr(exp_avg_sq), ptr(max_exp_avg_sq), i64(n),
                      f64(1 - beta1), f64(1 - beta2), f64(beta2), f64(s.sign), f64(s.wd_l2), f64(s.p_scale),
                      f64(s.eps_c), f64(s.step_size)])

    def _sgd_kernel(self, param: Tensor, grad: Tensor, momentum_buffer: Tensor | None, lr: float, momentum: float,
                    dampening: float, weight_decay: float, nesterov: bool, maximize: bool, first: bool) -> None:
        n, d = param.size, param.dtype
        self._st.run("optim", d.code, f"sgd_step_{d.name}", grid(self, n), BLOCK,
                     [ptr(param), ptr(grad), ptr(momentum_buffer), i64(n), f64(lr), f64(momentum),
                      f64(1 - dampening), f64(-1.0 if maximize else 1.0), f64(weight_decay), i64(int(first)),
                      i64(int(nesterov))])
