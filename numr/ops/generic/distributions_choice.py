"""choice (NumPy Generator.choice) over the distributions written once: uniform picks are
randint (with replacement) or a randperm prefix (without); weighted ones are multinomial."""

from __future__ import annotations

import math
from typing import Any

from ... import dtypes as dt
from ...errors import DomainError, ShapeError
from .distributions import Draws, is_tensor, pick_device, plain
from .distributions_discrete import multinomial, randperm


def choice(a: Any, size: Any = None, replace: bool = True, p: Any = None, *, device: Any = None,
           seed: int | None = None) -> Any:
    """Samples of ``a`` (a 1-d tensor, or an int n meaning arange(n)) of shape ``size`` (None: one
    0-d sample); ``p``: non-negative weights over a (normalised here). int64 indices for an int."""
    import numr as nr

    from ...shapes import normalize_shape
    a, p = plain(a), plain(p)
    if is_tensor(a):
        if a.ndim != 1:
            raise ShapeError(f"choice: a must be 1-d, got shape {tuple(a.shape)}")
        n = a.shape[0]
    else:
        n = int(a)
        if n < 0:
            raise DomainError(f"choice: a must be >= 0, got {a}")
    shape = () if size is None else normalize_shape(size, "choice")
    k = math.prod(shape)
    if k and n == 0:
        raise DomainError("choice: cannot take samples from an empty population")
    if not replace and k > n:
        raise DomainError(f"choice: cannot take {k} samples without replacement from {n}")
    dev = pick_device("choice", (a, p), device)
    if p is not None:
        if not is_tensor(p):
            p = nr.tensor(p, dtype=dt.float64, device=dev)
        if p.ndim != 1 or p.shape[0] != n:
            raise ShapeError(f"choice: p must be 1-d of a's length {n}, got shape {tuple(p.shape)}")
        idx = multinomial(p, k, replace, seed=seed)
    elif replace:
        idx = Draws(seed, dev).randint(0, max(n, 1), (k,), dt.int64)
    else:
        idx = randperm(n, device=dev, seed=seed)[:k]
    idx = idx.reshape(shape)
    return nr.index_select(a, 0, idx.reshape(-1)).reshape(shape) if is_tensor(a) else idx


PUBLIC = ("choice",)
