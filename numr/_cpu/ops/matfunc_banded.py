"""CPU solve_banded: LAPACK's gbtf2 + gbtrs in the native kernel (numr/_cpu/kernels/linalg_banded.h)
on contiguous copies, the same row choice as the composite (numr/ops/generic/matfunc_banded.py, which
the GPU clients and autograd keep); float16/bfloat16 compute in float32."""

from __future__ import annotations

from typing import Any

from ... import dtypes as dt
from ...ops.generic.matfunc_banded import check_banded, singular
from ...tensor import Tensor
from .. import storage
from . import lazy_kernels

_k = lazy_kernels("linalg")


def fresh(client: Any, x: Tensor, d: dt.DType) -> Tensor:
    """A new contiguous tensor holding x cast to d (the kernels write in place)."""
    out = storage.empty(client.device, tuple(x.shape), d)
    if out.size:
        client.copy_(out, x)
    return out


class BandedCpu:
    """Mixin of CpuClient: solve_banded's native kernel."""

    def solve_banded(self, l_and_u: tuple[int, int], ab: Tensor, b: Tensor) -> Tensor:
        """x with A x = b, A in LAPACK band storage (scipy.linalg.solve_banded); LinAlgError if singular."""
        lo, up, dtype = check_banded(l_and_u, ab, b)
        d = dtype if dtype.kind == "c" or dtype in (dt.float32, dt.float64) else dt.float32
        n = ab.shape[1]
        x = fresh(self, b if b.ndim == 2 else b.unsqueeze(-1), d)
        if x.size:
            rc = _k().gbsv(d.code, n, lo, up, x.shape[1], fresh(self, ab, d)._storage, x._storage)
            if rc > 0:
                raise singular(rc - 1)
        x = x if b.ndim == 2 else x.squeeze(-1)
        return x if d is dtype else self.cast(x, dtype)
