"""Autograd of the FFT family. Every transform is linear, so its reverse rule is its transpose,
in numr's convention (a vjp is g times the transposed Jacobian, without conjugation: mul's rule
is g * b), written with the public transforms so that it is differentiable again:
- c2c (fft, ifft, fft2, fftn, ...): the DFT matrix is symmetric, so the gradient is the same
  transform (same norm) of g, cropped or zero-padded back to x's lengths (the transpose of the
  op's resize); for a real x the engine keeps the real part;
- r2c (rfft, rfft2, rfftn): g zero-padded from n // 2 + 1 bins to n, the forward c2c, the real
  part, resized back;
- c2r (irfft, ...): the inverse c2c of the real g, its first n // 2 + 1 bins on the last dim with
  the interior bins doubled (each stands for itself and its mirror), resized back.
Forward mode applies the op to the tangent (forward.LINEAR). fftshift/ifftshift are rolls, hfft and
ihfft irfft/rfft with a conjugate (composites in both modes)."""

from __future__ import annotations

from typing import Any

import numr as nr

from ...ops import prepare_fft as pf
from ...ops.generic.fft import fftshift_any, hfft_any, ifftshift_any, ihfft_any, resize
from ._common import record, register, tensor_call, unwrap


def _weights(n: int, like: Any) -> Any:
    """1 for bin 0 (and n/2 when n is even), 2 for the others, of the n // 2 + 1 bins."""
    m = n // 2 + 1
    w = nr.full((m,), 2.0, dtype=pf.real_of(like.dtype), device=like.device)
    w[0] = 1.0
    if n % 2 == 0:
        w[m - 1] = 1.0
    return w


def _vjp(g: Any, args: Any, out: Any, need: Any, extra: Any) -> list[Any]:
    p, xsizes = extra
    last = p.dims[-1]
    if p.kind == "c2c":
        gx = (nr.ifftn if p.inverse else nr.fftn)(g, None, p.dims, p.norm)
        return [resize(gx, p.dims, xsizes)]
    if p.kind == "r2c":
        gz = resize(g, (last,), (p.sizes[-1],))
        gx = nr.fftn(gz, None, p.dims, p.norm)
        return [resize(nr.cast(gx, pf.real_of(gx.dtype)), p.dims, xsizes)]
    u = nr.ifftn(g, None, p.dims, p.norm)
    n = p.sizes[-1]
    u = resize(u, (last,), (n // 2 + 1,))
    w = _weights(n, u).reshape(tuple(n // 2 + 1 if i == last else 1 for i in range(u.ndim)))
    return [resize(u * nr.cast(w, u.dtype), p.dims, xsizes)]


def _make(op: str):
    def var_fn(x: Any, s: Any = None, dim: Any = None, norm: Any = None) -> Any:
        t = unwrap(x)
        p = pf.plan(op, t, s, dim, norm)
        out = tensor_call(op, (x, s, dim, norm))
        return record(op, (x,), out, _vjp, save_args=False, extra=(p, tuple(t.shape[d] for d in p.dims)))
    var_fn.__name__ = f"var_{op}"
    var_fn.__doc__ = f"{op} recording its (linear) gradient."
    return var_fn


for _op in pf.OPS:
    register(_op)(_make(_op))
COMPOSITES = {"fftshift": fftshift_any, "ifftshift": ifftshift_any, "hfft": hfft_any, "ihfft": ihfft_any}
for _op, _fn in COMPOSITES.items():
    register(_op)(_fn)

#: forward mode: the transforms are linear (the op of the tangent); the shifts, hfft and ihfft
#: are composites (COMPOSITES above)
LINEAR = frozenset(pf.OPS)
