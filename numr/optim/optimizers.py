"""SGD, Adam, AdamW, RMSprop and Adagrad: torch.optim's single-tensor updates, step for step (the
same order of maximize, weight decay, moments and bias correction), written with numr ops on the
parameter's device. Moment buffers are numr tensors in the parameter's dtype; the step count is a
Python int. Scalar factors multiply plainly (``fma`` with a scalar operand measured slower than a
multiply and an add); ``fma`` fuses tensor products."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import numr as nr

from ..errors import DomainError
from .optimizer import Optimizer


def _check(name: str, **values: float) -> None:
    for k, v in values.items():
        if not (isinstance(v, (int, float)) and v >= 0 and not math.isnan(v)):
            raise DomainError(f"{name}: {k} must be a non-negative number, got {v!r}")


def _decayed(p: Any, grad: Any, group: dict[str, Any]) -> Any:
    """-grad if maximize, then + weight_decay * p (L2; AdamW decays the parameter instead)."""
    g = -grad if group.get("maximize") else grad
    wd = group.get("weight_decay", 0)
    return g + p * wd if wd else g


def _betas(name: str, betas: Any) -> None:
    if len(betas) != 2 or not all(0 <= b < 1 for b in betas):
        raise DomainError(f"{name}: betas must be two numbers in [0, 1), got {betas!r}")


class SGD(Optimizer):
    """Stochastic gradient descent with momentum (buffer = grad at the first step, then
    momentum * buf + (1 - dampening) * grad), Nesterov, L2 weight decay and maximize."""

    def __init__(self, params: Iterable[Any], lr: float = 1e-3, momentum: float = 0.0, dampening: float = 0.0,
                 weight_decay: float = 0.0, nesterov: bool = False, *, maximize: bool = False):
        _check("SGD", lr=lr, momentum=momentum, weight_decay=weight_decay)
        if nesterov and (momentum <= 0 or dampening != 0):
            raise DomainError("SGD: nesterov needs a positive momentum and zero dampening")
        super().__init__(params, dict(lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay,
                                      nesterov=nesterov, maximize=maximize))

    def _update(self, p: Any, grad: Any, group: dict[str, Any], state: dict[str, Any]) -> None:
        buf = state.get("momentum_buffer")
        first = group["momentum"] != 0 and buf is None
        if first:
            buf = state["momentum_buffer"] = nr.empty_like(p)
        p.client._sgd_step(p, grad, buf if group["momentum"] else None, group["lr"], group["momentum"],
                           group["dampening"], group["weight_decay"], group["nesterov"], group["maximize"], first)


class Adam(Optimizer):
    """Adam (and AdamW with decoupled weight decay): m = lerp(m, g, 1 - beta1), v = beta2 v +
    (1 - beta2) g^2, p -= lr / (1 - beta1^t) * m / (sqrt(v) / sqrt(1 - beta2^t) + eps); amsgrad uses
    the running maximum of v."""

    _decoupled = False

    def __init__(self, params: Iterable[Any], lr: float = 1e-3, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 0.0, amsgrad: bool = False, *, maximize: bool = False):
        name = type(self).__name__
        _check(name, lr=lr, eps=eps, weight_decay=weight_decay)
        _betas(name, betas)
        super().__init__(params, dict(lr=lr, betas=tuple(betas), eps=eps, weight_decay=weight_decay,
                                      amsgrad=amsgrad, maximize=maximize))

    def _update(self, p: Any, grad: Any, group: dict[str, Any], state: dict[str, Any]) -> None:
        if not state:
            state.update(step=0, exp_avg=nr.zeros_like(p), exp_avg_sq=nr.zeros_like(p))
            if group["amsgrad"]:
                state["max_exp_avg_sq"] = nr.zeros_like(p)
        state["step"] += 1
        b1, b2 = group["betas"]
        p.client._adam_step(p, grad, state["exp_avg"], state["exp_avg_sq"], state.get("max_exp_avg_sq"),
                            group["lr"], b1, b2, group["eps"], group["weight_decay"], self._decoupled,
                            group["maximize"], state["step"])


class AdamW(Adam):
    """Adam with decoupled weight decay: p *= 1 - lr * weight_decay before the Adam step."""

    _decoupled = True

    def __init__(self, params: Iterable[Any], lr: float = 1e-3, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 1e-2, amsgrad: bool = False, *, maximize: bool = False):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, maximize=maximize)


class RMSprop(Optimizer):
    """RMSprop: s = alpha s + (1 - alpha) g^2; centered subtracts the squared running mean of g;
    p -= lr g / (sqrt(s) + eps), through a momentum buffer when momentum > 0."""

    def __init__(self, params: Iterable[Any], lr: float = 1e-2, alpha: float = 0.99, eps: float = 1e-8,
                 weight_decay: float = 0.0, momentum: float = 0.0, centered: bool = False, *,
                 maximize: bool = False):
        _check("RMSprop", lr=lr, alpha=alpha, eps=eps, weight_decay=weight_decay, momentum=momentum)
        super().__init__(params, dict(lr=lr, alpha=alpha, eps=eps, weight_decay=weight_decay, momentum=momentum,
                                      centered=centered, maximize=maximize))

    def _update(self, p: Any, grad: Any, group: dict[str, Any], state: dict[str, Any]) -> None:
        if not state:
            state.update(step=0, square_avg=nr.zeros_like(p))
            if group["momentum"] > 0:
                state["momentum_buffer"] = nr.zeros_like(p)
            if group["centered"]:
                state["grad_avg"] = nr.zeros_like(p)
        state["step"] += 1
        p.client._rmsprop_step(p, grad, state["square_avg"], state.get("grad_avg"), state.get("momentum_buffer"),
                               group["lr"], group["alpha"], group["eps"], group["weight_decay"], group["momentum"],
                               group["maximize"])


class Adagrad(Optimizer):
    """Adagrad: sum += g^2; p -= lr / (1 + (t - 1) lr_decay) * g / (sqrt(sum) + eps)."""

    def __init__(self, params: Iterable[Any], lr: float = 1e-2, lr_decay: float = 0.0, weight_decay: float = 0.0,
                 initial_accumulator_value: float = 0.0, eps: float = 1e-10, *, maximize: bool = False):
        _check("Adagrad", lr=lr, lr_decay=lr_decay, weight_decay=weight_decay,
               initial_accumulator_value=initial_accumulator_value, eps=eps)
        super().__init__(params, dict(lr=lr, lr_decay=lr_decay, weight_decay=weight_decay, eps=eps,
                                      initial_accumulator_value=initial_accumulator_value, maximize=maximize))

    def _update(self, p: Any, grad: Any, group: dict[str, Any], state: dict[str, Any]) -> None:
        g = _decayed(p, grad, group)
        if not state:
            state.update(step=0, sum=nr.full_like(p, group["initial_accumulator_value"]))
        state["step"] = t = state["step"] + 1
        clr = group["lr"] / (1 + (t - 1) * group["lr_decay"])
        s = state["sum"] = nr.fma(g, g, state["sum"])
        p.copy_(p - g / (nr.sqrt(s) + group["eps"]) * clr)


__all__ = ["SGD", "Adam", "AdamW", "RMSprop", "Adagrad"]
