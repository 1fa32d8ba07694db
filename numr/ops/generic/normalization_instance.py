"""instance_norm, local_response_norm and normalize (torch.nn.functional's), written once with
numr's public functions so every backend runs them and autograd differentiates them. instance_norm
is torch's own construction: batch_norm over the (1, N*C, *) view, with the running stats and
weight/bias repeated N times, the repeated running stats averaged back into the caller's."""

from __future__ import annotations

from typing import Any

from ...errors import DomainError, ShapeError
from ..prepare import plain
from .normalization import _channels, _input, batch_norm_any, compute_dtypes
from .statistics import vector_norm_any


def instance_norm_any(x: Any, running_mean: Any = None, running_var: Any = None, weight: Any = None,
                      bias: Any = None, use_input_stats: bool = True, momentum: float = 0.1,
                      eps: float = 1e-5) -> Any:
    """Each (n, c) instance of x (N, C, *) normalized over its spatial dims (biased variance);
    weight/bias (C,) per channel; running stats (C,), when given, take the momentum update with
    the mean over N of the instances' mean and unbiased variance; use_input_stats=False
    normalizes with the running stats instead (torch.nn.functional.instance_norm)."""
    import numr as nr
    compute_dtypes("instance_norm", x)  # floats only (batch_norm computes half types in float32)
    c = _channels("instance_norm", x)
    n = x.shape[0]
    shape = tuple(x.shape)
    rep = (lambda t: None if t is None else nr.tile(t, (n,)))
    for name, t in (("weight", weight), ("bias", bias), ("running_mean", running_mean), ("running_var", running_var)):
        if t is not None and tuple(t.shape) != (c,):
            raise ShapeError(f"instance_norm: {name} must have shape ({c},) for input shape {shape}, got "
                             f"{tuple(t.shape)}")
    rm, rv = rep(plain(running_mean) if running_mean is not None else None), \
        rep(plain(running_var) if running_var is not None else None)
    y = batch_norm_any(x.reshape((1, n * c) + shape[2:]), rm, rv, rep(weight), rep(bias),
                       training=use_input_stats, momentum=momentum, eps=eps)
    if use_input_stats:
        for stat, r in ((running_mean, rm), (running_var, rv)):
            if stat is not None:
                s = plain(stat)
                s.device.client.copy_(s, nr.cast(nr.mean(r.reshape(n, c), 0), s.dtype))
                s._version[0] += 1
    return y.reshape(shape)


def local_response_norm_any(x: Any, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1.0) -> Any:
    """x / (k + alpha * mean of x^2 over a window of ``size`` channels) ** beta, the window
    [c - size//2, c + (size-1)//2] zero-padded at the ends, x of shape (N, C, *) with at least 3
    dims (torch.nn.functional.local_response_norm)."""
    import numr as nr
    if x.ndim < 3:
        raise ShapeError(f"local_response_norm: input must have shape (N, C, *) with at least 3 dims, got "
                         f"{tuple(x.shape)}")
    if not isinstance(size, int) or isinstance(size, bool) or size < 1:
        raise DomainError(f"local_response_norm: size must be a positive int, got {size!r}")
    xc, out = _input("local_response_norm", x)
    c = xc.shape[1]
    sq = xc * xc
    padded = nr.pad(sq, [0, 0] * (xc.ndim - 2) + [size // 2, (size - 1) // 2])
    acc = padded.narrow(1, 0, c)
    for i in range(1, size):
        acc = acc + padded.narrow(1, i, c)
    y = xc / nr.pow(acc * (alpha / size) + k, beta)
    return y if y.dtype is out else nr.cast(y, out)


def normalize_any(x: Any, p: float = 2.0, dim: int = 1, eps: float = 1e-12) -> Any:
    """x / max(||x||_p along dim, eps) (torch.nn.functional.normalize); floats only."""
    import numr as nr
    xc, out = _input("normalize", x)
    y = xc / nr.maximum(vector_norm_any(xc, p, dim, keepdim=True), eps)
    return y if y.dtype is out else nr.cast(y, out)


#: op name -> composite (client methods through client_methods; autograd registers the same)
COMPOSITES = {"instance_norm": instance_norm_any, "local_response_norm": local_response_norm_any,
              "normalize": normalize_any}
