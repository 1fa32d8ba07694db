"""Generates numr/_cpu/kernels/vmath_pow_tables.h: the tables and polynomial coefficients of
the vectorised float32/float64 pow (vmath_pow.h, vmath_f64_pow.h). Run from the repository root:

    python tools/gen_vmath_pow_tables.py > numr/_cpu/kernels/vmath_pow_tables.h

Everything is computed here with mpmath at 200 bits (no table is copied from elsewhere):

- log tables: the reduced argument z of |x| = 2**k * z lies in [OFF, 2*OFF) (OFF ~ 0.70); the top
  mantissa bits of bits(z) - bits(OFF) index 2**B sub-intervals, each with invc ~ 1/(its midpoint)
  rounded to 12 bits (float64: 8, so that z * invc - 1 is exactly a double) and logc = -log(invc)
  (float32: log2, one double; float64: ln, hi on the 2**-43 grid + lo), so that
  log|x| = k log(2) + logc + log(1 + r) with r = z * invc - 1 small. invc is not stored on its
  own: the low 12 mantissa bits of logc (float64: of logc's lo part) hold it, as
  invc = bits(0x3ff0000000000000 ^ (code << 41)), at a cost of 2**-42 relative in that double; one
  gather per element fewer. The sub-interval holding 1.0 is centred on it and has invc = 1 (code
  0) and logc = 0 exactly: near x = 1 the log is r's polynomial alone, with full relative
  accuracy, and log(1) = 0 exactly.
- exp tables: 2**(j/N) as the bits of the rounded double minus j << (52 - log2 N), so that adding
  the integer part of the scaled argument, shifted the same way, puts 2**m into the exponent field
  in one integer add; float64 also stores the rounding error of 2**(j/N), relative.
- polynomials: Chebyshev fits (mpmath.chebyfit, near-minimax) of the smooth remainders (e.g.
  (log1p(r) - r + r*r/2) / r**3) over the exact reduced ranges, rounded to double; the script
  asserts the error of the rounded polynomials, measured on a dense grid against the series, is
  under each target and prints it into the header.
"""

from __future__ import annotations

import struct

import mpmath
from mpmath import mp, mpf

mp.prec = 200


def d2b(v: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", v))[0]


def b2d(b: int) -> float:
    return struct.unpack("<d", struct.pack("<Q", b))[0]


def f2b(v: float) -> int:
    return struct.unpack("<I", struct.pack("<f", v))[0]


def b2f(b: int) -> float:
    return struct.unpack("<f", struct.pack("<I", b))[0]


def round_bits(v, bits: int) -> float:
    """v rounded to `bits` significant bits (a double)."""
    m, e = mpmath.frexp(v)
    return float(mpmath.ldexp(mpmath.nint(mpmath.ldexp(m, bits)), e - bits))


def series(coef, r, n_terms=60):
    return mpmath.fsum(coef(n) * r**n for n in range(n_terms))


def fit(name, coef, lo, hi, target, weight=lambda r: 1):
    """Smallest-degree Chebyshev fit of sum coef(n) r**n on [lo, hi] whose double-rounded
    coefficients (lowest degree first) stay within target (absolute error times weight(r))."""
    f = lambda r: series(coef, r)
    for n in range(2, 16):
        poly = mpmath.chebyfit(f, [lo, hi], n)
        c = [float(v) for v in reversed(poly)]
        grid = [lo + (hi - lo) * mpf(i) / 4000 for i in range(4001)]
        err = max(abs(mpmath.polyval([mpf(v) for v in reversed(c)], r) - f(r)) * weight(r) for r in grid)
        if err < target:
            return c, err
    raise SystemExit(f"{name}: no fit under {target}")


def log_table(nbits: int, off_frac_bits: int, to_bits, from_bits, invc_bits: int):
    """(OFF, [(invc, midpoint-relative r range)]) for the sub-intervals described above."""
    step = 1 << (off_frac_bits - nbits)
    one = to_bits(1.0)
    off = one - step // 2 - step * ((one - step // 2 - to_bits(0.7)) // step)
    rows, rmax, rmaxs = [], mpf(0), []
    for i in range(1 << nbits):
        a, b = mpf(from_bits(off + i * step)), mpf(from_bits(off + (i + 1) * step - 1))
        invc = 1.0 if a <= 1 <= b else round_bits(2 / (a + b), invc_bits)
        rmaxs.append(max(abs(a * invc - 1), abs(b * invc - 1)))
        rmax = max(rmax, rmaxs[-1])
        rows.append(invc)
    return off, rows, rmax, rmaxs


def with_code(v, code: int) -> float:
    """The double nearest v whose low 12 mantissa bits are code (relative error <= 2**-42)."""
    h = float(v)
    best = None
    base = d2b(h) & ~0xFFF | code
    for cand in (base, base + 0x1000, base - 0x1000):
        if not 0 <= cand < 1 << 64 or (cand ^ d2b(h)) >> 63:
            continue
        c = b2d(cand)
        if best is None or abs(mpf(c) - v) < abs(mpf(best) - v):
            best = c
    return best


def invc_code(invc: float) -> int:
    """invc (in [0.5, 2), 12 significant bits at most) = bits(0x3ff0000000000000 ^ (code << 41)):
    code 0 for invc = 1, so that the centre entry's logc (lo part) stays exactly 0"""
    code = (d2b(invc) ^ 0x3FF0000000000000) >> 41
    assert 0 <= code < 4096 and b2d(0x3FF0000000000000 ^ (code << 41)) == invc
    return code


def hexd(v: float) -> str:
    return float(v).hex()


def emit_array(ctype: str, name: str, vals: list[str], per_line: int) -> list[str]:
    out = [f"static const {ctype} {name}[{len(vals)}] = {{"]
    for i in range(0, len(vals), per_line):
        out.append("    " + ", ".join(vals[i:i + per_line]) + ",")
    out.append("};")
    return out


def main() -> None:
    L = []
    # ---- float32: log2 with 16 sub-intervals, 2**x with 32 entries --------------------------
    off32, invc32, r32, _ = log_table(4, 23, f2b, b2f, 12)     # z (24 bits) * invc exact in double
    logc32 = [with_code(-mpmath.log(mpf(v), 2), invc_code(v)) for v in invc32]
    # log2(1 + r) = r * P(r): relative error target 2**-36 (t = y log2|x| <= 150: 2**-29 absolute)
    lg32, lg32_err = fit("log2 f32", lambda n: (-1) ** n / (n + 1) / mpmath.ln(2), -r32, r32, mpf(2) ** -36)
    e32_half = mpf(1) / 64
    # 2**r = 1 + r * E(r), |r| <= 1/64: relative error target 2**-38
    ex32, ex32_err = fit("exp2 f32", lambda n: mpmath.ln(2) ** (n + 1) / mpmath.factorial(n + 1),
                         -e32_half, e32_half, mpf(2) ** -38, weight=lambda r: abs(r))
    tab32 = []
    for j in range(32):
        v = float(mpmath.power(2, mpf(j) / 32))
        tab32.append(f"0x{(d2b(v) - (j << 47)) % (1 << 64):016x}ull")
    L.append(f"#define NR_POWF_OFF 0x{off32:08x}u /* {b2f(off32)!r}: bits(OFF), float32 */")
    L.append(f"/* float32 |r| <= {float(r32):.6g}; log2 polynomial relative error {float(lg32_err):.3g} "
             f"(2**{float(mpmath.log(lg32_err, 2)):.1f}), exp2 {float(ex32_err):.3g} "
             f"(2**{float(mpmath.log(ex32_err, 2)):.1f}) */")
    L += emit_array("double", "nr_powf_logc", [hexd(v) for v in logc32], 4)
    L += emit_array("uint64_t", "nr_powf_exp2", tab32, 4)
    L += emit_array("double", "nr_powf_log2_poly", [hexd(v) for v in lg32], 4)
    L += emit_array("double", "nr_powf_exp2_poly", [hexd(v) for v in ex32], 4)

    # ---- float64: ln with 128 sub-intervals (hi + lo), e**x with 128 entries -------------------
    # invc with 8 bits: r = z * invc - 1 (|r| < 2**-7, a multiple of 2**-60) is a double, exact
    off64, invc64, r64, r64s = log_table(7, 52, d2b, b2d, 8)
    lc = [-mpmath.log(mpf(v)) for v in invc64]
    # hi on the 2**-43 grid: k * ln2hi + hi is then exact (|k| < 2**11, both multiples of 2**-43)
    lch = [float(mpmath.ldexp(mpmath.nint(mpmath.ldexp(v, 43)), -43)) for v in lc]
    lcl = [with_code(v - mpf(h), invc_code(c)) for v, h, c in zip(lc, lch, invc64, strict=True)]
    for i, v in enumerate(invc64):   # Fast2Sum(logc, r) in the kernel needs |logc| >= |r|
        assert v == 1.0 or abs(lch[i]) > r64s[i], (i, v)
        assert abs(lcl[i]) < 2.0**-43
    assert r64 < mpf(2) ** -7
    # log1p(r) = r - r*r/2 + r**3 * Q(r): absolute error target 2**-72 (|r**3 Q| < 2**-25)
    q64, q64_err = fit("log1p f64", lambda n: (-1) ** n / (n + 3), -r64, r64, mpf(2) ** -72,
                       weight=lambda r: abs(r) ** 3)
    rexp = mpmath.ln(2) / 256 * (1 + mpf(2) ** -20)
    # e**r = 1 + r + r*r * E(r): absolute (= relative) error target 2**-64
    e64, e64_err = fit("exp f64", lambda n: 1 / mpmath.factorial(n + 2), -rexp, rexp, mpf(2) ** -64,
                       weight=lambda r: r * r)
    t64, tl64 = [], []
    for j in range(128):
        v = mpmath.power(2, mpf(j) / 128)
        h = float(v)
        t64.append(f"0x{(d2b(h) - (j << 45)) % (1 << 64):016x}ull")
        tl64.append(hexd(float((v - mpf(h)) / mpf(h))))
    ln2 = mpmath.ln(2)
    ln2hi = float(mpmath.ldexp(mpmath.nint(mpmath.ldexp(ln2, 43)), -43))   # k * ln2hi exact, |k| < 2**11
    ln2n = ln2 / 128
    ln2nhi = round_bits(ln2n, 34)               # kd * hi exact for |kd| < 2**19
    L.append(f"#define NR_POW_OFF 0x{off64:016x}ull /* {b2d(off64)!r}: bits(OFF), float64 */")
    L.append(f"/* float64 |r| <= {float(r64):.6g}; log1p polynomial abs error {float(q64_err):.3g} "
             f"(2**{float(mpmath.log(q64_err, 2)):.1f}), exp {float(e64_err):.3g} "
             f"(2**{float(mpmath.log(e64_err, 2)):.1f}) */")
    L.append(f"#define NR_POW_LN2_HI {hexd(ln2hi)}")
    L.append(f"#define NR_POW_LN2_LO {hexd(float(ln2 - mpf(ln2hi)))}")
    L.append(f"#define NR_POW_INVLN2N {hexd(float(128 / ln2))}")
    L.append(f"#define NR_POW_LN2N_HI {hexd(ln2nhi)}")
    L.append(f"#define NR_POW_LN2N_LO {hexd(float(ln2n - mpf(ln2nhi)))}")
    L += emit_array("double", "nr_pow_logc_hi", [hexd(v) for v in lch], 4)
    L += emit_array("double", "nr_pow_logc_lo", [hexd(v) for v in lcl], 4)
    L += emit_array("uint64_t", "nr_pow_exp", t64, 4)
    L += emit_array("double", "nr_pow_exp_lo", tl64, 4)
    L += emit_array("double", "nr_pow_log1p_poly", [hexd(v) for v in q64], 4)
    L += emit_array("double", "nr_pow_exp_poly", [hexd(v) for v in e64], 4)

    print("/* Generated by tools/gen_vmath_pow_tables.py (see its docstring): tables and polynomial")
    print(" * coefficients of vmath_pow.h (float32 pow) and vmath_f64_pow.h (float64 pow). Do not edit. */")
    print("#ifndef NUMR_VMATH_POW_TABLES_H\n#define NUMR_VMATH_POW_TABLES_H\n\n#include <stdint.h>\n")
    print("\n".join(L))
    print("\n#endif")


if __name__ == "__main__":
    main()
