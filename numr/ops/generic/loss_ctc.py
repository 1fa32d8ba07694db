"""ctc_loss (torch.nn.functional.ctc_loss): the CTC forward (alpha) recursion in log space,
vectorised over the batch and the 2S + 1 extended label positions (blank, l1, blank, l2, ...,
blank): T steps of tensor ops on the input's device, each alpha_t(s) = logsumexp(alpha_{t-1}(s),
alpha_{t-1}(s-1), alpha_{t-1}(s-2) where l'_s is no blank and differs from l'_{s-2}) +
log_probs[t, l'_s]. Written with public functions, so autograd differentiates it through its
parts (logaddexp's rule is finite at -inf). The lengths are read to the host (they size the
extended labels and the number of steps, as torch does); the recursion stays on the device."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ... import dtypes as dt
from ...errors import DomainError, DTypeError, IndexOutOfRange, ShapeError
from ..prepare import plain
from .loss import check_reduction, floats
from .statistics import cast_to
from .statistics import logaddexp as _lae

_OP = "ctc_loss"


def _lengths(name: str, v: Any, n: int, hi: int | None) -> list[int]:
    """input_lengths/target_lengths (an integer tensor, a sequence or an int) as n host ints."""
    if hasattr(v, "dtype"):
        if not (v.dtype.is_integer if hasattr(v.dtype, "is_integer") else v.dtype.kind in "iu"):
            raise DTypeError(f"{_OP}: {name} must be integers, got {v.dtype}")
        v = plain(v).tolist()
    vals = [v] if isinstance(v, int) else list(v) if isinstance(v, Sequence) else v
    vals = vals if isinstance(vals, list) else [vals]
    if len(vals) != n:
        raise ShapeError(f"{_OP}: {name} has {len(vals)} entries for a batch of {n}")
    out = [int(x) for x in vals]
    for x in out:
        if x < 0 or (hi is not None and x > hi):
            raise DomainError(f"{_OP}: {name} must lie in [0, {hi if hi is not None else 'inf'}], got {x}")
    return out


def _labels(targets: Any, tl: list[int], n: int, s: int, batched: bool) -> Any:
    """(n, s) int64 labels: padded (N, S) targets, or concatenated 1-d ones gathered by offsets."""
    import numr as nr
    t = plain(targets)
    if t.dtype.kind not in "iu":
        raise DTypeError(f"{_OP}: targets must be integer class indices, got {t.dtype}")
    t = nr.cast(t, dt.int64)
    if not batched:
        t = nr.reshape(t, (1, -1)) if t.ndim == 1 else t
    if t.ndim == 1:  # concatenated
        if t.shape[0] != sum(tl):
            raise ShapeError(f"{_OP}: concatenated targets have {t.shape[0]} entries, target_lengths sum to {sum(tl)}")
        starts = [sum(tl[:i]) for i in range(n)]
        idx = [[starts[i] + min(j, max(tl[i] - 1, 0)) for j in range(s)] for i in range(n)]
        if s == 0 or t.shape[0] == 0:
            return nr.zeros((n, s), dtype=dt.int64, device=t.device)
        return nr.take(t, nr.tensor(idx, dtype=dt.int64, device=t.device))
    if t.ndim != 2 or t.shape[0] != n or t.shape[1] < s:
        raise ShapeError(f"{_OP}: padded targets must be (N={n}, S>={s}), got {tuple(t.shape)}")
    return t[:, :s]


def _lse3(a: Any, b: Any, c: Any) -> Any:
    """log(exp a + exp b + exp c), shifted by the (constant) maximum; -inf where all are -inf, with
    zero (not NaN) gradients there: one op in two of two nested logaddexps."""
    import numr as nr
    m = nr.maximum(nr.maximum(plain(a), plain(b)), plain(c))
    m = nr.where(nr.isinf(m), 0.0, m)
    s = nr.exp(a - m) + nr.exp(b - m) + nr.exp(c - m)
    ok = plain(s) > 0
    return nr.where(ok, nr.log(nr.where(ok, s, 1.0)) + m, float("-inf"))


def ctc_loss_any(log_probs: Any, targets: Any, input_lengths: Any, target_lengths: Any, blank: int = 0,
                 reduction: str = "mean", zero_infinity: bool = False) -> Any:
    """-log p(target | log_probs) summed over all CTC alignments; log_probs (T, N, C) or (T, C)."""
    import numr as nr
    check_reduction(_OP, reduction)
    (lp,), out = floats(_OP, log_probs)
    batched = lp.ndim == 3
    if lp.ndim not in (2, 3):
        raise ShapeError(f"{_OP}: log_probs must be (T, N, C) or (T, C), got {tuple(lp.shape)}")
    if not batched:
        lp = nr.unsqueeze(lp, 1)
    T, n, c = (int(d) for d in lp.shape)
    if not 0 <= blank < c:
        raise IndexOutOfRange(f"{_OP}: blank {blank} is outside [0, {c}) classes")
    il = _lengths("input_lengths", input_lengths, n, T)
    tl = _lengths("target_lengths", target_lengths, n, None)
    s = max(tl, default=0)
    L = 2 * s + 1
    dev = lp.device
    pos = nr.arange(L, device=dev)
    tlt = nr.tensor(tl, dtype=dt.int64, device=dev)
    lab = _labels(targets, tl, n, s, batched)
    jj = nr.arange(s, device=dev)
    lab = nr.where(jj < nr.unsqueeze(tlt, 1), lab, blank)  # padding -> blank (never reached)
    if s and bool(nr.any((lab < 0) | (lab >= c))):
        raise IndexOutOfRange(f"{_OP}: a target is outside [0, {c}) classes")
    ext = nr.full((n, L), blank, dtype=dt.int64, device=dev)
    if s:
        ext = nr.cat([nr.reshape(nr.stack([ext[:, :s], lab], 2), (n, 2 * s)), ext[:, :1]], 1)
    prev2 = nr.cat([nr.full((n, 2), -1, dtype=dt.int64, device=dev), ext[:, :-2]], 1)
    skip = (ext != blank) & (ext != prev2)
    valid = pos < nr.unsqueeze(2 * tlt + 1, 1)  # (n, L)
    neg = float("-inf")
    emit = None
    if T:  # log_probs[t, n, l'_s], -inf past each sample's 2 S_n + 1 positions
        emit = nr.gather(lp, 2, nr.broadcast_to(nr.unsqueeze(ext, 0), (T, n, L)).contiguous())
        emit = nr.where(nr.unsqueeze(valid, 0), emit, neg)
    skip_add = nr.where(skip, 0.0, neg)  # 0 where s - 2 -> s is allowed, else -inf
    ilt = nr.tensor(il, dtype=dt.int64, device=dev)
    start = nr.where(nr.unsqueeze(ilt == 0, 1) & (pos == 0), 0.0, neg)  # no frames: only the empty path
    if T:
        alpha = nr.where((pos < 2) & nr.unsqueeze(ilt > 0, 1), emit[0], start)
    else:
        alpha = nr.cast(start, lp.dtype)
    pad1 = nr.full((n, 1), neg, dtype=lp.dtype, device=dev)
    pad2 = nr.full((n, 2), neg, dtype=lp.dtype, device=dev)
    for t in range(1, max(il, default=0)):
        a1 = nr.cat([pad1, alpha[:, :-1]], 1)
        a2 = nr.cat([pad2, alpha[:, :-2]], 1) + skip_add
        new = _lse3(alpha, a1, a2) + emit[t]
        active = [t < x for x in il]
        alpha = new if all(active) else nr.where(nr.unsqueeze(nr.tensor(active, device=dev), 1), new, alpha)
    last = nr.unsqueeze(2 * tlt, 1)
    f1 = nr.squeeze(nr.gather(alpha, 1, last), 1)
    f2 = nr.squeeze(nr.gather(alpha, 1, nr.clamp(last - 1, 0, None)), 1)
    loss = -_lae(f1, nr.where(tlt > 0, f2, neg))
    if zero_infinity:
        loss = nr.where(nr.isinf(plain(loss)), 0.0, loss)
    if reduction == "mean":
        loss = nr.mean(loss / nr.cast(nr.clamp(tlt, 1, None), loss.dtype))
    elif reduction == "sum":
        loss = nr.sum(loss)
    elif not batched:
        loss = nr.squeeze(loss, 0)
    return cast_to(loss, out)


COMPOSITES = {"ctc_loss": ctc_loss_any}
