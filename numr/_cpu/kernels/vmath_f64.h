/* Branch-free float64 exp, exp2, log, log2, log10 and tanh that GCC vectorises (see vmath.h
 * for why: glibc's are scalar calls, 3-9x slower in element-wise loops).
 *
 * exp: Cody-Waite reduction by ln2 (fdlibm's split: n*hi is exact), a degree-13
 * Taylor polynomial on |r| <= ln2/2 (truncation < 1e-17 relative), and 2**n
 * applied in two steps so that subnormal results round once.
 * exp2: n = rint(x), r = x - n exact, e**(r ln2) with r ln2 in two parts, same polynomial and
 * scaling; integer x exact, overflow at 1024, 0 at and below -1075.
 * log: fdlibm's e_log.c polynomial in s = f/(2+f), subnormals scaled by 2**54. Its reduction
 * (nr__log_parts_d) is the one copy of it: log and (through nr__log_core) log1p, asinh, acosh,
 * atanh (vmath_hyp.h) use it, and log2/log10 with FreeBSD's e_log2.c/e_log10.c
 * extra-precision sum, so log2(2**k) = k and log10(10**n) = n exactly. The exp polynomial
 * (nr__exp_taylor_d) also serves expm1.
 * tanh: Cephes' rational below 0.625, through exp above.
 * exp and log stay within 1 ulp of glibc (tests/ops/test_unary.py); exp2, log2, log10 below
 * 1 ulp of the exact result (mpmath, measured max 0.80, 0.64, 0.57; within 1 ulp of glibc,
 * 2 for log10 whose glibc version is itself 1.5 ulp off: tests/ops/test_vmath_f64_log.py).
 * NaN/inf/0/negative inputs are selected explicitly, with C99's results.
 */
#ifndef NUMR_VMATH_F64_H
#define NUMR_VMATH_F64_H

#include <math.h>
#include <stdint.h>
#include "vmath.h"

#define NR_LN2_HI_D 6.93147180369123816490e-01
#define NR_LN2_LO_D 1.90821492927058770002e-10

NR_VMATH double nr_pow2i_f64(int64_t n) { return nr_bits_f64((uint64_t)(n + 1023) << 52); }

/* (e**r - 1 - r) / r**2 for |r| <= ln2/2: the degree-13 Taylor polynomial (truncation
 * < 1e-17 relative). Shared by exp and expm1. */
NR_VMATH double nr__exp_taylor_d(double r) {
    double p = 1.0 / 6227020800.0; /* 1/13! */
    p = p * r + 1.0 / 479001600.0;
    p = p * r + 1.0 / 39916800.0;
    p = p * r + 1.0 / 3628800.0;
    p = p * r + 1.0 / 362880.0;
    p = p * r + 1.0 / 40320.0;
    p = p * r + 1.0 / 5040.0;
    p = p * r + 1.0 / 720.0;
    p = p * r + 1.0 / 120.0;
    p = p * r + 1.0 / 24.0;
    p = p * r + 1.0 / 6.0;
    return p * r + 0.5;
}

NR_VMATH double nr_exp(double x) {
    const int nan = x != x;
    double xc = nr_sel_f64(nan, 0.0, x);
    xc = nr_sel_f64(xc > 710.0, 710.0, xc);
    xc = nr_sel_f64(xc < -746.0, -746.0, xc);
    const double fn = rint(xc * 1.44269504088896338700e+00); /* in [-1077, 1025] */
    const double r = (xc - fn * NR_LN2_HI_D) - fn * NR_LN2_LO_D;
    const double p = nr__exp_taylor_d(r);
    const double e = 1.0 + (r + r * r * p);
    const int64_t n = (int64_t)fn;
    const int64_t n1 = n >> 1, n2 = n - n1;                 /* each in [-539, 513] */
    const double y = (e * nr_pow2i_f64(n1)) * nr_pow2i_f64(n2);
    return nr_sel_f64(nan, x, y);
}

/* 2**x: n = rint(x) and r = x - n (exact, |r| <= 1/2), then e**(r ln2) with r ln2 = t + c
 * carried in two parts (r's high 26 bits times ln2's high 27 bits is exact; no fma(), a libm
 * call without hardware FMA), 2**n applied as in nr_exp. Integer x gives 2**x exactly; x >= 1024
 * overflows to inf, x <= -1075 rounds to 0, NaN passes. */
NR_VMATH double nr_exp2(double x) {
    const int nan = x != x;
    double xc = nr_sel_f64(nan, 0.0, x);
    xc = nr_sel_f64(xc > 1025.0, 1025.0, xc);
    xc = nr_sel_f64(xc < -1076.0, -1076.0, xc);
    const double fn = rint(xc), r = xc - fn;
    const double rh = nr_bits_f64(nr_f64_bits(r) & 0xfffffffff8000000ull);
    const double th = rh * 0x1.62e42fcp-1, tl = (r - rh) * 0x1.62e42fcp-1 + r * 5.5459262969660605e-09;
    const double t = th + tl, c = (th - t) + tl;                 /* Fast2Sum: |tl| < 2**-25 |th| */
    const double e = 1.0 + (t + (t * t * nr__exp_taylor_d(t) + c));
    const int64_t n = (int64_t)fn;
    const int64_t n1 = n >> 1, n2 = n - n1;                      /* each in [-538, 513] */
    const double y = (e * nr_pow2i_f64(n1)) * nr_pow2i_f64(n2);
    return nr_sel_f64(nan, x, y);
}

/* fdlibm's e_log.c reduction of a normal finite u > 0: u = 2**k (1 + f), 1 + f in
 * [sqrt(1/2), sqrt(2)), and log(1 + f) = f - hfsq + sr with hfsq = f*f/2 and sr = s*(hfsq + R),
 * R its polynomial in s = f/(2 + f). k is built by an int64 -> double conversion (vectorised;
 * a uint64 one is not). The one copy of the polynomial: log, log2, log10, log1p, asinh, acosh,
 * atanh all start here. */
typedef struct { double k, f, hfsq, sr; } nr_logparts_d;

NR_VMATH nr_logparts_d nr__log_parts_d(double u) {
    const uint64_t b = nr_f64_bits(u);
    double m = nr_bits_f64((b & 0x000fffffffffffffull) | 0x3fe0000000000000ull); /* [0.5, 1) */
    const uint64_t hi = m < 0.70710678118654752440;
    m = m * nr_bits_f64(0x3ff0000000000000ull + (hi << 52));                    /* [sqrt(1/2), sqrt(2)) */
    nr_logparts_d p;
    p.k = (double)((int64_t)((b >> 52) & 0x7ff) - 1022 - (int64_t)hi);
    p.f = m - 1.0;
    const double s = p.f / (2.0 + p.f), z = s * s, w = z * z;
    const double t1 = w * (3.999999999940941908e-01 + w * (2.222219843214978396e-01 + w * 1.531383769920937332e-01));
    const double t2 = z * (6.666666666666735130e-01 + w * (2.857142874366239149e-01 +
                      w * (1.818357216161805012e-01 + w * 1.479819860511658591e-01)));
    p.hfsq = 0.5 * p.f * p.f;
    p.sr = s * (p.hfsq + (t2 + t1));
    return p;
}

/* log(u) + kadd * ln2 + lo for a normal finite u > 0 (lo: a low-order correction, as log1p's
 * c/u). Shared by log, log1p, asinh, acosh, atanh. */
NR_VMATH double nr__log_core(double u, double lo, double kadd) {
    const nr_logparts_d p = nr__log_parts_d(u);
    const double k = p.k + kadd;
    return k * NR_LN2_HI_D - ((p.hfsq - (p.sr + (k * NR_LN2_LO_D + lo))) - p.f);
}

/* x, subnormals scaled by 2**54 into the normal range (*kadd = -54 then): the input of the
 * core for log, log2, log10 */
NR_VMATH double nr__log_normal(double x, double *kadd) {
    const uint64_t sub = x < 2.2250738585072014e-308;
    *kadd = nr_sel_f64((int)sub, -54.0, 0.0);
    return x * nr_bits_f64(0x3ff0000000000000ull + sub * (54ull << 52)); /* * 2**54 */
}

/* C99's results of log, log2, log10 for 0 (-inf), inf, x < 0 (NaN) and NaN; else r */
NR_VMATH double nr__log_special_d(double x, double r) {
    const double special = x == 0.0 ? -INFINITY : (x == INFINITY ? INFINITY : NAN);
    return nr_sel_f64((x == INFINITY) | (x == 0.0) | (x < 0.0) | (x != x), special, r);
}

NR_VMATH double nr_log(double x) {
    double kadd;
    const double xs = nr__log_normal(x, &kadd);
    return nr__log_special_d(x, nr__log_core(xs, 0.0, kadd));
}

/* FreeBSD's e_log2.c / e_log10.c: log(1 + f) = hi + lo with hi = f - hfsq cut to its high 21
 * bits, so that hi times the high part of 1/ln2 (1/ln10) is exact, and k (k log10(2)) added
 * exactly (Fast2Sum) before the low parts: log2(2**k) = k, log10(10**n) = n (n = 0..22). */
NR_VMATH void nr__log_hilo(const nr_logparts_d *p, double *hi, double *lo) {
    *hi = nr_bits_f64(nr_f64_bits(p->f - p->hfsq) & 0xffffffff00000000ull);
    *lo = ((p->f - *hi) - p->hfsq) + p->sr;
}

NR_VMATH double nr_log2(double x) {
    double kadd, hi, lo;
    const nr_logparts_d p = nr__log_parts_d(nr__log_normal(x, &kadd));
    nr__log_hilo(&p, &hi, &lo);
    const double k = p.k + kadd;
    const double vhi = hi * 1.44269504072144627571e+00;                 /* 1/ln2, high 32 bits */
    const double vlo = (lo + hi) * 1.67517131648865118353e-10 + lo * 1.44269504072144627571e+00;
    const double w = k + vhi;
    return nr__log_special_d(x, (vlo + ((k - w) + vhi)) + w);
}

NR_VMATH double nr_log10(double x) {
    double kadd, hi, lo;
    const nr_logparts_d p = nr__log_parts_d(nr__log_normal(x, &kadd));
    nr__log_hilo(&p, &hi, &lo);
    const double k = p.k + kadd;
    const double vhi = hi * 4.34294481878168880939e-01;                 /* 1/ln10, high 32 bits */
    const double y2 = k * 3.01029995663611771306e-01;                   /* log10(2), high 40 bits */
    const double vlo = k * 3.69423907715893078616e-13 + (lo + hi) * 2.50829467116452752298e-11 +
                       lo * 4.34294481878168880939e-01;
    const double w = y2 + vhi;
    return nr__log_special_d(x, (vlo + ((y2 - w) + vhi)) + w);
}

/* tanh (Cephes): below 0.625 x + x^3 P(x^2)/Q(x^2), above 1 - 2/(e^2|x| + 1) with the sign
 * put back (e^2|x| is clamped, so tanh(+-inf) = +-1); signed zeros and NaN pass through. */
NR_VMATH double nr_tanh(double x) {
    const double ax = fabs(x), z = x * x;
    const double p = (-9.64399179425052238628E-1 * z - 9.92877231001918586564E1) * z - 1.61468768441708447952E3;
    const double q = ((z + 1.12811678491632931402E2) * z + 2.23548839060100448583E3) * z + 4.84406305325125486048E3;
    const double small = x + x * z * (p / q);
    const double s = nr_exp(2.0 * (ax > 40.0 ? 40.0 : ax));
    const double big = copysign(1.0 - 2.0 / (s + 1.0), x);
    return nr_sel_f64((x != x) | (x == 0.0), x, nr_sel_f64(ax < 0.625, small, big));
}

#endif
