/* Branch-free float32 sin, cos, tan, sinh, cosh and tanh that GCC vectorises (see vmath.h).
 *
 * sin/cos/tan: the argument is reduced by pi/2 in double (FreeBSD's 25+53-bit
 * split, exact for |x| < 2**28 * pi/2) and the FreeBSD k_sinf/k_cosf double
 * polynomials are evaluated, so results are correctly rounded but for rare
 * ties. Larger |x| (and inf) are recomputed by the caller with libm
 * (NR_TRIG_BIG). tan is sin/cos of the reduced argument, divided in double.
 * sinh/cosh: (e - 1/e)/2 and (e + 1/e)/2 with e = e**|x| in double (no overflow
 * before the float result overflows), sinh by its series below 0.03.
 * tanh: an odd polynomial below 0.625, 1 - 2/(e**2x + 1) above.
 */
#ifndef NUMR_VMATH_TRIG_H
#define NUMR_VMATH_TRIG_H

#include "vmath_f64.h"

#define NR_TRIG_BIG 4.2e8f /* |x| above this (or inf): use libm sinf/cosf */

NR_VMATH double nr_ksin(double x) {
    const double S1 = -0.166666666416265235595, S2 = 0.0083333293858894631756,
                 S3 = -0.000198393348360966317347, S4 = 0.0000027183114939898219064;
    const double z = x * x, w = z * z, r = S3 + z * S4, s = z * x;
    return (x + s * (S1 + z * S2)) + s * w * r;
}

NR_VMATH double nr_kcos(double x) {
    const double C0 = -0.499999997251031003120, C1 = 0.0416666233237390631894,
                 C2 = -0.00138867637746099294692, C3 = 0.0000243904487962774090654;
    const double z = x * x, w = z * z, r = C2 + z * C3;
    return ((1.0 + z * C0) + w * C1) + (w * z) * r;
}

/* r = x - j*pi/2 and the quadrant j mod 4 as a double (x finite and |x| <
 * NR_TRIG_BIG). Integer quadrant arithmetic would be narrowed by GCC's
 * vectoriser to types it then cannot vectorise; doubles keep it vectorised. */
NR_VMATH double nr_rem_pio2(float xf, double *quadrant) {
    const double x = (double)nr_sel_f32(fabsf(xf) < NR_TRIG_BIG, xf, 0.0f);
    const double j = rint(x * 6.36619772367581382433e-01);
    *quadrant = j - 4.0 * rint(j * 0.25 - 0.375); /* floor(j/4): GCC 12 vectorises rint, not floor */
    return (x - j * 1.57079631090164184570e+00) - j * 1.58932547735281966916e-08;
}

NR_VMATH float nr_sinf(float x) {
    double q;
    const double r = nr_rem_pio2(x, &q);
    const double s = nr_ksin(r), c = nr_kcos(r);
    const double y0 = nr_sel_f64((q == 1.0) | (q == 3.0), c, s);
    const double y = nr_sel_f64(q >= 2.0, -y0, y0);
    const float yf = (float)y;
    return nr_sel_f32(NR_ISNAN(x) | NR_ISZERO_F32(x), x, yf); /* NaN, and the sign of zero */
}

NR_VMATH float nr_cosf(float x) {
    double q;
    const double r = nr_rem_pio2(x, &q);
    const double s = nr_ksin(r), c = nr_kcos(r);
    const double y0 = nr_sel_f64((q == 1.0) | (q == 3.0), s, c);
    const double y = nr_sel_f64((q == 1.0) | (q == 2.0), -y0, y0);
    const float yf = (float)y;
    return nr_sel_f32(NR_ISNAN(x), x, yf);
}

NR_VMATH float nr_tanf(float x) {
    double q;
    const double r = nr_rem_pio2(x, &q);
    const double s = nr_ksin(r), c = nr_kcos(r);
    const int odd = (q == 1.0) | (q == 3.0);                 /* tan = -cos/sin there */
    const float yf = (float)(nr_sel_f64(odd, -c, s) / nr_sel_f64(odd, s, c));
    return nr_sel_f32(NR_ISNAN(x) | NR_ISZERO_F32(x), x, yf); /* NaN, and the sign of zero */
}

NR_VMATH float nr_sinhf(float x) {
    const double d = x, e = nr_exp(fabs(d)), z = d * d;
    const double big = copysign(0.5 * (e - 1.0 / e), d);
    const double small = d + d * z * (1.0 / 6.0 + z * (1.0 / 120.0)); /* next term x**7/5040 */
    return (float)nr_sel_f64(fabs(d) < 0.03, small, big);
}

NR_VMATH float nr_coshf(float x) {
    const double e = nr_exp(fabs((double)x));
    return (float)(0.5 * (e + 1.0 / e));
}

/* tanh without overflow: |x| >= 9.5 gives +-1 exactly. */
NR_VMATH float nr_tanhf(float x) {
    const float ax = fabsf(x);
    const float z = x * x;
    float p = -5.70498872745E-3f;
    p = p * z + 2.06390887954E-2f;
    p = p * z - 5.37397155531E-2f;
    p = p * z + 1.33314422036E-1f;
    p = p * z - 3.33332819422E-1f;
    const float small = p * z * x + x;
    const float ac = nr_sel_f32(ax > 9.5f, 9.5f, ax); /* (a plain select here stops vectorisation) */
    const float s = nr_expf(ac + ac);
    const float big = copysignf(1.0f - 2.0f / (s + 1.0f), x);
    return nr_sel_f32(ax < 0.625f, nr_sel_f32(NR_ISZERO_F32(x), x, small), big);
}

#endif
