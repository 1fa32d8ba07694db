"""Sobol' points (scipy.stats.qmc.Sobol) computed on the device.

Point k is ``shift ^ XOR{V[:, j] : bit j of gray(k) set}``, gray(k) = k ^ (k >> 1), with V the
(d, bits) direction integers (Joe & Kuo's new-joe-kuo-6.21201, scipy's initialisation) held as a
small device tensor; unscrambled it is scipy's point k exactly (0 first). Since gray is linear
over GF(2) and a B + r = a B ^ r for r < B = 2**h, point a B + r = P[a B] ^ P[r]: a call computes
the ~sqrt(n) block anchors P[a B] and the B offsets P[r] with the bit loop, then one broadcast
XOR gives all n points. Integers are uint32 for bits <= 32 (every backend), uint64 beyond.
Scrambling (the default) is scipy's: a random lower-triangular binary matrix per dimension
multiplies every direction number's digits (most significant first) mod 2 (LMS), then a random
digital shift, drawn from numr's seeded generator on the device.
"""

from __future__ import annotations

import functools
import warnings
from typing import Any

from .. import dtypes as dt
from ..errors import DomainError
from ._engine import QMCEngine, check_int, need_dtype
from ._joe_kuo import MAXDIM, TABLE


@functools.lru_cache(maxsize=8)
def direction_ints(d: int, bits: int) -> tuple[tuple[int, ...], ...]:
    """The (d, bits) direction integers of scipy's _initialize_v (Bratley & Fox's recurrence),
    each already shifted so bit bits-1 is the first binary digit."""
    rows = []
    for line in TABLE.splitlines()[:d]:
        p, *vinit = (int(t) for t in line.split())
        m = p.bit_length() - 1
        v = vinit[:m] + [0] * (bits - min(m, bits)) if m else [1] * bits
        for j in range(m, bits):
            newv = v[j - m]
            for k in range(m):
                if (p >> (m - 1 - k)) & 1:
                    newv ^= v[j - k - 1] << (k + 1)
            v[j] = newv
        rows.append(tuple(v[j] << (bits - 1 - j) for j in range(bits)))
    return tuple(rows)


def _digits(v: Any, bits: int) -> Any:
    """The binary digits of integer tensor v, most significant first: float32 (..., bits)."""
    import numr as nr
    masks = nr.tensor([1 << (bits - 1 - c) for c in range(bits)], dtype=v.dtype, device=v.device)
    return nr.cast(nr.bitwise_and(v.unsqueeze(-1), masks) != 0, dt.float32)


def _undigits(o: Any, bits: int, idt: dt.DType) -> Any:
    """Integers of dtype idt from 0/1 float32 digits (..., bits), most significant first: 16-digit
    chunks summed exactly in float32, then joined with integer multiplies and ors."""
    import numr as nr
    out = None
    for lo in range(0, bits, 16):  # chunk of digit positions bits-1-lo-15 .. bits-1-lo from the end
        hi = min(lo + 16, bits)
        cols = o[..., bits - hi:bits - lo]
        w = nr.tensor([float(1 << (hi - 1 - lo - c)) for c in range(hi - lo)], dtype=dt.float32, device=o.device)
        part = nr.cast(nr.sum(cols * w, dim=-1), idt)
        if lo:
            part = part * (1 << lo)
        out = part if out is None else nr.bitwise_or(out, part)
    return out


class Sobol(QMCEngine):
    """Sobol' sequence in d <= 1111 dimensions (scipy.stats.qmc.Sobol's API)."""

    op = "Sobol"
    MAXDIM = MAXDIM

    def __init__(self, d: int, scramble: bool = True, bits: int | None = None, seed: int | None = None, *,
                 device: Any = None, dtype: Any = None, optimization: str | None = None) -> None:
        import numr as nr
        super().__init__(d, seed, device, dtype, optimization)
        if self.d > MAXDIM:
            raise DomainError(f"Maximum supported dimensionality is {MAXDIM}.")
        self.bits = 30 if bits is None else check_int(self.op, "bits", bits, 1)
        if self.bits > 64:
            raise DomainError("Maximum supported 'bits' is 64")
        self.scramble = bool(scramble)
        self.maxn = 2 ** self.bits
        self._idt = dt.uint32 if self.bits <= 32 else dt.uint64
        need_dtype(self.op, self.device, self._idt)
        self._sv = nr.tensor(list(direction_ints(self.d, self.bits)) if self.d else [[0] * self.bits],
                             dtype=self._idt, device=self.device)[: self.d]
        self._shift = nr.zeros((self.d,), dtype=self._idt, device=self.device)
        if self.scramble and self.d:
            self._scramble()

    def _scramble(self) -> None:
        """LMS then digital shift, both drawn as random bits on the device."""
        import numr as nr
        d, b, dr = self.d, self.bits, self._draws0
        shift = nr.cast(dr.randint(0, 2, (d, b), dt.int32), dt.float32)
        lower = nr.cast(dr.randint(0, 2, (d, b, b), dt.int32), dt.float32)
        ltm = nr.tril(lower, -1) + nr.eye(b, dtype=dt.float32, device=self.device)
        digits = nr.matmul(_digits(self._sv, b), ltm.transpose(-1, -2))
        self._sv = _undigits(nr.remainder(digits, 2.0), b, self._idt)
        self._shift = _undigits(shift, b, self._idt)

    def _points(self, start: int, n: int) -> Any:
        """Integer points start .. start+n-1, (n, d)."""
        import numr as nr
        h = ((n - 1).bit_length() + 1) // 2
        blk = 1 << h
        a0, a1 = start >> h, (start + n - 1) >> h
        offs = self._block(0, blk, 1)
        anchors = nr.bitwise_xor(self._block(a0, a1 + 1, blk), self._shift)
        pts = nr.bitwise_xor(anchors.unsqueeze(1), offs.unsqueeze(0)).reshape(-1, self.d)
        return pts[start - (a0 << h): start - (a0 << h) + n]

    def _block(self, lo: int, hi: int, step: int) -> Any:
        """Unshifted points of the indices lo*step, (lo+1)*step, ..., (hi-1)*step."""
        import numr as nr
        idx = nr.arange(lo, hi, dtype=self._idt, device=self.device)
        if step > 1:
            idx = idx * step
        gray = nr.bitwise_xor(idx, idx // 2).unsqueeze(-1)
        out = nr.zeros((hi - lo, self.d), dtype=self._idt, device=self.device)
        for j in range(min(((hi - 1) * step).bit_length(), self.bits)):
            hit = nr.bitwise_and(gray, 1 << j) != 0
            out = nr.bitwise_xor(out, nr.where(hit, self._sv[:, j], 0))
        return out

    def _to_float(self, q: Any) -> Any:
        """scipy's q * 2**-bits (float64); float32 keeps the top 24 bits (truncated, so < 1)."""
        import numr as nr
        if self.dtype == dt.float64:
            return nr.cast(q, dt.float64) * 2.0 ** -self.bits
        if self.bits > 24:
            q = q // (1 << (self.bits - 24))
        return nr.cast(q, dt.float32) * 2.0 ** -min(self.bits, 24)

    def _random(self, n: int) -> Any:
        if n == 0 or self.d == 0:
            self._check_room(n)
            return self._empty(n)
        self._check_room(n)
        if self.num_generated == 0 and n & (n - 1):
            warnings.warn("The balance properties of Sobol' points require n to be a power of 2.", stacklevel=3)
        return self._to_float(self._points(self.num_generated, n))

    def _check_room(self, n: int) -> None:
        total = self.num_generated + n
        if total > self.maxn:
            msg = (f"At most 2**{self.bits}={self.maxn} distinct points can be generated. {self.num_generated} "
                   f"points have been previously generated, then: n={self.num_generated}+{n}={total}. ")
            raise DomainError(msg + ("Consider increasing `bits`." if self.bits != 64 else ""))

    def random_base2(self, m: int) -> Any:
        """2**m points; the total drawn must stay a power of 2 (the balance properties)."""
        n = 2 ** check_int(self.op, "m", m)
        total = self.num_generated + n
        if total & (total - 1):
            raise DomainError("The balance properties of Sobol' points require n to be a power of 2. "
                              f"{self.num_generated} points have been previously generated, then: "
                              f"n={self.num_generated}+2**{m}={total}. If you still want to do this, the "
                              "function 'Sobol.random()' can be used.")
        return self.random(n)

    def fast_forward(self, n: int) -> Sobol:
        """Skip ``n`` points (nothing computed: point k depends only on k)."""
        self.num_generated += check_int(self.op, "n", n)
        return self
