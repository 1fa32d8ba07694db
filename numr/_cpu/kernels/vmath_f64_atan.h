/* Branch-free float64 atan, asin and acos that GCC vectorises (see vmath.h for why).
 *
 * atan: fdlibm s_atan.c. |x| is mapped into [-7/16, 7/16] by one of its five reductions
 * (t = |x|, (2|x| - 1)/(2 + |x|), (|x| - 1)/(|x| + 1), (|x| - 1.5)/(1 + 1.5|x|), -1/|x|),
 * picked by selects of numerator and denominator so that one division serves them all, then
 * atan(x) = atanhi[id] + atanlo[id] + t - t P(t^2) with the sign put back.
 * asin/acos: fdlibm e_asin.c/e_acos.c: the rational R(z) = P(z)/Q(z) for asin(s)/s - 1
 * with z = x^2 below 1/2 and z = (1 - |x|)/2 above (asin(x) = pi/2 - 2 asin(sqrt(z))), the
 * sqrt split in a 26-bit head and its remainder where fdlibm does; each branch of fdlibm is
 * computed and the right one selected.
 * Specials: atan(+-inf) = +-pi/2, asin/acos of |x| > 1 is NaN, NaN passes through, atan and
 * asin keep the sign of zero. Accuracy (tests/ops/test_vmath_f64_trig.py): below 1 ulp of the
 * exact result (mpmath; measured max 0.73 atan, 0.82 asin, 0.86 acos), within 1 ulp of glibc.
 */
#ifndef NUMR_VMATH_F64_ATAN_H
#define NUMR_VMATH_F64_ATAN_H

#include "vmath_f64.h"

NR_VMATH double nr_atan(double x) {
    const double ax = fabs(x);
    const int id0 = ax >= 0.4375, id1 = ax >= 0.6875, id2 = ax >= 1.1875, id3 = ax >= 2.4375;
    /* numerator and denominator of the reduced argument, from the last interval down */
    double num = nr_sel_f64(id3, -1.0, ax - 1.5), den = nr_sel_f64(id3, ax, 1.0 + 1.5 * ax);
    num = nr_sel_f64(id2, num, ax - 1.0);
    den = nr_sel_f64(id2, den, ax + 1.0);
    num = nr_sel_f64(id1, num, 2.0 * ax - 1.0);
    den = nr_sel_f64(id1, den, 2.0 + ax);
    num = nr_sel_f64(id0, num, ax);
    den = nr_sel_f64(id0, den, 1.0);
    const double t = num / den;
    double hi = nr_sel_f64(id3, 1.57079632679489655800e+00, 9.82793723247329054082e-01);
    double lo = nr_sel_f64(id3, 6.12323399573676603587e-17, 1.39033110312309984516e-17);
    hi = nr_sel_f64(id2, hi, 7.85398163397448278999e-01);
    lo = nr_sel_f64(id2, lo, 3.06161699786838301793e-17);
    hi = nr_sel_f64(id1, hi, 4.63647609000806093515e-01);
    lo = nr_sel_f64(id1, lo, 2.26987774529616870924e-17);
    hi = nr_sel_f64(id0, hi, 0.0);
    lo = nr_sel_f64(id0, lo, 0.0);
    const double z = t * t, w = z * z;
    const double s1 = z * (3.33333333333329318027e-01 + w * (1.42857142725034663711e-01 +
                      w * (9.09088713343650656196e-02 + w * (6.66107313738753120669e-02 +
                      w * (4.97687799461593236017e-02 + w * 1.62858201153657823623e-02)))));
    const double s2 = w * (-1.99999999998764832476e-01 + w * (-1.11111104054623557880e-01 +
                      w * (-7.69187620504482999495e-02 + w * (-5.83357013379057348645e-02 +
                      w * -3.65315727442169155270e-02))));
    const double small = t - t * (s1 + s2);
    const double a = hi - ((t * (s1 + s2) - lo) - t);
    return copysign(nr_sel_f64(id0, a, small), x);            /* NaN: id3, -1/NaN */
}

/* asin(s)/s - 1 = R(z) for s = sqrt(z), z in [0, 1/4] (fdlibm's P/Q) */
NR_VMATH double nr__asin_r(double z) {
    const double p = z * (1.66666666666666657415e-01 + z * (-3.25565818622400915405e-01 +
                     z * (2.01212532134862925881e-01 + z * (-4.00555345006794114027e-02 +
                     z * (7.91534994289814532176e-04 + z * 3.47933107596021167570e-05)))));
    const double q = 1.0 + z * (-2.40339491173441421878e+00 + z * (2.02094576023350569471e+00 +
                     z * (-6.88283971605453293030e-01 + z * 7.70381505559019352791e-02)));
    return p / q;
}

#define NR_PIO2_HI_D 1.57079632679489655800e+00
#define NR_PIO2_LO_D 6.12323399573676603587e-17
#define NR_PIO4_HI_D 7.85398163397448278999e-01

NR_VMATH double nr_asin(double x) {
    const double ax = fabs(x);
    const int lt_half = ax < 0.5;
    const double z = nr_sel_f64(lt_half, x * x, (1.0 - ax) * 0.5);
    const double r = nr__asin_r(z), s = sqrt(z);
    const double small = ax + ax * r;
    const double near1 = NR_PIO2_HI_D - (2.0 * (s + s * r) - NR_PIO2_LO_D); /* |x| > 0.975 */
    const double sh = nr_bits_f64(nr_f64_bits(s) & 0xffffffff00000000ull);
    const double c = (z - sh * sh) / nr_sel_f64(s == 0.0, 1.0, s + sh); /* s - sh (s = 0: |x|=1) */
    const double mid = NR_PIO4_HI_D - ((2.0 * s * r - (NR_PIO2_LO_D - 2.0 * c)) -
                                       (NR_PIO4_HI_D - 2.0 * sh));
    double v = nr_sel_f64(ax >= nr_bits_f64(0x3FEF333300000000ull), near1, mid);
    v = copysign(nr_sel_f64(lt_half, small, v), x);
    return nr_sel_f64(ax > 1.0, NAN, v);                       /* NaN stays NaN through z */
}

NR_VMATH double nr_acos(double x) {
    const double ax = fabs(x);
    const int lt_half = ax < 0.5;
    const double z = nr_sel_f64(lt_half, x * x, (1.0 - ax) * 0.5);
    const double r = nr__asin_r(z), s = sqrt(z);
    const double small = NR_PIO2_HI_D - (x - (NR_PIO2_LO_D - x * r));
    const double neg = 3.14159265358979311600e+00 - 2.0 * (s + (r * s - NR_PIO2_LO_D));
    const double sh = nr_bits_f64(nr_f64_bits(s) & 0xffffffff00000000ull);
    const double c = (z - sh * sh) / nr_sel_f64(s == 0.0, 1.0, s + sh); /* s - sh (s = 0: |x|=1) */
    const double pos = 2.0 * (sh + (r * s + c));
    const double v = nr_sel_f64(lt_half, small, nr_sel_f64(x < 0.0, neg, pos));
    return nr_sel_f64(ax > 1.0, NAN, v);
}

#endif
