"""The optimizers' in-place update steps (numr.optim), as internal client ops so that a backend with
a fused one-pass kernel (numr/_cpu/ops/optim.py) replaces them: these composites are the reference
arithmetic (torch.optim's single-tensor updates, op for op) for every other dtype, layout and backend.
They write param and the state buffers in place (``copy_``), so views and non-contiguous tensors work."""

from __future__ import annotations

import math
from typing import Any, NamedTuple


class AdamScalars(NamedTuple):
    """The per-step scalars of an Adam step, computed once in Python (float64)."""
    sign: float       # -1 if maximize
    wd_l2: float      # L2 weight decay added to the gradient (0 if decoupled)
    p_scale: float    # 1 - lr wd if decoupled, else 1
    eps_c: float      # eps sqrt(1 - b2^t): m / (sqrt(v) / c + eps) = c m / (sqrt(v) + c eps), one op fewer
    step_size: float  # lr c / (1 - b1^t)


def adam_scalars(lr: float, beta1: float, beta2: float, eps: float, weight_decay: float, decoupled: bool,
                 maximize: bool, step: int) -> AdamScalars:
    c = math.sqrt(1 - beta2 ** step)
    return AdamScalars(-1.0 if maximize else 1.0, 0.0 if decoupled else weight_decay,
                       1 - lr * weight_decay if decoupled else 1.0, eps * c, lr * c / (1 - beta1 ** step))


def fusable(client: Any, dtypes: Any, param: Any, *others: Any) -> bool:
    """Whether a fused kernel applies: param's dtype is in dtypes and param and every other (non-None)
    tensor are plain contiguous Tensors on client's device with param's dtype."""
    from ...tensor import Tensor
    if param.dtype not in dtypes:
        return False
    return all(t is None or (t.__class__ is Tensor and t.device is client.device and t.dtype is param.dtype
                             and t.is_contiguous()) for t in (param,) + others)


def _adam_step(self: Any, param: Any, grad: Any, exp_avg: Any, exp_avg_sq: Any, max_exp_avg_sq: Any,
               lr: float, beta1: float, beta2: float, eps: float, weight_decay: float, decoupled: bool,
               maximize: bool, step: int) -> None:
    """One Adam/AdamW step (amsgrad when max_exp_avg_sq is given; step counts from 1): m = lerp(m,
    g, 1 - beta1), v = beta2 v + (1 - beta2) g^2, p -= lr / (1 - beta1^t) m / (sqrt(v) / sqrt(1 -
    beta2^t) + eps), all written in place."""
    import numr as nr
    s = adam_scalars(lr, beta1, beta2, eps, weight_decay, decoupled, maximize, step)
    g = -grad if maximize else grad
    if s.wd_l2:
        g = g + param * s.wd_l2
    p = param * s.p_scale if decoupled and weight_decay else param
    m = exp_avg.copy_(exp_avg + (g - exp_avg) * (1 - beta1))
    v = exp_avg_sq.copy_(nr.fma(g, g * (1 - beta2), exp_avg_sq * beta2))
    if max_exp_avg_sq is not None:
        v = max_exp_avg_sq.copy_(nr.maximum(max_exp_avg_sq, v))
    param.copy_(p - m / (nr.sqrt(v) + s.eps_c) * s.step_size)


def _sgd_step(self: Any, param: Any, grad: Any, momentum_buffer: Any, lr: float, momentum: float,
              dampening: float, weight_decay: float, nesterov: bool, maximize: bool, first: bool) -> None:
    """One SGD step, in place: g = -grad if maximize, + weight_decay p; with a momentum_buffer, buf =
    g on the first step, else momentum buf + (1 - dampening) g, and g = g + momentum buf (nesterov)
    or buf; p -= lr g."""
    g = -grad if maximize else grad
    if weight_decay:
        g = g + param * weight_decay
    if momentum_buffer is not None:
        buf = momentum_buffer.copy_(g if first else momentum_buffer * momentum + g * (1 - dampening))
        g = g + buf * momentum if nesterov else buf
    param.copy_(param - g * lr)


def _rmsprop_step(self: Any, param: Any, grad: Any, square_avg: Any, grad_avg: Any, momentum_buffer: Any,
                  lr: float, alpha: float, eps: float, weight_decay: float, momentum: float, maximize: bool) -> None:
    """One RMSprop step, in place: s = alpha s + (1 - alpha) g^2; centered (grad_avg given) uses
    s - ga^2 with ga = lerp(ga, g, 1 - alpha); p -= lr g / (sqrt(.) + eps), through the
    momentum_buffer (buf = momentum buf + g / avg) when given."""
    import numr as nr
    g = -grad if maximize else grad
    if weight_decay:
        g = g + param * weight_decay
    s = square_avg.copy_(nr.fma(g, g * (1 - alpha), square_avg * alpha))
    if grad_avg is not None:
        ga = grad_avg.copy_(grad_avg + (g - grad_avg) * (1 - alpha))
        s = s - ga * ga
    avg = nr.sqrt(s) + eps
    if momentum_buffer is not None:
        buf = momentum_buffer.copy_(momentum_buffer * momentum + g / avg)
        param.copy_(param - buf * lr)
    else:
        param.copy_(param - g / avg * lr)


class FusedSteps:
    """Base of a backend's optimizer mixin: _adam_step/_sgd_step run its kernels ``_adam_kernel(param,
    grad, exp_avg, exp_avg_sq, max_exp_avg_sq, beta1, beta2, AdamScalars)`` and ``_sgd_kernel`` (the
    step's arguments) on non-empty tensors that are ``fusable`` for ``_fused_dtypes``, else the composite."""

    _fused_dtypes: tuple = ()
    _rmsprop_dtypes: tuple = ()  # a backend with _rmsprop_kernel lists its dtypes here

    def _adam_step(self, param: Any, grad: Any, exp_avg: Any, exp_avg_sq: Any, max_exp_avg_sq: Any,
                   lr: float, beta1: float, beta2: float, eps: float, weight_decay: float, decoupled: bool,
                   maximize: bool, step: int) -> None:
        if not fusable(self, self._fused_dtypes, param, grad, exp_avg, exp_avg_sq, max_exp_avg_sq):
            return _adam_step(self, param, grad, exp_avg, exp_avg_sq, max_exp_avg_sq, lr, beta1, beta2, eps,
                              weight_decay, decoupled, maximize, step)
        if param.size:
            self._adam_kernel(param, grad, exp_avg, exp_avg_sq, max_exp_avg_sq, beta1, beta2,
                              adam_scalars(lr, beta1, beta2, eps, weight_decay, decoupled, maximize, step))
        return None

    def _sgd_step(self, param: Any, grad: Any, momentum_buffer: Any, lr: float, momentum: float,
                  dampening: float, weight_decay: float, nesterov: bool, maximize: bool, first: bool) -> None:
        if not fusable(self, self._fused_dtypes, param, grad, momentum_buffer):
            return _sgd_step(self, param, grad, momentum_buffer, lr, momentum, dampening, weight_decay, nesterov,
                             maximize, first)
        if param.size:
            self._sgd_kernel(param, grad, momentum_buffer, lr, momentum, dampening, weight_decay, nesterov,
                             maximize, first)
        return None

    def _rmsprop_step(self, param: Any, grad: Any, square_avg: Any, grad_avg: Any, momentum_buffer: Any,
                      lr: float, alpha: float, eps: float, weight_decay: float, momentum: float,
                      maximize: bool) -> None:
        if not fusable(self, self._rmsprop_dtypes, param, grad, square_avg, grad_avg, momentum_buffer):
            return _rmsprop_step(self, param, grad, square_avg, grad_avg, momentum_buffer, lr, alpha, eps,
                                 weight_decay, momentum, maximize)
        if param.size:
            self._rmsprop_kernel(param, grad, square_avg, grad_avg, momentum_buffer, lr, alpha, eps, weight_decay,
                                 momentum, maximize)
        return None


METHODS = {"_adam_step": _adam_step, "_sgd_step": _sgd_step, "_rmsprop_step": _rmsprop_step}
