/* Branch-free float64 atan, atan2, asin and acos that GCC vectorises (see vmath.h for why).
 *
 * atan: fdlibm s_atan.c. |x| is mapped into [-7/16, 7/16] by one of its five reductions
 * (t = |x|, (2|x| - 1)/(2 + |x|), (|x| - 1)/(|x| + 1), (|x| - 1.5)/(1 + 1.5|x|), -1/|x|),
 * picked by selects of numerator and denominator so that one division serves them all, then
 * atan(x) = atanhi[id] + atanlo[id] + t - t P(t^2) with the sign put back.
 * atan2: fdlibm e_atan2.c on the same core (nr__atan_pq), the reductions written on |y| and |x|
 * so that |y/x| is never rounded, and pi - atan(|y/x|) for x <= -0 with pi's low part and the
 * table's carried (pi_lo corrections); below |y/x| = 7/16 the division's remainder is added.
 * C99's values for every zero (both signs) and infinity, NaN if either is.
 * asin/acos: fdlibm e_asin.c/e_acos.c: the rational R(z) = P(z)/Q(z) for asin(s)/s - 1
 * with z = x^2 below 1/2 and z = (1 - |x|)/2 above (asin(x) = pi/2 - 2 asin(sqrt(z))), the
 * sqrt split in a 26-bit head and its remainder where fdlibm does; each branch of fdlibm is
 * computed and the right one selected.
 * Specials: atan(+-inf) = +-pi/2, asin/acos of |x| > 1 is NaN, NaN passes through, atan and
 * asin keep the sign of zero. Accuracy (tests/ops/test_vmath_f64_trig.py, test_vmath_f64_log.py):
 * below 1 ulp of the exact result (mpmath; measured max 0.73 atan, 0.82 asin, 0.86 acos,
 * 0.79 atan2), within 1 ulp of glibc.
 */
#ifndef NUMR_VMATH_F64_ATAN_H
#define NUMR_VMATH_F64_ATAN_H

#include "vmath_f64.h"

/* atan(p/q) for p, q >= 0 (finite or one of them inf, not both zero or both inf), or with
 * `flip` pi - atan(p/q): fdlibm's reductions written on p and q (a = p/q never rounded), one
 * division. The numerators are exact or rounded once: 2p - q and p - q by Sterbenz on their
 * intervals, p - 1.5q as (p - 2q) + q/2. pi - atan(a) = (pi - hi - lo) + atan(-t), with
 * pi - hi - lo in two parts (Fast2Sum), so atan2's second quadrant keeps atan's accuracy.
 * `rem` (a constant): below 7/16 add the division's remainder (atan2; atan's t = |x| is exact).
 * The callers keep 3 max(p, q) finite and the smaller of p, q normal where it is multiplied
 * (atan: q = 1, flip = rem = 0, where this is fdlibm's s_atan.c). */
/* p - t*q exactly for t = p/q rounded (normal q): fma where the target has it, else Dekker's
 * product on 26/27-bit halves (fma() would be a libm call). */
NR_VMATH double nr__div_rem(double p, double q, double t) {
#ifdef __FMA__
    return __builtin_fma(-t, q, p);
#else
    const double th = nr_bits_f64(nr_f64_bits(t) & 0xfffffffff8000000ull), tl = t - th;
    const double qh = nr_bits_f64(nr_f64_bits(q) & 0xfffffffff8000000ull), ql = q - qh;
    return (((p - th * qh) - th * ql) - tl * qh) - tl * ql;
#endif
}

NR_VMATH double nr__atan_pq(double p, double q, int flip, int rem) {
    const int id0 = p >= 0.4375 * q, id1 = p >= 0.6875 * q, id2 = p >= 1.1875 * q, id3 = p >= 2.4375 * q;
    /* numerator and denominator of the reduced argument, from the last interval down */
    double num = nr_sel_f64(id3, -q, (p - 2.0 * q) + 0.5 * q), den = nr_sel_f64(id3, p, q + 1.5 * p);
    num = nr_sel_f64(id2, num, p - q);
    den = nr_sel_f64(id2, den, p + q);
    num = nr_sel_f64(id1, num, 2.0 * p - q);
    den = nr_sel_f64(id1, den, 2.0 * q + p);
    num = nr_sel_f64(id0, num, p);
    den = nr_sel_f64(id0, den, q);
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
    /* below 7/16 atan(a) ~ a, and a = t + (p - t q)/q matters: with 1/q to 8 bits (a bit trick
     * and one Newton step) it keeps the error below 1 ulp (1.13 without); q = inf: t = 0 */
    double dt = 0.0;
    if (rem) {
        const double r0 = nr_bits_f64(0x7fde623822fc16e6ull - nr_f64_bits(q));
        dt = nr_sel_f64(q == INFINITY, 0.0, nr__div_rem(p, q, t) * (r0 * (2.0 - q * r0)));
    }
    const double small = t - (t * (s1 + s2) - dt);
    const double ph = 3.14159265358979311600e+00 - hi;        /* pi = pi_hi + pi_lo */
    const double pl = ((3.14159265358979311600e+00 - ph) - hi) + (1.22464679914735317720e-16 - lo);
    const double tf = nr_sel_f64(flip, -t, t);
    const double a = nr_sel_f64(flip, ph, hi) - ((tf * (s1 + s2) - nr_sel_f64(flip, pl, lo)) - tf);
    return nr_sel_f64(id0 | flip, a, small);
}

NR_VMATH double nr_atan(double x) { return copysign(nr__atan_pq(fabs(x), 1.0, 0, 0), x); } /* NaN: small */

/* atan2(y, x), fdlibm's e_atan2.c: atan(|y|/|x|) for x >= +0, pi - atan(|y|/|x|) for x <= -0,
 * with the sign of y. Both scaled by a power of two first so the core's sums stay finite and
 * its products exact; 0/0 and inf/inf become 0/1 and 1/1, which give C99's 0, pi, pi/4, 3pi/4. */
NR_VMATH double nr_atan2(double y, double x) {
    const double ax = fabs(x), ay = fabs(y), m = nr_sel_f64(ax > ay, ax, ay);
    const double sc = nr_sel_f64(m >= 0x1p1021, 0.25, nr_sel_f64(m < 0x1p-900, 0x1p200, 1.0));
    const int zz = (ax == 0.0) & (ay == 0.0), ii = (ax == INFINITY) & (ay == INFINITY);
    const double p = nr_sel_f64(ii, 1.0, ay * sc), q = nr_sel_f64(zz | ii, 1.0, ax * sc);
    const double r = copysign(nr__atan_pq(p, q, copysign(1.0, x) < 0.0, 1), y); /* signbit(x) */
    return nr_sel_f64((x != x) | (y != y), x + y, r);
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
