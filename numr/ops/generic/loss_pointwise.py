"""Regression and margin losses (torch.nn.functional's names, arguments and reductions), written
with numr's public functions like loss.py, whose input and reduction handling they share: mse, l1,
smooth_l1, huber, poisson_nll, gaussian_nll, margin_ranking, hinge_embedding, soft_margin,
cosine_embedding and triplet_margin. Inputs and targets broadcast (torch warns, then does too)."""

from __future__ import annotations

import math
from typing import Any

from ...errors import DomainError, ShapeError
from ..prepare import plain
from .distance import pairwise_distance_any
from .loss import check_reduction, floats, reduce, same_shape


def _diff(op: str, input: Any, target: Any, reduction: str) -> tuple[Any, Any]:  # noqa: A002
    check_reduction(op, reduction)
    (x, t), out = floats(op, input, target)
    same_shape(op, x, t)
    return x - t, out


def mse_loss_any(input: Any, target: Any, reduction: str = "mean") -> Any:  # noqa: A002
    """(input - target)^2."""
    d, out = _diff("mse_loss", input, target, reduction)
    return reduce("mse_loss", d * d, reduction, out)


def l1_loss_any(input: Any, target: Any, reduction: str = "mean") -> Any:  # noqa: A002
    """|input - target|."""
    d, out = _diff("l1_loss", input, target, reduction)
    return reduce("l1_loss", d.abs(), reduction, out)


def _quadratic_near_zero(d: Any, k: float, scale: float) -> Any:
    """0.5 d^2 for |d| < k, else k (|d| - k / 2), divided by scale."""
    import numr as nr
    a = nr.abs(d)
    small = plain(a) < k
    return nr.where(small, 0.5 * d * d, k * (a - 0.5 * k)) / scale


def smooth_l1_loss_any(input: Any, target: Any, reduction: str = "mean", beta: float = 1.0) -> Any:  # noqa: A002
    """0.5 d^2 / beta where |d| < beta, else |d| - beta / 2 (beta = 0: l1_loss)."""
    if beta < 0:
        raise DomainError(f"smooth_l1_loss: beta must be non-negative, got {beta}")
    d, out = _diff("smooth_l1_loss", input, target, reduction)
    loss = d.abs() if beta == 0 else _quadratic_near_zero(d, beta, beta)
    return reduce("smooth_l1_loss", loss, reduction, out)


def huber_loss_any(input: Any, target: Any, reduction: str = "mean", delta: float = 1.0) -> Any:  # noqa: A002
    """0.5 d^2 where |d| <= delta, else delta (|d| - delta / 2) (delta > 0)."""
    if not delta > 0:
        raise DomainError(f"huber_loss: delta must be positive, got {delta}")
    d, out = _diff("huber_loss", input, target, reduction)
    return reduce("huber_loss", _quadratic_near_zero(d, delta, 1.0), reduction, out)


def poisson_nll_loss_any(input: Any, target: Any, log_input: bool = True, full: bool = False,  # noqa: A002
                         eps: float = 1e-8, reduction: str = "mean") -> Any:
    """exp(input) - target input (log_input) or input - target log(input + eps); full adds
    Stirling's target log target - target + log(2 pi target) / 2 where target > 1."""
    import numr as nr
    op = "poisson_nll_loss"
    check_reduction(op, reduction)
    (x, t), out = floats(op, input, target)
    same_shape(op, x, t)
    loss = nr.exp(x) - t * x if log_input else x - t * nr.log(x + eps)
    if full:
        pt = plain(t)
        big = pt > 1
        ts = nr.where(big, pt, 1.0)
        loss = loss + nr.where(big, ts * nr.log(ts) - ts + 0.5 * nr.log(2 * math.pi * ts), 0.0)
    return reduce(op, loss, reduction, out)


def gaussian_nll_loss_any(input: Any, target: Any, var: Any, full: bool = False, eps: float = 1e-6,  # noqa: A002
                          reduction: str = "mean") -> Any:
    """(log(max(var, eps)) + (input - target)^2 / max(var, eps)) / 2 (+ log(2 pi) / 2 if full); var
    has input's shape, or one dim fewer, or a last dim of 1 (homoscedastic). The clamp passes the
    gradient through, as torch's in-place clamp under no_grad; a negative var raises DomainError."""
    import numr as nr
    op = "gaussian_nll_loss"
    check_reduction(op, reduction)
    (x, t, v), out = floats(op, input, target, var)
    same_shape(op, x, t)
    if v.ndim == x.ndim - 1 and tuple(v.shape) == tuple(x.shape[:-1]):
        v = nr.unsqueeze(v, -1)
    if v.ndim != x.ndim or any(b not in (a, 1) for a, b in zip(x.shape, v.shape, strict=True)) or \
            (tuple(v.shape) != tuple(x.shape) and v.shape[-1] != 1):
        raise ShapeError(f"{op}: var of shape {tuple(v.shape)} does not fit input of shape {tuple(x.shape)}")
    pv = plain(v)
    if pv.size and bool(nr.any(pv < 0)):
        raise DomainError(f"{op}: var has negative entries")
    v = v + (nr.maximum(pv, eps) - pv)  # the clamp as a constant shift: gradient 1
    d = x - t
    loss = 0.5 * (nr.log(v) + d * d / v)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return reduce(op, loss, reduction, out)


def margin_ranking_loss_any(input1: Any, input2: Any, target: Any, margin: float = 0.0,
                            reduction: str = "mean") -> Any:
    """max(0, -target (input1 - input2) + margin), target +-1."""
    import numr as nr
    op = "margin_ranking_loss"
    check_reduction(op, reduction)
    (a, b, y), out = floats(op, input1, input2, target)
    same_shape(op, a, b, "input1 and input2")
    same_shape(op, a - b, y, "inputs and target")
    return reduce(op, nr.relu(-y * (a - b) + margin), reduction, out)


def hinge_embedding_loss_any(input: Any, target: Any, margin: float = 1.0,  # noqa: A002
                             reduction: str = "mean") -> Any:
    """input where target is 1, max(0, margin - input) where target is -1 (other targets: both
    terms, as torch)."""
    import numr as nr
    op = "hinge_embedding_loss"
    check_reduction(op, reduction)
    (x, y), out = floats(op, input, target)
    same_shape(op, x, y)
    py = plain(y)
    loss = nr.where(py != 1, nr.relu(margin - x), 0.0) + nr.where(py != -1, x, 0.0)
    return reduce(op, loss, reduction, out)


def soft_margin_loss_any(input: Any, target: Any, reduction: str = "mean") -> Any:  # noqa: A002
    """log(1 + exp(-target input)), computed as softplus so large margins do not overflow."""
    import numr as nr
    op = "soft_margin_loss"
    check_reduction(op, reduction)
    (x, y), out = floats(op, input, target)
    same_shape(op, x, y)
    return reduce(op, nr.softplus(-y * x), reduction, out)


def cosine_embedding_loss_any(input1: Any, input2: Any, target: Any, margin: float = 0.0,
                              reduction: str = "mean") -> Any:
    """1 - cos(x1, x2) where target is 1, max(0, cos - margin) where it is -1; cos along the last
    dim of (N, D) or (D,) inputs with torch's 1e-12 added to each squared norm."""
    import numr as nr
    op = "cosine_embedding_loss"
    check_reduction(op, reduction)
    (a, b, y), out = floats(op, input1, input2, target)
    if a.ndim not in (1, 2) or tuple(a.shape) != tuple(b.shape) or tuple(y.shape) != tuple(a.shape[:-1]):
        raise ShapeError(f"{op}: inputs must both be (N, D) or (D,) with target (N,) or (), got shapes "
                         f"{tuple(a.shape)}, {tuple(b.shape)} and {tuple(y.shape)}")
    dot = nr.sum(a * b, -1)
    cos = dot / nr.sqrt((nr.sum(a * a, -1) + 1e-12) * (nr.sum(b * b, -1) + 1e-12))
    py = plain(y)
    loss = nr.where(py == 1, 1.0 - cos, 0.0) + nr.where(py == -1, nr.relu(cos - margin), 0.0)
    return reduce(op, loss, reduction, out)


def triplet_margin_loss_any(anchor: Any, positive: Any, negative: Any, margin: float = 1.0, p: float = 2.0,
                            eps: float = 1e-6, swap: bool = False, reduction: str = "mean") -> Any:
    """max(0, margin + d(a, p) - d(a, n)), d the pairwise_distance (p, eps); swap uses
    min(d(a, n), d(p, n)) as the negative distance."""
    import numr as nr
    op = "triplet_margin_loss"
    check_reduction(op, reduction)
    (a, pos, neg), out = floats(op, anchor, positive, negative)
    if not (a.ndim == pos.ndim == neg.ndim) or a.ndim not in (1, 2):
        raise ShapeError(f"{op}: anchor, positive and negative must all be (N, D) or (D,), got shapes "
                         f"{tuple(a.shape)}, {tuple(pos.shape)} and {tuple(neg.shape)}")
    d_ap = pairwise_distance_any(a, pos, p, eps)
    d_an = pairwise_distance_any(a, neg, p, eps)
    if swap:
        d_an = nr.minimum(d_an, pairwise_distance_any(pos, neg, p, eps))
    return reduce(op, nr.relu(margin + d_ap - d_an), reduction, out)


COMPOSITES = {"mse_loss": mse_loss_any, "l1_loss": l1_loss_any, "smooth_l1_loss": smooth_l1_loss_any,
              "huber_loss": huber_loss_any, "poisson_nll_loss": poisson_nll_loss_any,
              "gaussian_nll_loss": gaussian_nll_loss_any, "margin_ranking_loss": margin_ranking_loss_any,
              "hinge_embedding_loss": hinge_embedding_loss_any, "soft_margin_loss": soft_margin_loss_any,
              "cosine_embedding_loss": cosine_embedding_loss_any,
              "triplet_margin_loss": triplet_margin_loss_any}
