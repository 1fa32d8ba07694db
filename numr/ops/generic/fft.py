"""The FFT family written once with tensor ops, so every backend with complex tensors runs it
(CUDA; the CPU has its own kernels for the three transform hooks and inherits the rest).

The public ops check their arguments (prepare_fft.plan), cast, and call one of three hooks on the
client: ``_fft_c2c``, ``_fft_r2c``, ``_fft_c2r`` (input cast, not yet cropped or padded). The
generic hooks transform one dim at a time along the last axis:
- n <= 64: one matmul with the DFT matrix;
- n = n1 * n2 (n1 the divisor nearest sqrt(n)): the "four-step" Cooley-Tukey split: DFTs of
  length n1 over strided columns (a matmul or recursion), a multiply by the twiddles
  w_n^(t2*k1), DFTs of length n2, and a transpose that puts k = k1 + n1*k2 in order;
- n without a divisor in [2, sqrt(n)] (a prime): Bluestein's chirp-z, a circular convolution of
  power-of-two length M >= 2n-1 through the split above.
Twiddles and DFT matrices are computed on the device in float64 from exact integer angles
((t*k) mod n) and cached per (device, n, direction, dtype). r2c is a c2c of the complex-cast
input, cropped to n//2+1 bins; c2r builds the Hermitian spectrum (nr.conj of the mirrored bins)
and keeps the real part of the inverse c2c; hfft/ihfft are irfft/rfft with a conjugate.
WebGPU, which has no complex dtype, raises UnsupportedDType from prepare_fft.check_complex
before any work.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from typing import Any

from .. import prepare_fft as pf

DIRECT = 64  # longest DFT done as one matmul
_CACHE: OrderedDict = OrderedDict()
_CACHE_SIZE = 64


def _nr() -> Any:
    import numr as nr
    return nr


def _cached(key: tuple, make: Any) -> Any:
    hit = _CACHE.get(key)
    if hit is None:
        hit = _CACHE[key] = make()
        if len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    else:
        _CACHE.move_to_end(key)
    return hit


def _expi(num: Any, den: int, sign: int, dtype: Any) -> Any:
    """exp(sign * 2 pi i * num / den) for an int64 tensor num in [0, den), computed in float64."""
    nr = _nr()
    ang = nr.cast(num, nr.float64) * (2.0 * math.pi / den)
    return nr.cast(nr.cos(ang), dtype) + nr.cast(nr.sin(ang), dtype) * (1j * sign)


def _dft_matrix(n: int, sign: int, dtype: Any, device: Any) -> Any:
    def make() -> Any:
        nr = _nr()
        t = nr.arange(n, dtype=nr.int64, device=device)
        return _expi((t.reshape(n, 1) * t.reshape(1, n)) % n, n, sign, dtype)
    return _cached(("dft", str(device), n, sign, dtype.name), make)


def _twiddles(n1: int, n2: int, sign: int, dtype: Any, device: Any) -> Any:
    """w_n^(t2*k1) as an (n2, n1) matrix, n = n1*n2."""
    def make() -> Any:
        nr = _nr()
        t2 = nr.arange(n2, dtype=nr.int64, device=device).reshape(n2, 1)
        k1 = nr.arange(n1, dtype=nr.int64, device=device).reshape(1, n1)
        return _expi((t2 * k1) % (n1 * n2), n1 * n2, sign, dtype)
    return _cached(("tw", str(device), n1, n2, sign, dtype.name), make)


def _split(n: int) -> int:
    """The divisor of n nearest below sqrt(n) (1 for a prime)."""
    for d in range(math.isqrt(n), 1, -1):
        if n % d == 0:
            return d
    return 1


def _chirp(n: int, sign: int, dtype: Any, device: Any) -> Any:
    """exp(sign * pi i k^2 / n), k < n, from the exact (k^2 mod 2n)."""
    def make() -> Any:
        nr = _nr()
        k = nr.arange(n, dtype=nr.int64, device=device)
        return _expi((k * k) % (2 * n), 2 * n, sign, dtype)
    return _cached(("chirp", str(device), n, sign, dtype.name), make)


def _bluestein_kernel(n: int, m: int, sign: int, dtype: Any, device: Any) -> Any:
    """FFT_m of b[j] = conj(chirp)[|j|] for |j| < n (wrapped), divided by m."""
    def make() -> Any:
        nr = _nr()
        c = _chirp(n, -sign, dtype, device)
        parts = [c, nr.zeros((m - 2 * n + 1,), dtype=dtype, device=device), c[1:].flip(0)]
        return _dft_last(nr.cat(parts), m, -1) * (1.0 / m)
    return _cached(("blue", str(device), n, m, sign, dtype.name), make)


def _dft_last(x: Any, n: int, sign: int) -> Any:
    """The unnormalised DFT (exp(sign 2 pi i ...)) of length n along x's last dim."""
    nr = _nr()
    if n == 1:
        return x
    if n <= DIRECT:
        return nr.matmul(x, _dft_matrix(n, sign, x.dtype, x.device))
    n1 = _split(n)
    lead = tuple(x.shape[:-1])
    if n1 == 1:
        m = 1 << (2 * n - 2).bit_length()
        c = _chirp(n, sign, x.dtype, x.device)
        a = nr.cat([x * c, nr.zeros((*lead, m - n), dtype=x.dtype, device=x.device)], dim=-1)
        conv = _dft_last(_dft_last(a, m, -1) * _bluestein_kernel(n, m, sign, x.dtype, x.device), m, 1)
        return conv[..., :n] * c
    n2 = n // n1
    a = x.reshape(*lead, n1, n2).transpose(-1, -2)                  # [t2, t1], t = n2*t1 + t2
    a = _dft_last(a, n1, sign) * _twiddles(n1, n2, sign, x.dtype, x.device)  # [t2, k1]
    a = _dft_last(a.transpose(-1, -2), n2, sign)                     # [k1, k2]
    return a.transpose(-1, -2).reshape(*lead, n)                     # k = k1 + n1*k2


def resize(x: Any, dims: tuple[int, ...], sizes: tuple[int, ...]) -> Any:
    """x cropped or padded with zeros at the end of each dim to its size (public ops only, so
    Vars and DualTensors go through it)."""
    nr = _nr()
    for d, n in zip(dims, sizes, strict=True):
        m = x.shape[d]
        if n < m:
            x = x[(slice(None),) * d + (slice(0, n),)]
        elif n > m:
            shape = tuple(n - m if i == d else s for i, s in enumerate(x.shape))
            x = nr.cat([x, nr.zeros(shape, dtype=x.dtype, device=x.device)], dim=d)
    return x


def _along(x: Any, d: int, n: int, sign: int) -> Any:
    if d == x.ndim - 1:
        return _dft_last(x, n, sign)
    return _dft_last(x.transpose(d, -1), n, sign).transpose(d, -1)


def _scaled(x: Any, scale: float) -> Any:
    return x if scale == 1.0 else x * scale


def fft_c2c(self: Any, x: Any, dims: tuple[int, ...], sizes: tuple[int, ...], inverse: bool, scale: float) -> Any:
    x = resize(x, dims, sizes)
    if x.size == 0:
        return _scaled(x.contiguous(), scale)
    for d, n in zip(dims, sizes, strict=True):
        x = _along(x, d, n, 1 if inverse else -1)
    return _scaled(x, scale).contiguous()


def fft_r2c(self: Any, x: Any, dims: tuple[int, ...], sizes: tuple[int, ...], scale: float) -> Any:
    nr = _nr()
    y = fft_c2c(self, nr.cast(x, pf.complex_of(x.dtype)), dims[-1:], sizes[-1:], False, scale)
    y = resize(y, dims[-1:], (sizes[-1] // 2 + 1,))
    return fft_c2c(self, y, dims[:-1], sizes[:-1], False, 1.0) if len(dims) > 1 else y.contiguous()


def hermitian(z: Any, d: int, n: int) -> Any:
    """The full length-n spectrum along dim d from its first n // 2 + 1 bins (z has exactly
    them): bins k > n/2 are conj(z[n - k])."""
    nr = _nr()
    rest = n - (n // 2 + 1)
    if rest == 0:
        return z
    tail = z[(slice(None),) * d + (slice(1, rest + 1),)].flip(d)
    return nr.cat([z, nr.conj(tail)], dim=d)


def fft_c2r(self: Any, x: Any, dims: tuple[int, ...], sizes: tuple[int, ...], scale: float) -> Any:
    nr = _nr()
    n = sizes[-1]
    x = resize(x, dims, (*sizes[:-1], n // 2 + 1))
    if len(dims) > 1:
        x = fft_c2c(self, x, dims[:-1], sizes[:-1], True, 1.0)
    full = hermitian(x, dims[-1], n)
    return nr.cast(fft_c2c(self, full, dims[-1:], (n,), True, scale), pf.real_of(x.dtype))


def _transform(op: str):
    def method(self: Any, x: Any, s: Any = None, dim: Any = None, norm: str | None = None) -> Any:
        x = pf.operand(op, self, x)
        p = pf.plan(op, x, s, dim, norm)
        pf.check_complex(self, op, x.dtype)
        xc = x if x.dtype is p.in_dtype else self.cast(x, p.in_dtype)
        if p.kind == "c2c":
            return self._fft_c2c(xc, p.dims, p.sizes, p.inverse, p.scale)
        if p.kind == "r2c":
            return self._fft_r2c(xc, p.dims, p.sizes, p.scale)
        return self._fft_c2r(xc, p.dims, p.sizes, p.scale)
    method.__name__ = op
    if op in ("fft", "ifft", "rfft", "irfft"):
        def one(self: Any, x: Any, n: int | None = None, dim: int = -1, norm: str | None = None) -> Any:
            return method(self, x, n, dim, norm)
        one.__name__ = op
        return one
    if op.endswith("2"):
        def two(self: Any, x: Any, s: Any = None, dim: Any = (-2, -1), norm: str | None = None) -> Any:
            return method(self, x, s, dim, norm)
        two.__name__ = op
        return two
    return method


_SWAP = {None: "forward", "backward": "forward", "ortho": "ortho", "forward": "backward"}


def conj_any(z: Any) -> Any:
    """nr.conj (real z is returned as it is): one pass, and exact at inf, where the former
    2 Re(z) - z gave NaN."""
    return _nr().conj(z)


def hfft_any(x: Any, n: int | None = None, dim: int = -1, norm: str | None = None) -> Any:
    return _nr().irfft(conj_any(x), n, dim, _SWAP[pf.norm_mode("hfft", norm)])


def ihfft_any(x: Any, n: int | None = None, dim: int = -1, norm: str | None = None) -> Any:
    return conj_any(_nr().rfft(x, n, dim, _SWAP[pf.norm_mode("ihfft", norm)]))


def hfft(self: Any, x: Any, n: int | None = None, dim: int = -1, norm: str | None = None) -> Any:
    x = pf.operand("hfft", self, x)
    pf.check_complex(self, "hfft", x.dtype)
    return hfft_any(x, n, dim, norm)


def ihfft(self: Any, x: Any, n: int | None = None, dim: int = -1, norm: str | None = None) -> Any:
    x = pf.operand("ihfft", self, x)
    pf.check_complex(self, "ihfft", x.dtype)
    return ihfft_any(x, n, dim, norm)


def fftfreq(self: Any, n: int, d: float = 1.0, dtype: Any = None, device: Any = None) -> Any:
    nr = _nr()
    n, d, out = pf.freq_args("fftfreq", n, d, dtype)
    k = nr.arange(n, dtype=nr.int64, device=device or self.device)
    k = nr.where(k < (n + 1) // 2, k, k - n)
    return nr.cast(nr.cast(k, nr.float64) / (d * n), out)


def rfftfreq(self: Any, n: int, d: float = 1.0, dtype: Any = None, device: Any = None) -> Any:
    nr = _nr()
    n, d, out = pf.freq_args("rfftfreq", n, d, dtype)
    k = nr.arange(n // 2 + 1, dtype=nr.float64, device=device or self.device)
    return nr.cast(k / (d * n), out)


def _shift(op: str, x: Any, dim: Any, inverse: bool) -> Any:
    nr = _nr()
    from ...shapes import normalize_dim
    dims = tuple(range(x.ndim)) if dim is None else (dim,) if isinstance(dim, int) else tuple(dim)
    dims = tuple(normalize_dim(d, x.ndim, op) for d in dims)
    if not dims:
        return x
    shifts = tuple(-(x.shape[d] // 2) if inverse else x.shape[d] // 2 for d in dims)
    return nr.roll(x, shifts, dims)


def fftshift_any(x: Any, dim: Any = None) -> Any:
    return _shift("fftshift", x, dim, False)


def ifftshift_any(x: Any, dim: Any = None) -> Any:
    return _shift("ifftshift", x, dim, True)


def fftshift(self: Any, x: Any, dim: Any = None) -> Any:
    return fftshift_any(pf.operand("fftshift", self, x), dim)


def ifftshift(self: Any, x: Any, dim: Any = None) -> Any:
    return ifftshift_any(pf.operand("ifftshift", self, x), dim)


#: the methods GenericOps takes from this file
METHODS = {**{op: _transform(op) for op in pf.OPS}, "hfft": hfft, "ihfft": ihfft,
           "fftfreq": fftfreq, "rfftfreq": rfftfreq, "fftshift": fftshift, "ifftshift": ifftshift,
           "_fft_c2c": fft_c2c, "_fft_r2c": fft_r2c, "_fft_c2r": fft_c2r}
