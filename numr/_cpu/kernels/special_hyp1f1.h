/* Fused loop of Kummer's M(a, b, x) = 1F1(a; b; x) (numr/_cpu/ops/special.py): special_hyper.py's
 * hyp1f1_any one element at a time in double: Kummer's transformation for x < 0, the series from
 * its N-th term back with N = 40 + 2 |x| in [64, 600] for the element's own |x| (the composite: for
 * the largest of the call), the large-argument expansion (its term count passed in) where it serves. */
#pragma once
#include "special_incgamma.h"

/* the sign of Gamma(x): -1 on (-1, 0), (-3, -2), ... (special_incomplete.py's _gamma_sign) */
static inline double nrs_gamma_sign(double x) {
    double f = floor(x);
    return x < 0.0 && f - 2.0 * floor(f * 0.5) == 1.0 ? -1.0 : 1.0;
}

/* Gamma(b)/Gamma(p) e^(y + log_scale) y^(p-b) sum_s (1-p)_s (b-p)_s / s! y^-s */
static inline double nrs_hyp1f1_asym(int terms, double p, double b, double y, double log_scale) {
    double s = 1.0;
    for (int k = terms; k > 0; k--) s = fma(s, ((double)k - p) * (b - p + (double)(k - 1)) / ((double)k * y), 1.0);
    if (p <= 0.0 && floor(p) == p) return 0.0;  /* 1/Gamma(p) = 0 */
    double lg = nrs_lgamma(b) - nrs_lgamma(p) + y + log_scale + (p - b) * log(y);
    return nrs_gamma_sign(b) * nrs_gamma_sign(p) * exp(lg) * s;
}

/* M(a, b, x), ends and domain as the composite (scipy) */
static inline double nrs_hyp1f1(const nrs_igt *t, double a, double b, double x) {
    if (isnan(a) || isnan(b) || isnan(x) || isinf(x)) return NAN;
    if (a == 0.0) return 1.0;
    if (b <= 0.0 && floor(b) == b) return INFINITY;
    int neg = x < 0.0;
    double y = fabs(x), p = neg ? b - a : a;
    int poly = p <= 0.0 && floor(p) == p;
    if (y > 250.0 && fabs((1.0 - p) * (b - p)) < 0.25 * y && !poly)
        return nrs_hyp1f1_asym(t->asym_terms, p, b, y, neg ? x : 0.0);
    double nn = 40.0 + 2.0 * ceil(y);
    int n = nn < 64.0 ? 64 : nn > 600.0 ? 600 : (int)nn;
    double s = 1.0;
    for (int k = n; k > 0; k--) {
        double k1 = (double)(k - 1);
        s = fma(s, (p + k1) * y / ((b + k1) * (double)k), 1.0);
    }
    return neg ? exp(x) * s : s;
}
