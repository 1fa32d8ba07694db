"""Composite ops written once against the op-family protocols.

``GenericOps`` is a mixin every backend client inherits last: a backend that
has a fused kernel for one of these simply defines the method itself.
"""

from __future__ import annotations

from . import activation, compare, indexing, matmul, reduce, shape, sorting


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
    matmul_bias = matmul.matmul_bias
    index_add = indexing.index_add
    gather = indexing.gather
    scatter_add = indexing.scatter_add
    locals().update({n: getattr(activation, n) for n in activation.GENERIC})  # softmax, dropout, ...
    locals().update({n: getattr(sorting, n) for n in sorting.GENERIC})  # argsort, topk, unique


__all__ = ["GenericOps"]
