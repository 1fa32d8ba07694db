/* Branch-free float32 pow and hypot that GCC vectorises (see vmath.h), both computed in
 * double, where float inputs leave no rounding that matters.
 *
 * pow: exp(y * log|x|) with vmath_f64's exp and log (error ~1e-14 relative, so the float
 * result is correctly rounded but for rare near-ties, and exact integer powers come out
 * exact), then C99's cases selected: a negative base with an odd integer exponent negates
 * (-0 included), with a non-integer exponent gives NaN; pow(x, +-0) = 1 and pow(1, y) = 1
 * even for NaN; pow(-1, +-inf) = 1. Zeros and infinities need no select: log and exp
 * already give +-inf and 0 there.
 * hypot: sqrt(x*x + y*y) (x*x is exact in double), inf if either is inf, even with NaN.
 */
#ifndef NUMR_VMATH_POW_H
#define NUMR_VMATH_POW_H

#include "vmath_f64.h"

NR_VMATH float nr_powf(float xf, float yf) {
    const double x = xf, y = yf;
    double r = nr_exp(y * nr_log(fabs(x)));
    const int y_int = rint(y) == y;                      /* +-inf counts as even */
    const int y_odd = y_int & (rint(0.5 * y) != 0.5 * y);
    r = nr_sel_f64(y_odd & (signbit(xf) != 0), -r, r);
    r = nr_sel_f64((xf < 0.0f) & (xf > -INFINITY) & !y_int, NAN, r);
    r = nr_sel_f64((yf == 0.0f) | (xf == 1.0f) | ((xf == -1.0f) & (fabs(y) == INFINITY)), 1.0, r);
    return (float)r;
}

NR_VMATH float nr_hypotf(float xf, float yf) {
    const double x = xf, y = yf;
    const float r = (float)sqrt(x * x + y * y);
    return nr_sel_f32((fabsf(xf) == INFINITY) | (fabsf(yf) == INFINITY), INFINITY, r);
}

#endif
