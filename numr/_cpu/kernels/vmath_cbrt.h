/* Branch-free cube root for float32 and float64 that GCC vectorises (see vmath.h).
 *
 * Both start from Kahan's bit trick on the high 32 bits of a double (the exponent divided
 * by 3 through an integer division, which vectorises as a multiply; ~5 correct bits).
 * float32: in double, two Halley steps y * (y^3 + 2a) / (2y^3 + a) (5 -> 15 -> 45 bits),
 * then one rounding to float: correctly rounded (all 2**32 inputs checked against NumPy's
 * float64 cbrt rounded to float32); float32 subnormals are normal doubles, need no scaling.
 * float64 (FreeBSD s_cbrt.c): a polynomial step to 23 bits, rounded away from zero to 22
 * bits so that t*t is exact, then one Newton step in the form t + t(x/t^2 - t)/(2t + x/t^2):
 * < 0.667 ulp. Subnormal inputs take the first guess from x * 2**54 (FreeBSD's B2 constant).
 * +-0, +-inf and NaN are passed through; the sign of x is put back by copysign.
 */
#ifndef NUMR_VMATH_CBRT_H
#define NUMR_VMATH_CBRT_H

#include "vmath.h"

#define NR_CBRT_B1 715094163u /* (1023 - 1023/3 - 0.03306235651) * 2**20 */
#define NR_CBRT_B2 696219795u /* (1023 - 1023/3 - 54/3 - 0.03306235651) * 2**20 */

/* ~5-bit guess of cbrt(a) for a > 0 from a's high word (hi_of: the high word the division
 * reads, b: the constant matching its scale). */
NR_VMATH double nr__cbrt_guess(double hi_of, uint32_t b) {
    const uint32_t hi = (uint32_t)(nr_f64_bits(hi_of) >> 32);
    return nr_bits_f64((uint64_t)(hi / 3u + b) << 32);
}

NR_VMATH float nr_cbrtf(float xf) {
    const double a = fabs((double)xf);
    double y = nr__cbrt_guess(a, NR_CBRT_B1), y3 = y * y * y;
    y = y * (y3 + 2.0 * a) / (2.0 * y3 + a);
    y3 = y * y * y;
    y = y * (y3 + 2.0 * a) / (2.0 * y3 + a);
    const float r = copysignf((float)y, xf);
    return nr_sel_f32(NR_ISZERO_F32(xf) | !(fabsf(xf) < INFINITY), xf, r); /* 0, inf, NaN */
}

NR_VMATH double nr_cbrt(double x) {
    const double a = fabs(x);
    const int sub = a < 2.2250738585072014e-308;
    double t = nr__cbrt_guess(a * nr_sel_f64(sub, 0x1p54, 1.0), sub ? NR_CBRT_B2 : NR_CBRT_B1);
    double r = (t * t) * (t / a);                               /* t^3 / a, ~1 */
    t = t * ((1.87595182427177009643 + r * (-1.88497979543377169875 + r * 1.621429720105354466140)) +
             ((r * r) * r) * (-0.758397934778766047437 + r * 0.145996192886612446982));
    t = nr_bits_f64((nr_f64_bits(t) + 0x80000000ull) & 0xffffffffc0000000ull);
    const double s = t * t;                                     /* exact */
    r = a / s;
    r = (r - t) / ((t + t) + r);
    t = t + t * r;
    return nr_sel_f64((a == 0.0) | !(a < INFINITY), x, copysign(t, x)); /* 0, inf, NaN */
}

#endif
