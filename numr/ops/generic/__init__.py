"""Composite ops written once against the op-family protocols.

``GenericOps`` is a mixin every backend client inherits last: a backend that
has a fused kernel for one of these simply defines the method itself.
"""

from __future__ import annotations

from . import (
    activation,
    compare,
    conv,
    conv_pool,
    decomp,
    decomp_blocked,
    decomp_jacobi,
    einsum,
    fft,
    indexing,
    linalg,
    matmul,
    normalization,
    reduce,
    shape,
    shape_copy,
    shape_pad,
    shape_views,
    sorting,
    special_gamma,
    statistics,
    statistics_order,
)
from .methods import client_methods


class GenericOps:
    """Default implementations of the composite ops, for any client."""

    mean = reduce.mean
    var = reduce.var
    std = reduce.std
    amax = reduce.amax
    amin = reduce.amin
    isclose = compare.isclose
    allclose = compare.allclose
    cat = shape.cat
    stack = shape.stack
    pad = shape_pad.pad
    locals().update({**shape_views.GENERIC, **shape_copy.GENERIC})  # split, repeat, roll, ...
    matmul_bias = matmul.matmul_bias
    index_add = indexing.index_add
    gather = indexing.gather
    scatter_add = indexing.scatter_add
    locals().update({n: getattr(activation, n) for n in activation.GENERIC})  # softmax, dropout, ...
    einsum = einsum.einsum
    locals().update(linalg.GENERIC)  # tensordot, outer, inner, kron, trace, diagonal, diag, tril, triu, ...
    locals().update(normalization.METHODS)  # layer_norm, rms_norm, ...
    locals().update({n: getattr(sorting, n) for n in sorting.GENERIC})  # argsort, topk, unique
    unfold = conv.unfold
    fold = conv.fold
    locals().update(client_methods({**conv.COMPOSITES, **conv_pool.COMPOSITES}))
    locals().update(client_methods({**statistics.COMPOSITES, **statistics_order.COMPOSITES}))
    locals().update(fft.METHODS)  # fft, ifft, rfft, ..., fftfreq, fftshift, and the transform hooks
    locals().update(client_methods(special_gamma.COMPOSITES))  # erf, lgamma, digamma, i0, ...
    locals().update({**decomp.GENERIC, **decomp_blocked.METHODS, **decomp_jacobi.METHODS})  # linalg (CPU: kernels)


__all__ = ["GenericOps"]
