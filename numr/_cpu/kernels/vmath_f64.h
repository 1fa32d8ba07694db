/* Branch-free float64 exp, log and tanh that GCC vectorises (see vmath.h for why).
 *
 * exp: Cody-Waite reduction by ln2 (fdlibm's split: n*hi is exact), a degree-13
 * Taylor polynomial on |r| <= ln2/2 (truncation < 1e-17 relative), and 2**n
 * applied in two steps so that subnormal results round once.
 * log: fdlibm's e_log.c polynomial in s = f/(2+f), subnormals scaled by 2**54; its core
 * (nr__log_core) also serves log1p, asinh, acosh and atanh (vmath_hyp.h), and the exp
 * polynomial (nr__exp_taylor_d) expm1.
 * tanh: Cephes' rational below 0.625, through exp above.
 * exp and log stay within 1 ulp of the float64 result of glibc (tested in
 * tests/ops/test_unary.py); NaN/inf/0/negative inputs are selected explicitly.
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

/* log(u) + kadd * ln2 + lo for a normal finite u > 0 (lo: a low-order correction, as log1p's
 * c/u): fdlibm's e_log.c polynomial in s = f/(2+f). Shared by log, log1p, asinh, acosh, atanh. */
NR_VMATH double nr__log_core(double u, double lo, double kadd) {
    const uint64_t b = nr_f64_bits(u);
    double m = nr_bits_f64((b & 0x000fffffffffffffull) | 0x3fe0000000000000ull); /* [0.5, 1) */
    const uint64_t hi = m < 0.70710678118654752440;
    m = m * nr_bits_f64(0x3ff0000000000000ull + (hi << 52));                    /* [sqrt(1/2), sqrt(2)) */
    const double k = (double)((int64_t)((b >> 52) & 0x7ff) - 1022 - (int64_t)hi) + kadd;
    const double f = m - 1.0;
    const double s = f / (2.0 + f), z = s * s, w = z * z;
    const double t1 = w * (3.999999999940941908e-01 + w * (2.222219843214978396e-01 + w * 1.531383769920937332e-01));
    const double t2 = z * (6.666666666666735130e-01 + w * (2.857142874366239149e-01 +
                      w * (1.818357216161805012e-01 + w * 1.479819860511658591e-01)));
    const double R = t2 + t1, hfsq = 0.5 * f * f;
    return k * NR_LN2_HI_D - ((hfsq - (s * (hfsq + R) + (k * NR_LN2_LO_D + lo))) - f);
}

NR_VMATH double nr_log(double x) {
    const uint64_t sub = x < 2.2250738585072014e-308;
    const double xs = x * nr_bits_f64(0x3ff0000000000000ull + sub * (54ull << 52)); /* * 2**54 */
    const double r = nr__log_core(xs, 0.0, nr_sel_f64((int)sub, -54.0, 0.0));
    const double special = x == 0.0 ? -INFINITY : (x == INFINITY ? INFINITY : NAN);
    return nr_sel_f64((x == INFINITY) | (x == 0.0) | (x < 0.0) | (x != x), special, r);
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
