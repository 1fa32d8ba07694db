/* Branch-free float32 atan2, atan, asin and acos that GCC vectorises (see vmath.h).
 *
 * One core, nr_atan2f: t = min(|x|, |y|) / max(|x|, |y|) in [0, 1], folded once more
 * above tan(pi/8) by atan(t) = pi/4 + atan((t - 1) / (t + 1)) (one division either way),
 * then Cephes atanf's odd polynomial, all in double; the octant and the signs are put
 * back with selects, which also give C99's results for zeros and infinities.
 * atan(x) = atan2(x, 1), asin(x) = atan2(x, sqrt((1 - x)(1 + x))),
 * acos(x) = 2 atan2(sqrt(1 - x), sqrt(1 + x)) (no cancellation near +-1).
 */
#ifndef NUMR_VMATH_ATAN_H
#define NUMR_VMATH_ATAN_H

#include "vmath.h"

/* atan2 in double (float inputs): the polynomial's own error is 0.34 ulp of float, and
 * double arithmetic keeps the rest below float rounding. */
NR_VMATH double nr__atan2_d(double y, double x) {
    const double ax = fabs(x), ay = fabs(y);
    const int swap = ay > ax;
    const int both_inf = (ax == INFINITY) & (ay == INFINITY);   /* the ratio would be NaN */
    double num = swap ? ax : ay, den = swap ? ay : ax;
    num = both_inf ? 1.0 : num;
    den = both_inf | (den == 0.0) ? 1.0 : den;                  /* 0/0: atan2(+-0, +-0) */
    const int fold = num > 0.41421356237309504880 * den;        /* t > tan(pi/8) */
    const double t = (fold ? num - den : num) / (fold ? num + den : den);
    const double z = t * t;
    const double p = (((8.05374449538e-2 * z - 1.38776856032e-1) * z + 1.99777106478e-1) * z
                      - 3.33329491539e-1) * z * t + t;
    double a = (fold ? 0.78539816339744830962 : 0.0) + p;
    a = swap ? 1.57079632679489661923 - a : a;
    a = copysign(1.0, x) < 0.0 ? 3.14159265358979323846 - a : a; /* signbit, but vectorised */
    return copysign(a, y);
}

NR_VMATH float nr_atan2f(float y, float x) { return (float)nr__atan2_d(y, x); }

NR_VMATH float nr_atanf(float x) { return (float)nr__atan2_d(x, 1.0); }

NR_VMATH float nr_asinf(float x) {
    const double d = x;
    return (float)nr__atan2_d(d, sqrt((1.0 - d) * (1.0 + d)));
}

NR_VMATH float nr_acosf(float x) {
    const double d = x;
    return (float)(2.0 * nr__atan2_d(sqrt(1.0 - d), sqrt(1.0 + d)));
}

#endif
