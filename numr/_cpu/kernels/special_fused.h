/* Fused CPU loops of the special functions erf, lgamma and digamma (numr/_cpu/ops/special.py): the
 * same algorithms and constants as the composites in numr/ops/generic/special*.py, one pass over
 * memory. float32 computes in double and rounds once. */
#pragma once
#include <math.h>
#include <stdint.h>
#include "threads.h" /* nr_max_threads: set_num_threads() applies here too */

static const double NRS_A[5] = {0.18577770618460315, 3.1611237438705655, 113.86415415105016, 377.485237685302, 3209.3775891384694};
static const double NRS_B[5] = {1.0, 23.601290952344122, 244.02463793444417, 1282.6165260773723, 2844.236833439171};
static const double NRS_C[9] = {2.1531153547440383e-08, 0.5641884969886701, 8.883149794388377, 66.11919063714163, 298.6351381974001, 881.952221241769, 1712.0476126340707, 2051.0783778260716, 1230.3393547979972};
static const double NRS_D[9] = {1.0, 15.744926110709835, 117.6939508913125, 537.1811018620099, 1621.3895745666903, 3290.7992357334597, 4362.619090143247, 3439.3676741437216, 1230.3393548037495};
static const double NRS_P[6] = {0.016315387137302097, 0.30532663496123236, 0.36034489994980445, 0.12578172611122926, 0.016083785148742275, 0.0006587491615298378};
static const double NRS_Q[6] = {1.0, 2.568520192289822, 1.8729528499234673, 0.5279051029514285, 0.06051834131244132, 0.0023352049762686918};
static const double NRS_LANCZOS[9] = {0.9999999999998099, 676.5203681218851, -1259.1392167224028, 771.3234287776531, -176.6150291621406, 12.507343278686905, -0.13857109526572012, 9.984369578019572e-06, 1.5056327351493116e-07};
static const double NRS_PSI[10] = {-26.456212121212122, 3.0539543302701198, -0.4432598039215686, 0.08333333333333333, -0.021092796092796094, 0.007575757575757576, -0.004166666666666667, 0.003968253968253968, -0.008333333333333333, 0.08333333333333333};

static inline double nrs_horner(double x, const double *c, int n) {
    double r = c[0];
    for (int i = 1; i < n; i++) r = r * x + c[i];
    return r;
}

static inline double nrs_erfcx_pos(double y) {  /* y >= 0.46875 */
    if (y <= 4.0) return nrs_horner(y, NRS_C, 9) / nrs_horner(y, NRS_D, 9);
    double z = 1.0 / (y * y);
    return (0.56418958354775628695 - z * nrs_horner(z, NRS_P, 6) / nrs_horner(z, NRS_Q, 6)) / y;
}

static inline double nrs_erf(double x) {
    if (isnan(x)) return x;
    double a = fabs(x);
    if (a < 0.46875) {
        double z = x * x;
        return x * nrs_horner(z, NRS_A, 5) / nrs_horner(z, NRS_B, 5);
    }
    double y = a < 40.0 ? a : 40.0;
    double ysq = trunc(y * 16.0) * 0.0625;
    double r = 1.0 - exp(-ysq * ysq) * exp(-((y - ysq) * (y + ysq))) * nrs_erfcx_pos(y);
    return x < 0 ? -r : r;
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
#define NRS_OPS(T) do { if (op == 0) NRS_LOOP(T, nrs_erf); else if (op == 1) NRS_LOOP(T, nrs_lgamma); \
        else NRS_LOOP(T, nrs_digamma); } while (0)
    if (f64) NRS_OPS(double); else NRS_OPS(float);
    return 0;
}
