/* Fused CPU loops of the complete elliptic integrals K(m) and E(m), the composites of
 * numr/ops/generic/special_elliptic.py step for step: a fixed number of AGM steps (the caller
 * checks the composite's STEPS) with c_{n+1}^2 = c_n^4 / (16 a_{n+1}^2), m < 0 through the
 * imaginary-modulus transformation, the ends (m = 1, m > 1, m = -inf, NaN) selected last.
 * Branch-free, so the element loop vectorises. */
#pragma once
#include <math.h>
#include "special_bessel.h" /* nrs_min */

#define NRS_AGM_STEPS 12 /* the composite's STEPS (checked by nrs_run2) */

/* second: E(m), else K(m) */
NR_VMATH double nrs_ellip(double m0, int second) {
    const double m = nrs_min(m0, 1.0), one_m = 1.0 - m;
    const int neg = m < 0.0;
    const double b2 = nr_sel_f64(neg, 1.0 / one_m, one_m);  /* 1 - m', exact for m near 1 */
    double q = nr_sel_f64(neg, -m / one_m, m), a = 1.0, b = sqrt(b2), s = 0.5 * q, w = 0.5;
#pragma GCC unroll 12
    for (int i = 0; i < NRS_AGM_STEPS; i++) {
        const double an = 0.5 * (a + b);
        b = sqrt(a * b);
        a = an;
        q = q * q / (16.0 * a * a);
        w *= 2.0;
        s = s + w * q;
    }
    const double k = (0.5 * M_PI) / a, r = sqrt(one_m);
    double out = second ? nr_sel_f64(neg, k * (1.0 - s) * r, k * (1.0 - s)) : nr_sel_f64(neg, k / r, k);
    out = nr_sel_f64(m0 == 1.0, second ? 1.0 : INFINITY, out);
    out = nr_sel_f64(m0 > 1.0, NAN, nr_sel_f64(m0 == -INFINITY, second ? INFINITY : 0.0, out));
    return nr_sel_f64(m0 != m0, m0, out);
}
