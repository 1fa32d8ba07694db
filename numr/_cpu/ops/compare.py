"""CPU implementation of the compare op family (see numr/ops/traits/compare.py).

eq/ne/lt/le/gt/ge are kernels of numr/_cpu/kernels/binary.pyx
(binary_compare.h) with bool results, through the same fast and general
paths as the arithmetic ops. isclose/allclose stay the generic composites
(numr/ops/generic/compare.py).
"""

from __future__ import annotations

from .binary import make_binary


class CompareCpu:
    """Mixin of CpuClient: the comparisons."""

    eq = make_binary("eq")
    ne = make_binary("ne")
    lt = make_binary("lt")
    le = make_binary("le")
    gt = make_binary("gt")
    ge = make_binary("ge")
