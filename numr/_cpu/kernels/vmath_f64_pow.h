/* Branch-free float64 pow and hypot that GCC vectorises (glibc's are scalar calls; see vmath.h).
 *
 * pow(x, y) = e**(y log|x|) with y log|x| carried as a double-double (hi + lo), since an error
 * d in it is a relative error d of the result and |y log|x|| reaches 745:
 * - log: |x| = 2**k z, z in [0.701, 1.402) from the bits (subnormals scaled by 2**52); the top 7
 *   mantissa bits of bits(z) - bits(0.701) pick one of 128 sub-intervals, with invc ~ 1/c rounded
 *   to 8 bits (packed in the low bits of logc's lo part) and logc = -log(invc) as hi + lo (tables
 *   generated with mpmath by tools/gen_vmath_pow_tables.py into vmath_pow_tables.h). Then
 *   r = z invc - 1 is exactly a double (|r| < 2**-7.4, a multiple of 2**-60): one fma, or without
 *   FMA z split in two exact products. log|x| = k ln2 + logc + r - r**2/2 + r**3 Q(r), Q of
 *   degree 5 (2**-74.7); k ln2hi + logc's hi part is exact (both on the 2**-43 grid), the rest
 *   is summed with Fast2Sum (|k ln2 + logc| >= |r| when not 0) and r**2 exact: relative error
 *   ~2**-68. The sub-interval at 1.0 has invc = 1, logc = 0.
 * - y log|x|: hi = y * l, lo the exact rounding error (fma, or Dekker's product without FMA,
 *   where fma() would be a libm call) plus y * l's lo part.
 * - exp: hi = (128 m + j) ln2/128 + r (Cody-Waite with ln2/128 in two parts, |r| <= ln2/256),
 *   2**(j/128) from a 128-entry table (bits less j << 45, so that one integer add of the rounded
 *   argument's shifted bits puts in 2**m; its rounding error is a second, relative table), e**r - 1
 *   = r + r**2 E(r) with E of degree 4 (2**-76), lo folded into r; 2**m applied in two steps so that
 *   overflow and subnormal results round once (twice, by < 2**-53 relative, in the subnormals).
 * Measured max error 0.502 ulp against mpmath for normal results, 0.73 for subnormal ones
 * (tests/ops/test_vmath_pow.py), within 1 ulp of glibc. Without AVX2 (SSE2-only NUMR_PORTABLE
 * builds, other CPUs) GCC leaves pow's and hypot's loops scalar, slower than libm's, which
 * binary_pow.h and binary_arith.h then call instead.
 * Special cases (C99, as glibc and NumPy): selected after the general result, as in vmath_pow.h;
 * |hi| > 746 is inf or 0 (y = +-inf included).
 *
 * hypot: both scaled by 2**(1023 - E) from the larger's exponent field E (clamped to [1, 2045]),
 * so the larger is in [1, 4), or [2**-52, 1) if subnormal, and neither square overflows nor loses
 * bits that matter; h = sqrt(a*a + b*b), then one Newton step h -= (h*h - a*a - b*b) / (2h) with
 * the squares' rounding errors exact (fma, or Dekker's splits), then scaled back (rounding once,
 * twice in the subnormals). Within 1 ulp of glibc: equal but for subnormal results, where both
 * are within 0.56 ulp of the exact value. hypot(+-inf, NaN) = inf, NaN otherwise; zeros give 0.
 */
#ifndef NUMR_VMATH_F64_POW_H
#define NUMR_VMATH_F64_POW_H

#include "vmath_f64.h"
#include "vmath_pow.h" /* NR__DEF_POW_SPECIAL */
#include "vmath_pow_tables.h"

/* *hi + *lo = a * b exactly (unless a * b over/underflows; without FMA, |b| < 2**995 and, for
 * |a| > 2**995, *lo is only finite, and 0 if b = 0: pow(-1, 1e308) = 1) */
NR_VMATH void nr__two_prod(double a, double b, double *hi, double *lo) {
    *hi = a * b;
#ifdef __FMA__
    *lo = fma(a, b, -*hi);
#else
    a = fabs(a) > 0x1p995 ? copysign(0x1p995, a) : a;          /* the split must not overflow */
    const double ca = a * 134217729.0, cb = b * 134217729.0;   /* Veltkamp: 2**27 + 1 */
    const double ah = ca - (ca - a), al = a - ah, bh = cb - (cb - b), bl = b - bh;
    *lo = ((ah * bh - *hi) + ah * bl + al * bh) + al * bl;
#endif
}

typedef struct { double hi, lo; } nr_dd;

/* (double)v for |v| < 2**51, by the bits (a vectorised int64 -> double without AVX512DQ) */
#define NR_I64_TO_F64(v) (nr_bits_f64((uint64_t)(v) + 0x4338000000000000ull) - 0x1.8p52)

/* y * log|x| as hi + lo, for finite x != 0 (any value otherwise: the indices stay in range).
 * 64-bit integers throughout: int32 ones made GCC unroll to 16 lanes and shuffle. */
NR_VMATH nr_dd nr__pow_ylogx(double x, double y) {
    const double ax = fabs(x);
    const uint64_t sub = 0u - (uint64_t)(ax < 2.2250738585072014e-308);   /* all ones if subnormal */
    const uint64_t ix = nr_f64_bits(ax * nr_bits_f64(0x3ff0000000000000ull + (sub & (52ull << 52))));
    const uint64_t tmp = ix - NR_POW_OFF;
    const uint64_t i = (tmp >> 45) & 127u;
    const double kd = NR_I64_TO_F64(((int64_t)tmp >> 52) - (int64_t)(sub & 52u));
    const double z = nr_bits_f64(ix - (tmp & 0xfff0000000000000ull));
    const double lch = nr_pow_logc_hi[i], lcl = nr_pow_logc_lo[i];
    const double invc = nr_bits_f64(0x3ff0000000000000ull ^ ((nr_f64_bits(lcl) & 0xfffu) << 41));
#ifdef __FMA__
    const double r = fma(z, invc, -1.0);                                    /* exact */
#else
    const double zh = nr_bits_f64(nr_f64_bits(z) & 0xffffffffffe00000ull), zl = z - zh;
    const double r = (zh * invc - 1.0) + zl * invc;                        /* each part exact */
#endif
    double r2, r2l;
    nr__two_prod(r, r, &r2, &r2l);
    const double t1 = kd * NR_POW_LN2_HI + lch;                            /* exact */
    const double t2 = t1 + r, e2 = (t1 - t2) + r;                          /* Fast2Sum */
    const double h = -0.5 * r2, t3 = t2 + h, e3 = (t2 - t3) + h;
    const double *c = nr_pow_log1p_poly;
    const double q = (c[0] + r * c[1]) + r2 * ((c[2] + r * c[3]) + r2 * (c[4] + r * c[5]));
    const double lo = (r2 * r) * q + ((e2 + e3) + (kd * NR_POW_LN2_LO + lcl) - 0.5 * r2l);
    const double l = t3 + lo, ll = (t3 - l) + lo;
    nr_dd t;
    nr__two_prod(y, l, &t.hi, &t.lo);
    t.lo += y * ll;
    return t;
}

/* e**(hi + lo): 0 below -746, inf above 746 (and for +-inf); a NaN hi gives any value */
NR_VMATH double nr__pow_exp(double hi, double lo) {
    const double sh = hi * NR_POW_INVLN2N + 0x1.8p52;          /* rounds to an integer kn */
    const double kd = sh - 0x1.8p52;
    const double r = (hi - kd * NR_POW_LN2N_HI) - kd * NR_POW_LN2N_LO + lo;
    const uint64_t sb = nr_f64_bits(sh);                       /* low bits: kn = 128 m + j */
    const uint64_t j = sb & 127u;
    const int64_t m = (int64_t)(sb - 0x4338000000000000ull) >> 7, m2 = m >> 1;
    const double s1 = nr_bits_f64(nr_pow_exp[j] + (sb << 45) - ((uint64_t)m2 << 52)); /* 2**(j/128 + m - m2) */
    const double tl = nr_pow_exp_lo[j];
    const double *c = nr_pow_exp_poly;
    const double r2 = r * r;
    const double p = (c[0] + r * c[1]) + r2 * ((c[2] + r * c[3]) + r2 * c[4]);
    const double q = (tl + tl * r) + (r + r2 * p);             /* 2**(j/128) e**r = s (1 + q) */
    const double y = (s1 + s1 * q) * nr_bits_f64((uint64_t)(1023 + m2) << 52);
    return nr_sel_f64(fabs(hi) > 746.0, hi > 0.0 ? INFINITY : 0.0, y);
}

/* 1 where pow(x, y) needs none of C99's special cases: x > 0 finite, y finite */
#define NR_POW_PLAIN(x, y) (((x) > 0.0) & ((x) < INFINITY) & (fabs(y) < INFINITY))

NR__DEF_POW_SPECIAL(nr__pow_special, double, uint64_t, nr_sel_f64, nr_f64_bits, nr_bits_f64, rint, fabs)

NR_VMATH double nr_pow(double x, double y) {
    const nr_dd t = nr__pow_ylogx(x, y);
    return nr__pow_special(x, y, nr__pow_exp(t.hi, t.lo));
}

NR_VMATH double nr_hypot(double x, double y) {
    const double ax = fabs(x), ay = fabs(y);
    const double big = ax > ay ? ax : ay, small = ax > ay ? ay : ax;
    int64_t e = (int64_t)(nr_f64_bits(big) >> 52);                        /* clamped to [1, 2045] */
    e = e < 1 ? 1 : e;
    e = e > 2045 ? 2045 : e;
    const double scale = nr_bits_f64((uint64_t)(2046 - e) << 52);         /* 2**(1023 - e) */
    const double a = big * scale, b = small * scale;
    double aa, al, bb, bl, hh, hl;
    nr__two_prod(a, a, &aa, &al);
    nr__two_prod(b, b, &bb, &bl);
    const double h = sqrt(aa + bb);
    nr__two_prod(h, h, &hh, &hl);
    const double d = ((hh - aa) - bb) + ((hl - al) - bl);                  /* h*h - a*a - b*b */
    const double res = (h - d / (h > 0.0 ? h + h : 1.0)) * nr_bits_f64((uint64_t)e << 52);   /* 2**(e-1023) */
    const double special = (ax == INFINITY) | (ay == INFINITY) ? INFINITY : NAN;
    return nr_sel_f64((ax == INFINITY) | (ay == INFINITY) | (x != x) | (y != y), special, res);
}

#endif
