/* Fused loops of the regularized incomplete beta function I_x(a, b) and its inverse in x
 * (numr/_cpu/ops/special.py): special_incomplete.py's betainc_any and special_inverse.py's
 * betaincinv_any one element at a time in double, with their constants (special_incgamma.h's
 * nrs_igt); the continued fraction by its forward convergents, stopping at the rounding level
 * (at most the composite's 2n terms for the element's own max(a, b)); and the run loop of these,
 * special_incgamma.h's and special_hyp1f1.h's ops. */
#pragma once
#include "special_incgamma.h"
#include "special_hyp1f1.h"

/* log |B(a, b)|, a, b > 0 (the composite's _betaln: Stirling's difference where max(a, b) >= 10) */
static inline double nrs_betaln(const nrs_igt *t, double a, double b) {
    double lo = a < b ? a : b, hi = a < b ? b : a;
    if (hi >= 10.0 && lo > 0.0)
        return nrs_lgamma(lo) - (hi - 0.5) * log1p(lo / hi) - lo * log(lo + hi) + lo + nrs_ig_stirling(t, hi)
               - nrs_ig_stirling(t, lo + hi);
    return nrs_lgamma(a) + nrs_lgamma(b) - nrs_lgamma(a + b);
}

/* 1 / (1 + d_1 / (1 + d_2 / ...)) (the composite's _beta_cf) by its convergents, at most 2n terms */
static inline double nrs_beta_cf(double a, double b, double x, int n) {
    double am = 1.0, bm = 0.0, ai = 1.0, bi = 1.0, f = 1.0, ab = a + b;
    for (int k = 1; k <= 2 * n; k++) {
        double m = (double)(k / 2), lo = a + (double)(k - 1), hi = a + (double)k;
        double num = (k & 1) ? (a + m) * (ab + m) * -x : (b - m) * (x * m);
        double d = num / (lo * hi);
        double an = fma(d, am, ai), bn = fma(d, bm, bi);
        am = ai; bm = bi; ai = an; bi = bn;
        if (fabs(bi) > 1e150) { am *= 1e-150; bm *= 1e-150; ai *= 1e-150; bi *= 1e-150; }
        double fn = ai / bi;
        if (fabs(fn - f) <= 2e-17 * fabs(fn)) { f = fn; break; }
        f = fn;
    }
    return 1.0 / f;
}

/* I_x(a, b), ends and domain as the composite */
static inline double nrs_betainc(const nrs_igt *t, double a, double b, double x) {
    if (a < 0.0 || b < 0.0 || (a == 0.0 && b == 0.0) || x < 0.0 || x > 1.0 || isnan(a) || isnan(b) || isnan(x))
        return NAN;
    if (isinf(b) && !isinf(a) && x > 0.0) return 1.0;
    if (isinf(a) && !isinf(b) && x < 1.0) return 0.0;
    if (b == 0.0 && a > 0.0) return 0.0;
    if (a == 0.0 && b > 0.0) return 1.0;
    if (x == 0.0) return 0.0;
    if (x == 1.0) return 1.0;
    int swap = x > (a + 1.0) / (a + b + 2.0);
    double p = swap ? b : a, q = swap ? a : b, y = swap ? 1.0 - x : x;
    double front = exp(p * log(y) + q * log1p(-y) - nrs_betaln(t, p, q)) / p;
    double r = front * nrs_beta_cf(p, q, y, nrs_ig_terms(t, a > b ? a : b));
    return swap ? 1.0 - r : r;
}

/* invbetai's start for I_x(a, b) = p (the composite's _beta_start) */
static inline double nrs_beta_start(const nrs_igt *t, double a, double b, double p) {
    int lower = p < 0.5;
    double z = nrs_ig_normal(lower ? p : 1.0 - p);
    if (!lower) z = -z;
    double x, al = (z * z - 3.0) / 6.0, h = 2.0 / (1.0 / (2.0 * a - 1.0) + 1.0 / (2.0 * b - 1.0));
    if (a >= 1.0 && b >= 1.0) {
        double w = z * sqrt(al + h) / h
                   - (1.0 / (2.0 * b - 1.0) - 1.0 / (2.0 * a - 1.0)) * (al + 5.0 / 6.0 - 2.0 / (3.0 * h));
        x = a / (a + b * exp(2.0 * w < 700.0 ? 2.0 * w : 700.0));
    } else {
        double tt = exp(a * log(a / (a + b))) / a, u = exp(b * log(b / (a + b))) / b, s = tt + u;
        double l = a * s * p, r = b * s * (1.0 - p);
        x = p < tt / s ? exp(log(l > 1e-300 ? l : 1e-300) / a) : 1.0 - exp(log(r > 1e-300 ? r : 1e-300) / b);
    }
    double power = exp((log(p > 1e-300 ? p : 1e-300) + log(a) + nrs_betaln(t, a, b)) / a);
    if (power < 1e-2) x = power;
    if (power < 1.0) x = b >= 1.0 ? (x > power ? x : power) : (x < power ? x : power);
    return x < 1e-300 ? 1e-300 : x > 1.0 - 1e-16 ? 1.0 - 1e-16 : x;
}

/* x in [0, 1] with I_x(a, b) = y: for y > 1/2 the mirrored I_{1-x}(b, a) = 1 - y */
static inline double nrs_betaincinv(const nrs_igt *t, double a, double b, double y) {
    if (y < 0.0 || y > 1.0 || a <= 0.0 || b <= 0.0 || isnan(a) || isnan(b) || isnan(y)) return NAN;
    if (y == 0.0) return 0.0;
    if (y == 1.0) return 1.0;
    if (isinf(a) || isinf(b)) return NAN;  /* as the composite (and scipy) */
    int up = y > 0.5, done = 0;
    double ap = up ? b : a, bp = up ? a : b, p = up ? 1.0 - y : y;
    double x = nrs_beta_start(t, ap, bp, p), lb = nrs_betaln(t, ap, bp), target = log(p);
    for (int s = 0; s < t->steps && !done; s++) {
        double lf = log(nrs_betainc(t, ap, bp, x));
        double logdens = (ap - 1.0) * log(x) + (bp - 1.0) * log1p(-x) - lb;
        x = nrs_newton_log(x, lf - target, lf - logdens, 1, x < 0.5 ? x : 1.0 - x, &done);  /* 1 - x: up's result */
        x = x < 1.0 || isnan(x) ? x : 1.0;
    }
    return up ? 1.0 - x : x;
}

/* ops of nrs_run_ig */
enum { NRS_IG_P, NRS_IG_Q, NRS_IG_PINV, NRS_IG_QINV, NRS_IB, NRS_IB_INV, NRS_HYP1F1, NRS_NOP_IG };

/* op over n contiguous elements of a, x (and b for the beta ops; f64: double, else float computed
 * in double), tab/len: the composites' constants (nrs_igt_load); -1: bad op or tables */
static int nrs_run_ig(int op, int f64, const void *a, const void *b, const void *x, void *y, int64_t n,
                      const double *tab, const int32_t *len) {
    nrs_igt t;
    if (op < 0 || op >= NRS_NOP_IG || nrs_igt_load(&t, tab, len) != 0 || (op >= NRS_IB && !b)) return -1;
#define NRS_IG_AT(p, i) (f64 ? ((const double *)(p))[i] : (double)((const float *)(p))[i])
#pragma omp parallel for num_threads(nr_max_threads()) if (n > 4096) schedule(dynamic, 1024)
    for (int64_t i = 0; i < n; i++) {
        double av = NRS_IG_AT(a, i), xv = NRS_IG_AT(x, i), r, p, q;
        if (op == NRS_IG_P || op == NRS_IG_Q) {
            nrs_igam(&t, av, xv, av < 10.0 ? nrs_lgamma(av) : 0.0, &p, &q);
            r = op == NRS_IG_P ? p : q;
        } else if (op == NRS_IG_PINV || op == NRS_IG_QINV) {
            r = op == NRS_IG_PINV ? nrs_igam_solve(&t, av, xv, 1.0 - xv) : nrs_igam_solve(&t, av, 1.0 - xv, xv);
        } else {
            double bv = NRS_IG_AT(b, i);
            r = op == NRS_IB ? nrs_betainc(&t, av, bv, xv) : op == NRS_IB_INV ? nrs_betaincinv(&t, av, bv, xv)
                : nrs_hyp1f1(&t, av, bv, xv);
        }
        if (f64) ((double *)y)[i] = r; else ((float *)y)[i] = (float)r;
    }
#undef NRS_IG_AT
    return 0;
}
