"""CPU fused optimizer steps (numr/ops/generic/optim.py's internal ops _adam_step, _sgd_step and
_rmsprop_step): one pass of C (kernels/optim_ops.h, OpenMP above 64K elements) over parameter,
gradient and state that writes them in place, bit-identical to the composite, for contiguous
float64/float32 and float16/bfloat16 (float32 math; RMSprop: not float16) of one dtype. Adam on
1M float32 parameters, one thread: 1.9 ms composite (12 passes, as many temporaries) -> 0.34 ms
(asv_bench/benchmarks/loss.py). Other dtypes and layouts take the composite."""

from __future__ import annotations

from typing import Any

from ... import dtypes as dt
from ...ops.generic.optim import AdamScalars, FusedSteps
from ...tensor import Tensor
from . import lazy_kernels

_k = lazy_kernels("optim")
_KIND = {dt.float64: 0, dt.float32: 1, dt.float16: 2, dt.bfloat16: 3}


def _buf(t: Any) -> tuple[Any, int]:
    return (None, 0) if t is None else (t._storage, t._layout.offset)


class OptimCpu(FusedSteps):
    """Mixin of CpuClient: the fused _adam_step and _sgd_step."""

    _fused_dtypes = tuple(_KIND)
    _rmsprop_dtypes = (dt.float64, dt.float32, dt.bfloat16)  # float16: the composite (F16C passes) is faster

    def _adam_kernel(self, param: Tensor, grad: Tensor, exp_avg: Tensor, exp_avg_sq: Tensor,
                     max_exp_avg_sq: Tensor | None, beta1: float, beta2: float, s: AdamScalars) -> None:
        _k().adam(_KIND[param.dtype], *_buf(param), *_buf(grad), *_buf(exp_avg), *_buf(exp_avg_sq),
                  *_buf(max_exp_avg_sq), param.size, beta1, beta2, s.eps_c, s.step_size, s.sign, s.wd_l2,
                  s.p_scale)

    def _sgd_kernel(self, param: Tensor, grad: Tensor, momentum_buffer: Tensor | None, lr: float, momentum: float,
                    dampening: float, weight_decay: float, nesterov: bool, maximize: bool, first: bool) -> None:
        _k().sgd(_KIND[param.dtype], *_buf(param), *_buf(grad), *_buf(momentum_buffer), param.size, lr, momentum,
                 dampening, -1.0 if maximize else 1.0, weight_decay, first, nesterov)

    def _rmsprop_kernel(self, param: Tensor, grad: Tensor, square_avg: Tensor, grad_avg: Tensor | None,
                        momentum_buffer: Tensor | None, lr: float, alpha: float, eps: float, weight_decay: float,
                        momentum: float, maximize: bool) -> None:
        _k().rmsprop(_KIND[param.dtype], *_buf(param), *_buf(grad), *_buf(square_avg), *_buf(grad_avg),
                     *_buf(momentum_buffer), param.size, lr, alpha, eps, momentum, -1.0 if maximize else 1.0,
                     weight_decay)
