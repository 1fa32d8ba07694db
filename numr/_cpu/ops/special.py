"""CPU implementation of the special-function family (see numr/ops/traits/special.py): erf of a
contiguous float32 or float64 tensor and lgamma and digamma of a contiguous float64 tensor run one
fused loop (numr/_cpu/kernels/special_fused.h). erf is fdlibm's, branch-free and vectorised in
double (float32 rounded once): 1M elements, one thread, float64 3.9 ms (the scalar loop took
10.7, the composite 36; torch 2.6), float32 from the composite's 13.5 ms. lgamma and digamma
are scalar loops (libm calls, branches), so for float32 the composite, whose passes are
vectorised float32 kernels, is faster (digamma 12.2, lgamma 8.6 ms vs 18.8, 19.3) and runs.
Bessel J0/J1/Y0/Y1/K0/K1 (and K's scaled forms) and ellipk/ellipe of float32/float64 run
vectorised fused loops (special_bessel.h, special_elliptic.h) with the composites' own series
and step count, passed from numr/ops/generic/special_bessel*.py and special_elliptic.py (float32
computed in double, rounded once); a strided or offset input is copied dense first. 1M float64,
one thread (CPU time on a loaded machine): j0 2.8 ms (composite 60, scipy 25, torch 23), y1 4.3,
k0 5.5 (composite 124, scipy 28), ellipk 4.4 (composite 86, scipy 13). gammainc/gammaincc,
betainc and their inverses gammaincinv/gammainccinv/betaincinv (special_incgamma.h,
special_incbeta.h) run one scalar loop over their broadcast, contiguous arguments (converted as
the composites convert them: half and integer inputs compute in float32/the default float), each
element taking only its own branch of the composites' algorithms (special_incomplete.py,
special_temme.py, special_inverse.py, whose constants are passed in), in double; 1M float64,
a, b in [0.5, 10] (asv medians, one thread; numr/scipy): gammainc 85 ms (0.98x; the composite
was 4.7x), gammaincinv 336 ms (0.89x; was 4.6x), betainc 138 ms (0.49x; the composite ~1.0 s),
betaincinv 608 ms (0.46x; the composite ~3 s). hyp1f1 runs the same way (special_hyp1f1.h: the
composite's series with the element's own term count, Kummer's transformation, the large-argument
expansion): 74 ms (0.28x). Other dtypes and the remaining functions run the composites
(numr/ops/generic/special*.py)."""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

from ... import dtypes as dt
from ...layout import Layout
from ...ops.generic import special_bessel as _b1
from ...ops.generic import special_bessel2 as _b2
from ...ops.generic import special_elliptic as _el
from ...ops.generic import special_hyper as _hy
from ...ops.generic import special_incomplete as _inc
from ...ops.generic import special_inverse as _inv
from ...ops.generic import special_temme as _tm
from ...ops.generic.special import special_input
from ...tensor import Tensor
from .. import storage
from . import lazy_kernels

_k = lazy_kernels("special")
_F64 = (dt.float64,)
_F = (dt.float64, dt.float32)
_FUSED = {"erf": (0, _F), "lgamma": (1, _F64), "digamma": (2, _F64)}
# run2's ops, in special_fused.h's NRS_OP_* order
_FUSED2 = {n: (i, _F) for i, n in enumerate((
    "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "modified_bessel_k0", "modified_bessel_k1",
    "scaled_modified_bessel_k0", "scaled_modified_bessel_k1", "ellipk", "ellipe"))}


@cache
def _tables() -> tuple[np.ndarray, np.ndarray]:
    """The composites' series back to back (special_bessel.h's NRS_* order) and their lengths."""
    jz = tuple(v for pair in _b2.J0Z + _b2.J1Z for v in pair)
    ser = (_b2.J0_SMALL, _b2.J1_SMALL, _b2.Y0_SMALL, _b2.Y1_SMALL, _b2.P0, _b2.Q0, _b2.P1, _b2.Q1,
           _b2.K0_SMALL, _b2.K1_SMALL, _b2.K0_LARGE, _b2.K1_LARGE, _b1.I0_SMALL, _b1.I1_SMALL, jz)
    return (np.array([c for s in ser for c in s], dtype=np.float64),
            np.array([len(s) for s in ser], dtype=np.int32))


# run_ig's ops, in special_incbeta.h's NRS_IG_*/NRS_IB* order
_FUSED_IG = {n: i for i, n in enumerate(("gammainc", "gammaincc", "gammaincinv", "gammainccinv", "betainc",
                                         "betaincinv", "hyp1f1"))}


@cache
def _ig_tables() -> tuple[np.ndarray, np.ndarray]:
    """The incomplete gamma, beta and hyp1f1 composites' constants back to back (special_incgamma.h's
    nrs_igt order) and their lengths."""
    c, extra, least, most = _inc.ITERATIONS[dt.float64]
    params = (c, extra, least, most, _tm.TEMME_A, _tm.TEMME_LO, _tm.TEMME_HI, _inc._QS_TERMS,
              _inv.STEPS[dt.float64], _hy._ASYM_TERMS)
    temme = tuple(v for row in _tm.TEMME_D for v in row)
    ser = (_inc._STIRLING, _inc._LGAM1P, temme, params)
    return (np.array([c for s in ser for c in s], dtype=np.float64),
            np.array([len(s) for s in ser], dtype=np.int32))


def _fused_ig(client: Any, name: str, *args: Any) -> Tensor | None:
    """The fused loop's result of an incomplete gamma/beta function or inverse, its arguments
    converted, broadcast and made contiguous as the composite does, or None where the composite
    must run."""
    import numr as nr
    cs, out = special_input(name, *args)
    if any(c.__class__ is not Tensor or c.device is not client.device for c in cs) or cs[0].dtype not in _F:
        return None
    shape = _inc._shape(*cs)
    cs = [nr.broadcast_to(c, shape).contiguous() for c in cs]
    n = cs[0].size
    y = Tensor(storage.allocate(n, cs[0].dtype), Layout(shape), cs[0].dtype, client.device)
    if n:
        tab, lens = _ig_tables()
        b = cs[1] if len(cs) == 3 else None
        if not _k().run_ig(_FUSED_IG[name], cs[0].dtype is dt.float64, cs[0]._storage, cs[0]._layout.offset,
                           None if b is None else b._storage, 0 if b is None else b._layout.offset,
                           cs[-1]._storage, cs[-1]._layout.offset, y._storage, n, tab, lens):
            raise RuntimeError(f"numr cpu {name}: the fused loop rejected the composite's constants")
    return _inc._finish(y, out)


def _fused(client: Any, name: str, x: Any) -> Tensor | None:
    """The fused loop's result, or None where the composite must run."""
    two = name in _FUSED2
    op, dtypes = _FUSED2[name] if two else _FUSED[name]
    if x.__class__ is not Tensor or x.device is not client.device or x.dtype not in dtypes:
        return None
    if not x.is_contiguous():
        if not two:
            return None
        x = x.contiguous()
    n = x.size
    y = Tensor(storage.allocate(n, x.dtype), Layout(x.shape), x.dtype, client.device)
    if not n:
        return y
    f64, off = x.dtype is dt.float64, x._layout.offset
    if two:
        tab, lens = _tables()
        if not _k().run2(op, f64, x._storage, off, y._storage, n, tab, lens, _el.STEPS):
            raise RuntimeError(f"numr cpu {name}: the fused loop rejected the composite's tables")
    elif not _k().run(op, f64, x._storage, off, y._storage, n):
        return None
    return y


def _method(name: str) -> Any:
    def m(self: Any, x: Any) -> Any:
        y = _fused(self, name, x)
        return y if y is not None else getattr(super(SpecialCpu, self), name)(x)
    m.__name__ = name
    return m


def _method_ig(name: str) -> Any:
    def m(self: Any, *args: Any, **kw: Any) -> Any:
        y = None if kw else _fused_ig(self, name, *args)  # keywords: the composite binds them
        return y if y is not None else getattr(super(SpecialCpu, self), name)(*args, **kw)
    m.__name__ = name
    return m


class SpecialCpu:
    """Fused float64 erf, lgamma, digamma and float32/float64 Bessel J/Y/K, elliptic K/E, the
    incomplete gamma/beta functions and their inverses, and hyp1f1; the rest come from GenericOps."""

    erf = _method("erf")
    lgamma = _method("lgamma")
    digamma = _method("digamma")
    bessel_j0 = _method("bessel_j0")
    bessel_j1 = _method("bessel_j1")
    bessel_y0 = _method("bessel_y0")
    bessel_y1 = _method("bessel_y1")
    modified_bessel_k0 = _method("modified_bessel_k0")
    modified_bessel_k1 = _method("modified_bessel_k1")
    scaled_modified_bessel_k0 = _method("scaled_modified_bessel_k0")
    scaled_modified_bessel_k1 = _method("scaled_modified_bessel_k1")
    ellipk = _method("ellipk")
    ellipe = _method("ellipe")
    gammainc = _method_ig("gammainc")
    gammaincc = _method_ig("gammaincc")
    gammaincinv = _method_ig("gammaincinv")
    gammainccinv = _method_ig("gammainccinv")
    betainc = _method_ig("betainc")
    betaincinv = _method_ig("betaincinv")
    hyp1f1 = _method_ig("hyp1f1")
