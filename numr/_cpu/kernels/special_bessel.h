/* Fused CPU loops of the Bessel functions J0, J1, Y0, Y1 and K0, K1 (plain and exp(x)-scaled),
 * the same algorithm as the composites in numr/ops/generic/special_bessel2.py, step for step:
 * Chebyshev series by Clenshaw's recurrence (one fma a step), the first two zeros of J factored
 * out as hi + lo pairs, Hankel's (P, Q) form above 8, K's log-series below 2. Every branch is
 * computed and selected (as the composite does), so the element loop vectorises; sin/cos are
 * vmath's (numr's own CPU sin/cos), with glibc's in a second pass for |x| >= 1.6e6, where
 * vmath's reduction stops (NR_TRIG_BAD_D). The coefficients are not copied here: the caller
 * passes the composite's tables (numr/_cpu/ops/special.py) and this header checks their lengths. */
#pragma once
#include <math.h>
#include <stdint.h>
#include "vmath_f64.h"
#include "vmath_f64_trig.h"

/* the composite's series, in the order the caller passes them; lengths fixed (checked) */
enum { NRS_J0S, NRS_J1S, NRS_Y0S, NRS_Y1S, NRS_P0, NRS_Q0, NRS_P1, NRS_Q1, NRS_K0S, NRS_K1S,
       NRS_K0L, NRS_K1L, NRS_I0S, NRS_I1S, NRS_JZ, NRS_NSER };
static const int NRS_LEN[NRS_NSER] = {15, 15, 17, 17, 14, 17, 14, 16, 10, 10, 26, 26, 31, 30, 8};

typedef struct { const double *c[NRS_NSER]; } nrs_tabs;

/* tab: the series back to back; len: their lengths (must be NRS_LEN) */
static int nrs_tabs_load(nrs_tabs *t, const double *tab, const int32_t *len) {
    for (int k = 0; k < NRS_NSER; k++) {
        if (len[k] != NRS_LEN[k]) return -1;
        t->c[k] = tab;
        tab += len[k];
    }
    return 0;
}

/* min/max that vectorise (fmin/fmax's NaN rules do not): a NaN argument gives c, and every
 * function selects NaN inputs at the end */
NR_VMATH double nrs_min(double x, double c) { return x < c ? x : c; }
NR_VMATH double nrs_max(double x, double c) { return x > c ? x : c; }

/* series N of the tables T at the local t */
#define NRS_SER(T, N) nrs_clenshaw(t, (T)->c[N], NRS_LEN[N])

/* sum_k c[k] T_k(t); n is a constant after inlining, so the loop unrolls and the caller's element
 * loop vectorises */
NR_VMATH double nrs_clenshaw(double t, const double *c, int n) {
    double t2 = t * 2.0, b1 = c[n - 1], b2 = 0.0;
#pragma GCC unroll 32
    for (int k = n - 2; k >= 1; k--) {
        double b = fma(t2, b1, c[k] - b2);
        b2 = b1;
        b1 = b;
    }
    return fma(t, b1, c[0] - b2);
}

NR_VMATH double nrs_j_small(const nrs_tabs *T, double x, int n) {  /* J_n(x), 0 <= x <= 8 */
    const double z = x * x, t = z * (1.0 / 32.0) - 1.0, *r = T->c[NRS_JZ] + 4 * n;
    const double f = ((z - r[0]) - r[1]) * ((z - r[2]) - r[3]);
    return n == 0 ? NRS_SER(T, NRS_J0S) * f : NRS_SER(T, NRS_J1S) * f * x;
}

/* J_n(a) (second: Y_n(a)) for a >= 8 by the (P, Q) form; slow: glibc's sin/cos */
NR_VMATH double nrs_hankel(const nrs_tabs *T, double a, int n, int second, int slow) {
    const double u = 64.0 / (a * a), t = 2.0 * u - 1.0;
    const double p = NRS_SER(T, n == 0 ? NRS_P0 : NRS_P1);
    const double q = NRS_SER(T, n == 0 ? NRS_Q0 : NRS_Q1) * (8.0 / a);
    const double s = slow ? sin(a) : nr_sin(a), c = slow ? cos(a) : nr_cos(a);
    const double cx = n == 0 ? c + s : s - c, sx = n == 0 ? s - c : -(s + c);
    const double r = 1.0 / sqrt(M_PI * a);
    return second ? (p * sx + q * cx) * r : (p * cx - q * sx) * r;
}

NR_VMATH double nrs_j(const nrs_tabs *T, double x, int n, int slow) {
    const double a = fabs(x);
    const double lo = nrs_j_small(T, nrs_min(a, 8.0), n), hi = nrs_hankel(T, nrs_max(a, 8.0), n, 0, slow);
    double out = nr_sel_f64(a <= 8.0, lo, hi);
    if (n == 1) out = nr_sel_f64(x < 0, -out, out);
    return nr_sel_f64(x != x, x, out);
}

NR_VMATH double nrs_y(const nrs_tabs *T, double x, int n, int slow) {
    const double s = nrs_min(x, 8.0), t = s * s * (1.0 / 32.0) - 1.0, two_pi = 2.0 / M_PI;
    double small;
    if (n == 0) {
        small = NRS_SER(T, NRS_Y0S) + two_pi * nr_log(s) * nrs_j_small(T, s, 0);
    } else {
        const double safe = nr_sel_f64(s == 0.0, 1.0, s);
        small = NRS_SER(T, NRS_Y1S) * s + two_pi * (nrs_j_small(T, s, 1) * nr_log(safe) - 1.0 / safe);
        small = nr_sel_f64(s == 0.0, -INFINITY, nr_sel_f64(s < 0.0, NAN, small));
    }
    const double out = nr_sel_f64(x <= 8.0, small, nrs_hankel(T, nrs_max(x, 8.0), n, 1, slow));
    return nr_sel_f64(x != x, x, out);
}

/* exp(-a) I_n(a) * exp(a) for 0 <= a <= 2 (the composite's _i0/_i1 on K's small range) */
NR_VMATH double nrs_i_small(const nrs_tabs *T, double a, int n) {
    const double t = a * 0.25 - 1.0, h = nr_exp(a * 0.5);
    const double e = n == 0 ? NRS_SER(T, NRS_I0S) : NRS_SER(T, NRS_I1S) * a;
    return e * h * h;
}

NR_VMATH double nrs_k(const nrs_tabs *T, double x, int n, int scaled) {
    const double s = nrs_min(x, 2.0), safe = nr_sel_f64(s == 0.0, 1.0, s), t = s * s * 0.5 - 1.0;
    double small = n == 0 ? NRS_SER(T, NRS_K0S) - nr_log(safe) * nrs_i_small(T, s, 0)
                          : 1.0 / safe + nr_log(safe) * nrs_i_small(T, s, 1) + NRS_SER(T, NRS_K1S) * s;
    small = nr_sel_f64(s == 0.0, INFINITY, nr_sel_f64(s < 0.0, NAN, small));
    if (scaled) small = small * nr_exp(s);
    const double b = nrs_max(x, 2.0), tb = 4.0 / b - 1.0;
    double big = nrs_clenshaw(tb, T->c[n == 0 ? NRS_K0L : NRS_K1L], NRS_LEN[NRS_K0L]) * (1.0 / sqrt(b));
    if (!scaled) {
        const double h = nr_exp(-0.5 * b);  /* e^-x as h * h: underflows only where K does */
        big = big * h * h;
    }
    return nr_sel_f64(x != x, x, nr_sel_f64(x <= 2.0, small, big));
}
