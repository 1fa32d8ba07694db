/* Fused loops of the regularized incomplete gamma functions P(a, x), Q(a, x) and their inverses
 * in x (numr/_cpu/ops/special.py): the algorithms of the composites special_incomplete.py,
 * special_temme.py and special_inverse.py, with their constants (passed from Python, checked by
 * length), one element at a time in double (float32 through a double buffer): the series, Legendre's
 * continued fraction, the small-x series of Q and Temme's expansion, the branch chosen per element
 * (the composite runs all of them); the series sums forward and stops at its rounding level, the
 * fraction runs the composite's count for the element's own a; Newton stops once converged. */
#pragma once
#include <math.h>
#include <stdint.h>
#include "threads.h"

#define NRS_IG_TEMME_ROWS 10
#define NRS_IG_TEMME_COLS 30
#define NRS_IG_NPAR 10

typedef struct {
    double stirling[8];                                    /* highest power first */
    double lgam1p[23];                                     /* lgamma(1 + a) / a, lowest power first */
    double temme[NRS_IG_TEMME_ROWS][NRS_IG_TEMME_COLS];     /* d[k][n] */
    double c, lo_a, hi_a;                                  /* ITERATIONS[float64]: c, least, most */
    double extra, ta, tlo, thi;                            /* extra; TEMME_A, TEMME_LO, TEMME_HI */
    int qs_terms, steps;
    int asym_terms;                                        /* special_hyper.py's _ASYM_TERMS */
} nrs_igt;

/* tab: the composites' constants back to back, len: their lengths {8, 23, 300, 10}; -1 if they differ */
static int nrs_igt_load(nrs_igt *t, const double *tab, const int32_t *len) {
    if (len[0] != 8 || len[1] != 23 || len[2] != NRS_IG_TEMME_ROWS * NRS_IG_TEMME_COLS || len[3] != NRS_IG_NPAR)
        return -1;
    for (int i = 0; i < 8; i++) t->stirling[i] = *tab++;
    for (int i = 0; i < 23; i++) t->lgam1p[i] = *tab++;
    for (int k = 0; k < NRS_IG_TEMME_ROWS; k++)
        for (int i = 0; i < NRS_IG_TEMME_COLS; i++) t->temme[k][i] = *tab++;
    t->c = tab[0]; t->extra = tab[1]; t->lo_a = tab[2]; t->hi_a = tab[3];
    t->ta = tab[4]; t->tlo = tab[5]; t->thi = tab[6];
    t->qs_terms = (int)tab[7]; t->steps = (int)tab[8]; t->asym_terms = (int)tab[9];
    return (t->qs_terms < 1 || t->qs_terms > 40 || t->steps < 1 || t->steps > 40 || t->asym_terms < 1
            || t->asym_terms > 100) ? -1 : 0;
}

/* lgamma(a) - ((a - 1/2) log a - a + log(2 pi)/2), a >= 10 */
static inline double nrs_ig_stirling(const nrs_igt *t, double a) {
    double r = 1.0 / a;
    return r * nrs_horner(r * r, t->stirling, 8);
}

/* a log x - x - lgamma(a), a > 0, x > 0 (the composite's two forms, split at a = 10) */
static inline double nrs_ig_logpre(const nrs_igt *t, double a, double x, double lga) {
    if (a < 10.0) return a * log(x) - x - lga;
    double s = (x - a) / a, l = fabs(s) < 0.5 ? log1p(s) : log(x / a);
    return a * (l - s) + 0.5 * log(a * (0.5 / M_PI)) - nrs_ig_stirling(t, a);
}

/* P by its series, summed forward to its rounding level */
static inline double nrs_ig_series(double a, double x, double lp) {
    double s = 1.0, term = 1.0;
    for (int k = 1; k < 100000; k++) {
        term *= x / (a + (double)k);
        s += term;
        if (term <= 1e-17 * s) break;
    }
    return exp(lp) / a * s;
}

/* Q by Legendre's continued fraction b_0 + a_1 / (b_1 + a_2 / ...), b_i = x + 2i + 1 - a,
 * a_i = i (a - i): its convergents A_i / B_i by the forward recurrence (no division in the chain;
 * rescaled away from overflow), to the composite's n terms or until they agree to rounding */
static inline double nrs_ig_cf(double a, double x, double lp, int n) {
    double b0 = x + 1.0 - a, am = 1.0, bm = 0.0, ai = b0, bi = 1.0, f = b0;
    for (int i = 1; i <= n; i++) {
        double c = (double)i * (a - (double)i), b = b0 + 2.0 * i;
        double an = fma(b, ai, c * am), bn = fma(b, bi, c * bm);
        am = ai; bm = bi; ai = an; bi = bn;
        if (fabs(bi) > 1e150) { am *= 1e-150; bm *= 1e-150; ai *= 1e-150; bi *= 1e-150; }
        double fn = ai / bi;
        if (fabs(fn - f) <= 2e-17 * fabs(fn)) { f = fn; break; }
        f = fn;
    }
    return exp(lp) / f;
}

/* Q for x <= 1.1 (scipy's igamc_series) */
static inline double nrs_ig_qsmall(const nrs_igt *t, double a, double x) {
    double lg1p;
    if (a <= 0.2) {
        double h = t->lgam1p[22];
        for (int i = 21; i >= 0; i--) h = h * a + t->lgam1p[i];
        lg1p = a * h;
    } else {
        lg1p = nrs_lgamma(a + 1.0);
    }
    double f = a * log(x) - lg1p, r = 0.0, fact = 1.0;
    double inv[41];
    for (int k = 1; k <= t->qs_terms; k++) { fact *= (double)k; inv[k] = 1.0 / fact; }
    for (int k = t->qs_terms; k > 0; k--) r = fma(r, -x, inv[k] / (a + (double)k));
    return -expm1(f) - a * exp(f) * (r * -x);
}

/* log(1 + s) - s */
static inline double nrs_ig_log1pmx(double s) {
    if (fabs(s) >= 0.2) return log1p(s) - s;
    double acc = 0.0;
    for (int k = 30; k > 1; k--) acc = fma(acc, s, ((k & 1) ? 1.0 : -1.0) / (double)k);
    return acc * s * s;
}

/* (P, Q) by Temme's uniform expansion */
static inline void nrs_ig_temme(const nrs_igt *t, double a, double x, double *p, double *q) {
    double eta2 = -2.0 * nrs_ig_log1pmx((x - a) / a);
    double eta = sqrt(eta2 > 0.0 ? eta2 : 0.0);
    if (x < a) eta = -eta;
    double r = 1.0 / a, total = 0.0;
    for (int k = NRS_IG_TEMME_ROWS - 1; k >= 0; k--) {
        const double *row = t->temme[k];
        double ck = row[NRS_IG_TEMME_COLS - 1];
        for (int i = NRS_IG_TEMME_COLS - 2; i >= 0; i--) ck = fma(ck, eta, row[i]);
        total = k == NRS_IG_TEMME_ROWS - 1 ? ck : fma(total, r, ck);
    }
    double rest = exp(-0.5 * a * eta2) / sqrt(a * (2.0 * M_PI)) * total, z = eta * sqrt(0.5 * a);
    *p = 0.5 * erfc(-z) - rest;
    *q = 0.5 * erfc(z) + rest;
}

/* the composites' iteration count for the largest parameter top */
static inline int nrs_ig_terms(const nrs_igt *t, double top) {
    double n = ceil(sqrt(t->c * top)) + t->extra;
    return (int)(n < t->lo_a ? t->lo_a : n > t->hi_a ? t->hi_a : n);
}

/* (P(a, x), Q(a, x)), ends and domain as the composite; lga: lgamma(a) where a < 10 */
static inline void nrs_igam(const nrs_igt *t, double a, double x, double lga, double *p, double *q) {
    if (isnan(a) || isnan(x) || a < 0.0 || x < 0.0 || (a == 0.0 && x == 0.0) || (isinf(a) && isinf(x))) {
        *p = *q = NAN;
        return;
    }
    if (isinf(a) || x == 0.0) { *p = 0.0; *q = 1.0; return; }
    if (isinf(x) || a == 0.0) { *p = 1.0; *q = 0.0; return; }
    if (a >= t->ta && x >= t->tlo * a && x <= t->thi * a) { nrs_ig_temme(t, a, x, p, q); return; }
    double lp = nrs_ig_logpre(t, a, x, lga);
    if (x > 1.1 && x > a) {
        *q = nrs_ig_cf(a, x, lp, nrs_ig_terms(t, a < t->ta ? a : t->ta));
        *p = 1.0 - *q;
        return;
    }
    *p = nrs_ig_series(a, x, lp);
    int small = x <= 1.1 && a <= (x <= 0.5 ? -0.4 / log(x) : 1.1 * x);
    *q = small ? nrs_ig_qsmall(t, a, x) : 1.0 - *p;
}

/* -z_p for the lower tail probability p <= 1/2 (A&S 26.2.23) */
static inline double nrs_ig_normal(double p) {
    double t = sqrt(-2.0 * log(p));
    return t - (2.30753 + t * 0.27061) / (1.0 + t * (0.99229 + t * 0.04481));
}

/* invgammp's start for P(a, x) = p, q = 1 - p, both in (0, 1) */
static inline double nrs_ig_start(double a, double p, double q) {
    int lower = p < 0.5;
    double z = nrs_ig_normal(lower ? p : q);
    if (lower) z = -z;
    double c = 1.0 - 1.0 / (9.0 * a) + z / (3.0 * sqrt(a));
    c = c > 0.0 ? c : 0.0;
    double wh = a * c * c * c;
    double power = exp((log(p > 1e-300 ? p : 1e-300) + nrs_lgamma(a + 1.0)) / a);
    if (a > 1.0) return lower ? (wh > power ? wh : power) : (wh > 1e-3 ? wh : 1e-3);
    if (lower && power < 1e-2) return power;
    double t = 1.0 - a * (0.253 + a * 0.12);
    if (p < t) {
        double r = p / t;
        return exp(log(r > 1e-300 ? r : 1e-300) / a);
    }
    return 1.0 - log(q / (1.0 - t));
}

/* One Newton step on log F(x) = log target (special_inverse.py's _newton_log): f = log F - log
 * target, logratio = log(F / |dF/dx|), the move kept within [x/8, 8x]; an underflowed F doubles or
 * halves x. *done: the step was below 1e-10 scale (quadratic: the next is below the rounding of a
 * result of that size) */
static inline double nrs_newton_log(double x, double f, double logratio, int lower, double scale, int *done) {
    double step = f * exp(logratio), xn;
    if (isfinite(step)) {
        xn = lower ? x - step : x + step;
        *done = fabs(step) <= 1e-10 * scale;
    } else {
        xn = lower ? 2.0 * x : 0.5 * x;
    }
    if (isnan(xn)) { *done = 1; return xn; }
    return xn < 0.125 * x ? 0.125 * x : xn > 8.0 * x ? 8.0 * x : xn;
}

/* x with P(a, x) = p, Q(a, x) = q (p + q = 1, the smaller exact): Newton on log P where p <= 1/2,
 * on log Q elsewhere; at most steps, stopping once converged */
static inline double nrs_igam_solve(const nrs_igt *t, double a, double p, double q) {
    if (isnan(a) || isnan(p) || isnan(q) || p < 0.0 || q < 0.0 || a <= 0.0) return NAN;
    if (p == 0.0) return 0.0;
    if (q == 0.0) return INFINITY;
    double x = nrs_ig_start(a, p, q);
    int lower = p <= 0.5, done = 0;
    double target = log(lower ? p : q), lg = nrs_lgamma(a);
    for (int s = 0; s < t->steps && !done; s++) {
        double pv, qv;
        nrs_igam(t, a, x, lg, &pv, &qv);
        double lf = log(lower ? pv : qv), logdens = (a - 1.0) * log(x) - x - lg;
        x = nrs_newton_log(x, lf - target, lf - logdens, lower, x, &done);
    }
    return x;
}
