/* Floating pow with one exponent for the whole run (a scalar operand: stride 0).
 *
 * `x ** 0.5`, `x ** -1` and `x ** 1` are common and have exact shortcuts that keep
 * pow's C99 results: sqrt(x) is the correctly rounded x**0.5 (plus 0.0 turns -0
 * into pow's +0, and pow(-inf, 0.5) = +inf is selected); 1/x and x are exact. For
 * float32, x**3 and x**-0.5 are computed in double and rounded once, as nr_powf
 * would (its own double log/exp is the slow part). NumPy takes the same shortcuts
 * (with sqrt's -0 and NaN for -inf); x**2 is x*x before any kernel (binary.py).
 * Any other exponent, and non-scalar exponents, run the general loop.
 */
#ifndef NUMR_BINARY_POW_H
#define NUMR_BINARY_POW_H

#include <math.h>
#include <stdint.h>

/* out = EXPR(x) over the run, a vectorised loop when contiguous */
#define NR_POW_MAP(T, EXPR)                                                           \
    do {                                                                              \
        if (sa == 1 && so == 1) {                                                     \
            _Pragma("omp simd") for (int64_t i = 0; i < n; ++i) {                     \
                const T x = a[i];                                                     \
                out[i] = (T)(EXPR);                                                   \
            }                                                                         \
        } else {                                                                      \
            for (int64_t i = 0; i < n; ++i) {                                         \
                const T x = a[i * sa];                                                \
                out[i * so] = (T)(EXPR);                                              \
            }                                                                         \
        }                                                                             \
        return 1;                                                                     \
    } while (0)

/* 1 when exponent y has a shortcut (and the run is done), else 0 */
#define NR_DEF_POW_SCALAR(S, T, LM, EXTRA)                                            \
    static int nr_pow_by_scalar_##S(const T *a, T y, T *out, int64_t sa, int64_t so,  \
                                    int64_t n) {                                      \
        if (y == (T)1) NR_POW_MAP(T, x);                                              \
        if (y == (T)-1) NR_POW_MAP(T, (T)1 / x);                                      \
        if (y == (T)0.5)                                                              \
            NR_POW_MAP(T, x == -(T)INFINITY ? (T)INFINITY : sqrt##LM(x) + (T)0);      \
        EXTRA                                                                         \
        return 0;                                                                     \
    }

#define NR_POW_EXTRA_F32                                                              \
    if (y == 3.0f) NR_POW_MAP(float, (double)x * (double)x * (double)x);              \
    if (y == -0.5f)                                                                   \
        NR_POW_MAP(float, x == -INFINITY ? 0.0 : 1.0 / (sqrt((double)x) + 0.0));
NR_DEF_POW_SCALAR(f32, float, f, NR_POW_EXTRA_F32)
NR_DEF_POW_SCALAR(f64, double, , )

/* nr_b_pow_S: the shortcut when the exponent is one scalar, else nr_b_pow_any_S */
#define NR_DEF_POW_LOOP(S, T)                                                         \
    static void nr_b_pow_##S(char **p, const int64_t *s, int64_t n, const void *ctx) {  \
        if (s[1] == 0 && n > 0 &&                                                     \
            nr_pow_by_scalar_##S((const T *)p[0], *(const T *)p[1], (T *)p[2], s[0], s[2], n)) \
            return;                                                                   \
        nr_b_pow_any_##S(p, s, n, ctx);                                               \
    }

#endif
