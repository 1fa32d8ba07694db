/* Branch-free float64 erfc and erf that GCC vectorises (see vmath.h), for the float64 GELU and
 * the CPU's erf (float32 computed in double).
 *
 * fdlibm's s_erf.c with every interval computed and the result selected:
 *   |x| < 0.84375          erfc = 1 - (x + x*r/s) (x < 1/4), else 1/2 - (x*r/s + (x - 1/2))
 *   0.84375 <= |x| < 1.25  erfc = (1 - erx) - P/Q (x > 0), 1 + (erx + P/Q) (x < 0), s = |x| - 1
 *   1.25 <= |x| < 28       erfc = exp(-z*z - 0.5625) exp((z - |x|)(z + |x|) + R/S) / |x| (x > 0),
 *                          2 minus that (x < 0), with R/S from [1.25, 1/0.35) or [1/0.35, 28]
 *                          in 1/x^2 and z = |x| with its low 32 bits cleared (z*z exact)
 *   |x| >= 28              0 (x > 0), 2 (x < 0)
 * The small and middle rationals share one division (their numerators and denominators are
 * selected first). Relative error below 1e-15 where erfc is normal (fdlibm's < 1 ulp plus
 * the vectorised exp's); libm erfc was a scalar call per element (float64 GELU 15 ms per 1M).
 */
#ifndef NUMR_VMATH_ERF_H
#define NUMR_VMATH_ERF_H

#include "vmath_f64.h"

/* The pieces of fdlibm's erf/erfc at x: q, the small (|x| < 0.84375: r/s) or middle (P/Q)
 * rational, and tail = erfc(|x|) by the asymptotic form for 1.25 <= |x| < 28 (|x| clamped into
 * that range elsewhere, so every lane computes finite values). */
NR_VMATH void nr__erf_parts(double x, double *q_out, double *tail_out) {
    const double ax = fabs(x);
    /* |x| < 0.84375: erf(x) = x + x * r/s, r/s in z = x*x */
    const double z = x * x;
    const double r = 1.28379167095512558561e-01 + z * (-3.25042107247001499370e-01 + z * (
        -2.84817495755985104766e-02 + z * (-5.77027029648944159157e-03 + z * -2.37630166566501626084e-05)));
    const double s = 1.0 + z * (3.97917223959155352819e-01 + z * (6.50222499887672944485e-02 + z * (
        5.08130628187576562776e-03 + z * (1.32494738004321644526e-04 + z * -3.96022827877536812320e-06))));
    /* 0.84375 <= |x| < 1.25: erf(|x|) = erx + P/Q in sm = |x| - 1 */
    const double sm = ax - 1.0;
    const double P = -2.36211856075265944077e-03 + sm * (4.14856118683748331666e-01 + sm * (
        -3.72207876035701323847e-01 + sm * (3.18346619901161753674e-01 + sm * (-1.10894694282396677476e-01 +
        sm * (3.54783043256182359371e-02 + sm * -2.16637559486879084300e-03)))));
    const double Q = 1.0 + sm * (1.06420880400844228286e-01 + sm * (5.40397917702171048937e-01 + sm * (
        7.18286544141962662868e-02 + sm * (1.26171219808761642112e-01 + sm * (1.36370839120290507362e-02 +
        sm * 1.19844998467991074170e-02)))));
    const int small = ax < 0.84375;
    *q_out = nr_sel_f64(small, r, P) / nr_sel_f64(small, s, Q);
    /* 1.25 <= |x| < 28: the asymptotic form, R/S in t = 1/x^2 (|x| clamped into the range) */
    double a = nr_sel_f64(ax < 1.25, 1.25, ax);
    a = nr_sel_f64(a > 28.0, 28.0, a);
    a = nr_sel_f64(x != x, 1.25, a);
    const double t = 1.0 / (a * a);
    const double ra = -9.86494403484714822705e-03 + t * (-6.93858572707181764372e-01 + t * (
        -1.05586262253232909814e+01 + t * (-6.23753324503260060396e+01 + t * (-1.62396669462573470355e+02 +
        t * (-1.84605092906711035994e+02 + t * (-8.12874355063065934246e+01 + t * -9.81432934416914548592e+00))))));
    const double sa = 1.0 + t * (1.96512716674392571292e+01 + t * (1.37657754143519042600e+02 + t * (
        4.34565877475229228821e+02 + t * (6.45387271733267880336e+02 + t * (4.29008140027567833386e+02 +
        t * (1.08635005541779435134e+02 + t * (6.57024977031928170135e+00 + t * -6.04244152148580987438e-02)))))));
    const double rb = -9.86494292470009928597e-03 + t * (-7.99283237680523006574e-01 + t * (
        -1.77579549177547519889e+01 + t * (-1.60636384855821916062e+02 + t * (-6.37566443368389627722e+02 +
        t * (-1.02509513161107724954e+03 + t * -4.83519191608651397019e+02)))));
    const double sb = 1.0 + t * (3.03380607434824582924e+01 + t * (3.25792512996573918826e+02 + t * (
        1.53672958608443695994e+03 + t * (3.19985821950859553908e+03 + t * (2.55305040643316442583e+03 +
        t * (4.74528541206955367215e+02 + t * -2.24409524465858183362e+01))))));
    const int near = a < nr_bits_f64(0x4006DB6D00000000ull); /* 1/0.35, as fdlibm splits it */
    const double R = nr_sel_f64(near, ra, rb), S = nr_sel_f64(near, sa, sb);
    const double zz = nr_bits_f64(nr_f64_bits(a) & 0xffffffff00000000ull);
    *tail_out = nr_exp(-zz * zz - 0.5625) * nr_exp((zz - a) * (zz + a) + R / S) / a;
}

#define NR__ERX 8.45062911510467529297e-01

NR_VMATH double nr_erfc(double x) {
    double q, tail;
    nr__erf_parts(x, &q, &tail);
    const double ax = fabs(x);
    const double e_small = nr_sel_f64(x < 0.25, 1.0 - (x + x * q), 0.5 - (x * q + (x - 0.5)));
    const double e_mid = nr_sel_f64(x > 0.0, (1.0 - NR__ERX) - q, 1.0 + (NR__ERX + q));
    const double e_tail = nr_sel_f64(x > 0.0, tail, 2.0 - tail);
    double y = nr_sel_f64(ax < 1.25, nr_sel_f64(ax < 0.84375, e_small, e_mid), e_tail);
    y = nr_sel_f64(ax >= 28.0, nr_sel_f64(x > 0.0, 0.0, 2.0), y); /* +-inf too */
    return nr_sel_f64(x != x, x, y);
}

/* erf from the same pieces: x + x*q (small, no cancellation near 0), +-(erx + q) (middle),
 * +-(1 - tail) (tail), +-1 from |x| >= 6 (fdlibm's cut: 1 - tail rounds to 1 there). */
NR_VMATH double nr_erf(double x) {
    double q, tail;
    nr__erf_parts(x, &q, &tail);
    const double ax = fabs(x);
    const double mag = nr_sel_f64(ax < 1.25, NR__ERX + q, nr_sel_f64(ax >= 6.0, 1.0, 1.0 - tail));
    const double y = nr_sel_f64(ax < 0.84375, x + x * q, nr_sel_f64(x < 0.0, -mag, mag));
    return nr_sel_f64(x != x, x, y);
}

#endif
