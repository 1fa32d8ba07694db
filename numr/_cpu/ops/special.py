"""CPU implementation of the special-function family (see numr/ops/traits/special.py): erf of a
contiguous float32 or float64 tensor and lgamma and digamma of a contiguous float64 tensor run one
fused loop (numr/_cpu/kernels/special_fused.h). erf is fdlibm's, branch-free and vectorised in
double (float32 rounded once): 1M elements, one thread, float64 3.9 ms (the scalar loop took
10.7, the composite 36; torch 2.6), float32 from the composite's 13.5 ms. lgamma and digamma
are scalar loops (libm calls, branches), so for float32 the composite, whose passes are
vectorised float32 kernels, is faster (digamma 12.2, lgamma 8.6 ms vs 18.8, 19.3) and runs; so
do other dtypes, layouts and the remaining functions (numr/ops/generic/special*.py)."""

from __future__ import annotations

from typing import Any

from ... import dtypes as dt
from ...layout import Layout
from ...tensor import Tensor
from .. import storage
from . import lazy_kernels

_k = lazy_kernels("special")
_FUSED = {"erf": 0, "lgamma": 1, "digamma": 2}
_DTYPES = {"erf": (dt.float64, dt.float32), "lgamma": (dt.float64,), "digamma": (dt.float64,)}


def _fused(client: Any, name: str, x: Any) -> Tensor | None:
    """The fused loop's result, or None where the composite must run."""
    if (x.__class__ is not Tensor or x.device is not client.device or x.dtype not in _DTYPES[name]
            or not x.is_contiguous()):
        return None
    n = x.size
    y = Tensor(storage.allocate(n, x.dtype), Layout(x.shape), x.dtype, client.device)
    if n and not _k().run(_FUSED[name], x.dtype is dt.float64, x._storage, x._layout.offset, y._storage, n):
        return None
    return y


def _method(name: str) -> Any:
    def m(self: Any, x: Any) -> Any:
        y = _fused(self, name, x)
        return y if y is not None else getattr(super(SpecialCpu, self), name)(x)
    m.__name__ = name
    return m


class SpecialCpu:
    """Fused float64 erf, lgamma, digamma; the rest come from GenericOps."""

    erf = _method("erf")
    lgamma = _method("lgamma")
    digamma = _method("digamma")
