/* Branch-free asinh, acosh, atanh (float32 and float64) and float64 expm1, log1p that GCC
 * vectorises (see vmath.h for why selects, not branches). cbrt is in vmath_cbrt.h.
 *
 * float64 follows fdlibm, every case computed and the result selected:
 * - log1p (s_log1p.c): u = 1 + x and its exact rounding error c (Fast2Sum), then fdlibm's
 *   log polynomial (nr__log_core, shared with nr_log) on u with c/u added to the low part. That core,
 *   nr__log_uc, is also the single log of asinh, acosh and atanh, whichever formula the
 *   range needs feeding it (an argument of log, of log1p, or |x| with k + 1 for huge x,
 *   so x*x never overflows), and the roundings of the log1p argument are carried in c.
 * - asinh (s_asinh.c): |x| > 2**28 log|x| + ln2; > 2 log(2|x| + 1/(sqrt(x*x+1) + |x|));
 *   else log1p(|x| + x*x/(1 + sqrt(1 + x*x))); < 2**-28 x. Sign put back.
 * - acosh (e_acosh.c): x > 2**28 log x + ln2; > 2 log(2x - 1/(x + sqrt(x*x-1)));
 *   else log1p(t + sqrt(2t + t*t)), t = x - 1, the sqrt's error added back; x < 1 NaN.
 * - atanh (e_atanh.c): 0.5 log1p(2|x| + 2|x| q) below 0.5, 0.5 log1p(2q) above, with
 *   q = |x|/(1 - |x|); +-1 gives +-inf, |x| > 1 NaN, < 2**-28 x.
 * - expm1: k = rint(x/ln2), x - k ln2 = r + c (fdlibm's hi/lo split), expm1(r) by its
 *   degree-13 Taylor polynomial (as nr_exp; no division), then (2**k - 1) + 2**k r summed
 *   exactly plus the small rest; k > 53: 2**k (1 + r) in two parts, minus 1.
 * All within 1 ulp of NumPy's float64 in tests/ops/test_vmath_hyp.py; against mpmath the
 * largest errors seen are 1.09 ulp (asinh), < 1 for the others.
 * float32 is computed in double with nr_log (error ~2e-15 relative at worst), so the results
 * are correctly rounded: checked on all 2**32 inputs against NumPy's float64 rounded to
 * float32, no difference for any of the three (nor cbrt). asinh = log(|x| + sqrt(x*x + 1)),
 * acosh = log(x + sqrt((x-1)(x+1))), atanh = 0.5 log((1+x)/(1-x)), and below 2**-4 the
 * odd series (x*(1 + ...), which keeps -0 and subnormals). float16/bfloat16 use these.
 * Signed zeros, NaN, +-inf and out-of-domain inputs give C99's results.
 */
#ifndef NUMR_VMATH_HYP_H
#define NUMR_VMATH_HYP_H

#include "vmath_f64.h"

/* log(u + c) + kadd * ln2 for a normal finite u > 0 and |c| << u: vmath_f64's log core with
 * c/u added to its low part. Specials are the callers' (selects). */
NR_VMATH double nr__log_uc(double u, double c, double kadd) { return nr__log_core(u, c / u, kadd); }

/* The rounding error of u = 1 + v, exact (Fast2Sum, the larger operand first). */
NR_VMATH double nr__one_plus_err(double v, double u) {
    return nr_sel_f64(fabs(v) < 1.0, v - (u - 1.0), 1.0 - (u - v));
}

NR_VMATH double nr_log1p(double x) {
    const double u = 1.0 + x;
    const double r = nr__log_uc(u, nr__one_plus_err(x, u), 0.0);
    double y = nr_sel_f64(x == INFINITY, INFINITY, r);
    y = nr_sel_f64(x == -1.0, -INFINITY, y);
    y = nr_sel_f64(x < -1.0, NAN, y);
    return nr_sel_f64((fabs(x) < 0x1p-54) | (x != x), x, y); /* zeros, tiny, NaN */
}

NR_VMATH double nr_asinh(double x) {
    const double ax = fabs(x), t = ax * ax, sq = sqrt(1.0 + t);
    const int big = ax > 0x1p28, mid = ax > 2.0;
    const double q = nr_sel_f64(mid, 1.0, t) / nr_sel_f64(mid, sq + ax, 1.0 + sq);
    const double v = ax + q, us = 1.0 + v;                      /* small: log1p(v + ev) */
    const double ev = q - (v - ax);                             /* q <= ax: exact */
    double u = nr_sel_f64(mid, 2.0 * ax + q, us);
    u = nr_sel_f64(big, ax, u);
    const double c = nr_sel_f64(mid, 0.0, nr__one_plus_err(v, us) + ev);
    double r = nr__log_uc(u, c, (double)big);
    r = copysign(nr_sel_f64(ax == INFINITY, INFINITY, r), x);
    return nr_sel_f64((ax < 0x1p-28) | (x != x), x, r);
}

NR_VMATH double nr_acosh(double x) {
    const double t = x - 1.0;
    const int big = x > 0x1p28, mid = x > 2.0;
    const double a = nr_sel_f64(mid, x * x - 1.0, fma(t, t, 2.0 * t)), sq = sqrt(a);
    /* small: sq's error (a's rounding error + a - sq*sq) / (2 sq), mid: 1/(x + sq), one division */
    const double sq_e = fma(-sq, sq, a) + fma(t, t, 2.0 * t - a);
    const double d = nr_sel_f64(mid, 1.0, sq_e) / nr_sel_f64(mid, x + sq, 2.0 * sq + 0x1p-1000); /* x = 1: 0/tiny */
    const double v = t + sq, us = 1.0 + v;                      /* small: log1p(v + ev) */
    const double ev = t - (v - sq) + d;                         /* t <= sq: exact */
    double u = nr_sel_f64(mid, 2.0 * x - d, us);
    u = nr_sel_f64(big, x, u);
    const double c = nr_sel_f64(mid, 0.0, nr__one_plus_err(v, us) + ev);
    double r = nr__log_uc(u, c, (double)big);
    r = nr_sel_f64(x == INFINITY, INFINITY, r);
    r = nr_sel_f64(x < 1.0, NAN, r);
    return nr_sel_f64(x != x, x, r);
}

NR_VMATH double nr_atanh(double x) {
    const double ax = fabs(x), q = ax / (1.0 - ax), w = 2.0 * ax * q;
    const int small = ax < 0.5;
    const double v = nr_sel_f64(small, 2.0 * ax + w, 2.0 * q), u = 1.0 + v;
    const double ev = nr_sel_f64(small, w - (v - 2.0 * ax), 0.0); /* w < 2|x|: exact */
    double r = 0.5 * nr__log_uc(u, nr__one_plus_err(v, u) + ev, 0.0);
    r = nr_sel_f64(ax == 1.0, INFINITY, r);
    r = copysign(nr_sel_f64(ax > 1.0, NAN, r), x);
    return nr_sel_f64((ax < 0x1p-28) | (x != x), x, r);
}

NR_VMATH double nr_expm1(double x) {
    const double xc = nr_sel_f64(x > -40.0, nr_sel_f64(x < 710.0, x, 710.0), -40.0); /* NaN: -40 */
    const double fk = rint(xc * 1.44269504088896338700e+00);                          /* [-58, 1024] */
    const double hi = xc - fk * NR_LN2_HI_D, lo = fk * NR_LN2_LO_D;
    const double r = hi - lo, c = (hi - r) - lo;                 /* x - k ln2 = r + c */
    const double p = nr__exp_taylor_d(r);                        /* expm1(r) = r + r*r*p */
    const double q = r * r * p, em = r + q;
    const double lowp = q + c * (1.0 + em);                      /* expm1(r + c) - r */
    const int64_t k = (int64_t)fk;
    /* k <= 53: (2**k - 1) + 2**k r, summed exactly (Fast2Sum: |2**k - 1| >= |2**k r|), + 2**k lowp */
    const double s = nr_pow2i_f64(k > 53 ? 53 : k), a = s - 1.0, b = s * r;
    const double sum = a + b, small = sum + ((b - (sum - a)) + s * lowp);
    /* k > 53: 2**k (1 + r) exactly as 2**k one_r + 2**k (its rounding error), then the rest
     * and -1 added to the small part; 2**k in two steps (k = 1024) */
    const double one_r = 1.0 + r, p1 = nr_pow2i_f64(k >> 1), p2 = nr_pow2i_f64(k - (k >> 1));
    const double big = (one_r * p1) * p2 + ((((r - (one_r - 1.0)) + lowp) * p1) * p2 - 1.0);
    double y = nr_sel_f64(k > 53, big, small);
    y = nr_sel_f64(x > 7.09782712893383973096e+02, INFINITY, y);
    y = nr_sel_f64(x < -38.9, -1.0, y);
    return nr_sel_f64((fabs(x) < 0x1p-54) | (x != x), x, y);
}

/* ---- float32, in double ---------------------------------------------------------- */
/* below: the odd Taylor series to x^13 (truncation < 1e-18 relative). Above it nr_log's
 * rounding of its argument near 1 costs ~1e-16/|x| relative: 2**-4 keeps that at 2e-15
 * (2**-12 left 78 misrounded float32 asinh near-ties, 2**-5 two, 2**-4 none). */
#define NR_HYP_SERIES_F 0x1p-4

NR_VMATH float nr_asinhf(float xf) {
    const double x = xf, ax = fabs(x), t = x * x;
    const double big = copysign(nr_log(ax + sqrt(t + 1.0)), x);
    const double small = x * (1.0 + t * (-1.0 / 6.0 + t * (3.0 / 40.0 + t * (-5.0 / 112.0 +
                         t * (35.0 / 1152.0 + t * (-63.0 / 2816.0 + t * (231.0 / 13312.0)))))));
    return (float)nr_sel_f64(ax < NR_HYP_SERIES_F, small, big);
}

NR_VMATH float nr_acoshf(float xf) {
    const double x = xf;
    const double r = nr_log(x + sqrt((x - 1.0) * (x + 1.0)));
    return (float)nr_sel_f64(xf < 1.0f, NAN, r);
}

NR_VMATH float nr_atanhf(float xf) {
    const double x = xf, t = x * x;
    const double big = 0.5 * nr_log((1.0 + x) / (1.0 - x));
    const double small = x * (1.0 + t * (1.0 / 3.0 + t * (1.0 / 5.0 + t * (1.0 / 7.0 + t * (1.0 / 9.0 +
                         t * (1.0 / 11.0 + t * (1.0 / 13.0)))))));
    return (float)nr_sel_f64(fabs(x) < NR_HYP_SERIES_F, small, big);
}

#endif
