"""unique_consecutive (torch semantics), written once with numr's public functions: a mask of
positions that differ from their predecessor (any element of a slice, along a dim), nonzero for
the run starts, cumsum for the inverse and start differences for the counts. The kept values are
an index_select, so autograd differentiates them (the inverse and counts are integers)."""

from __future__ import annotations

import math
from typing import Any

from ...errors import IndexOutOfRange
from ...shapes import normalize_dim
from .sorting import _first_mask, _groups


def unique_consecutive_any(x: Any, return_inverse: bool = False, return_counts: bool = False,
                           dim: int | None = None) -> Any:
    """Each run of equal neighbours of x kept once (torch.unique_consecutive); NaN != NaN."""
    import numr as nr
    if dim is None:
        flat, d = x.reshape(-1), 0
        rows = flat.reshape((flat.shape[0], 1))
    else:
        if x.ndim == 0:
            raise IndexOutOfRange(f"unique_consecutive: dim {dim} out of range for a 0-d tensor")
        d = normalize_dim(dim, x.ndim, "unique_consecutive")
        flat = x
        moved = nr.movedim(x, d, 0)
        rows = moved.reshape((x.shape[d], math.prod(moved.shape[1:])))
    n = rows.shape[0]
    dev = x.device
    if n == 0:
        first = nr.zeros(0, dtype=nr.bool_, device=dev)
    elif rows.shape[1] == 0:
        first = _first_mask(nr.zeros(n - 1, dtype=nr.bool_, device=dev))
    else:
        first = _first_mask(nr.any(nr.ne(rows[1:], rows[:-1]), 1))
    starts, inverse, counts = _groups(first, n, nr.arange(n, dtype=nr.int64, device=dev), return_inverse,
                                      return_counts)
    values = nr.index_select(flat, d, starts)
    if inverse is not None and dim is None:
        inverse = inverse.reshape(x.shape)
    out = (values,) + ((inverse,) if return_inverse else ()) + ((counts,) if return_counts else ())
    return out if len(out) > 1 else values


#: op name -> composite (client methods through client_methods; autograd registers the same)
COMPOSITES = {"unique_consecutive": unique_consecutive_any}
