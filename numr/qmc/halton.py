"""Halton points (scipy.stats.qmc.Halton) and Latin hypercubes (scipy.stats.qmc.LatinHypercube)
computed on the device.

Halton: dimension k is the radical inverse of the point index in the k-th prime base, digit by
digit over the whole (n, d) block: ``seq += (q % b) * b**-(t+1); q //= b`` with the powers
formed as scipy forms them (1/b, then /b), so unscrambled points equal scipy's bit for bit.
Scrambled (Owen's randomized Halton, scipy's scheme): digit position t of base b goes through
its own random permutation of 0..b-1 for the ceil(54 / log2 b) - 1 positions a float64 can
see; the permutations are argsorts of seeded uniform keys on the device, looked up with index_select.
Positions beyond the index's digits see digit 0 for every point, so their sum is one constant
per dimension.
"""

from __future__ import annotations

import math
from typing import Any

from .. import dtypes as dt
from ..errors import DomainError
from ._engine import QMCEngine, check_int


def n_primes(d: int) -> list[int]:
    """The first d primes."""
    out: list[int] = []
    c = 2
    while len(out) < d:
        if all(c % p for p in out if p * p <= c):
            out.append(c)
        c += 1
    return out


def argsort32(x: Any, dim: int, dtype: dt.DType, stable: bool = False) -> Any:
    """argsort's indices in ``dtype``, through int32 (a WebGPU adapter without shader-int64 can
    cast int64 to int32, not to a float)."""
    import numr as nr
    return nr.cast(nr.cast(nr.argsort(x, dim=dim, stable=stable), dt.int32), dtype)


def perm_count(b: int) -> int:
    """How many digit positions of base b a float64 resolves (scipy's count)."""
    return math.ceil(54 / math.log2(b)) - 1


class Halton(QMCEngine):
    """Halton sequence in d dimensions (the first d primes as bases)."""

    op = "Halton"

    def __init__(self, d: int, scramble: bool = True, seed: int | None = None, *, device: Any = None,
                 dtype: Any = None, optimization: str | None = None) -> None:
        import numr as nr
        super().__init__(d, seed, device, dtype, optimization)
        self.scramble = bool(scramble)
        self.base = n_primes(self.d)
        wd = self.work_dtype
        nd = perm_count(2) if self.d else 0
        pw = []  # pw[t][k] = b_k**-(t+1), formed as scipy forms it
        cur = [1.0 / b for b in self.base]
        for _ in range(nd):
            pw.append(cur)
            cur = [c / b for c, b in zip(cur, self.base, strict=True)]
        self._pw = nr.tensor(pw if pw else [[0.0] * self.d], dtype=wd, device=self.device)
        if self.scramble and self.d:
            self._make_perms(nd)

    def _make_perms(self, nd: int) -> None:
        """(d * nd * maxb) table of permuted digits (0 at the positions past a base's count)."""
        import numr as nr
        d, mb, dev, wd = self.d, max(self.base), self.device, self.work_dtype
        base = nr.tensor(self.base, dtype=dt.float32, device=dev).reshape(d, 1, 1)
        col = nr.arange(mb, dtype=dt.float32, device=dev)
        keys = nr.where(col < base, self._draws0.rand((d, nd, mb), dt.float32), 2.0)
        perm = argsort32(keys, -1, wd)
        live = nr.tensor([[t < perm_count(b) for t in range(nd)] for b in self.base], device=dev)
        self._perm = nr.where(live.unsqueeze(-1), perm, 0.0)  # (d, nd, mb)
        self._value = self._perm * self._pw.transpose(0, 1).unsqueeze(-1)  # the digit's term of the sum
        self._mb = mb

    def _random(self, n: int) -> Any:
        import numr as nr
        if n == 0 or self.d == 0:
            return self._empty(n)
        start, wd, dev, npos = self.num_generated, self.work_dtype, self.device, self._pw.shape[0]
        last = start + n - 1
        # digits[k]: base-b_k digits of the largest index; bases grow with k, so the columns still
        # holding digits at step t are a prefix, and the loop narrows to it
        digits = [1] * self.d
        for k, b in enumerate(self.base):
            while b ** digits[k] <= last:
                digits[k] += 1
        if self.scramble:
            digits = [min(t, npos) for t in digits]
        idt = dt.int32 if last < 2 ** 31 and self.d * npos * max(self.base) < 2 ** 31 else dt.int64
        q = nr.arange(start, start + n, dtype=idt, device=dev).unsqueeze(-1)
        b = nr.tensor(self.base, dtype=idt, device=dev)
        seq = nr.zeros((n, self.d), dtype=wd, device=dev)
        done = []  # finished column blocks, right to left
        if self.scramble:
            flat = self._value.reshape(-1)
            row = nr.arange(self.d, dtype=idt, device=dev) * (npos * self._mb)
        for t in range(digits[0]):
            live = sum(1 for v in digits if v > t)
            if live < seq.shape[1]:
                done.append(seq[:, live:])
                seq, b = seq[:, :live], b[:live]
                q = q[:, :live] if q.shape[1] > 1 else q
                if self.scramble:
                    row = row[:live]
            r = nr.remainder(q, b)
            if self.scramble:
                seq = seq + nr.index_select(flat, 0, (r + (row + t * self._mb)).reshape(-1)).reshape(n, live)
            else:
                seq = seq + nr.cast(r, wd) * self._pw[t, :live]
            q = q // b
        seq = nr.cat([seq] + done[::-1], dim=1) if done else seq
        if self.scramble:  # positions past a column's digits see digit 0 at every point: a constant
            tail = nr.zeros((self.d,), dtype=wd, device=dev)  # added in order (no reduction), the
            for t in range(min(digits), npos):                 # same bits on every backend
                past = nr.tensor([t >= v for v in digits], device=dev)
                tail = tail + nr.where(past, self._value[:, t, 0], 0.0)
            seq = seq + tail
        return self._finish(seq)


    def fast_forward(self, n: int) -> Halton:
        """Skip ``n`` points (nothing computed: point k depends only on k)."""
        self.num_generated += check_int(self.op, "n", n)
        return self


class LatinHypercube(QMCEngine):
    """Latin hypercube: each dimension's n points fall one in each of the n equal strata.

    strength=1: an independent random permutation of the strata per dimension (argsort of seeded
    keys) plus a uniform offset inside the stratum (its centre when scramble=False). strength=2:
    scipy's orthogonal-array LHS (n = p**2 for a prime p, d <= p + 1)."""

    op = "LatinHypercube"

    def __init__(self, d: int, scramble: bool = True, strength: int = 1, seed: int | None = None, *,
                 device: Any = None, dtype: Any = None, optimization: str | None = None) -> None:
        super().__init__(d, seed, device, dtype, optimization)
        self.scramble = bool(scramble)
        if strength not in (1, 2) or isinstance(strength, bool):
            raise DomainError(f"{strength!r} is not a valid strength. It must be one of {{1, 2}}")
        self.strength = strength

    def _strata(self, cols: int, n: int) -> Any:
        """(n, cols) independent random permutations of 0..n-1 (work dtype)."""
        keys = self._draws.rand((cols, n), dt.float32 if n < 2 ** 24 else dt.float64)
        return argsort32(keys, -1, self.work_dtype).transpose(0, 1)

    def _jitter(self, n: int, cols: int) -> Any:
        """Offsets inside the strata, drawn in the output dtype (the same on every backend)."""
        import numr as nr
        return nr.cast(self._draws.rand((n, cols), self.dtype), self.work_dtype) if self.scramble else 0.5

    def _random(self, n: int) -> Any:
        if n == 0 or self.d == 0:
            return self._empty(n)
        if self.strength == 2:
            return self._finish(self._oa_lhs(n))
        return self._finish((self._strata(self.d, n) + self._jitter(n, self.d)) / n)

    def _oa_lhs(self, n: int) -> Any:
        """Strength 2: the OA rows (i % p, i // p, (i % p + k (i // p)) % p), each column's levels
        randomly relabelled, then the p rows of each level spread as a 1-d LHS inside it."""
        import numr as nr
        p = math.isqrt(n)
        if p * p != n or p < 2 or any(p % c == 0 for c in range(2, math.isqrt(p) + 1)):
            close = [q * q for q in n_primes(p + 2) if q <= p + 1][-2:]
            raise DomainError(f"n is not the square of a prime number. Close values are {close}")
        if self.d > p + 1:
            raise DomainError("n is too small for d. Must be n > (d-1)**2")
        dev, wd = self.device, self.work_dtype
        i = nr.arange(n, dtype=dt.int64 if n >= 2 ** 31 else dt.int32, device=dev)
        a, b = i % p, i // p
        k = nr.arange(1, p, dtype=i.dtype, device=dev).unsqueeze(0)
        oa = nr.cat([a.unsqueeze(1), b.unsqueeze(1), (a.unsqueeze(1) + k * b.unsqueeze(1)) % p], dim=1)
        oa = oa[:, : self.d]
        relabel = argsort32(self._draws.rand((self.d, p), dt.float32), -1, oa.dtype)
        cols = nr.arange(self.d, dtype=oa.dtype, device=dev) * p
        lev = nr.index_select(relabel.reshape(-1), 0, (oa + cols).reshape(-1)).reshape(n, self.d)  # relabelled
        # the rank of each row among the p rows of its level: its place in the stable sort by level
        order = argsort32(nr.cast(lev, wd), 0, dt.float32, stable=True)
        rank = argsort32(order, 0, lev.dtype) - lev * p
        strata = self._strata(self.d * p, p).transpose(0, 1).reshape(-1)
        inner = nr.index_select(strata, 0, (rank + (lev + cols) * p).reshape(-1)).reshape(n, self.d)
        return (nr.cast(lev, wd) + (inner + self._jitter(n, self.d)) / p) / p
