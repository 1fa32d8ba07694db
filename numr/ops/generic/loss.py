"""Loss functions with torch.nn.functional's names and arguments, written once with numr's public
functions so every backend runs them and autograd (reverse and forward) differentiates them through
their parts. This file: the shared input/reduction handling and the classification losses
(nll_loss, cross_entropy with class indices or probabilities, binary cross entropy, multilabel soft
margin, kl_div) plus scipy's element-wise rel_entr; loss_pointwise.py holds the regression and
margin losses. Integer inputs compute in the default float; half and float8 in float32, returning
their own dtype. Class-index targets are integer tensors; an index outside [0, C) that is not
ignore_index raises IndexOutOfRange (one scalar read, as torch's CPU check)."""

from __future__ import annotations

from typing import Any

from ... import dtypes as dt
from ...errors import DomainError, DTypeError, IndexOutOfRange, ShapeError
from ..prepare import plain
from .statistics import as_tensor, cast_to, float_input

REDUCTIONS = ("none", "mean", "sum")


def floats(op: str, *xs: Any) -> tuple[list[Any], dt.DType]:
    """The inputs cast to one float dtype computed in (see float_input) and the result dtype."""
    import numr as nr
    pairs = [float_input(op, x) for x in xs]
    ct, out = pairs[0][0].dtype, pairs[0][1]
    for x, o in pairs[1:]:
        ct, out = nr.promote_types(ct, x.dtype), nr.promote_types(out, o)
    return [cast_to(x, ct) for x, _ in pairs], out


def same_shape(op: str, a: Any, b: Any, names: str = "input and target") -> tuple[int, ...]:
    """The broadcast shape of a and b, else ShapeError naming op and both shapes."""
    import numr as nr
    try:
        return tuple(nr.broadcast_shapes(tuple(a.shape), tuple(b.shape)))
    except (ShapeError, ValueError):
        raise ShapeError(f"{op}: {names} shapes {tuple(a.shape)} and {tuple(b.shape)} do not broadcast") from None


def reduce(op: str, loss: Any, reduction: str, out: dt.DType) -> Any:
    """'none' (the element losses), 'mean' (NaN for none) or 'sum', cast to the result dtype."""
    import numr as nr
    check_reduction(op, reduction)
    if reduction == "sum":
        loss = nr.sum(loss)
    elif reduction == "mean":
        loss = nr.mean(loss)
    return cast_to(loss, out)


def check_reduction(op: str, reduction: str, extra: tuple[str, ...] = ()) -> None:
    if reduction not in REDUCTIONS + extra:
        raise DomainError(f"{op}: reduction must be one of {REDUCTIONS + extra}, got {reduction!r}")


def _class_target(op: str, x: Any, target: Any, weight: Any, ignore_index: int) -> tuple[Any, Any, Any]:
    """(the index target with ignored entries at 0 shaped (N, 1, d1, ...), the float mask of kept
    entries shaped (N, d1, ...), the per-entry weights w[t] * mask) after checking shapes and range."""
    import numr as nr
    t = plain(as_tensor(target, x))
    if t.dtype.kind not in "iu":
        raise DTypeError(f"{op}: class-index target must be an integer tensor, got {t.dtype}")
    C = x.shape[1] if x.ndim > 1 else x.shape[0]
    want = (x.shape[0],) + tuple(x.shape[2:]) if x.ndim > 1 else ()
    if tuple(t.shape) != want:
        raise ShapeError(f"{op}: input of shape {tuple(x.shape)} (N, C, d1, ...) needs a target of shape {want}, "
                         f"got {tuple(t.shape)}")
    keep = t != ignore_index
    ts = nr.where(keep, t, 0)
    if t.size and bool(nr.any((ts < 0) | (ts >= C))):
        raise IndexOutOfRange(f"{op}: target class index out of range [0, {C}) (ignore_index={ignore_index}) "
                              f"for input of shape {tuple(x.shape)}")
    m = nr.cast(keep, x.dtype)
    if weight is not None:
        w = plain(as_tensor(weight, x))
        if tuple(w.shape) != (C,):
            raise ShapeError(f"{op}: weight must have shape ({C},) for {C} classes, got {tuple(w.shape)}")
        m = m * nr.take(cast_to(w, x.dtype), ts)
    return (nr.unsqueeze(ts, 1) if x.ndim > 1 else ts.reshape(1)), m, keep


def _nll(op: str, logp: Any, target: Any, weight: Any, ignore_index: int, reduction: str) -> tuple[Any, Any, Any]:
    """(-w[t] logp[n, t] per entry reduced, with the mean weighted by sum(w[t]) over kept entries
    as torch's; the per-entry weights w[t] * kept; the kept mask)."""
    import numr as nr
    check_reduction(op, reduction)
    if logp.ndim == 0:
        raise ShapeError(f"{op}: input must be (C,) or (N, C, d1, ...), got a 0-d tensor")
    idx, w, keep = _class_target(op, logp, target, weight, ignore_index)
    picked = nr.gather(logp, 1 if logp.ndim > 1 else 0, idx)
    loss = -(picked.squeeze(1) if logp.ndim > 1 else picked.reshape(())) * w
    if reduction == "mean":
        return nr.sum(loss) / nr.sum(w), w, keep
    return reduce(op, loss, reduction, logp.dtype), w, keep


def nll_loss_any(input: Any, target: Any, weight: Any = None, ignore_index: int = -100,  # noqa: A002
                 reduction: str = "mean") -> Any:
    """The negative log-likelihood of log-probabilities input (N, C, d1, ...) at class indices target
    (N, d1, ...) (torch.nn.functional.nll_loss)."""
    (x,), out = floats("nll_loss", input)
    return cast_to(_nll("nll_loss", x, target, weight, ignore_index, reduction)[0], out)


def _weight_view(w: Any, x: Any) -> Any:
    """The class weights (C,) shaped to broadcast along dim 1 of x."""
    C = x.shape[1] if x.ndim > 1 else x.shape[0]
    w = cast_to(plain(as_tensor(w, x)), x.dtype)
    if tuple(w.shape) != (C,):
        raise ShapeError(f"cross_entropy: weight must have shape ({C},), got {tuple(w.shape)}")
    return w.reshape((C,) + (1,) * (x.ndim - 2)) if x.ndim > 1 else w


def cross_entropy_any(input: Any, target: Any, weight: Any = None, ignore_index: int = -100,  # noqa: A002
                      reduction: str = "mean", label_smoothing: float = 0.0) -> Any:
    """log_softmax over dim 1 of input (N, C, d1, ...) (or (C,)) then nll_loss for an integer target,
    or -sum(target * log_softmax) for a float target of input's shape (class probabilities);
    label_smoothing mixes in the uniform distribution (torch.nn.functional.cross_entropy)."""
    import numr as nr
    op = "cross_entropy"
    check_reduction(op, reduction)
    if not 0.0 <= label_smoothing <= 1.0:
        raise DomainError(f"{op}: label_smoothing must be in [0, 1], got {label_smoothing}")
    (x,), out = floats(op, input)
    if x.ndim == 0:
        raise ShapeError(f"{op}: input must be (C,) or (N, C, d1, ...), got a 0-d tensor")
    cdim = 1 if x.ndim > 1 else 0
    C = x.shape[cdim]
    logp = nr.log_softmax(x, cdim)
    t = as_tensor(target, x)
    if t.dtype.is_floating_point:  # class probabilities
        if tuple(t.shape) != tuple(x.shape):
            raise ShapeError(f"{op}: probability target must have input's shape {tuple(x.shape)}, "
                             f"got {tuple(t.shape)}")
        t = cast_to(t, x.dtype)
        if label_smoothing > 0:
            t = t * (1.0 - label_smoothing) + label_smoothing / C
        prod = logp * t if weight is None else logp * t * _weight_view(weight, x)
        if reduction == "none":
            return cast_to(-nr.sum(prod, cdim), out)
        total = -nr.sum(prod)
        if reduction == "sum":
            return cast_to(total, out)
        return cast_to(total / (x.size // C) if x.size else total * float("nan"), out)
    nll, w, keep = _nll(op, logp, t, weight, ignore_index, reduction)
    if label_smoothing == 0:
        return cast_to(nll, out)
    smooth = -nr.sum(logp if weight is None else logp * _weight_view(weight, x), cdim)
    smooth = nr.where(keep, smooth, 0.0)
    if reduction == "mean":
        smooth = nr.sum(smooth) / nr.sum(w)
    elif reduction == "sum":
        smooth = nr.sum(smooth)
    return cast_to((1.0 - label_smoothing) * nll + smooth * (label_smoothing / C), out)


def _bce_args(op: str, input: Any, target: Any, weight: Any) -> tuple[Any, Any, Any, dt.DType]:  # noqa: A002
    (x, t), out = floats(op, input, target)
    if tuple(x.shape) != tuple(t.shape):
        raise ShapeError(f"{op}: target shape {tuple(t.shape)} must equal input shape {tuple(x.shape)}")
    w = None
    if weight is not None:
        (w,), _ = floats(op, weight)
        same_shape(op, x, w, "input and weight")
        w = cast_to(w, x.dtype)
    return x, t, w, out


def binary_cross_entropy_any(input: Any, target: Any, weight: Any = None,  # noqa: A002
                             reduction: str = "mean") -> Any:
    """-w (t log x + (1 - t) log(1 - x)) for probabilities x in [0, 1], each log clamped at -100 as
    torch's (so x = 0 or 1 gives a finite loss); x outside [0, 1] raises DomainError."""
    import numr as nr
    op = "binary_cross_entropy"
    check_reduction(op, reduction)
    x, t, w, out = _bce_args(op, input, target, weight)
    px = plain(x)
    if px.size and bool(nr.any((px < 0) | (px > 1))):
        raise DomainError(f"{op}: every input must be a probability in [0, 1] (shape {tuple(x.shape)})")
    loss = -(t * nr.clamp(nr.log(x), -100.0, None) + (1.0 - t) * nr.clamp(nr.log1p(-x), -100.0, None))
    return reduce(op, loss if w is None else loss * w, reduction, out)


def binary_cross_entropy_with_logits_any(input: Any, target: Any, weight: Any = None,  # noqa: A002
                                         reduction: str = "mean", pos_weight: Any = None) -> Any:
    """binary_cross_entropy(sigmoid(x), t) computed stably from the logits x as (1 - t) softplus(x) +
    pw t softplus(-x) (no cancellation where either term is tiny); pos_weight pw weighs the positives,
    broadcast along the last dim."""
    op = "binary_cross_entropy_with_logits"
    check_reduction(op, reduction)
    x, t, w, out = _bce_args(op, input, target, weight)
    pw = None
    if pos_weight is not None:
        (pw,), _ = floats(op, pos_weight)
        same_shape(op, x, pw, "input and pos_weight")
        pw = cast_to(pw, x.dtype)
    return reduce(op, _logistic(x, t, w, pw), reduction, out)


def _logistic(x: Any, t: Any, w: Any, pw: Any) -> Any:
    """-(pw t log sigmoid(x) + (1 - t) log sigmoid(-x)) * w, as softplus terms."""
    import numr as nr
    pos = t * nr.softplus(-x)
    loss = (1.0 - t) * nr.softplus(x) + (pos if pw is None else pos * pw)
    return loss if w is None else loss * w


def multilabel_soft_margin_loss_any(input: Any, target: Any, weight: Any = None,  # noqa: A002
                                    reduction: str = "mean") -> Any:
    """The mean over the C classes (last dim) of binary_cross_entropy_with_logits(x, t, w), one
    loss per sample (torch.nn.functional.multilabel_soft_margin_loss)."""
    import numr as nr
    op = "multilabel_soft_margin_loss"
    check_reduction(op, reduction)
    x, t, w, out = _bce_args(op, input, target, weight)
    if x.ndim == 0:
        raise ShapeError(f"{op}: input must be (C,) or (N, C), got a 0-d tensor")
    return reduce(op, nr.sum(_logistic(x, t, w, None), -1) / x.shape[-1], reduction, out)


def kl_div_any(input: Any, target: Any, reduction: str = "mean", log_target: bool = False) -> Any:  # noqa: A002
    """The pointwise KL divergence target (log target - input) for log-probabilities input
    (torch.nn.functional.kl_div: 0 where target is 0; reduction 'batchmean' divides the sum by
    the batch size input.shape[0], 'mean' by the element count)."""
    import numr as nr
    op = "kl_div"
    check_reduction(op, reduction, ("batchmean",))
    (x, t), out = floats(op, input, target)
    same_shape(op, x, t)
    loss = nr.exp(t) * (t - x) if log_target else nr.xlogy(t, t) - t * x
    if reduction != "batchmean":
        return reduce(op, loss, reduction, out)
    return cast_to(nr.sum(loss) / (x.shape[0] if x.ndim else 1), out)


def rel_entr_any(x: Any, y: Any) -> Any:
    """scipy.special.rel_entr: x log(x / y) for x, y > 0; 0 for x = 0, y >= 0; inf otherwise;
    NaN propagates."""
    import numr as nr
    (a, b), out = floats("rel_entr", x, y)
    pa, pb = plain(a), plain(b)
    ok = (pa > 0) & (pb > 0)
    r = nr.where(ok, a * nr.log(nr.where(ok, a, 1.0) / nr.where(ok, b, 1.0)), 0.0)
    r = nr.where(ok | ((pa == 0) & (pb >= 0)), r, float("inf"))
    return cast_to(nr.where(nr.isnan(pa) | nr.isnan(pb), float("nan"), r), out)


COMPOSITES = {"nll_loss": nll_loss_any, "cross_entropy": cross_entropy_any,
              "binary_cross_entropy": binary_cross_entropy_any,
              "binary_cross_entropy_with_logits": binary_cross_entropy_with_logits_any,
              "multilabel_soft_margin_loss": multilabel_soft_margin_loss_any, "kl_div": kl_div_any,
              "rel_entr": rel_entr_any}
