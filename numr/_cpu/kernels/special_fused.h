/* Fused CPU loops of the special functions erf, lgamma and digamma (numr/_cpu/ops/special.py), one
 * pass over memory; float32 computes in double and rounds once. lgamma and digamma use the same
 * algorithms and constants as the composites in numr/ops/generic/special*.py (scalar loops: libm
 * calls and branches); erf is fdlibm's, branch-free and vectorised (vmath_erf.h's nr_erf). */
#pragma once
#include <math.h>
#include <stdint.h>
#include "threads.h" /* nr_max_threads: set_num_threads() applies here too */
#include "vmath_erf.h"

static const double NRS_LANCZOS[9] = {0.9999999999998099, 676.5203681218851, -1259.1392167224028, 771.3234287776531, -176.6150291621406, 12.507343278686905, -0.13857109526572012, 9.984369578019572e-06, 1.5056327351493116e-07};
static const double NRS_PSI[10] = {-26.456212121212122, 3.0539543302701198, -0.4432598039215686, 0.08333333333333333, -0.021092796092796094, 0.007575757575757576, -0.004166666666666667, 0.003968253968253968, -0.008333333333333333, 0.08333333333333333};

static inline double nrs_horner(double x, const double *c, int n) {
    double r = c[0];
    for (int i = 1; i < n; i++) r = r * x + c[i];
    return r;
}

static inline double nrs_lanczos(double y) {  /* lgamma(y), y >= 0.5 */
    double z = y - 1.0, a = NRS_LANCZOS[0];
    for (int i = 1; i < 9; i++) a += NRS_LANCZOS[i] / (z + (double)i);
    double t = z + 7.5;
    return 0.91893853320467274178 + (z + 0.5) * (log(t) - 1.0) - 7.0 + log(a);
}

static inline double nrs_lgamma(double x) {
    if (isinf(x)) return fabs(x);
    if (x < 0.5) {
        double s = fabs(sin(M_PI * (x - nearbyint(x))));
        return log(M_PI / s) - nrs_lanczos(1.0 - x);
    }
    return nrs_lanczos(x);
}

static inline double nrs_digamma(double x) {
    if (isnan(x)) return x;
    if (isinf(x)) return x > 0 ? x : NAN;
    double r = x - nearbyint(x);
    if (r == 0 && x <= 0) return x == 0 ? (signbit(x) ? INFINITY : -INFINITY) : NAN;
    double y = x < 0 ? 1.0 - x : x, acc = 0.0;
    for (int k = 0; k < 10; k++) acc += 1.0 / (y + (double)k);
    y += 10.0;
    double q = 1.0 / y, q2 = q * q;
    double out = log(y) - 0.5 * q - q2 * nrs_horner(q2, NRS_PSI, 10) - acc;
    if (x < 0) out -= M_PI / tan(M_PI * r);
    return out;
}

/* op 0 erf, 1 lgamma, 2 digamma over n contiguous elements; f64 selects double or float */
static int nrs_run(int op, int f64, const void *x, void *y, int64_t n) {
    if (op < 0 || op > 2) return -1;
#define NRS_LOOP(T, F) do { const T *xp = (const T *)x; T *yp = (T *)y; \
        _Pragma("omp parallel for num_threads(nr_max_threads()) if (n > 65536) schedule(static)") \
        for (int64_t i = 0; i < n; i++) yp[i] = (T)F((double)xp[i]); } while (0)
#define NRS_VLOOP(T, F) do { const T *xp = (const T *)x; T *yp = (T *)y; \
        _Pragma("omp parallel for simd num_threads(nr_max_threads()) if (n > 65536) schedule(static)") \
        for (int64_t i = 0; i < n; i++) yp[i] = (T)F((double)xp[i]); } while (0)
#define NRS_OPS(T) do { if (op == 0) NRS_VLOOP(T, nr_erf); else if (op == 1) NRS_LOOP(T, nrs_lgamma); \
        else NRS_LOOP(T, nrs_digamma); } while (0)
    if (f64) NRS_OPS(double); else NRS_OPS(float);
    return 0;
}

#include "special_bessel.h"
#include "special_elliptic.h"
#include "special_incbeta.h"

/* ops of nrs_run2: Bessel J/Y/K (special_bessel.h), elliptic K/E (special_elliptic.h) */
enum { NRS_OP_J0, NRS_OP_J1, NRS_OP_Y0, NRS_OP_Y1, NRS_OP_K0, NRS_OP_K1, NRS_OP_K0E, NRS_OP_K1E,
       NRS_OP_ELLIPK, NRS_OP_ELLIPE, NRS_NOP2 };

/* name(t, x, y, n): one vectorised pass of EXPR(v) over n doubles, then SLOW(v) again where
 * BAD(v) held; one function per op (one instance of each loop: float32 comes through a double
 * buffer), not inlined into one switch, where GCC merges the loops and vectorises none */
#define NRS2_FN(name, EXPR, BAD, SLOW) \
    static __attribute__((noinline)) void name(const nrs_tabs *tp, const double *restrict x, \
                                               double *restrict y, int64_t n) { \
        const nrs_tabs tl = *tp, *t = &tl; /* a local copy: its series hoist out of the loop */ \
        int any = 0; \
        _Pragma("omp simd reduction(|:any)") \
        for (int64_t i = 0; i < n; i++) { const double v = x[i]; y[i] = (EXPR); any |= (BAD); } \
        if (any) for (int64_t i = 0; i < n; i++) { const double v = x[i]; if (BAD) y[i] = (SLOW); } \
        (void)t; }
#define NRS2_TRIG(name, F, N) NRS2_FN(name, F(t, v, N, 0), NR_TRIG_BAD_D(v), F(t, v, N, 1))
/* name(t, x, y, n): EXPR(v) over n doubles, one vectorised pass (no argument needs glibc) */
#define NRS2_PLAIN(name, EXPR) \
    static __attribute__((noinline)) void name(const nrs_tabs *tp, const double *restrict x, \
                                               double *restrict y, int64_t n) { \
        const nrs_tabs tl = *tp, *t = &tl; /* as NRS2_FN */ \
        _Pragma("omp simd") for (int64_t i = 0; i < n; i++) { const double v = x[i]; y[i] = (EXPR); } \
        (void)t; }
NRS2_TRIG(nrs_l_j0, nrs_j, 0)
NRS2_TRIG(nrs_l_j1, nrs_j, 1)
NRS2_TRIG(nrs_l_y0, nrs_y, 0)
NRS2_TRIG(nrs_l_y1, nrs_y, 1)
NRS2_PLAIN(nrs_l_k0, nrs_k(t, v, 0, 0))
NRS2_PLAIN(nrs_l_k1, nrs_k(t, v, 1, 0))
NRS2_PLAIN(nrs_l_k0e, nrs_k(t, v, 0, 1))
NRS2_PLAIN(nrs_l_k1e, nrs_k(t, v, 1, 1))
NRS2_PLAIN(nrs_l_ellipk, nrs_ellip(v, 0))
NRS2_PLAIN(nrs_l_ellipe, nrs_ellip(v, 1))

typedef void (*nrs_loop2_fn)(const nrs_tabs *, const double *restrict, double *restrict, int64_t);
static const nrs_loop2_fn NRS_LOOP2[NRS_NOP2] = {nrs_l_j0, nrs_l_j1, nrs_l_y0, nrs_l_y1, nrs_l_k0,
    nrs_l_k1, nrs_l_k0e, nrs_l_k1e, nrs_l_ellipk, nrs_l_ellipe};

#define NRS2_BLOCK 1024

/* op (NRS_OP_*) over n contiguous elements, f64: double else float (computed in double, in
 * blocks through a buffer); tab/len: the composites' series (nrs_tabs_load), steps: the AGM's.
 * Threads over blocks above 32768 elements. -1: bad op, tables or steps */
static int nrs_run2(int op, int f64, const void *x, void *y, int64_t n, const double *tab,
                    const int32_t *len, int steps) {
    nrs_tabs t;
    if (op < 0 || op >= NRS_NOP2 || nrs_tabs_load(&t, tab, len) != 0 || steps != NRS_AGM_STEPS)
        return -1;
    const nrs_loop2_fn f = NRS_LOOP2[op];
    const int64_t nb = (n + NRS2_BLOCK - 1) / NRS2_BLOCK;
#pragma omp parallel for num_threads(nr_max_threads()) if (n > 32768) schedule(static)
    for (int64_t b = 0; b < nb; b++) {
        const int64_t i0 = b * NRS2_BLOCK, m = n - i0 < NRS2_BLOCK ? n - i0 : NRS2_BLOCK;
        if (f64) {
            f(&t, (const double *)x + i0, (double *)y + i0, m);
        } else {
            double bx[NRS2_BLOCK], by[NRS2_BLOCK];
            const float *xf = (const float *)x + i0;
            float *yf = (float *)y + i0;
            for (int64_t i = 0; i < m; i++) bx[i] = (double)xf[i];
            f(&t, bx, by, m);
            for (int64_t i = 0; i < m; i++) yf[i] = (float)by[i];
        }
    }
    return 0;
}
