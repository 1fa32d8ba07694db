/* Branch-free float64 sin, cos, tan, sinh and cosh that GCC vectorises (see vmath.h for why:
 * glibc's are scalar calls, 10-15x slower than a vector loop).
 *
 * sin/cos/tan: x = j*pi/2 + (r + y) by Cody-Waite with pi/2 in four parts (FreeBSD
 * e_rem_pio2.c's pio2_1, pio2_2, pio2_3, pio2_3t: j*pio2_k is exact for |j| < 2**20), the two
 * subtractions done as exact TwoSums, so r + y carries ~100 good bits however close x is to a
 * multiple of pi/2. Then FreeBSD's k_sin.c/k_cos.c/k_tan.c kernels with the tail y (branches
 * of k_tan.c as selects, its two divisions merged into one). The quadrant j mod 4 is kept in
 * a double (see vmath_trig.h). |x| >= NR_TRIG_BIG_D (and +-inf) is left to libm by the
 * caller (NR_TRIG_BAD_D, NR_UNARY_LOOP_FIX); NaN passes through, sin/tan keep the sign of 0.
 * sinh/cosh: |x| = k ln2 + r, e**r = h + hl and e**-r = m + ml (one even and one odd
 * polynomial give both, good to ~2**-58 with the rounding errors carried in hl and ml),
 * then 2**(k-1) (e**r +- 2**-2k e**-r) with 2**(k-1) applied as 2**(k-3) * 4: finite up to
 * |x| = 710.4758..., +inf above; sinh by its Taylor series below |x| = 1/4.
 * Accuracy (tests/ops/test_vmath_f64_trig.py): below 1 ulp of the exact result (mpmath; measured
 * max 0.76 sin, 0.74 cos, 0.73 tan, 0.69 sinh, 0.60 cosh), so within 1 ulp of glibc (2 for
 * sinh/cosh, where glibc is up to 1.7 ulp off); the same with and without FMA contraction.
 */
#ifndef NUMR_VMATH_F64_TRIG_H
#define NUMR_VMATH_F64_TRIG_H

#include "vmath_f64.h"

#define NR_TRIG_BIG_D 1.6e6 /* < 2**20 * pi/2: |x| at or above this (or inf): libm sin/cos/tan */
#define NR_TRIG_BAD_D(x) ((!(fabs(x) < NR_TRIG_BIG_D)) & ((x) == (x)))

/* s + e = a + b exactly (Knuth's TwoSum: no condition on the magnitudes). */
#define NR__TWOSUM(a, b, s, e)                                                    \
    do {                                                                          \
        s = (a) + (b);                                                            \
        const double bb_ = s - (a);                                               \
        e = ((a) - (s - bb_)) + ((b) - bb_);                                      \
    } while (0)

/* x - j*pi/2 = r + *tail, j = rint(x * 2/pi) and *quadrant = j mod 4 (as a double); x finite,
 * |x| < NR_TRIG_BIG_D (other x are replaced by 0 here and fixed up by the caller). */
NR_VMATH double nr__rem_pio2_d(double x, double *tail, double *quadrant) {
    const double pio2_1 = 1.57079632673412561417e+00, pio2_2 = 6.07710050630396597660e-11,
                 pio2_3 = 2.02226624871116645580e-21, pio2_3t = 8.47842766036889956997e-32;
    const double xs = nr_sel_f64(fabs(x) < NR_TRIG_BIG_D, x, 0.0);
    const double j = rint(xs * 6.36619772367581382433e-01);
    *quadrant = j - 4.0 * rint(j * 0.25 - 0.375);   /* floor(j/4) without floor (vmath_trig.h) */
    const double t1 = xs - j * pio2_1;              /* exact, like j*pio2_1 */
    double r2, e2, r3, e3;
    NR__TWOSUM(t1, -(j * pio2_2), r2, e2);          /* the products are exact too */
    NR__TWOSUM(r2, -(j * pio2_3), r3, e3);
    const double lo = (e2 + e3) - j * pio2_3t;
    const double r = r3 + lo;
    *tail = (r3 - r) + lo;
    return r;
}

/* FreeBSD __kernel_sin(x, y, 1) and __kernel_cos(x, y) on |x| <= pi/4 (+ tail y). */
NR_VMATH double nr__ksin_d(double x, double y) {
    const double S1 = -1.66666666666666324348e-01, S2 = 8.33333333332248946124e-03,
                 S3 = -1.98412698298579493134e-04, S4 = 2.75573137070700676789e-06,
                 S5 = -2.50507602534068634195e-08, S6 = 1.58969099521155010221e-10;
    const double z = x * x, w = z * z, v = z * x;
    const double r = S2 + z * (S3 + z * S4) + z * w * (S5 + z * S6);
    return x - ((z * (0.5 * y - v * r) - y) - v * S1);
}

NR_VMATH double nr__kcos_d(double x, double y) {
    const double C1 = 4.16666666666666019037e-02, C2 = -1.38888888888741095749e-03,
                 C3 = 2.48015872894767294178e-05, C4 = -2.75573143513906633035e-07,
                 C5 = 2.08757232129817482790e-09, C6 = -1.13596475577881948265e-11;
    const double z = x * x, w = z * z;
    const double r = z * (C1 + z * (C2 + z * C3)) + w * w * (C4 + z * (C5 + z * C6));
    const double hz = 0.5 * z, v = 1.0 - hz;
    return v + (((1.0 - v) - hz) + (z * r - x * y));
}

NR_VMATH double nr_sin(double x) {
    double y, q;
    const double r = nr__rem_pio2_d(x, &y, &q);
    const double s = nr__ksin_d(r, y), c = nr__kcos_d(r, y);
    const double v0 = nr_sel_f64((q == 1.0) | (q == 3.0), c, s);
    const double v = nr_sel_f64(q >= 2.0, -v0, v0);
    return nr_sel_f64((x != x) | (x == 0.0), x, v); /* NaN, and the sign of zero */
}

NR_VMATH double nr_cos(double x) {
    double y, q;
    const double r = nr__rem_pio2_d(x, &y, &q);
    const double s = nr__ksin_d(r, y), c = nr__kcos_d(r, y);
    const double v0 = nr_sel_f64((q == 1.0) | (q == 3.0), s, c);
    const double v = nr_sel_f64((q == 1.0) | (q == 2.0), -v0, v0);
    return nr_sel_f64(x != x, x, v);
}

/* x with the low 32 bits of its significand cleared (SET_LOW_WORD(x, 0)) */
NR_VMATH double nr__hi26_d(double x) {
    return nr_bits_f64(nr_f64_bits(x) & 0xffffffff00000000ull);
}

/* FreeBSD __kernel_tan(x, y, odd ? -1 : 1): tan(x + y), or -1/tan(x + y) for odd quadrants. */
NR_VMATH double nr__ktan_d(double x, double y, int odd) {
    const double T0 = 3.33333333333334091986e-01, T1 = 1.33333333333201242699e-01,
                 T2 = 5.39682539762260521377e-02, T3 = 2.18694882948595424599e-02,
                 T4 = 8.86323982359930005737e-03, T5 = 3.59207910759131235356e-03,
                 T6 = 1.45620945432529025516e-03, T7 = 5.88041240820264096874e-04,
                 T8 = 2.46463134818469906812e-04, T9 = 7.81794442939557092300e-05,
                 T10 = 7.14072491382608190305e-05, T11 = -1.85586374855275456654e-05,
                 T12 = 2.59073051863633712884e-05;
    const double pio4 = 7.85398163397448278999e-01, pio4lo = 3.06161699786838301793e-17;
    const int big = fabs(x) >= nr_bits_f64(0x3FE5942800000000ull); /* 0.6744 */
    const double sg = copysign(1.0, x);
    /* near pi/4: tan(pi/4 - u) from u = pi/4 - |x| */
    const double xb = (pio4 - sg * x) + (pio4lo - sg * y);
    const double xr = nr_sel_f64(big, xb, x), yr = nr_sel_f64(big, 0.0, y);
    const double z = xr * xr, w = z * z, s = z * xr;
    double r = T1 + w * (T3 + w * (T5 + w * (T7 + w * (T9 + w * T11))));
    const double v = z * (T2 + w * (T4 + w * (T6 + w * (T8 + w * (T10 + w * T12)))));
    r = yr + z * (s * (r + v) + yr);
    r += T0 * s;
    const double wr = xr + r;                              /* tan(xr + yr) */
    const double iy = nr_sel_f64(odd, -1.0, 1.0);
    /* big: w*w / (w + iy); odd and not big: -1 / w */
    const double d = nr_sel_f64(big, wr * wr, -1.0) / nr_sel_f64(big, wr + iy, wr);
    const double vbig = sg * (iy - 2.0 * (xr - (d - r)));
    const double wh = nr__hi26_d(wr), th = nr__hi26_d(d); /* -1/w accurately: Dekker */
    const double vodd = th + d * ((1.0 + th * wh) + th * (r - (wh - xr)));
    return nr_sel_f64(big, vbig, nr_sel_f64(odd, vodd, wr));
}

NR_VMATH double nr_tan(double x) {
    double y, q;
    const double r = nr__rem_pio2_d(x, &y, &q);
    const double v = nr__ktan_d(r, y, (q == 1.0) | (q == 3.0));
    return nr_sel_f64((x != x) | (x == 0.0), x, v); /* NaN, and the sign of zero */
}

/* (sinh(r) - r) / r**3 in z = r*r: the odd Taylor terms to 1/13! (|r| <= 1/2) */
NR_VMATH double nr__sinh_odd_d(double z) {
    double p = 1.0 / 6227020800.0; /* 1/13! */
    p = p * z + 1.0 / 39916800.0;
    p = p * z + 1.0 / 362880.0;
    p = p * z + 1.0 / 5040.0;
    p = p * z + 1.0 / 120.0;
    return p * z + 1.0 / 6.0;
}

/* e**a = 2**k (*h + *hl) and 2**-k e**-r = 2**-k (*m + *ml) for 0 <= a <= 711, returns k.
 * e**r and e**-r come from one even and one odd Taylor polynomial (degree 13 on |r| <=
 * ln2/2, like nr_exp), and the rounding errors of r = a - k*ln2 and of the sums are kept
 * in *hl and *ml (no division for e**-a). */
NR_VMATH double nr__exp_pm(double a, double *h, double *hl, double *m, double *ml) {
    const double k = rint(a * 1.44269504088896338700e+00);
    const double t = a - k * NR_LN2_HI_D, kl = k * NR_LN2_LO_D; /* t exact */
    const double r = t - kl, rl = (t - r) - kl, z = r * r;
    double pe = 1.0 / 479001600.0;                              /* 1/12! */
    pe = pe * z + 1.0 / 3628800.0;
    pe = pe * z + 1.0 / 40320.0;
    pe = pe * z + 1.0 / 720.0;
    pe = pe * z + 1.0 / 24.0;
    pe = pe * z + 0.5;
    const double po = nr__sinh_odd_d(z);
    const double e2 = z * pe, o3 = z * r * po;                  /* cosh(r) - 1, sinh(r) - r */
    const double qp = e2 + o3, sp = r + qp, spl = (r - sp) + qp; /* |q| < |r|/4: Fast2Sum */
    const double qm = e2 - o3, sm = qm - r, sml = (-r - sm) + qm;
    const double vp = 1.0 + sp, vm = 1.0 + sm;
    *h = vp;
    *hl = ((1.0 - vp) + sp) + (spl + rl * vp);
    *m = vm;
    *ml = ((1.0 - vm) + sm) + (sml - rl * vm);
    return k;
}

/* 2**(k-1) (e**r + sgn 2**-2k e**-r) = cosh (sgn = 1) or sinh (sgn = -1, a >= 1/4) of a */
NR_VMATH double nr__cosh_sinh(double a, double sgn) {
    double h, hl, m, ml;
    const double k = nr__exp_pm(a, &h, &hl, &m, &ml);
    const double kk = k > 40.0 ? 40.0 : k;                     /* 2**-80: past any rounding */
    const double s2 = sgn * nr_pow2i_f64(-2 * (int64_t)kk);     /* +- 2**-2k */
    double s, e;
    NR__TWOSUM(h, s2 * m, s, e);                                /* s2 * m is exact */
    const double d = s + ((e + hl) + s2 * ml);
    /* * 2**(k-1) as * 2**(k-3) * 4: no overflow before the last step for k <= 1026 */
    return (d * nr_pow2i_f64((int64_t)k - 3)) * 4.0;
}

NR_VMATH double nr_cosh(double x) {
    const int nan = x != x;
    double a = nr_sel_f64(nan, 0.0, fabs(x));
    a = nr_sel_f64(a > 711.0, 711.0, a);
    return nr_sel_f64(nan, x, nr__cosh_sinh(a, 1.0));
}

NR_VMATH double nr_sinh(double x) {
    const int nan = x != x;
    double a = nr_sel_f64(nan, 0.0, fabs(x));
    a = nr_sel_f64(a > 711.0, 711.0, a);
    a = nr_sel_f64(a < 0.25, 0.25, a);                          /* the series below 1/4 */
    const double big = copysign(nr__cosh_sinh(a, -1.0), x);
    const double z = x * x;
    const double small = x + x * z * nr__sinh_odd_d(z);
    return nr_sel_f64(nan, x, nr_sel_f64(fabs(x) < 0.25, small, big));
}

#endif
